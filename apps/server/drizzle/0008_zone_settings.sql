ALTER TABLE "zones" ADD COLUMN "http2" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "force_ssl_redirect_code" smallint DEFAULT 301 NOT NULL;--> statement-breakpoint
ALTER TABLE "zones" ADD CONSTRAINT "zones_force_ssl_redirect_code_check" CHECK ("zones"."force_ssl_redirect_code" IN (301, 302, 307, 308));