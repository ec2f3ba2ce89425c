import {
  DASHBOARD_CARD_IDS,
  geoRegion,
  type Locale,
  SERIES_VALUES,
  STATISTICS_TOPS,
  type StatisticsCard,
  type StatisticsDomainRow,
  type StatisticsFilter,
  type StatisticsSeries,
  type StatisticsSeriesType,
  type StatisticsTopId,
  type StatisticsTopRow,
  type StatisticsUpstreamTimes,
  TRACKED_STATUS_CODES,
} from '@rampart/contract';
import type { Caller } from '../../platform/http/bind-route.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import { analyticsScope } from './analytics-scope.js';
import type { Dim } from './rollups.js';
import type { StatisticsReads } from './store/statistics-reads.js';
import type { Range, Scope, TopOrder } from './store/statistics-sql.js';

const TRACKED = new Set<number>(TRACKED_STATUS_CODES);

/** What each top-list id counts: the dimension and what orders it. */
export const TOP_SOURCES: Readonly<Record<StatisticsTopId, { dim: Dim | 'domain'; by: TopOrder }>> = {
  [STATISTICS_TOPS.country]: { dim: 'country', by: 'requests' },
  [STATISTICS_TOPS.city]: { dim: 'city', by: 'requests' },
  [STATISTICS_TOPS.referer]: { dim: 'referer', by: 'requests' },
  [STATISTICS_TOPS.blacklist]: { dim: 'ip', by: 'blacklisted' },
  [STATISTICS_TOPS.url]: { dim: 'url', by: 'requests' },
  [STATISTICS_TOPS.userAgent]: { dim: 'userAgent', by: 'requests' },
  [STATISTICS_TOPS.blockCountry]: { dim: 'country', by: 'blocked' },
  [STATISTICS_TOPS.blockCity]: { dim: 'city', by: 'blocked' },
  [STATISTICS_TOPS.attackMethods]: { dim: 'method', by: 'waf' },
  [STATISTICS_TOPS.attackDomains]: { dim: 'domain', by: 'waf' },
  [STATISTICS_TOPS.attackIPs]: { dim: 'ip', by: 'waf' },
  [STATISTICS_TOPS.status]: { dim: 'status', by: 'requests' },
  [STATISTICS_TOPS.method]: { dim: 'method', by: 'requests' },
  [STATISTICS_TOPS.httpVersion]: { dim: 'httpVersion', by: 'requests' },
  [STATISTICS_TOPS.scheme]: { dim: 'scheme', by: 'requests' },
  [STATISTICS_TOPS.fileType]: { dim: 'fileType', by: 'requests' },
  [STATISTICS_TOPS.ip]: { dim: 'ip', by: 'requests' },
  [STATISTICS_TOPS.domain]: { dim: 'domain', by: 'requests' },
};

/** The whole-second range of a filter's ISO times. */
export function rangeOf(filter: { startTime: string; endTime: string }): Range {
  return { start: Math.floor(Date.parse(filter.startTime) / 1000), end: Math.ceil(Date.parse(filter.endTime) / 1000) };
}

export type DomainSort = 'requests' | 'bytesOut' | 'blocked' | 'domain';

/**
 * The statistics calls (routes/statistics.ts; docs/decisions.md "Traffic analytics"). The caller's
 * sites come from the configuration database first — a customer's own and granted sites, an
 * operator's sites (of one customer when asked), narrowed to the sites and domains the filter names
 * — and every analytics read carries them (store/statistics-reads.ts); an operator's zone-restricted
 * sub-account counts only the traffic of the nodes in its zones.
 */
export class StatisticsService {
  constructor(
    private readonly reads: StatisticsReads,
    private readonly repo: AnalyticsRepository,
    private readonly cityNames: (
      operatorId: number | null,
      ids: number[],
      locale: Locale,
    ) => Promise<Map<number, string>>,
  ) {}

  private scopeOf(caller: Caller, filter: Partial<StatisticsFilter>): Promise<Scope> {
    return analyticsScope(this.repo, caller, filter);
  }

  /** The origin's response time percentiles of the caller's scope, in all and per site (store/upstream-times.ts). */
  async upstreamTimes(caller: Caller, filter: StatisticsFilter): Promise<StatisticsUpstreamTimes> {
    const times = await this.reads.upstreamTimes(await this.scopeOf(caller, filter), rangeOf(filter));
    return {
      total: times.total,
      sites: times.sites.map(({ siteId, ...t }) => ({ siteID: siteId, ...t })),
      relativeError: times.relativeError,
    };
  }

