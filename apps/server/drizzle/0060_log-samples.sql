CREATE TABLE "log_samples" (
	"site_id" bigint NOT NULL,
	"minute" bigint NOT NULL,
	"seen" bigint NOT NULL,
	"kept" bigint NOT NULL,
	CONSTRAINT "log_samples_site_id_minute_pk" PRIMARY KEY("site_id","minute")
);
--> statement-breakpoint
ALTER TABLE "log_samples" ADD CONSTRAINT "log_samples_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "log_samples_minute_idx" ON "log_samples" USING btree ("minute");