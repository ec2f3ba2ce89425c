CREATE TABLE "cache_tasks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cache_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"site_id" bigint,
	"zone_id" bigint,
	"urls" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cache_tasks_kind_check" CHECK ("cache_tasks"."kind" IN ('purge', 'preheat'))
);
--> statement-breakpoint
ALTER TABLE "node_commands" ADD COLUMN "task_id" bigint;--> statement-breakpoint
ALTER TABLE "node_commands" ADD COLUMN "results" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "cache_epoch" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cache_tasks" ADD CONSTRAINT "cache_tasks_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cache_tasks" ADD CONSTRAINT "cache_tasks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cache_tasks" ADD CONSTRAINT "cache_tasks_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cache_tasks_site_idx" ON "cache_tasks" USING btree ("site_id","id");--> statement-breakpoint
CREATE INDEX "cache_tasks_zone_idx" ON "cache_tasks" USING btree ("zone_id","id");--> statement-breakpoint
ALTER TABLE "node_commands" ADD CONSTRAINT "node_commands_task_id_cache_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."cache_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "node_commands_task_idx" ON "node_commands" USING btree ("task_id");