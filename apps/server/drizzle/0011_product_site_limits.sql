ALTER TABLE "products" ADD COLUMN "site_limit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "memo" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "max_domains" integer DEFAULT 0 NOT NULL;