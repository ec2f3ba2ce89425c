import type { EdgeDomain, PlaneMeta } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { PlaneRepository } from './plane.repository.js';
import { writeEntries, writeMembership } from './plane-writes.js';
import {
  DOMAIN_FIELDS,
  entriesOf,
  parsed,
  type REFERENCES,
  type Rebuild,
  referenced,
  type SiteEntry,
} from './site-entries.js';
import type { SnapshotRepository } from './snapshot.repository.js';
import type { SnapshotBuilder } from './snapshot-builder.js';
import { type SiteLevelParts, siteLevelOf, uniqueNames } from './snapshot-plane.js';

/**
 * The control plane's half of the data plane as entries (docs/data-plane-deltas.md): builds the
 * entries of the sites the triggers marked dirty, once for every node, and keeps the change log.
 */

/** At most this many dirty sites per build transaction (the rest in the next round, at once). */
const SITES_PER_BUILD = 2000;
/** At most this many dirty domains per build transaction. */
const DOMAINS_PER_BUILD = 20_000;
/** A site with more dirty domains than this is rebuilt whole (one read of the site beats many per name). */
const DOMAINS_PER_SITE_REBUILD = 2000;
/** Sites whose end time passed are looked for at most this often per process. */
const EXPIRY_CHECK_MS = 1000;
/** The site-level parts of at most this many sites are kept in memory for per-domain rebuilds. */
const SITE_LEVEL_KEPT = 5000;
/** The forced-SSL redirect code entries are built with: the node's own travels in the meta. */
const ENTRY_FORCE_SSL_CODE = 301;

export interface LogRetention {
  /** Changes older than this are compacted away (a node further behind gets a full plane). */
  readonly ms: number;
  /** And beyond this many rows behind the head. */
  readonly rows: number;
}
export const DEFAULT_RETENTION: LogRetention = { ms: 3_600_000, rows: 200_000 };

export interface BuildOutcome {
  /** The log advanced (or planes changed). */
  readonly changed: boolean;
  /** Another process was building, or dirty rows are left: look again soon. */
  readonly again: boolean;
}