  async card(caller: Caller, filter: StatisticsFilter & { type: number }): Promise<StatisticsCard> {
    const scope = await this.scopeOf(caller, filter);
    const range = rangeOf(filter);
    const t = await this.reads.totals(scope, range);
    const card: StatisticsCard = {
      type: filter.type,
      requests: t.requests,
      bytesOut: t.bytes_out,
      bytesIn: t.bytes_in,
      hitRequests: t.hit_requests,
      hitBytes: t.hit_bytes,
      blocked: t.blocked,
      blacklisted: t.blacklisted,
      dropped: t.dropped,
      upstreamRequests: t.upstream_requests,
      upstreamErrors: t.upstream_errors,
      peakBandwidth: (t.peak_bytes * 8) / t.peak_seconds,
      peakQps: t.peak_requests / t.peak_seconds,
      uniqueIPs: 0,
      uniqueIPsError: 0,
      countries: 0,
      s2xx: t.s2xx,
      s3xx: t.s3xx,
      s4xx: t.s4xx,
      s5xx: t.s5xx,
      statusCodes: {},
      droppedEvents: 0,
    };
    // Where nodes counted their own seconds, the busiest second from their maxima (not a minute's mean).
    const peaks = await this.reads.sketches.peaks(scope, range, t.peak_seconds === 60 ? 60 : 300);
    if (peaks) {
      card.peakQps = Math.max(card.peakQps, peaks.requests);
      card.peakBandwidth = Math.max(card.peakBandwidth, peaks.bytes * 8);
    }
    const ids = DASHBOARD_CARD_IDS;
    const addresses = async (having?: 'blocked' | 'blacklisted') => {
      const sketched = await this.reads.sketches.distinctAddresses(scope, range, having);
      card.uniqueIPs = sketched ? sketched.count : await this.reads.distinct(scope, range, 'ip', having);
      card.uniqueIPsError = sketched ? sketched.standardError : 0;
    };
    if (filter.type === ids.ipInfo) {
      await addresses();
      card.countries = await this.reads.distinct(scope, range, 'country');
    } else if (filter.type === ids.blacklistInfo) {
      await addresses('blacklisted');
    } else if (filter.type === ids.blockInfo) {
      await addresses('blocked');
    } else if (filter.type === ids.statusInfo) {
      const codes: Record<string, number> = {};
      for (const row of await this.reads.top(scope, range, 'status', 'requests', 1000)) {
        const key = TRACKED.has(Number(row.key)) ? row.key : 'other';
        codes[key] = (codes[key] ?? 0) + row.requests;
      }
      card.statusCodes = codes;
    }
    if (caller.tier === 'client' && caller.operatorId !== null) {
      card.droppedEvents = await this.reads.droppedEvents(
        await this.repo.nodeIds(caller.operatorId, scope.zoneIds),
        range,
      );
    }
    return card;
  }

  async top(
    caller: Caller,
    filter: StatisticsFilter & { type: number; top: number },
    locale: Locale,
  ): Promise<StatisticsTopRow[]> {
    const scope = await this.scopeOf(caller, filter);
    const range = rangeOf(filter);
    const source = TOP_SOURCES[filter.type as StatisticsTopId];
    if (source.dim === 'domain') {
      const by = source.by === 'waf' ? 'blocked' : 'requests';
      const { rows } = await this.reads.perDomain(scope, range, { by, desc: true }, { offset: 0, limit: filter.top });
      const names = await this.repo.domainNames(rows.map((r) => Number(r.domain_id)));
      return rows
        .filter((r) => source.by !== 'waf' || Number(r.blocked) > 0)
        .map((r) => {
          const id = Number(r.domain_id);
          const name = names.get(id)?.name ?? String(id);
          return {
            key: String(id),
            name,
            requests: Number(r.requests),
            bytesOut: Number(r.bytes_out),
            blocked: Number(r.blocked),
          };
        });
    }
    const rows = await this.reads.top(scope, range, source.dim, source.by, filter.top);
    let names: Map<string, string> = new Map();
    if (source.dim === 'country') {
      names = new Map(rows.map((r) => [r.key, geoRegion(r.key)?.names[locale] ?? r.key]));
    } else if (source.dim === 'city') {
      const cities = await this.cityNames(
        caller.operatorId,
        rows.map((r) => Number(r.key)),
        locale,
      );
      names = new Map(rows.map((r) => [r.key, cities.get(Number(r.key)) ?? r.key]));
    }
    return rows.map((r) => ({ ...r, name: names.get(r.key) ?? r.key }));
  }

