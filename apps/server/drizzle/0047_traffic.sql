CREATE TABLE "extra_traffic_plans" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "extra_traffic_plans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"site_id" bigint NOT NULL,
	"bytes" bigint NOT NULL,
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "monthly_traffic" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "over_traffic" text DEFAULT 'pause' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "throttle_kbps" integer DEFAULT 1024 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "traffic_restriction" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "traffic_lifted_month" text;--> statement-breakpoint
ALTER TABLE "extra_traffic_plans" ADD CONSTRAINT "extra_traffic_plans_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extra_traffic_plans" ADD CONSTRAINT "extra_traffic_plans_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "extra_traffic_plans_owner_idx" ON "extra_traffic_plans" USING btree ("owner_id","id");--> statement-breakpoint
CREATE INDEX "extra_traffic_plans_site_month_idx" ON "extra_traffic_plans" USING btree ("site_id","year","month");--> statement-breakpoint
-- hand-written (keep on renumbering)
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "extra_traffic_plans" FOR EACH ROW EXECUTE FUNCTION audit_row_change();
