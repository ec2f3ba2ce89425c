CREATE TABLE "site_firewall_rules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_firewall_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"rule" jsonb NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_firewall_rules" ADD CONSTRAINT "site_firewall_rules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_firewall_rules_site_kind_idx" ON "site_firewall_rules" USING btree ("site_id","kind","id");--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "site_firewall_rules" FOR EACH ROW EXECUTE FUNCTION audit_row_change();
