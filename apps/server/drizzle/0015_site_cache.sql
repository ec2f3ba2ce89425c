CREATE TABLE "site_cache_rules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_cache_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"scope" text NOT NULL,
	"values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ttl" integer NOT NULL,
	"query_string" text NOT NULL,
	"bypass" boolean DEFAULT false NOT NULL,
	"respect_origin" boolean DEFAULT true NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "cache_generation" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_cache_rules" ADD CONSTRAINT "site_cache_rules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_cache_rules_site_idx" ON "site_cache_rules" USING btree ("site_id");