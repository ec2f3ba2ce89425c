CREATE TABLE "group_nodes" (
	"group_id" bigint NOT NULL,
	"node_id" bigint NOT NULL,
	"line" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_nodes_group_id_node_id_line_pk" PRIMARY KEY("group_id","node_id","line")
);
--> statement-breakpoint
CREATE TABLE "node_groups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "node_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"zone_id" bigint NOT NULL,
	"name" text NOT NULL,
	"port_type" smallint NOT NULL,
	"is_backup" boolean DEFAULT false NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "group_nodes" ADD CONSTRAINT "group_nodes_group_id_node_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."node_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_nodes" ADD CONSTRAINT "group_nodes_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_groups" ADD CONSTRAINT "node_groups_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_groups" ADD CONSTRAINT "node_groups_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_nodes_node_idx" ON "group_nodes" USING btree ("node_id");--> statement-breakpoint
CREATE UNIQUE INDEX "node_groups_zone_name_key" ON "node_groups" USING btree ("zone_id","name");