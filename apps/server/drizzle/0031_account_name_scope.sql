ALTER TABLE "accounts" ADD COLUMN "operator_id" bigint;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_operator_id_accounts_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
WITH RECURSIVE chain AS (
	SELECT a.id AS start_id, p.id, p.parent_id, p.tier, 1 AS depth FROM "accounts" a JOIN "accounts" p ON p.id = a.parent_id
	UNION ALL
	SELECT c.start_id, p.id, p.parent_id, p.tier, c.depth + 1 FROM chain c JOIN "accounts" p ON p.id = c.parent_id
)
UPDATE "accounts" a SET "operator_id" = (
	SELECT chain.id FROM chain WHERE chain.start_id = a.id AND chain.tier = 'client' ORDER BY chain.depth DESC LIMIT 1
) WHERE a.tier <> 'admin';--> statement-breakpoint
DROP INDEX "accounts_tier_account_key";--> statement-breakpoint
DROP INDEX "accounts_tier_email_key";--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_tier_operator_account_key" ON "accounts" USING btree ("tier",coalesce("operator_id", 0),"account");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_tier_operator_email_key" ON "accounts" USING btree ("tier",coalesce("operator_id", 0),lower("email")) WHERE "accounts"."email" <> '';--> statement-breakpoint
CREATE INDEX "accounts_operator_idx" ON "accounts" USING btree ("operator_id");
