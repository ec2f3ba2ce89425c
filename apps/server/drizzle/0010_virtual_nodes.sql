CREATE TABLE "group_virtual_nodes" (
	"group_id" bigint NOT NULL,
	"virtual_node_id" bigint NOT NULL,
	"line" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_virtual_nodes_group_id_virtual_node_id_line_pk" PRIMARY KEY("group_id","virtual_node_id","line")
);
--> statement-breakpoint
CREATE TABLE "virtual_node_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "virtual_node_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"virtual_node_id" bigint NOT NULL,
	"type" text NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"node_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "virtual_node_records_kind_check" CHECK (("virtual_node_records"."type" = 'cname' AND "virtual_node_records"."node_id" IS NULL AND "virtual_node_records"."value" <> '') OR ("virtual_node_records"."type" = 'node' AND "virtual_node_records"."node_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "virtual_nodes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "virtual_nodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"zone_id" bigint NOT NULL,
	"name" text NOT NULL,
	"port_type" smallint NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "group_virtual_nodes" ADD CONSTRAINT "group_virtual_nodes_group_id_node_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."node_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_virtual_nodes" ADD CONSTRAINT "group_virtual_nodes_virtual_node_id_virtual_nodes_id_fk" FOREIGN KEY ("virtual_node_id") REFERENCES "public"."virtual_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_node_records" ADD CONSTRAINT "virtual_node_records_virtual_node_id_virtual_nodes_id_fk" FOREIGN KEY ("virtual_node_id") REFERENCES "public"."virtual_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_node_records" ADD CONSTRAINT "virtual_node_records_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_nodes" ADD CONSTRAINT "virtual_nodes_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_nodes" ADD CONSTRAINT "virtual_nodes_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_virtual_nodes_virtual_node_idx" ON "group_virtual_nodes" USING btree ("virtual_node_id");--> statement-breakpoint
CREATE UNIQUE INDEX "virtual_node_records_node_key" ON "virtual_node_records" USING btree ("virtual_node_id","node_id") WHERE "virtual_node_records"."node_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "virtual_node_records_node_idx" ON "virtual_node_records" USING btree ("node_id");--> statement-breakpoint
CREATE UNIQUE INDEX "virtual_nodes_zone_name_key" ON "virtual_nodes" USING btree ("zone_id","name");--> statement-breakpoint
CREATE INDEX "virtual_nodes_owner_idx" ON "virtual_nodes" USING btree ("owner_id");