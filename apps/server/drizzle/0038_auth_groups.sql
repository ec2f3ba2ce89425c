CREATE TABLE "site_auth_credentials" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_auth_credentials_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"group_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_auth_groups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_auth_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_auth_rules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_auth_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"group_id" bigint NOT NULL,
	"name" text NOT NULL,
	"match" text NOT NULL,
	"path" text NOT NULL,
	"domain_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_auth_credentials" ADD CONSTRAINT "site_auth_credentials_group_id_site_auth_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."site_auth_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_auth_groups" ADD CONSTRAINT "site_auth_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_auth_rules" ADD CONSTRAINT "site_auth_rules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_auth_rules" ADD CONSTRAINT "site_auth_rules_group_id_site_auth_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."site_auth_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "site_auth_credentials_group_kind_name_key" ON "site_auth_credentials" USING btree ("group_id","kind","name");--> statement-breakpoint
CREATE UNIQUE INDEX "site_auth_groups_site_name_key" ON "site_auth_groups" USING btree ("site_id","name");--> statement-breakpoint
CREATE INDEX "site_auth_rules_site_idx" ON "site_auth_rules" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "site_auth_rules_group_idx" ON "site_auth_rules" USING btree ("group_id");--> statement-breakpoint
-- Auth groups join the operation log with the call that changed them, as every table does
-- (credential secrets are redacted there by audit_redact: passwordHash, key, secretSealed).
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "site_auth_groups" FOR EACH ROW EXECUTE FUNCTION audit_row_change();--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "site_auth_credentials" FOR EACH ROW EXECUTE FUNCTION audit_row_change();--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "site_auth_rules" FOR EACH ROW EXECUTE FUNCTION audit_row_change();
