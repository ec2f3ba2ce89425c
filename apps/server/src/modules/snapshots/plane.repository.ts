import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { rowsOf } from '../../platform/db/rows.js';

/**
 * The data plane's tables (dp_*, docs/data-plane-deltas.md) as the builder (plane-entries.ts) reads
 * and writes them: the entries by site, the change log, the planes' site sets, the dirty marks the
 * triggers set, the log's state and its locks. What the answers read is plane-reads.repository.ts.
 * Each method runs on the caller's transaction, if any.
 */

/** One builder at a time across processes (pg_try_advisory_xact_lock); the others skip. */
const BUILD_LOCK = 0x5250_4450; // "RPDP"
/** Writers of the log hold this exclusively, readers of a consistent answer shared. */
const LOG_LOCK = 0x5250_444c; // "RPDL"

type Id = string | number;
/** A stored entry as the builder compares it. */
export interface StoredEntryRow {
  site_id: Id;
  kind: string;
  key: string;
  hash: string;
}
/** The marks of a build: dirty sites ('s'), the domains of those rebuilt whole ('w') and of the others ('d'), membership ('m'). */
export interface DirtyMarkRow {
  t: 's' | 'w' | 'd' | 'm';
  site_id: Id;
  domain_id: Id;
  mark: Id;
}
export interface DomainMarkRow {
  site_id: Id;
  domain_id: Id;
  mark: Id;
}
export interface EntryWrite {
  site_id: number;
  kind: string;
  key: string;
  hash: string | null;
  value: unknown;
}
export interface EntryRef {
  site_id: number;
  kind: string;
  key: string;
}

