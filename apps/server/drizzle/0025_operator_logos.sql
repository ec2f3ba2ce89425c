CREATE TABLE "operator_logo_images" (
	"logo_id" bigint NOT NULL,
	"slot" text NOT NULL,
	"mime" text NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "operator_logo_images_logo_id_slot_pk" PRIMARY KEY("logo_id","slot")
);
--> statement-breakpoint
CREATE TABLE "operator_logos" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_logos_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"sub_title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"copyright" text DEFAULT '' NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_logos_owner_id_unique" UNIQUE("owner_id")
);
--> statement-breakpoint
ALTER TABLE "operator_logo_images" ADD CONSTRAINT "operator_logo_images_logo_id_operator_logos_id_fk" FOREIGN KEY ("logo_id") REFERENCES "public"."operator_logos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_logos" ADD CONSTRAINT "operator_logos_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;