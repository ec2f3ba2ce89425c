ALTER TABLE "zones" ADD COLUMN "trusted_proxies" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "real_ip_header" text DEFAULT 'X-Forwarded-For' NOT NULL;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "proxy_protocol" boolean DEFAULT false NOT NULL;