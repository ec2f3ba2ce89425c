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
-- Marks dirty the sites that TG_ARGV[0] (a SELECT of site ids from the row as $1) names, for the new and the old row.
CREATE FUNCTION dp_dirty_site() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  q text := 'INSERT INTO dp_dirty_sites (site_id, mark) SELECT s, nextval(''dp_mark_seq'') FROM (SELECT DISTINCT s FROM ('
    || TG_ARGV[0] || ') q(s) WHERE s IS NOT NULL) d ON CONFLICT (site_id) DO UPDATE SET mark = EXCLUDED.mark';
BEGIN
  IF TG_OP <> 'DELETE' THEN EXECUTE q USING NEW; END IF;
  IF TG_OP <> 'INSERT' THEN EXECUTE q USING OLD; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION dp_dirty_membership() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dp_dirty_membership (id, mark) VALUES (1, nextval('dp_mark_seq'))
    ON CONFLICT (id) DO UPDATE SET mark = EXCLUDED.mark;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "domains" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_cache_rules" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_settings" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_rate_rules" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_firewall_rules" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_error_pages" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "blocked_ips" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_modules" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_module_rules" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_auth_groups" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_auth_rules" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).site_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "sites" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT ($1).id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "domain_upstreams" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM domains WHERE id = ($1).domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "domain_access_rules" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM domains WHERE id = ($1).domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "domain_modules" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM domains WHERE id = ($1).domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "acme_challenges" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM domains WHERE id = ($1).domain_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "site_auth_credentials" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM site_auth_groups WHERE id = ($1).group_id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_site AFTER INSERT OR UPDATE OR DELETE ON "certificates" FOR EACH ROW EXECUTE FUNCTION dp_dirty_site('SELECT site_id FROM domains WHERE certificate_id = ($1).id');--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "node_groups" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "group_nodes" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "group_virtual_nodes" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "virtual_node_records" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "product_groups" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();--> statement-breakpoint
CREATE TRIGGER dp_dirty_membership AFTER INSERT OR UPDATE OR DELETE ON "sites" FOR EACH STATEMENT EXECUTE FUNCTION dp_dirty_membership();
