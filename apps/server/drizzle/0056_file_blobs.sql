CREATE TABLE "file_blob_chunks" (
	"sha256" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "file_blob_chunks_sha256_seq_pk" PRIMARY KEY("sha256","seq")
);
--> statement-breakpoint
CREATE TABLE "file_blob_refs" (
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"owner_id" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_blob_refs_kind_ref_pk" PRIMARY KEY("kind","ref"),
	CONSTRAINT "file_blob_refs_kind_check" CHECK ("file_blob_refs"."kind" IN ('geo', 'asn', 'log-export'))
);
--> statement-breakpoint
CREATE TABLE "file_blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"chunks" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_blobs_sha256_check" CHECK ("file_blobs"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "file_blob_chunks" ADD CONSTRAINT "file_blob_chunks_sha256_file_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."file_blobs"("sha256") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_blob_refs" ADD CONSTRAINT "file_blob_refs_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_blob_refs" ADD CONSTRAINT "file_blob_refs_sha256_file_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."file_blobs"("sha256") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_blob_refs_sha256_idx" ON "file_blob_refs" USING btree ("sha256");