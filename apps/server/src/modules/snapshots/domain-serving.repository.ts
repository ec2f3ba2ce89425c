import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { rowsOf } from '../../platform/db/rows.js';

type Id = string | number;

/**
 * What the domain list's "served by N of M nodes" reads (domain-serving.ts): the planes that serve
 * a site and since when, the sequence of each domain entry's last change, and what the operator's
 * nodes last reported as applied.
 */
export class DomainServingRepository {
  constructor(private readonly db: Db) {}

  /** The site's product's layer-7 groups: the nodes in any of them serve the site (SnapshotRepository.servedSites). */
  async siteGroupIds(siteId: number): Promise<number[]> {
    const rows = rowsOf<{ id: Id }>(
      await this.db.execute(sql`SELECT DISTINCT pg.group_id AS id FROM sites s
        JOIN product_groups pg ON pg.product_id = s.product_id
        JOIN node_groups g ON g.id = pg.group_id AND g.port_type = 7
        WHERE s.id = ${siteId}`),
    );
    return rows.map((r) => Number(r.id));
  }

  /** The planes serving the site by key, each with the sequence at which the site last joined it (0: before the log's floor). */
  async sitePlanes(siteId: number): Promise<{ planeKey: string; joined: number }[]> {
    const rows = rowsOf<{ plane_key: string; joined: Id | null }>(
      await this.db.execute(sql`SELECT p.plane_key,
          (SELECT max(c.seq) FROM dp_plane_changes c WHERE c.plane_id = p.plane_id AND c.site_id = ${siteId} AND c.added) AS joined
        FROM dp_planes p WHERE ${siteId} = ANY(p.site_ids)`),
    );
    return rows.map((r) => ({ planeKey: r.plane_key, joined: Number(r.joined ?? 0) }));
  }

  /** The sequence of the last change of each named domain entry of the site still in the log (absent: before its floor). */
  async domainChanges(siteId: number, names: readonly string[]): Promise<Map<string, number>> {
    if (names.length === 0) return new Map();
    const rows = rowsOf<{ key: string; seq: Id }>(
      await this.db.execute(sql`SELECT key, max(seq) AS seq FROM dp_changes
        WHERE site_id = ${siteId} AND kind = 'domain'
          AND key IN (SELECT jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))
        GROUP BY key`),
    );
    return new Map(rows.map((r) => [r.key, Number(r.seq)]));
  }

  /** The plane sequence each of the operator's nodes last reported ('' none) and when it was last seen. */
  async reportedPlanes(ownerId: number): Promise<Map<number, { appliedPlane: string; lastSeenAt: Date | null }>> {
    const rows = rowsOf<{ id: Id; applied_plane: string; last_seen_at: Date | string | null }>(
      await this.db.execute(sql`SELECT id, applied_plane, last_seen_at FROM nodes WHERE owner_id = ${ownerId}`),
    );
    return new Map(
      rows.map((r) => [
        Number(r.id),
        { appliedPlane: r.applied_plane, lastSeenAt: r.last_seen_at === null ? null : new Date(r.last_seen_at) },
      ]),
    );
  }
}
