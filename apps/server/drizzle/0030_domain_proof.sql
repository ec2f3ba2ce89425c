DROP INDEX "domains_enabled_name_key";--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "proof_status" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "proof_token" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "proof_checked_at" timestamp with time zone;--> statement-breakpoint
-- Domains made before proof of control existed were live: they stay live as waived claims, which
-- a claim of another customer that proves control wins over.
UPDATE "domains" SET "proof_status" = 2;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_live_name_key" ON "domains" USING btree ("name") WHERE "domains"."enabled" AND "domains"."proof_status" IN (1, 2);--> statement-breakpoint
CREATE INDEX "domains_name_idx" ON "domains" USING btree ("name");