CREATE TABLE "zone_ports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "zone_ports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"zone_id" bigint NOT NULL,
	"port" integer NOT NULL,
	"port_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "zone_ports_port_check" CHECK ("zone_ports"."port" BETWEEN 1 AND 65535),
	CONSTRAINT "zone_ports_port_type_check" CHECK ("zone_ports"."port_type" IN ('http', 'https'))
);
--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "nginx_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "nginx_tuning" jsonb DEFAULT '{"worker":{},"http":{},"stream":{},"custom":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "zone_ports" ADD CONSTRAINT "zone_ports_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "zone_ports_zone_port_key" ON "zone_ports" USING btree ("zone_id","port");--> statement-breakpoint
-- Zones made before zones had ports listened on 80 and 443: keep them doing so.
INSERT INTO "zone_ports" ("zone_id", "port", "port_type") SELECT "id", 80, 'http' FROM "zones";--> statement-breakpoint
INSERT INTO "zone_ports" ("zone_id", "port", "port_type") SELECT "id", 443, 'https' FROM "zones";