const ids = (list: readonly number[]) => JSON.stringify(list);
const recordset = (rows: unknown[], columns: SQL) =>
  sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${columns})`;

export class PlaneRepository {
  constructor(private readonly db: Db) {}

  // ---- locks ------------------------------------------------------------------------------------

  /** The builder's lock if free, and then (only then: CASE evaluates the branch taken) the log's. */
  async lockForBuild(): Promise<boolean> {
    const [lock] = rowsOf<{ ok: boolean }>(
      await this.db.execute(sql`SELECT CASE WHEN pg_try_advisory_xact_lock(${BUILD_LOCK})
          THEN pg_advisory_xact_lock(${LOG_LOCK})::text = '' ELSE false END AS ok`),
    );
    return lock?.ok === true;
  }

  async lockLogShared(): Promise<void> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock_shared(${LOG_LOCK})`);
  }

  async lockLog(): Promise<void> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock(${LOG_LOCK})`);
  }

  // ---- the builder's reads ---------------------------------------------------------------------

  /**
   * A site's stored entries of `domainIds` (kind 'domain', with their values), its ACME entry if
   * any (kind 'acme'), and one row of kind 'parts': its parts version as `key`, and as `value`
   * whether it is marked dirty itself.
   */
  async domainEntriesState(
    siteId: number,
    domainIds: readonly number[],
  ): Promise<{ kind: string; key: string | null; value: unknown }[]> {
    return rowsOf<{ kind: string; key: string | null; value: unknown }>(
      await this.db.execute(sql`SELECT kind, key, CASE WHEN kind = 'domain' THEN value END AS value FROM dp_entries
        WHERE site_id = ${siteId} AND (kind = 'acme' OR kind = 'domain'
          AND domain_id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(domainIds)}::jsonb)::bigint)))
        UNION ALL SELECT 'parts', (SELECT version::text FROM dp_site_parts WHERE site_id = ${siteId}),
          to_jsonb(EXISTS (SELECT 1 FROM dp_dirty_sites WHERE site_id = ${siteId}))`),
    );
  }

  /**
   * Of the `(kind, key)` references, those a domain entry of the site other than `names` still
   * names: by the field `domainFields` gives per kind, or (kind 'module') among its modules.
   */
  async stillNamed(
    siteId: number,
    refs: readonly { kind: string; key: string }[],
    names: readonly string[],
    domainFields: Readonly<Record<string, string>>,
  ): Promise<{ kind: string; key: string }[]> {
    const field = sql.raw(
      `CASE r.kind ${Object.entries(domainFields)
        .map(([kind, name]) => `WHEN '${kind}' THEN e.value->>'${name}' = r.key`)
        .join(' ')}
          WHEN 'module' THEN jsonb_typeof(e.value->'modules') = 'object'
            AND EXISTS (SELECT 1 FROM jsonb_each_text(e.value->'modules') m WHERE m.value = r.key) END`,
    );
    return rowsOf<{ kind: string; key: string }>(
      await this.db.execute(sql`SELECT r.kind, r.key FROM jsonb_to_recordset(${JSON.stringify(refs)}::jsonb) AS r(kind text, key text)
            WHERE EXISTS (SELECT 1 FROM dp_entries e WHERE e.site_id = ${siteId} AND e.kind = 'domain'
              AND e.key NOT IN (SELECT jsonb_array_elements_text(${JSON.stringify(names)}::jsonb)) AND ${field})`),
    );
  }

  /**
   * Marks dirty the sites whose end time passed since the last look recorded (at most `at`), and
   * records `at` as looked at. Run in a transaction: the state row is locked for it.
   */
  async markEndedSites(at: string): Promise<void> {
    const [state] = rowsOf<{ checked: string | null }>(
      await this.db.execute(sql`SELECT expiry_checked_at::text AS checked FROM dp_state WHERE id = 1 FOR UPDATE`),
    );
    if (!state) return;
    await this.db.execute(sql`INSERT INTO dp_dirty_sites (site_id, mark)
        SELECT id, nextval('dp_mark_seq') FROM sites
        WHERE expires_at <= ${at}::timestamptz AND (${state.checked}::timestamptz IS NULL OR expires_at > ${state.checked}::timestamptz)
        ON CONFLICT (site_id) DO UPDATE SET mark = EXCLUDED.mark`);
    await this.db.execute(
      sql`UPDATE dp_state SET expiry_checked_at = greatest(expiry_checked_at, ${at}::timestamptz) WHERE id = 1`,
    );
  }

  /**
   * The marks in one read: the dirty sites (one more than `sites`, to tell whether more are left),
   * the domain marks of the first `sites` of them (all), of the others at most `domains` + 1, and
   * the membership mark.
   */
  async dirtyMarks(sites: number, domains: number): Promise<DirtyMarkRow[]> {
    return rowsOf<DirtyMarkRow>(
      await this.db.execute(sql`
        WITH s AS (SELECT site_id, mark FROM dp_dirty_sites ORDER BY site_id LIMIT ${sites + 1}),
        w AS (SELECT site_id FROM s ORDER BY site_id LIMIT ${sites})
        SELECT 's' AS t, site_id, NULL::bigint AS domain_id, mark FROM s
        UNION ALL SELECT 'w', d.site_id, d.domain_id, d.mark FROM dp_dirty_domains d WHERE d.site_id IN (SELECT site_id FROM w)
        UNION ALL (SELECT 'd', d.site_id, d.domain_id, d.mark FROM dp_dirty_domains d
          WHERE d.site_id NOT IN (SELECT site_id FROM w) ORDER BY d.site_id, d.domain_id LIMIT ${domains + 1})
        UNION ALL SELECT 'm', NULL, NULL, mark FROM dp_dirty_membership WHERE id = 1`),
    );
  }

  /** Every domain mark of the sites. */
  async domainMarksOfSites(siteIds: readonly number[]): Promise<DomainMarkRow[]> {
    return rowsOf<DomainMarkRow>(
      await this.db.execute(sql`SELECT site_id, domain_id, mark FROM dp_dirty_domains
          WHERE site_id IN (SELECT jsonb_array_elements_text(${ids(siteIds)}::jsonb)::bigint)`),
    );
  }

  async planeKeys(): Promise<{ plane_id: Id; plane_key: string }[]> {
    return rowsOf<{ plane_id: Id; plane_key: string }>(
      await this.db.execute(sql`SELECT plane_id, plane_key FROM dp_planes`),
    );
  }

  // ---- the builder's writes (under the build lock) -----------------------------------------------

  /**
   * Takes the site marks unchanged since read (a write since marked the site again for the next
   * build); a mark taken becomes the site's parts version. Answers those taken.
   */
  async takeSiteMarks(marks: readonly { site: number; mark: number }[]): Promise<{ site_id: Id; mark: Id }[]> {
    return rowsOf<{ site_id: Id; mark: Id }>(
      await this.db.execute(sql`
              WITH taken AS (DELETE FROM dp_dirty_sites d
                USING jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) AS x(site bigint, mark bigint)
                WHERE d.site_id = x.site AND d.mark = x.mark RETURNING d.site_id, d.mark),
              versions AS (INSERT INTO dp_site_parts (site_id, version) SELECT site_id, mark FROM taken
                ON CONFLICT (site_id) DO UPDATE SET version = EXCLUDED.version)
              SELECT site_id, mark FROM taken`),
    );
  }

  /** Takes the domain marks unchanged since read; answers those taken. */
  async takeDomainMarks(
    marks: readonly { site: number; domain: number; mark: number }[],
  ): Promise<{ site_id: Id; domain_id: Id }[]> {
    return rowsOf<{ site_id: Id; domain_id: Id }>(
      await this.db.execute(sql`
              DELETE FROM dp_dirty_domains d
              USING jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) AS x(site bigint, domain bigint, mark bigint)
              WHERE d.site_id = x.site AND d.domain_id = x.domain AND d.mark = x.mark RETURNING d.site_id, d.domain_id`),
    );
  }

  /** Marks the domains dirty again (with new marks). */
  async markDomains(domains: readonly { site: number; domain: number }[]): Promise<void> {
    await this.db.execute(sql`INSERT INTO dp_dirty_domains (site_id, domain_id, mark)
          SELECT site, domain, nextval('dp_mark_seq') FROM jsonb_to_recordset(${JSON.stringify(domains)}::jsonb) AS x(site bigint, domain bigint)
          ON CONFLICT (site_id, domain_id) DO UPDATE SET mark = EXCLUDED.mark`);
  }

  /** Clears the membership mark if it is still `mark`; whether it was. */
  async clearMembershipMark(mark: number): Promise<boolean> {
    const [cleared] = rowsOf<{ id: number }>(
      await this.db.execute(sql`DELETE FROM dp_dirty_membership WHERE id = 1 AND mark = ${mark} RETURNING id`),
    );
    return cleared !== undefined;
  }

  /** Moves the head past the membership changes logged. */
  async headPastMembership(): Promise<void> {
    await this.db.execute(sql`UPDATE dp_state SET head = greatest(head,
            (SELECT coalesce(max(seq), 0) FROM dp_plane_changes)) WHERE id = 1`);
  }

  /** The stored entries of the sites. */
  async entriesOfSites(siteIds: readonly number[]): Promise<StoredEntryRow[]> {
    return rowsOf<StoredEntryRow>(
      await this.db.execute(sql`SELECT site_id, kind, key, hash FROM dp_entries
              WHERE site_id IN (SELECT jsonb_array_elements_text(${ids(siteIds)}::jsonb)::bigint)`),
    );
  }

  /** The stored entries among `refs`. */
  async entriesIn(refs: readonly { site_id: number; kind: string | undefined; key: string | undefined }[]) {
    return rowsOf<StoredEntryRow>(
      await this.db.execute(sql`SELECT e.site_id, e.kind, e.key, e.hash FROM dp_entries e
              JOIN jsonb_to_recordset(${JSON.stringify(refs)}::jsonb) AS x(site_id bigint, kind text, key text)
                ON e.site_id = x.site_id AND e.kind = x.kind AND e.key = x.key`),
    );
  }

  /** Writes the entries (a domain's with its domain id). */
  async putEntries(puts: EntryWrite[]): Promise<void> {
    const x = recordset(puts, sql.raw('site_id bigint, kind text, key text, hash text, value jsonb'));
    await this.db.execute(sql`INSERT INTO dp_entries (site_id, kind, key, hash, value, domain_id)
        SELECT site_id, kind, key, hash, value, CASE WHEN kind = 'domain' THEN (value->>'id')::bigint END FROM ${x}
        ON CONFLICT (site_id, kind, key) DO UPDATE SET hash = EXCLUDED.hash, value = EXCLUDED.value, domain_id = EXCLUDED.domain_id`);
  }

  async deleteEntries(dels: EntryRef[]): Promise<void> {
    const x = recordset(dels, sql.raw('site_id bigint, kind text, key text'));
    await this.db.execute(
      sql`DELETE FROM dp_entries e USING ${x} WHERE e.site_id = x.site_id AND e.kind = x.kind AND e.key = x.key`,
    );
  }

  /**
   * In one statement: the changes logged, the planes serving one of `sites` changed at their last
   * sequence (a held poll of another plane keeps holding), and the head moved there. Builds are one
   * at a time (the log's lock), so this build's last sequence is the log's last.
   */
  async logChanges(changes: EntryWrite[], sites: readonly number[]): Promise<void> {
    const x = recordset(changes, sql.raw('site_id bigint, kind text, key text, hash text, value jsonb'));
    await this.db.execute(sql`WITH logged AS (INSERT INTO dp_changes (seq, site_id, kind, key, hash, value)
        SELECT nextval('dp_seq'), site_id, kind, key, hash, value FROM ${x} RETURNING seq),
      last AS (SELECT max(seq) AS seq FROM logged),
      planes AS (UPDATE dp_planes SET changed_seq = (SELECT seq FROM last)
        WHERE site_ids && ARRAY(SELECT jsonb_array_elements_text(${ids(sites)}::jsonb)::bigint))
      UPDATE dp_state SET head = greatest(head, (SELECT seq FROM last)) WHERE id = 1`);
  }

  /** The sites a plane serves as recorded (undefined: no such plane). */
  async planeSites(planeId: number): Promise<number[] | undefined> {
    const [row] = rowsOf<{ site_ids: unknown }>(
      await this.db.execute(sql`SELECT to_jsonb(site_ids) AS site_ids FROM dp_planes WHERE plane_id = ${planeId}`),
    );
    if (!row) return undefined;
    const raw = typeof row.site_ids === 'string' ? JSON.parse(row.site_ids) : row.site_ids;
    return (raw as Id[]).map(Number);
  }

  /** Logs the sites that joined or left the plane and records its new site set. */
  async moveMembership(
    planeId: number,
    moves: readonly { site_id: number; added: boolean }[],
    sites: readonly number[],
  ): Promise<void> {
    await this.db.execute(sql`INSERT INTO dp_plane_changes (seq, plane_id, site_id, added)
        SELECT nextval('dp_seq'), ${planeId}, site_id, added
        FROM jsonb_to_recordset(${JSON.stringify(moves)}::jsonb) AS x(site_id bigint, added boolean)`);
    await this.db.execute(sql`UPDATE dp_planes SET site_ids = ARRAY(
        SELECT jsonb_array_elements_text(${ids(sites)}::jsonb)::bigint),
        changed_seq = (SELECT max(seq) FROM dp_plane_changes WHERE plane_id = ${planeId}) WHERE plane_id = ${planeId}`);
  }

  /**
   * Drops the changes older than `cutoff` or more than `rows` behind the head; then the floor
   * rises past the last dropped and the plane versions below it go.
   */
  async compact(cutoff: string, rows: number): Promise<void> {
    const [dropped] = rowsOf<{ upto: Id | null }>(
      await this.db.execute(sql`
        WITH s AS (SELECT head FROM dp_state WHERE id = 1),
        a AS (DELETE FROM dp_changes WHERE created_at < ${cutoff}::timestamptz
                OR seq <= (SELECT head FROM s) - ${rows} RETURNING seq),
        b AS (DELETE FROM dp_plane_changes WHERE created_at < ${cutoff}::timestamptz
                OR seq <= (SELECT head FROM s) - ${rows} RETURNING seq)
        SELECT greatest((SELECT max(seq) FROM a), (SELECT max(seq) FROM b)) AS upto`),
    );
    if (dropped?.upto === null || dropped?.upto === undefined) return;
    await this.db.execute(sql`UPDATE dp_state SET floor = greatest(floor, ${Number(dropped.upto)}) WHERE id = 1`);
    await this.db.execute(sql`DELETE FROM dp_plane_versions WHERE seq < (SELECT floor FROM dp_state WHERE id = 1)`);
  }
}