export class PlaneEntryBuilder {
  private running: Promise<BuildOutcome> | null = null;
  /** When this process last compacted the log (ms; 0: at its first build). */
  private compactedAt = 0;
  /** The log is compacted at most this often per process (a scan of the log: not on every build; tests shorten it). */
  compactEveryMs = 60_000;
  /** When this process last looked for sites whose end time passed (ms). */
  private expiryCheckedAt = 0;
  /**
   * Per site, its site-level parts (cache policy, settings, firewall) as of a parts version
   * (dp_site_parts: the dirty mark its last whole rebuild took; null: none since the table). Every
   * write to what they are made of marks the site dirty, and its whole rebuild moves the version:
   * a per-domain rebuild of a site that is not dirty, at the version kept, reuses them (seven reads
   * fewer per change of a domain). Another process's whole rebuild moves the version too.
   */
  private readonly siteLevel = new Map<number, { version: string | null; parts: SiteLevelParts }>();
  /** The dp_* tables. */
  private readonly plane: PlaneRepository;

  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    private readonly builder: SnapshotBuilder,
    private readonly repository: SnapshotRepository,
    private readonly clock: Clock,
    /** How long and how much of the log is kept (tests shorten it). */
    public retention: LogRetention = DEFAULT_RETENTION,
  ) {
    this.plane = new PlaneRepository(this.db);
  }

  /** Builds what is dirty (coalesced in this process: callers meanwhile share the one run). */
  build(): Promise<BuildOutcome> {
    if (!this.running) {
      this.running = this.buildOnce().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /**
   * The entries of `siteIds` as they are now, by site (a site with none: absent); with `levels`,
   * the site-level parts they were made with, by site (sites with domains only).
   */
  async siteEntries(
    siteIds: readonly number[],
    now: Date,
    levels?: Map<number, SiteLevelParts>,
  ): Promise<Map<number, SiteEntry[]>> {
    const out = new Map<number, SiteEntry[]>();
    const rows = await this.repository.domainsOfSites(siteIds, now);
    if (rows.length === 0) return out;
    const parts = await this.builder.siteParts(rows, ENTRY_FORCE_SSL_CODE);
    if (levels)
      for (const siteId of new Set(rows.map((row) => row[7]))) levels.set(siteId, siteLevelOf(parts.level, siteId));
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
    for (const [siteId, domains] of kept) out.set(siteId, entriesOf(siteId, domains, parts, challenges));
    return out;
  }

  /**
   * The entries of `domainIds` of one site, and of what they name (certificates, modules, …), with
   * the stored entries they stand for; null when the site must be rebuilt whole (its ACME entry
   * gathers the challenges of all its domains). A name is unique within a site, so a domain's entry
   * depends on its own row and the site's parts only.
   */
  async domainEntries(siteId: number, domainIds: readonly number[], now: Date): Promise<Rebuild | null> {
    // The domains' stored entries, whether the site has an ACME entry (one at most), and its parts
    // version and whether it is dirty itself (a row of kind 'parts'), in one read.
    const read = await this.plane.domainEntriesState(siteId, domainIds);
    if (read.some((r) => r.kind === 'acme')) return null;
    const stored = read.filter((r): r is { kind: string; key: string; value: unknown } => r.kind === 'domain');
    const oldNames = stored.map((r) => r.key);
    const rows = await this.repository.domainsOfSite(siteId, domainIds, oldNames, now);
    const state = read.find((r) => r.kind === 'parts');
    const version = state?.key ?? null;
    // A site marked dirty itself is read afresh (its whole rebuild, which moves the version, is due).
    const settled = state !== undefined && parsed(state.value) === false;
    const kept = this.siteLevel.get(siteId);
    const known = settled && kept?.version === version ? kept.parts : undefined;
    const parts = await this.builder.siteParts(rows, ENTRY_FORCE_SSL_CODE, known);
    if (settled && !known && rows.length > 0) this.keepSiteLevel(siteId, version, siteLevelOf(parts.level, siteId));
    const domains = uniqueNames(parts.domains, rows);
    if ((await this.builder.acmeChallenges(domains.map((d) => d.id))).length > 0) return null;
    const entries = entriesOf(siteId, domains, parts, []);
    const names = [...new Set([...oldNames, ...rows.map((row) => row[1])])];
    const scope = new Set(names.map((name) => `domain\0${name}`));
    for (const entry of entries) scope.add(`${entry.kind}\0${entry.key}`);
    // What the old entries named and the new do not: deleted unless another domain of the site names it.
    const named = referenced(domains);
    const gone = [...referenced(stored.map((r) => parsed(r.value) as EdgeDomain))]
      .filter((id) => !named.has(id))
      .map((id) => {
        const [kind, key] = id.split('\0') as [keyof typeof REFERENCES, string];
        return { kind, key };
      });
    if (gone.length > 0) {
      const still = new Set(
        (await this.plane.stillNamed(siteId, gone, names, DOMAIN_FIELDS)).map((r) => `${r.kind}\0${r.key}`),
      );
      for (const { kind, key } of gone) if (!still.has(`${kind}\0${key}`)) scope.add(`${kind}\0${key}`);
    }
    return { entries, scope };
  }

  /**
   * Marks dirty the sites whose end time passed since the last look (no write tells of it): the
   * plane drops them within a second of a build after it, as the snapshot path within its cache.
   */
  private async markEnded(now: Date): Promise<void> {
    if (now.getTime() - this.expiryCheckedAt < EXPIRY_CHECK_MS) return;
    this.expiryCheckedAt = now.getTime();
    const at = now.toISOString();
    await this.transactions.run(() => this.plane.markEndedSites(at));
  }

  private async buildOnce(): Promise<BuildOutcome> {
    const now = new Date(this.clock());
    await this.markEnded(now);
    // The marks in one read: the dirty sites, the domain marks of the sites rebuilt whole (all of
    // them: none is left to rebuild the site again), of the others a bounded number per build, and
    // the membership mark.
    type DomainMark = { site_id: string | number; domain_id: string | number; mark: string | number };
    const read = await this.plane.dirtyMarks(SITES_PER_BUILD, DOMAINS_PER_BUILD);
    const dirty = read.filter((r) => r.t === 's').sort((a, b) => Number(a.site_id) - Number(b.site_id));
    const byDomain = (a: DomainMark, b: DomainMark) =>
      Number(a.site_id) - Number(b.site_id) || Number(a.domain_id) - Number(b.domain_id);
    const dirtyDomains: DomainMark[] = [
      ...read.filter((r) => r.t === 'w'),
      ...read.filter((r) => r.t === 'd').sort(byDomain),
    ];
    const membership = read.find((r) => r.t === 'm');
    if (dirty.length === 0 && dirtyDomains.length === 0 && !membership) return { changed: false, again: false };
    const marks = dirty.slice(0, SITES_PER_BUILD).map((d) => ({ site: Number(d.site_id), mark: Number(d.mark) }));
    const wholeSites = new Set(marks.map((m) => m.site));
    const others = dirtyDomains.filter((d) => !wholeSites.has(Number(d.site_id)));
    const more = dirty.length > SITES_PER_BUILD || others.length > DOMAINS_PER_BUILD;
    const domainMarks = [
      ...dirtyDomains.filter((d) => wholeSites.has(Number(d.site_id))),
      ...others.slice(0, DOMAINS_PER_BUILD),
    ].map((d) => ({
      site: Number(d.site_id),
      domain: Number(d.domain_id),
      mark: Number(d.mark),
    }));
    // Read after the marks: every write that set a mark read here is in what is built. A site marked
    // itself is rebuilt whole (its domains' marks go with it); else only its marked domains, or the
    // whole site when many are.
    const domainsBySite = new Map<number, number[]>();
    for (const m of domainMarks) {
      if (wholeSites.has(m.site)) continue;
      const list = domainsBySite.get(m.site) ?? [];
      list.push(m.domain);
      domainsBySite.set(m.site, list);
    }
    // A site with many marked domains is rebuilt whole, and takes all its domain marks (not only those read).
    const many = [...domainsBySite]
      .filter(([, ids]) => ids.length > DOMAINS_PER_SITE_REBUILD)
      .map(([siteId]) => siteId);
    if (many.length > 0) {
      const read = new Set(domainMarks.map((m) => `${m.site}:${m.domain}`));
      for (const d of await this.plane.domainMarksOfSites(many)) {
        const m = { site: Number(d.site_id), domain: Number(d.domain_id), mark: Number(d.mark) };
        if (read.has(`${m.site}:${m.domain}`)) continue;
        domainMarks.push(m);
        domainsBySite.get(m.site)?.push(m.domain);
      }
    }
    const rebuilds = new Map<number, Rebuild>();
    const whole = marks.map((m) => m.site);
    for (const [siteId, domainIds] of domainsBySite) {
      const one = domainIds.length > DOMAINS_PER_SITE_REBUILD ? null : await this.domainEntries(siteId, domainIds, now);
      if (one) rebuilds.set(siteId, one);
      else whole.push(siteId);
    }
    const levels = new Map<number, SiteLevelParts>();
    for (const [siteId, entries] of await this.siteEntries(whole, now, levels)) {
      rebuilds.set(siteId, { entries, scope: null });
    }
    for (const siteId of whole) if (!rebuilds.has(siteId)) rebuilds.set(siteId, { entries: [], scope: null });
    const planes =
      membership === undefined
        ? null
        : await Promise.all(
            (await this.plane.planeKeys()).map(async (p) => ({
              id: Number(p.plane_id),
              sites: await this.sitesOfKey(p.plane_key),
            })),
          );
    const outcome = await this.transactions.run(async () => {
      // The builder's lock if free, and then the log's.
      if (!(await this.plane.lockForBuild())) return { changed: false, again: true };
      let changed = false;
      // Only marks unchanged since read: a write since marked it again for the next build. A mark
      // taken is the site's new parts version (what its site-level parts were read at).
      const takenMarks = marks.length ? await this.plane.takeSiteMarks(marks) : [];
      const taken = new Set(takenMarks.map((r) => Number(r.site_id)));
      const takenDomains = domainMarks.length
        ? (await this.plane.takeDomainMarks(domainMarks)).map((r) => ({
            site: Number(r.site_id),
            domain: Number(r.domain_id),
          }))
        : [];
      // A site built from its domains' marks is written only when all of them were taken (a write
      // since may have been built by another process already): the taken ones are marked again.
      const takenCount = new Map<number, number>();
      for (const m of takenDomains) takenCount.set(m.site, (takenCount.get(m.site) ?? 0) + 1);
      const write = new Map<number, Rebuild>();
      const again: { site: number; domain: number }[] = [];
      for (const [siteId, rebuild] of rebuilds) {
        if (taken.has(siteId)) write.set(siteId, rebuild);
        else if (!wholeSites.has(siteId)) {
          if ((takenCount.get(siteId) ?? 0) === domainsBySite.get(siteId)?.length) write.set(siteId, rebuild);
          else again.push(...takenDomains.filter((m) => m.site === siteId));
        }
      }
      // The domain marks of a whole site not taken (re-marked since) stay away with nothing written: mark them again.
      for (const siteId of wholeSites) {
        if (!taken.has(siteId)) again.push(...takenDomains.filter((m) => m.site === siteId));
      }
      if (again.length > 0) await this.plane.markDomains(again);
      if (write.size > 0) changed = (await writeEntries(this.plane, write)) || changed;
      if (membership !== undefined && planes) {
        const cleared = await this.plane.clearMembershipMark(Number(membership.mark));
        // The head moves past the membership's changes (writeEntries moved it past its own).
        if (cleared && (await writeMembership(this.plane, planes))) {
          changed = true;
          await this.plane.headPastMembership();
        }
      }
      if (this.clock() - this.compactedAt >= this.compactEveryMs) {
        this.compactedAt = this.clock();
        await this.compact();
      }
      return {
        changed,
        again: more || write.size < rebuilds.size || again.length > 0,
        versions: takenMarks.map((r) => ({ site: Number(r.site_id), version: String(r.mark) })),
      };
    });
    // Committed: the whole sites' parts are the ones of their new version.
    for (const { site, version } of outcome.versions ?? []) {
      const level = levels.get(site);
      if (level) this.keepSiteLevel(site, version, level);
      else this.siteLevel.delete(site);
    }
    return { changed: outcome.changed, again: outcome.again };
  }

  private keepSiteLevel(siteId: number, version: string | null, parts: SiteLevelParts): void {
    this.siteLevel.delete(siteId);
    if (this.siteLevel.size >= SITE_LEVEL_KEPT) {
      const oldest = this.siteLevel.keys().next().value;
      if (oldest !== undefined) this.siteLevel.delete(oldest);
    }
    this.siteLevel.set(siteId, { version, parts });
  }

  /** The sites a plane key (`owner|groups`) serves now. */
  async sitesOfKey(planeKey: string): Promise<number[]> {
    const [owner, groups] = planeKey.split('|');
    const groupIds = groups ? groups.split(',').map(Number) : [];
    return this.repository.planeSiteIds(Number(owner), groupIds);
  }

  /** Drops changes older than the retention, or beyond its row count; a `since` below the floor gets a full plane. */
  private async compact(): Promise<void> {
    const cutoff = new Date(this.clock() - this.retention.ms).toISOString();
    await this.plane.compact(cutoff, this.retention.rows);
  }

  /** Runs `fn` holding the log's lock shared (in one transaction): what it reads is one version. */
  readConsistent<T>(fn: () => Promise<T>): Promise<T> {
    return this.transactions.run(async () => {
      await this.plane.lockLogShared();
      return fn();
    });
  }

  /** Runs `fn` holding the log's lock exclusively (in one transaction): a plane made starts at one version. */
  readConsistentExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.transactions.run(async () => {
      await this.plane.lockLog();
      return fn();
    });
  }

  /** The node's plane key: its owner and groups (none when it serves nothing). */
  static planeKey(ownerId: number, groupIds: readonly number[]): string {
    return `${ownerId}|${groupIds.join(',')}`;
  }
}

export type { PlaneMeta };
