CREATE TABLE "domain_modules" (
	"domain_id" bigint NOT NULL,
	"type" text NOT NULL,
	"module_id" bigint NOT NULL,
	CONSTRAINT "domain_modules_domain_id_type_pk" PRIMARY KEY("domain_id","type")
);
--> statement-breakpoint
CREATE TABLE "site_module_rules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_module_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"module_id" bigint NOT NULL,
	"site_id" bigint NOT NULL,
	"type" text NOT NULL,
	"rule" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_modules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_modules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domain_modules" ADD CONSTRAINT "domain_modules_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_modules" ADD CONSTRAINT "domain_modules_module_id_site_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."site_modules"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_module_rules" ADD CONSTRAINT "site_module_rules_module_id_site_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."site_modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_module_rules" ADD CONSTRAINT "site_module_rules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_modules" ADD CONSTRAINT "site_modules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "domain_modules_module_idx" ON "domain_modules" USING btree ("module_id");--> statement-breakpoint
CREATE INDEX "site_module_rules_module_idx" ON "site_module_rules" USING btree ("module_id");--> statement-breakpoint
CREATE INDEX "site_module_rules_site_type_idx" ON "site_module_rules" USING btree ("site_id","type");--> statement-breakpoint
CREATE UNIQUE INDEX "site_modules_site_type_name_key" ON "site_modules" USING btree ("site_id","type","name");