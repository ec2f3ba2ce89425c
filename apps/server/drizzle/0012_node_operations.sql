CREATE TABLE "node_commands" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "node_commands_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"node_id" bigint NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "memo" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "monitor" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "port_type" smallint DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "log_rotate_time" text;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "system" jsonb;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "system_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "node_commands" ADD CONSTRAINT "node_commands_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_commands" ADD CONSTRAINT "node_commands_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "node_commands_node_created_idx" ON "node_commands" USING btree ("node_id","created_at");--> statement-breakpoint
CREATE INDEX "node_commands_open_idx" ON "node_commands" USING btree ("node_id","status") WHERE "node_commands"."status" IN ('queued', 'sent');--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_port_type_check" CHECK ("nodes"."port_type" IN (4, 7));--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_log_rotate_time_check" CHECK ("nodes"."log_rotate_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$');