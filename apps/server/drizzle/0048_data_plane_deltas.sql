CREATE TABLE "dp_changes" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"site_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"hash" text,
	"value" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dp_dirty_membership" (
	"id" smallint PRIMARY KEY NOT NULL,
	"mark" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dp_dirty_sites" (
	"site_id" bigint PRIMARY KEY NOT NULL,
	"mark" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dp_entries" (
	"site_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"hash" text NOT NULL,
	"value" jsonb NOT NULL,
	CONSTRAINT "dp_entries_site_id_kind_key_pk" PRIMARY KEY("site_id","kind","key")
);
--> statement-breakpoint
CREATE TABLE "dp_plane_changes" (
	"seq" bigint NOT NULL,
	"plane_id" bigint NOT NULL,
	"site_id" bigint NOT NULL,
	"added" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dp_plane_changes_plane_id_seq_site_id_pk" PRIMARY KEY("plane_id","seq","site_id")
);
--> statement-breakpoint
CREATE TABLE "dp_plane_versions" (
	"plane_id" bigint NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "dp_plane_versions_plane_id_seq_pk" PRIMARY KEY("plane_id","seq")
);
--> statement-breakpoint
CREATE TABLE "dp_planes" (
	"plane_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dp_planes_plane_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"plane_key" text NOT NULL,
	"site_ids" bigint[] NOT NULL,
	CONSTRAINT "dp_planes_plane_key_unique" UNIQUE("plane_key")
);
--> statement-breakpoint
CREATE TABLE "dp_state" (
	"id" smallint PRIMARY KEY NOT NULL,
	"head" bigint NOT NULL,
	"floor" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dp_changes_site_seq_idx" ON "dp_changes" USING btree ("site_id","seq");--> statement-breakpoint
CREATE INDEX "dp_entries_kind_key_idx" ON "dp_entries" USING btree ("kind","key");--> statement-breakpoint
-- hand-written (keep on renumbering)
-- Sequence numbers of the change log, and marks of dirty rows (a build removes a mark only if unchanged since it read it).
CREATE SEQUENCE dp_seq;--> statement-breakpoint
CREATE SEQUENCE dp_mark_seq;--> statement-breakpoint
INSERT INTO dp_state (id, head, floor) VALUES (1, 0, 0);--> statement-breakpoint
-- Marks dirty the sites that TG_ARGV[0] (a SELECT of site ids from `$rows`, the statement's
-- transition table) names, for the new rows and the old ones. One statement-level trigger per
-- event (a trigger with transition tables takes one event): a bulk write of N rows runs it once,
-- not N times (per-row triggers cost ~150 µs a row on PGlite: 7.5 s for 50,000 domains).
CREATE FUNCTION dp_dirty_site() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  q text := 'INSERT INTO dp_dirty_sites (site_id, mark) SELECT s, nextval(''dp_mark_seq'') FROM (SELECT DISTINCT s FROM ('
    || TG_ARGV[0] || ') q(s) WHERE s IS NOT NULL) d ON CONFLICT (site_id) DO UPDATE SET mark = EXCLUDED.mark';
BEGIN
  IF TG_OP <> 'DELETE' THEN EXECUTE replace(q, '$rows', 'dp_new'); END IF;
  IF TG_OP <> 'INSERT' THEN EXECUTE replace(q, '$rows', 'dp_old'); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION dp_dirty_membership() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dp_dirty_membership (id, mark) VALUES (1, nextval('dp_mark_seq'))
    ON CONFLICT (id) DO UPDATE SET mark = EXCLUDED.mark;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "domains" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "domains" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "domains" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_cache_rules" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_cache_rules" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_cache_rules" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_settings" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_settings" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_settings" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_rate_rules" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_rate_rules" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_rate_rules" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_firewall_rules" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_firewall_rules" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_firewall_rules" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_error_pages" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_error_pages" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_error_pages" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "blocked_ips" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "blocked_ips" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "blocked_ips" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_modules" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_modules" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_modules" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_module_rules" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_module_rules" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_module_rules" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_auth_groups" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_auth_groups" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_auth_groups" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_auth_rules" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_auth_rules" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_auth_rules" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "sites" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "sites" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "sites" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT id FROM $rows');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "domain_upstreams" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "domain_upstreams" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "domain_upstreams" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "domain_access_rules" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "domain_access_rules" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "domain_access_rules" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "domain_modules" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "domain_modules" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "domain_modules" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "acme_challenges" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "acme_challenges" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "acme_challenges" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.id = r.domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "site_auth_credentials" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN site_auth_groups x ON x.id = r.group_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "site_auth_credentials" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN site_auth_groups x ON x.id = r.group_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "site_auth_credentials" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN site_auth_groups x ON x.id = r.group_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_ins AFTER INSERT ON "certificates" REFERENCING NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.certificate_id = r.id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_upd AFTER UPDATE ON "certificates" REFERENCING OLD TABLE AS dp_old NEW TABLE AS dp_new FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.certificate_id = r.id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site_del AFTER DELETE ON "certificates" REFERENCING OLD TABLE AS dp_old FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_site('SELECT x.site_id FROM $rows r JOIN domains x ON x.certificate_id = r.id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "node_groups" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "group_nodes" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "group_virtual_nodes" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "virtual_node_records" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "product_groups" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "sites" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();