  async series(
    caller: Caller,
    filter: StatisticsFilter & { type: number; minutesStep: number },
  ): Promise<StatisticsSeries> {
    const scope = await this.scopeOf(caller, filter);
    const type = filter.type as StatisticsSeriesType;
    const points = await this.reads.series(scope, rangeOf(filter), type, filter.minutesStep);
    return {
      type,
      minutesStep: filter.minutesStep,
      keys: [...SERIES_VALUES[type]],
      points: points.map((p) => ({ time: new Date(p.time * 1000).toISOString(), values: p.values })),
    };
  }

  async domains(
    caller: Caller,
    filter: StatisticsFilter & { page: number; pageSize: number; sortBy: DomainSort; orderBy: 'asc' | 'desc' },
    all = false,
  ): Promise<{ data: StatisticsDomainRow[]; total: number }> {
    const scope = await this.scopeOf(caller, filter);
    const range = rangeOf(filter);
    const byName = filter.sortBy === 'domain';
    const by = filter.sortBy === 'bytesOut' ? 'bytes_out' : filter.sortBy === 'blocked' ? 'blocked' : 'requests';
    const paged = !all && !byName ? { offset: (filter.page - 1) * filter.pageSize, limit: filter.pageSize } : null;
    const { rows, total } = await this.reads.perDomain(scope, range, { by, desc: filter.orderBy === 'desc' }, paged);
    const names = await this.repo.domainNames(rows.map((r) => Number(r.domain_id)));
    let data: StatisticsDomainRow[] = rows.map((r) => {
      const id = Number(r.domain_id);
      const n = names.get(id);
      return {
        domainID: id,
        domain: n?.name ?? '',
        siteID: n?.siteId ?? 0,
        siteName: n?.siteName ?? '',
        requests: Number(r.requests),
        bytesOut: Number(r.bytes_out),
        bytesIn: Number(r.bytes_in),
        hitRequests: Number(r.hit_requests),
        blocked: Number(r.blocked),
        s4xx: Number(r.s4xx),
        s5xx: Number(r.s5xx),
      };
    });
    if (byName) {
      data.sort((a, b) =>
        filter.orderBy === 'desc' ? b.domain.localeCompare(a.domain) : a.domain.localeCompare(b.domain),
      );
      if (!all) data = data.slice((filter.page - 1) * filter.pageSize, filter.page * filter.pageSize);
    }
    return { data, total };
  }

  /** Bytes each of these sites served in a calendar month (UTC); a site without any is absent. */
  monthBytesBySite(siteIds: readonly number[], year: number, month: number): Promise<Map<number, number>> {
    const start = Date.UTC(year, month - 1, 1) / 1000;
    const end = Date.UTC(year, month, 1) / 1000;
    return this.reads.bytesOutBySite(siteIds, { start, end });
  }

  /**
   * Per domain of the sites, the requests of the last `minutes` that went to the origin and those the
   * origin failed (5xx from it, or not reached), from the minute aggregates; a domain without any is
   * absent. The caller has checked the sites are the caller's and the ids are the sites'.
   */
  async originHealth(
    siteIds: readonly number[],
    domainIds: readonly number[],
    minutes: number,
    now: number,
  ): Promise<Map<number, { requests: number; errors: number }>> {
    if (domainIds.length === 0) return new Map();
    const end = Math.ceil(now / 1000);
    const range = { start: Math.floor(end / 60) * 60 - minutes * 60, end };
    const scope = { siteIds: [...siteIds], zoneIds: null, domainIds };
    const { rows } = await this.reads.perDomain(scope, range, { by: 'requests', desc: true }, null);
    return new Map(
      rows.map((r) => [
        Number(r.domain_id),
        { requests: Number(r.upstream_requests), errors: Number(r.upstream_errors) },
      ]),
    );
  }

  /** Bytes served for the customer's sites this calendar month and the last (UTC). */
  async monthTraffic(accountId: number, now: number): Promise<{ current: number; last: number }> {
    const siteIds = await this.repo.visibleSites({ userId: accountId }, {});
    const d = new Date(now);
    const thisMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
    const lastMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1) / 1000;
    const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
    const [current, last] = await Promise.all([
      this.reads.bytesOut(siteIds, { start: thisMonth, end: nextMonth }),
      this.reads.bytesOut(siteIds, { start: lastMonth, end: thisMonth }),
    ]);
    return { current, last };
  }
}
