CREATE TABLE "log_push_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "log_push_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"tier" text NOT NULL,
	"operator_id" bigint,
	"name" text NOT NULL,
	"enabled" boolean NOT NULL,
	"type" text NOT NULL,
	"site_ids" jsonb NOT NULL,
	"zone_ids" jsonb NOT NULL,
	"filters" jsonb NOT NULL,
	"destination" jsonb NOT NULL,
	"secrets" text,
	"state" text DEFAULT 'active' NOT NULL,
	"last_error" text,
	"last_delivered_at" timestamp with time zone,
	"cursor_received_at" bigint DEFAULT 0 NOT NULL,
	"cursor_batch" text DEFAULT '' NOT NULL,
	"cursor_request" text DEFAULT '' NOT NULL,
	"cursor_audit" bigint DEFAULT 0 NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "log_push_events_tier_check" CHECK ("log_push_events"."tier" IN ('user', 'client')),
	CONSTRAINT "log_push_events_type_check" CHECK ("log_push_events"."type" IN ('access', 'waf', 'audit')),
	CONSTRAINT "log_push_events_state_check" CHECK ("log_push_events"."state" IN ('active', 'retrying', 'dead'))
);
--> statement-breakpoint
CREATE TABLE "log_push_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "log_push_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"operator_id" bigint,
	"event_name" text NOT NULL,
	"status" text NOT NULL,
	"attempt" integer NOT NULL,
	"records" integer NOT NULL,
	"bytes" bigint NOT NULL,
	"error" text,
	"range_start" timestamp with time zone,
	"range_end" timestamp with time zone,
	"manual" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "log_push_logs_status_check" CHECK ("log_push_logs"."status" IN ('delivered', 'retrying', 'dead'))
);
--> statement-breakpoint
CREATE TABLE "log_push_manuals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "log_push_manuals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" bigint NOT NULL,
	"start_ts" bigint NOT NULL,
	"end_ts" bigint NOT NULL,
	"cursor_ts" bigint DEFAULT -1 NOT NULL,
	"cursor_ms" integer DEFAULT 0 NOT NULL,
	"cursor_request" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "log_push_events" ADD CONSTRAINT "log_push_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_push_logs" ADD CONSTRAINT "log_push_logs_event_id_log_push_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."log_push_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_push_manuals" ADD CONSTRAINT "log_push_manuals_event_id_log_push_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."log_push_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "log_push_events_account_idx" ON "log_push_events" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "log_push_logs_account_idx" ON "log_push_logs" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "log_push_logs_operator_idx" ON "log_push_logs" USING btree ("operator_id","id");--> statement-breakpoint
CREATE INDEX "log_push_logs_event_idx" ON "log_push_logs" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "log_push_logs_created_idx" ON "log_push_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "log_push_manuals_event_idx" ON "log_push_manuals" USING btree ("event_id","id");--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "log_push_events" FOR EACH ROW EXECUTE FUNCTION audit_row_change();--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "log_push_manuals" FOR EACH ROW EXECUTE FUNCTION audit_row_change();
