CREATE TABLE "site_port_upstreams" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_port_upstreams_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"port_id" bigint NOT NULL,
	"ip" text NOT NULL,
	"port" integer NOT NULL,
	"weight" smallint DEFAULT 1 NOT NULL,
	"backup" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_ports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_ports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" bigint NOT NULL,
	"port" integer NOT NULL,
	"protocol" text DEFAULT 'tcp' NOT NULL,
	"hash_type" smallint DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_ports_port_check" CHECK ("site_ports"."port" BETWEEN 1 AND 65535),
	CONSTRAINT "site_ports_protocol_check" CHECK ("site_ports"."protocol" IN ('tcp', 'udp', 'both'))
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "max_ports" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_port_upstreams" ADD CONSTRAINT "site_port_upstreams_port_id_site_ports_id_fk" FOREIGN KEY ("port_id") REFERENCES "public"."site_ports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_ports" ADD CONSTRAINT "site_ports_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_port_upstreams_port_idx" ON "site_port_upstreams" USING btree ("port_id");--> statement-breakpoint
CREATE UNIQUE INDEX "site_ports_site_port_key" ON "site_ports" USING btree ("site_id","port");--> statement-breakpoint
CREATE INDEX "site_ports_port_idx" ON "site_ports" USING btree ("port");