import type { PlaneEntryKind, PlaneMeta } from '@rampart/contract';
import { entryHash } from '@rampart/contract/plane-hash';
import { type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import type { SnapshotRepository } from './snapshot.repository.js';
import { type SnapshotBuilder, uniqueNames, usedParts } from './snapshot-builder.js';

/**
 * The control plane's half of the data plane as entries (docs/data-plane-deltas.md): builds the
 * entries of the sites the triggers marked dirty, once for every node, and keeps the change log.
 */

/** One builder at a time across processes (pg_try_advisory_xact_lock); the others skip. */
const BUILD_LOCK = 0x5250_4450; // "RPDP"
/** Writers of the log hold this exclusively, readers of a consistent answer shared. */
const LOG_LOCK = 0x5250_444c; // "RPDL"
/** At most this many dirty sites per build transaction (the rest in the next round, at once). */
const SITES_PER_BUILD = 2000;
/** The forced-SSL redirect code entries are built with: the node's own travels in the meta. */
const ENTRY_FORCE_SSL_CODE = 301;

export interface LogRetention {
  /** Changes older than this are compacted away (a node further behind gets a full plane). */
  readonly ms: number;
  /** And beyond this many rows behind the head. */
  readonly rows: number;
}
export const DEFAULT_RETENTION: LogRetention = { ms: 3_600_000, rows: 200_000 };

export interface SiteEntry {
  readonly kind: PlaneEntryKind;
  readonly key: string;
  readonly hash: string;
  readonly value: unknown;
}

export interface BuildOutcome {
  /** The log advanced (or planes changed). */
  readonly changed: boolean;
  /** Another process was building, or dirty rows are left: look again soon. */
  readonly again: boolean;
}

export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The order in which one entry of a `(kind, key)` several sites of a plane hold is chosen: served first, then the lowest id. */
export const PREFERRED_ENTRY = sql.raw(
  `(e.kind = 'domain' AND (e.value->>'enabled')::boolean) DESC, (e.value->>'id')::bigint NULLS LAST, e.site_id`,
);

export class PlaneEntryBuilder {
  private running: Promise<BuildOutcome> | null = null;

  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    private readonly builder: SnapshotBuilder,
    private readonly repository: SnapshotRepository,
    private readonly clock: Clock,
    /** How long and how much of the log is kept (tests shorten it). */
    public retention: LogRetention = DEFAULT_RETENTION,
  ) {}

  /** Builds what is dirty (coalesced in this process: callers meanwhile share the one run). */
  build(): Promise<BuildOutcome> {
    if (!this.running) {
      this.running = this.buildOnce().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /** The entries of `siteIds` as they are now, by site (a site with none: absent). */
  async siteEntries(siteIds: readonly number[], now: Date): Promise<Map<number, SiteEntry[]>> {
    const out = new Map<number, SiteEntry[]>();
    const rows = await this.repository.domainsOfSites(siteIds, now);
    if (rows.length === 0) return out;
    const parts = await this.builder.siteParts(rows, ENTRY_FORCE_SSL_CODE);
    const rowsBySite = new Map<number, typeof rows>();
    for (const row of rows) {
      const list = rowsBySite.get(row[7]) ?? [];
      list.push(row);
      rowsBySite.set(row[7], list);
    }
    const kept = new Map<number, ReturnType<typeof uniqueNames>>();
    for (const [siteId, siteRows] of rowsBySite) {
      kept.set(
        siteId,
        uniqueNames(
          parts.domains.filter((d) => parts.siteOf.get(d.id) === siteId),
          siteRows,
        ),
      );
    }
    const domainIds = [...kept.values()].flatMap((domains) => domains.map((d) => d.id));
    const challenges = await this.builder.acmeChallenges(domainIds);
    for (const [siteId, domains] of kept) {
      const entries: SiteEntry[] = [];
      const add = (kind: PlaneEntryKind, key: string, value: unknown) =>
        entries.push({ kind, key, value, hash: entryHash(kind, key, value) });
      for (const { forceSSLCode: _code, ...domain } of domains) add('domain', domain.name, domain);
      const used = usedParts(domains, parts);
      for (const cert of used.certificates) add('certificate', String(cert.id), cert);
      for (const policy of used.caches) add('cache', String(policy.id), policy);
      for (const module of used.modules) add('module', String(module.id), module);
      for (const settings of used.settings) add('settings', String(settings.id), settings);
      for (const firewall of used.firewalls) add('firewall', String(firewall.id), firewall);
      const hosts = new Set(domains.map((d) => d.name));
      const own = challenges.filter((c) => hosts.has(c.host));
      if (own.length > 0) add('acme', String(siteId), own);
      out.set(siteId, entries);
    }
    return out;
  }

  private async buildOnce(): Promise<BuildOutcome> {
    const dirty = rowsOf<{ site_id: string | number; mark: string | number }>(
      await this.db.execute(
        sql`SELECT site_id, mark FROM dp_dirty_sites ORDER BY site_id LIMIT ${SITES_PER_BUILD + 1}`,
      ),
    );
    const membership = rowsOf<{ mark: string | number }>(
      await this.db.execute(sql`SELECT mark FROM dp_dirty_membership WHERE id = 1`),
    )[0];
    if (dirty.length === 0 && !membership) return { changed: false, again: false };
    const more = dirty.length > SITES_PER_BUILD;
    const marks = dirty.slice(0, SITES_PER_BUILD).map((d) => ({ site: Number(d.site_id), mark: Number(d.mark) }));
    // Read after the marks: every write that set a mark read here is in what is built.
    const built = await this.siteEntries(
      marks.map((m) => m.site),
      new Date(this.clock()),
    );
    const planes =
      membership === undefined
        ? null
        : await Promise.all(
            rowsOf<{ plane_id: string | number; plane_key: string }>(
              await this.db.execute(sql`SELECT plane_id, plane_key FROM dp_planes`),
            ).map(async (p) => ({ id: Number(p.plane_id), sites: await this.sitesOfKey(p.plane_key) })),
          );
    const outcome = await this.transactions.run(async () => {
      const [lock] = rowsOf<{ ok: boolean }>(
        await this.db.execute(sql`SELECT pg_try_advisory_xact_lock(${BUILD_LOCK}) AS ok`),
      );
      if (!lock?.ok) return { changed: false, again: true };
      await this.db.execute(sql`SELECT pg_advisory_xact_lock(${LOG_LOCK})`);
      let changed = false;
      // Only sites whose mark is unchanged since read: a write since marked it again for the next build.
      const taken = marks.length
        ? rowsOf<{ site_id: string | number }>(
            await this.db.execute(sql`
              DELETE FROM dp_dirty_sites d USING jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) AS x(site bigint, mark bigint)
              WHERE d.site_id = x.site AND d.mark = x.mark RETURNING d.site_id`),
          ).map((r) => Number(r.site_id))
        : [];
      if (taken.length > 0) changed = (await this.writeEntries(taken, built)) || changed;
      if (membership !== undefined && planes) {
        const [cleared] = rowsOf<{ id: number }>(
          await this.db.execute(
            sql`DELETE FROM dp_dirty_membership WHERE id = 1 AND mark = ${Number(membership.mark)} RETURNING id`,
          ),
        );
        if (cleared) changed = (await this.writeMembership(planes)) || changed;
      }
      if (changed) {
        await this.db.execute(sql`UPDATE dp_state SET head = greatest(head,
          (SELECT coalesce(max(seq), 0) FROM dp_changes), (SELECT coalesce(max(seq), 0) FROM dp_plane_changes)) WHERE id = 1`);
      }
      await this.compact();
      return { changed, again: more || taken.length < marks.length };
    });
    return outcome;
  }

  /** The sites a plane key (`owner|groups`) serves now. */
  async sitesOfKey(planeKey: string): Promise<number[]> {
    const [owner, groups] = planeKey.split('|');
    const groupIds = groups ? groups.split(',').map(Number) : [];
    return this.repository.planeSiteIds(Number(owner), groupIds);
  }

  /** Writes the sites' entries that differ from the stored ones to dp_entries and dp_changes. */
  private async writeEntries(siteIds: number[], built: Map<number, SiteEntry[]>): Promise<boolean> {
    const stored = rowsOf<{ site_id: string | number; kind: string; key: string; hash: string }>(
      await this.db.execute(sql`SELECT site_id, kind, key, hash FROM dp_entries
        WHERE site_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(siteIds)}::jsonb)::bigint)`),
    );
    const old = new Map(stored.map((r) => [`${r.site_id}\0${r.kind}\0${r.key}`, r.hash]));
    const puts: { site_id: number; kind: string; key: string; hash: string; value: unknown }[] = [];
    const dels: { site_id: number; kind: string; key: string }[] = [];
    for (const siteId of siteIds) {
      const seen = new Set<string>();
      for (const entry of built.get(siteId) ?? []) {
        const id = `${siteId}\0${entry.kind}\0${entry.key}`;
        seen.add(id);
        if (old.get(id) !== entry.hash) puts.push({ site_id: siteId, ...entry });
      }
      for (const r of stored) {
        if (Number(r.site_id) !== siteId) continue;
        if (!seen.has(`${siteId}\0${r.kind}\0${r.key}`)) dels.push({ site_id: siteId, kind: r.kind, key: r.key });
      }
    }
    if (puts.length === 0 && dels.length === 0) return false;
    const recordset = (rows: unknown[], columns: SQL) =>
      sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${columns})`;
    if (puts.length > 0) {
      const x = recordset(puts, sql.raw('site_id bigint, kind text, key text, hash text, value jsonb'));
      await this.db.execute(sql`INSERT INTO dp_entries (site_id, kind, key, hash, value)
        SELECT site_id, kind, key, hash, value FROM ${x}
        ON CONFLICT (site_id, kind, key) DO UPDATE SET hash = EXCLUDED.hash, value = EXCLUDED.value`);
    }
    if (dels.length > 0) {
      const x = recordset(dels, sql.raw('site_id bigint, kind text, key text'));
      await this.db.execute(
        sql`DELETE FROM dp_entries e USING ${x} WHERE e.site_id = x.site_id AND e.kind = x.kind AND e.key = x.key`,
      );
    }
    const changes = [...puts, ...dels.map((d) => ({ ...d, hash: null, value: null }))];
    const x = recordset(changes, sql.raw('site_id bigint, kind text, key text, hash text, value jsonb'));
    await this.db.execute(sql`INSERT INTO dp_changes (seq, site_id, kind, key, hash, value)
      SELECT nextval('dp_seq'), site_id, kind, key, hash, value FROM ${x}`);
    return true;
  }

  /** Records the sites that joined or left each plane, and its new site set. */
  private async writeMembership(planes: { id: number; sites: number[] }[]): Promise<boolean> {
    let changed = false;
    for (const plane of planes) {
      const [row] = rowsOf<{ site_ids: unknown }>(
        await this.db.execute(sql`SELECT to_jsonb(site_ids) AS site_ids FROM dp_planes WHERE plane_id = ${plane.id}`),
      );
      if (!row) continue;
      const raw = typeof row.site_ids === 'string' ? JSON.parse(row.site_ids) : row.site_ids;
      const before = new Set((raw as (string | number)[]).map(Number));
      const after = new Set(plane.sites);
      const moves = [
        ...plane.sites.filter((s) => !before.has(s)).map((s) => ({ site_id: s, added: true })),
        ...[...before].filter((s) => !after.has(s)).map((s) => ({ site_id: s, added: false })),
      ];
      if (moves.length === 0) continue;
      changed = true;
      await this.db.execute(sql`INSERT INTO dp_plane_changes (seq, plane_id, site_id, added)
        SELECT nextval('dp_seq'), ${plane.id}, site_id, added
        FROM jsonb_to_recordset(${JSON.stringify(moves)}::jsonb) AS x(site_id bigint, added boolean)`);
      await this.db.execute(sql`UPDATE dp_planes SET site_ids = ARRAY(
        SELECT jsonb_array_elements_text(${JSON.stringify(plane.sites)}::jsonb)::bigint) WHERE plane_id = ${plane.id}`);
    }
    return changed;
  }

  /** Drops changes older than the retention, or beyond its row count; a `since` below the floor gets a full plane. */
  private async compact(): Promise<void> {
    const cutoff = new Date(this.clock() - this.retention.ms).toISOString();
    const [dropped] = rowsOf<{ upto: string | number | null }>(
      await this.db.execute(sql`
        WITH s AS (SELECT head FROM dp_state WHERE id = 1),
        a AS (DELETE FROM dp_changes WHERE created_at < ${cutoff}::timestamptz
                OR seq <= (SELECT head FROM s) - ${this.retention.rows} RETURNING seq),
        b AS (DELETE FROM dp_plane_changes WHERE created_at < ${cutoff}::timestamptz
                OR seq <= (SELECT head FROM s) - ${this.retention.rows} RETURNING seq)
        SELECT greatest((SELECT max(seq) FROM a), (SELECT max(seq) FROM b)) AS upto`),
    );
    if (dropped?.upto === null || dropped?.upto === undefined) return;
    await this.db.execute(sql`UPDATE dp_state SET floor = greatest(floor, ${Number(dropped.upto)}) WHERE id = 1`);
    await this.db.execute(sql`DELETE FROM dp_plane_versions WHERE seq < (SELECT floor FROM dp_state WHERE id = 1)`);
  }

  /** Runs `fn` holding the log's lock shared (in one transaction): what it reads is one version. */
  readConsistent<T>(fn: () => Promise<T>): Promise<T> {
    return this.transactions.run(async () => {
      await this.db.execute(sql`SELECT pg_advisory_xact_lock_shared(${LOG_LOCK})`);
      return fn();
    });
  }

  /** Runs `fn` holding the log's lock exclusively (in one transaction): a plane made starts at one version. */
  readConsistentExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.transactions.run(async () => {
      await this.db.execute(sql`SELECT pg_advisory_xact_lock(${LOG_LOCK})`);
      return fn();
    });
  }

  /** The node's plane key: its owner and groups (none when it serves nothing). */
  static planeKey(ownerId: number, groupIds: readonly number[]): string {
    return `${ownerId}|${groupIds.join(',')}`;
  }
}

export type { PlaneMeta };
