ALTER TABLE "zones" ADD COLUMN "invalid_domain_limit_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "tls_limit_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "zones" ADD CONSTRAINT "zones_invalid_domain_limit_count_check" CHECK ("zones"."invalid_domain_limit_count" BETWEEN 0 AND 100000);--> statement-breakpoint
ALTER TABLE "zones" ADD CONSTRAINT "zones_tls_limit_count_check" CHECK ("zones"."tls_limit_count" BETWEEN 0 AND 100000);