CREATE TABLE "site_error_pages" (
	"site_id" bigint NOT NULL,
	"status" integer NOT NULL,
	"body" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_error_pages_site_id_status_pk" PRIMARY KEY("site_id","status")
);
--> statement-breakpoint
CREATE TABLE "site_rate_rules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_rate_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"url" text NOT NULL,
	"rate" integer NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_settings" (
	"site_id" bigint PRIMARY KEY NOT NULL,
	"gzip_enabled" boolean DEFAULT false NOT NULL,
	"gzip_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"gzip_min_length" integer DEFAULT 1024 NOT NULL,
	"gzip_updated_at" timestamp with time zone,
	"error_page_language" text DEFAULT 'en_US' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_error_pages" ADD CONSTRAINT "site_error_pages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_rate_rules" ADD CONSTRAINT "site_rate_rules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_rate_rules_site_idx" ON "site_rate_rules" USING btree ("site_id");