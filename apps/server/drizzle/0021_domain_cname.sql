ALTER TABLE "domains" ADD COLUMN "cname_label" text DEFAULT substr(replace(gen_random_uuid()::text, '-', ''), 1, 16) NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "cname_status" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "cname_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "auto_ssl" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "port_map" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_cname_label_key" ON "domains" USING btree ("cname_label");