CREATE TABLE "audit_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"account_name" text NOT NULL,
	"tier" text NOT NULL,
	"real_account_id" bigint,
	"real_account_name" text,
	"visible_to" bigint[] NOT NULL,
	"action" text NOT NULL,
	"method" text NOT NULL,
	"url" text NOT NULL,
	"target" jsonb NOT NULL,
	"changes" jsonb,
	"ip" text NOT NULL,
	"req_id" text NOT NULL,
	"pending" boolean DEFAULT true NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"code" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "real_account_id" bigint;--> statement-breakpoint
CREATE INDEX "audit_logs_visible_idx" ON "audit_logs" USING gin ("visible_to");--> statement-breakpoint
CREATE INDEX "audit_logs_created_idx" ON "audit_logs" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_real_account_id_accounts_id_fk" FOREIGN KEY ("real_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;