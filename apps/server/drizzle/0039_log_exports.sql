CREATE TABLE "log_export_days" (
	"account_id" bigint NOT NULL,
	"day" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "log_export_days_account_id_day_pk" PRIMARY KEY("account_id","day")
);
--> statement-breakpoint
CREATE TABLE "log_exports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "log_exports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"type" text NOT NULL,
	"format" text NOT NULL,
	"gzip" boolean NOT NULL,
	"filter" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"records" bigint DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"file_name" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "log_exports_type_check" CHECK ("log_exports"."type" IN ('access', 'waf')),
	CONSTRAINT "log_exports_format_check" CHECK ("log_exports"."format" IN ('csv', 'jsonl')),
	CONSTRAINT "log_exports_status_check" CHECK ("log_exports"."status" IN ('queued', 'running', 'done', 'failed', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "log_export_days" ADD CONSTRAINT "log_export_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_exports" ADD CONSTRAINT "log_exports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "log_exports_account_idx" ON "log_exports" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "log_exports_status_idx" ON "log_exports" USING btree ("status","id");