CREATE TABLE "blocked_ips" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "blocked_ips_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"node_id" bigint NOT NULL,
	"ip" text NOT NULL,
	"cause" text NOT NULL,
	"rule_id" bigint NOT NULL,
	"blocked_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blocked_ips" ADD CONSTRAINT "blocked_ips_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_ips" ADD CONSTRAINT "blocked_ips_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blocked_ips_site_node_ip_key" ON "blocked_ips" USING btree ("site_id","node_id","ip");--> statement-breakpoint
CREATE INDEX "blocked_ips_expires_idx" ON "blocked_ips" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "blocked_ips_node_idx" ON "blocked_ips" USING btree ("node_id");