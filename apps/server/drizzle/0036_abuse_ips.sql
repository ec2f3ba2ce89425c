-- abuse_ips.range_from/range_to are hex of one width per family: the "C" collation (edited in by hand,
-- drizzle-kit does not write collations) compares them as numbers.
CREATE TABLE "abuse_ip_lists" (
	"owner_id" bigint PRIMARY KEY NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "abuse_ips" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "abuse_ips_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"ip" text NOT NULL,
	"family" smallint NOT NULL,
	"range_from" text COLLATE "C" NOT NULL,
	"range_to" text COLLATE "C" NOT NULL,
	"score" smallint NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "abuse_ips_score_range" CHECK ("abuse_ips"."score" BETWEEN 1 AND 100)
);
--> statement-breakpoint
ALTER TABLE "abuse_ip_lists" ADD CONSTRAINT "abuse_ip_lists_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abuse_ips" ADD CONSTRAINT "abuse_ips_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "abuse_ips_owner_ip_key" ON "abuse_ips" USING btree ("owner_id","ip");--> statement-breakpoint
CREATE INDEX "abuse_ips_owner_range_idx" ON "abuse_ips" USING btree ("owner_id","family","range_from");--> statement-breakpoint
CREATE INDEX "abuse_ips_owner_updated_idx" ON "abuse_ips" USING btree ("owner_id","updated_at");--> statement-breakpoint
-- Operator tables: their rows join the operation log (audit_row_change), as every other one does.
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "abuse_ips" FOR EACH ROW EXECUTE FUNCTION audit_row_change();--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "abuse_ip_lists" FOR EACH ROW EXECUTE FUNCTION audit_row_change();
