CREATE TABLE "account_zones" (
	"account_id" bigint NOT NULL,
	"zone_id" bigint NOT NULL,
	CONSTRAINT "account_zones_account_id_zone_id_pk" PRIMARY KEY("account_id","zone_id")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "zones_restricted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "account_zones" ADD CONSTRAINT "account_zones_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_zones" ADD CONSTRAINT "account_zones_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_zones_zone_idx" ON "account_zones" USING btree ("zone_id");