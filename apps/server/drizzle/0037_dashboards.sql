CREATE TABLE "dashboards" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"widgets" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dashboards" ADD CONSTRAINT "dashboards_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A layout joins the operation log with the call that saved it, as every account table does.
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "dashboards" FOR EACH ROW EXECUTE FUNCTION audit_row_change();