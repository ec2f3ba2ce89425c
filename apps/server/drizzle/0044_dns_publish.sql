CREATE TABLE "dns_published_names" (
	"owner_id" bigint NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dns_published_names_owner_id_name_pk" PRIMARY KEY("owner_id","name")
);
--> statement-breakpoint
CREATE TABLE "dns_reconcile_leases" (
	"owner_id" bigint PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"last_pass_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "dns_unprocessed" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dns_unprocessed_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"line" text NOT NULL,
	"action" text NOT NULL,
	"ttl" integer NOT NULL,
	"values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dns_unprocessed_action_check" CHECK ("dns_unprocessed"."action" IN ('upsert', 'delete'))
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "cname_disabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "dns_published_names" ADD CONSTRAINT "dns_published_names_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dns_reconcile_leases" ADD CONSTRAINT "dns_reconcile_leases_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dns_unprocessed" ADD CONSTRAINT "dns_unprocessed_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dns_unprocessed_owner_record_key" ON "dns_unprocessed" USING btree ("owner_id","name","type","line");--> statement-breakpoint
-- hand-written (keep on renumbering)
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "dns_published_names" FOR EACH ROW EXECUTE FUNCTION audit_row_change();--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "dns_unprocessed" FOR EACH ROW EXECUTE FUNCTION audit_row_change();--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "dns_reconcile_leases" FOR EACH ROW EXECUTE FUNCTION audit_row_change();
