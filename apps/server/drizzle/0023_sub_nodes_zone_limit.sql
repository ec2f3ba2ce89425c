CREATE TABLE "sub_nodes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sub_nodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"node_id" bigint NOT NULL,
	"ip" text NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "zone_limit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sub_nodes" ADD CONSTRAINT "sub_nodes_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_nodes" ADD CONSTRAINT "sub_nodes_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sub_nodes_owner_ip_key" ON "sub_nodes" USING btree ("owner_id","ip");--> statement-breakpoint
CREATE INDEX "sub_nodes_node_idx" ON "sub_nodes" USING btree ("node_id");