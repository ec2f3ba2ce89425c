CREATE TABLE "dp_nodes_version" (
	"id" smallint PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
-- hand-written (keep on renumbering)
-- What the snapshots read of every node (snapshot.repository.ts selectNodesWithZone and the
-- groups of nodes) moves this version, in the writing transaction: a reader that finds it unchanged
-- keeps the nodes it read at it. Only the columns of nodes the snapshots read move it (a node's
-- status report writes others every few seconds); the test "the nodes' version" checks the list.
INSERT INTO dp_nodes_version (id, version) VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION dp_nodes_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE dp_nodes_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER dp_nodes_moved AFTER INSERT OR DELETE OR TRUNCATE ON "nodes" FOR EACH STATEMENT EXECUTE FUNCTION dp_nodes_moved();--> statement-breakpoint
CREATE TRIGGER dp_nodes_moved_upd AFTER UPDATE OF id, owner_id, status, zone_id, enabled, log_rotate_time, cache_epoch ON "nodes" FOR EACH STATEMENT EXECUTE FUNCTION dp_nodes_moved();--> statement-breakpoint
CREATE TRIGGER dp_nodes_moved AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "zones" FOR EACH STATEMENT EXECUTE FUNCTION dp_nodes_moved();--> statement-breakpoint
CREATE TRIGGER dp_nodes_moved AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "group_nodes" FOR EACH STATEMENT EXECUTE FUNCTION dp_nodes_moved();--> statement-breakpoint
CREATE TRIGGER dp_nodes_moved AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "group_virtual_nodes" FOR EACH STATEMENT EXECUTE FUNCTION dp_nodes_moved();--> statement-breakpoint
CREATE TRIGGER dp_nodes_moved AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "virtual_node_records" FOR EACH STATEMENT EXECUTE FUNCTION dp_nodes_moved();
