CREATE TABLE "acme_challenges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "acme_challenges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"auto_certificate_id" bigint NOT NULL,
	"domain_id" bigint NOT NULL,
	"host" text NOT NULL,
	"token" text NOT NULL,
	"key_authorization" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auto_certificate_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auto_certificate_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"auto_certificate_id" bigint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"ok" boolean,
	"error" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auto_certificates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auto_certificates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"domain_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"certificate_id" bigint,
	"not_after" timestamp with time zone,
	"last_error" text DEFAULT '' NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_certificates_status_check" CHECK ("auto_certificates"."status" IN ('pending', 'issuing', 'valid', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "acme_challenges" ADD CONSTRAINT "acme_challenges_auto_certificate_id_auto_certificates_id_fk" FOREIGN KEY ("auto_certificate_id") REFERENCES "public"."auto_certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acme_challenges" ADD CONSTRAINT "acme_challenges_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_certificate_attempts" ADD CONSTRAINT "auto_certificate_attempts_auto_certificate_id_auto_certificates_id_fk" FOREIGN KEY ("auto_certificate_id") REFERENCES "public"."auto_certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_certificates" ADD CONSTRAINT "auto_certificates_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_certificates" ADD CONSTRAINT "auto_certificates_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_certificates" ADD CONSTRAINT "auto_certificates_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "acme_challenges_domain_idx" ON "acme_challenges" USING btree ("domain_id");--> statement-breakpoint
CREATE INDEX "acme_challenges_cert_idx" ON "acme_challenges" USING btree ("auto_certificate_id");--> statement-breakpoint
CREATE INDEX "auto_certificate_attempts_cert_idx" ON "auto_certificate_attempts" USING btree ("auto_certificate_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "auto_certificates_domain_idx" ON "auto_certificates" USING btree ("domain_id");--> statement-breakpoint
CREATE INDEX "auto_certificates_site_idx" ON "auto_certificates" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "auto_certificates_due_idx" ON "auto_certificates" USING btree ("next_attempt_at");--> statement-breakpoint
-- hand-written (keep on renumbering)
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "auto_certificates" FOR EACH ROW EXECUTE FUNCTION audit_row_change();--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "auto_certificate_attempts" FOR EACH ROW EXECUTE FUNCTION audit_row_change();--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "acme_challenges" FOR EACH ROW EXECUTE FUNCTION audit_row_change();
