import type { PlaneEntry } from '@rampart/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { rowsOf } from '../../platform/db/rows.js';

/**
 * What the planes' answers (plane.service.ts) read of the data plane's tables: the planes, their
 * versions, the entries they serve and the changes since a version. Run in the builder's consistent
 * read (PlaneEntryBuilder.readConsistent) where the answer needs one version.
 */

/** The order in which one entry of a `(kind, key)` several sites of a plane hold is chosen: served first, then the lowest id. */
const PREFERRED_ENTRY = sql.raw(
  `(e.kind = 'domain' AND (e.value->>'enabled')::boolean) DESC, (e.value->>'id')::bigint NULLS LAST, e.site_id`,
);

type Id = string | number;
/** An entry (or, with a null hash, its absence) as a plane serves it. */
export interface PlaneEntryRow {
  kind: PlaneEntry['kind'];
  key: string;
  hash: string | null;
  value: unknown;
}

const ids = (list: readonly number[]) => JSON.stringify(list);

export class PlaneReadsRepository {
  constructor(private readonly db: Db) {}

  /** The plane's last change by its key (undefined: no such plane yet). */
  async changedByKey(planeKey: string): Promise<Id | undefined> {
    const [plane] = rowsOf<{ changed: Id }>(
      await this.db.execute(sql`SELECT changed_seq AS changed FROM dp_planes WHERE plane_key = ${planeKey}`),
    );
    return plane?.changed;
  }

  /** The plane's last change. */
  async changed(planeId: number): Promise<Id | undefined> {
    const [plane] = rowsOf<{ changed: Id }>(
      await this.db.execute(sql`SELECT changed_seq AS changed FROM dp_planes WHERE plane_id = ${planeId}`),
    );
    return plane?.changed;
  }

  /** The log's head and floor and the plane's last change. */
  async state(planeId: number): Promise<{ head: Id; floor: Id; changed: Id } | undefined> {
    const [state] = rowsOf<{ head: Id; floor: Id; changed: Id }>(
      await this.db.execute(sql`SELECT head, floor, (SELECT changed_seq FROM dp_planes WHERE plane_id = ${planeId}) AS changed
          FROM dp_state WHERE id = 1`),
    );
    return state;
  }

  /** The plane's hash at a sequence, if one was recorded. */
  async versionHash(planeId: number, seq: number): Promise<string | undefined> {
    const [version] = rowsOf<{ hash: string }>(
      await this.db.execute(sql`SELECT hash FROM dp_plane_versions WHERE plane_id = ${planeId} AND seq = ${seq}`),
    );
    return version?.hash;
  }

  /**
   * Records the plane's hash at a sequence, once: the row it inserted, or the one another process
   * inserted first (a statement's own SELECT does not see what its insert wrote, so one of the two
   * answers).
   */
  async recordVersion(planeId: number, seq: number, hash: string): Promise<string | undefined> {
    const [kept] = rowsOf<{ hash: string }>(
      await this.db.execute(sql`WITH ins AS (INSERT INTO dp_plane_versions (plane_id, seq, hash)
              VALUES (${planeId}, ${seq}, ${hash}) ON CONFLICT DO NOTHING RETURNING hash)
            SELECT hash FROM ins UNION ALL
            SELECT hash FROM dp_plane_versions WHERE plane_id = ${planeId} AND seq = ${seq}`),
    );
    return kept?.hash;
  }

  /** Every entry the plane serves (one per `(kind, key)`, the preferred). */
  async planeEntries(planeId: number): Promise<PlaneEntryRow[]> {
    return rowsOf<PlaneEntryRow>(
      await this.db.execute(sql`SELECT DISTINCT ON (e.kind, e.key) e.kind, e.key, e.hash, e.value FROM dp_entries e
              WHERE e.site_id = ANY(SELECT unnest(site_ids) FROM dp_planes WHERE plane_id = ${planeId})
              ORDER BY e.kind, e.key, ${PREFERRED_ENTRY}`),
    );
  }

  /** The hash of every entry the plane serves. */
  async planeHashes(planeId: number): Promise<{ kind: string; key: string; hash: string }[]> {
    return rowsOf<{ kind: string; key: string; hash: string }>(
      await this.db.execute(sql`SELECT DISTINCT ON (e.kind, e.key) e.kind, e.key, e.hash FROM dp_entries e
        WHERE e.site_id = ANY(SELECT unnest(site_ids) FROM dp_planes WHERE plane_id = ${planeId})
        ORDER BY e.kind, e.key, ${PREFERRED_ENTRY}`),
    );
  }

  /** The firewall entries' values the plane serves. */
  async planeFirewalls(planeId: number): Promise<unknown[]> {
    return rowsOf<{ value: unknown }>(
      await this.db.execute(sql`SELECT DISTINCT ON (e.key) e.value FROM dp_entries e
            WHERE e.kind = 'firewall' AND e.site_id = ANY(SELECT unnest(site_ids) FROM dp_planes WHERE plane_id = ${planeId})
            ORDER BY e.key, ${PREFERRED_ENTRY}`),
    ).map((r) => r.value);
  }

  /**
   * The keys the plane's changes since `since` touch (its sites' changes, and all of the sites that
   * joined or left it), each with the entry the plane serves now (none: a null hash).
   */
  async changesSince(planeId: number, since: number): Promise<PlaneEntryRow[]> {
    return rowsOf<PlaneEntryRow>(
      await this.db.execute(sql`
          WITH cur AS (SELECT unnest(site_ids) AS site_id FROM dp_planes WHERE plane_id = ${planeId}),
          moved AS (SELECT DISTINCT site_id FROM dp_plane_changes WHERE plane_id = ${planeId} AND seq > ${since}),
          keys AS (
            SELECT kind, key FROM dp_changes
              WHERE seq > ${since} AND site_id IN (SELECT site_id FROM cur UNION SELECT site_id FROM moved)
            UNION SELECT kind, key FROM dp_entries WHERE site_id IN (SELECT site_id FROM moved))
          SELECT k.kind, k.key, r.hash, r.value FROM keys k LEFT JOIN LATERAL (
            SELECT e.hash, e.value FROM dp_entries e
            WHERE e.kind = k.kind AND e.key = k.key AND e.site_id IN (SELECT site_id FROM cur)
            ORDER BY ${PREFERRED_ENTRY} LIMIT 1) r ON true
          ORDER BY k.kind, k.key`),
    );
  }

  async planeIdOf(planeKey: string): Promise<number | undefined> {
    const [found] = rowsOf<{ plane_id: Id }>(
      await this.db.execute(sql`SELECT plane_id FROM dp_planes WHERE plane_key = ${planeKey}`),
    );
    return found ? Number(found.plane_id) : undefined;
  }

  /** Makes the plane (if no other process did) serving `sites`, starting at the log's head. */
  async insertPlane(planeKey: string, sites: readonly number[]): Promise<void> {
    await this.db.execute(sql`INSERT INTO dp_planes (plane_key, site_ids, changed_seq)
        VALUES (${planeKey}, ARRAY(SELECT jsonb_array_elements_text(${ids(sites)}::jsonb)::bigint),
          (SELECT head FROM dp_state WHERE id = 1))
        ON CONFLICT (plane_key) DO NOTHING`);
  }
}
