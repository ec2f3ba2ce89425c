CREATE TABLE "site_l4_rules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_l4_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"port_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"rule" jsonb NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_l4_rules_kind_check" CHECK ("site_l4_rules"."kind" IN ('l4Whitelist', 'l4Blacklist', 'position', 'limitConn'))
);
--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "l4_syn_flood" jsonb;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "l4_new_connections" jsonb;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "l4_kernel_blocks" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "site_l4_rules" ADD CONSTRAINT "site_l4_rules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_l4_rules" ADD CONSTRAINT "site_l4_rules_port_id_site_ports_id_fk" FOREIGN KEY ("port_id") REFERENCES "public"."site_ports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_l4_rules_site_kind_idx" ON "site_l4_rules" USING btree ("site_id","kind","id");--> statement-breakpoint
CREATE INDEX "site_l4_rules_port_idx" ON "site_l4_rules" USING btree ("port_id");--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "site_l4_rules" FOR EACH ROW EXECUTE FUNCTION audit_row_change();
