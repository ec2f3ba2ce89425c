CREATE TABLE "node_upgrade_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "node_upgrade_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"node_id" bigint NOT NULL,
	"command_id" bigint,
	"version" text NOT NULL,
	"stage" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "upgrade_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "upgrade_version" text;--> statement-breakpoint
ALTER TABLE "node_upgrade_logs" ADD CONSTRAINT "node_upgrade_logs_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_upgrade_logs" ADD CONSTRAINT "node_upgrade_logs_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_upgrade_logs" ADD CONSTRAINT "node_upgrade_logs_command_id_node_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."node_commands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "node_upgrade_logs_node_created_idx" ON "node_upgrade_logs" USING btree ("node_id","created_at");