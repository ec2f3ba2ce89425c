import { SERIES_VALUES, type StatisticsSeriesType } from '@rampart/contract';
import { SketchReads } from '../aggregate-sketch-store.js';
import type { AnalyticsStore, Row } from '../analytics-store.js';
import type { Dim } from '../rollups.js';
import { DimRows } from './dim-rows.js';
import {
  floorTo,
  int,
  ints,
  MINUTE_ROLLUP_MAX_SECONDS,
  minutePieces,
  num,
  PER_DOMAIN,
  type Range,
  rollupFor,
  type Scope,
  scopeWhere,
  sums,
  type TimeUnit,
  TOTAL_COLUMNS,
  type TopOrder,
  type TopRow,
  type Totals,
  timeRollupOf,
} from './statistics-sql.js';
import { TopLists } from './top-lists.js';
import { upstreamTimes } from './upstream-times.js';

/**
 * The statistics' reads of the analytics store (docs/decisions.md "Traffic analytics"): typed
 * questions — a range's totals, top lists, distinct counts, series, the per-domain list, bytes
 * served — answered from the rollups by SQL built here and in the files beside it (the services
 * never write SQL). Both engines run the same text but for what their dialects spell differently
 * (SqlDialect); every value in a statement is an integer checked here.
 */
export class StatisticsReads {
  /** The rows of a dimension over a range (raw events, dimension tables, aggregates). */
  readonly rows: DimRows;
  /** The nodes' distinct-address sketches and per-second peaks (aggregate-sketch-store.ts). */
  readonly sketches: SketchReads;
  private readonly tops: TopLists;

  constructor(private readonly store: AnalyticsStore) {
    this.rows = new DimRows(store);
    this.tops = new TopLists(store, this.rows);
    this.sketches = new SketchReads(store, scopeWhere, (scope, range, dim) => this.rows.dimRows(scope, range, dim));
  }

  /** Requests, bytes and decisions per value of a dimension, `by` the largest first (top-lists.ts). */
  top(scope: Scope, range: Range, dim: Dim, by: TopOrder, limit: number): Promise<TopRow[]> {
    return this.tops.top(scope, range, dim, by, limit);
  }

  async totals(scope: Scope, range: Range): Promise<Totals> {
    const peakUnit: TimeUnit = range.end - range.start <= MINUTE_ROLLUP_MAX_SECONDS ? 60 : 300;
    const zero = Object.fromEntries(
      [...TOTAL_COLUMNS, 'peak_bytes', 'peak_requests', 'peak_seconds'].map((k) => [
        k,
        k === 'peak_seconds' ? peakUnit : 0,
      ]),
    ) as unknown as Totals;
    if (scope.siteIds.length === 0) return zero;
    // The busiest bucket of the scope: per minute up to a day, per five minutes beyond.
    const peakTable = timeRollupOf(peakUnit, scope);
    // The pieces as the store runs them best (SqlDialect.pieces): apart and at once beside the
    // peak, or as one statement.
    const parts = minutePieces(scope, range, TOTAL_COLUMNS);
    const statements = this.store.dialect.pieces === 'union' ? [parts.join(' UNION ALL ')] : parts;
    const [peaks, ...pieces] = await Promise.all([
      this.store.query(
        `SELECT max(b) AS peak_bytes, max(q) AS peak_requests FROM (SELECT bucket AS m, sum(bytes_out) AS b, sum(requests) AS q FROM ${peakTable} WHERE ${scopeWhere(scope, 'bucket', { start: floorTo(range.start, peakUnit), end: range.end })} GROUP BY m) AS t`,
      ),
      // Aliases never repeat a column name: ClickHouse puts an alias in place of the column everywhere in the query.
      ...statements.map((piece) => this.store.query(`SELECT ${sums()} FROM (${piece}) AS r`)),
    ]);
    const out = { ...zero };
    for (const [row] of pieces) for (const c of TOTAL_COLUMNS) out[c] += num(row, `t_${c}`);
    const [peak] = peaks ?? [];
    out.peak_bytes = num(peak, 'peak_bytes');
    out.peak_requests = num(peak, 'peak_requests');
    return out;
  }

  /** Distinct values of a dimension in the range (those with `having` > 0 when given). */
  async distinct(
    scope: Scope,
    range: Range,
    dim: 'ip' | 'country',
    having?: 'blocked' | 'blacklisted',
  ): Promise<number> {
    if (scope.siteIds.length === 0) return 0;
    const d = this.store.dialect;
    const plan = dim === 'ip' ? this.rows.addressPlan(scope, range) : null;
    if (plan) {
      // The addresses of siteips with a day of the range (one row each, or counted apart), less
      // those also in the edges, plus the edges' addresses.
      const mask = having ? `${having}_days` : 'days';
      const where = `site_id IN (${ints(scope.siteIds)}) AND (${mask} & ${plan.mask}) <> 0 AND (ip4 IS NOT NULL OR value <> '')`;
      const e = plan.edges
        ? `SELECT value, ip4 FROM (${plan.edges}) AS x WHERE value <> ''${having ? ` AND ${having} > 0` : ''}`
        : null;
      const inEdges = e
        ? `(ip4 IN (SELECT ip4 FROM e WHERE ip4 IS NOT NULL) OR (ip4 IS NULL AND value IN (SELECT value FROM e WHERE ip4 IS NULL)))`
        : 'false';
      const count = plan.single
        ? `count(*) AS n, sum(CASE WHEN ${inEdges} THEN 1 ELSE 0 END) AS both`
        : `${d.distinct('ip4')} + ${d.distinct('CASE WHEN ip4 IS NULL THEN value END')} AS n, ${d.distinct(`CASE WHEN ${inEdges} THEN value END`)} AS both`;
      const [row] = await this.store.query(
        `${e ? `WITH e AS (${e}) ` : ''}SELECT ${count}${e ? `, (SELECT ${d.distinct('value')} FROM e) AS edges` : ''} FROM siteips WHERE ${where}`,
      );
      return num(row, 'n') - num(row, 'both') + num(row, 'edges');
    }
    // Addresses kept as integers are counted so; a value without one (NULL), as itself.
    const n = this.rows.ipKeys(dim)
      ? `${d.distinct('ip4')} + ${d.distinct('CASE WHEN ip4 IS NULL THEN value END')}`
      : dim === 'ip' && d.distinctAddresses
        ? d.distinctAddresses('value')
        : d.distinct('value');
    const [row] = await this.store.query(
      // Counters are never negative: a value with a decision is one with a row that counts one.
      `SELECT ${n} AS n FROM (${this.rows.dimRows(scope, range, dim)}) AS r WHERE value <> ''${having ? ` AND ${having} > 0` : ''}`,
    );
    return num(row, 'n');
  }

  /** Points of a series type, one per step from the range's start (rounded down to the step). */
  async series(
    scope: Scope,
    range: Range,
    type: StatisticsSeriesType,
    stepMinutes: number,
  ): Promise<{ time: number; values: number[] }[]> {
    const step = stepMinutes * 60;
    const start = floorTo(range.start, step);
    const count = Math.ceil((range.end - start) / step);
    const keys = SERIES_VALUES[type];
    const points = Array.from({ length: count }, (_, i) => ({ time: start + i * step, values: keys.map(() => 0) }));
    if (scope.siteIds.length === 0) return points;
    const { table, range: r } = rollupFor(scope, { start, end: range.end }, step);
    const d = this.store.dialect;
    const rows = await this.store.query(
      `SELECT ${d.idiv(`bucket - ${int(start)}`, int(step))} AS i, ${sums()} FROM ${table} WHERE ${scopeWhere(scope, 'bucket', r)} GROUP BY i ORDER BY i`,
    );
    for (const row of rows) {
      const point = points[num(row, 'i')];
      if (!point) continue;
      const v = (k: string) => num(row, `t_${k}`);
      const values: Record<string, number> = {
        bytesOut: v('bytes_out'),
        bytesIn: v('bytes_in'),
        pass: v('requests') - v('blocked'),
        drop: v('blocked'),
        bandwidth: (v('bytes_out') * 8) / step,
        requests: v('requests'),
        hitRequests: v('hit_requests'),
        missRequests: v('requests') - v('hit_requests'),
        hitBytes: v('hit_bytes'),
        missBytes: v('bytes_out') - v('hit_bytes'),
        upstreamRequests: v('upstream_requests'),
        upstreamErrors: v('upstream_errors'),
        s2xx: v('s2xx'),
        s3xx: v('s3xx'),
        s4xx: v('s4xx'),
        s5xx: v('s5xx'),
        sOther: v('requests') - v('s2xx') - v('s3xx') - v('s4xx') - v('s5xx'),
        qps: v('requests') / step,
        blacklist: v('blacklisted'),
        waf: v('waf'),
      };
      point.values = keys.map((k) => values[k] ?? 0);
    }
    return points;
  }

  /** Totals per domain: every domain in scope with traffic, `sort`ed, one page (or all: `page` null). */
  async perDomain(
    scope: Scope,
    range: Range,
    sort: { by: 'requests' | 'bytes_out' | 'blocked'; desc: boolean },
    page: { offset: number; limit: number } | null,
  ): Promise<{ rows: Row[]; total: number }> {
    if (scope.siteIds.length === 0) return { rows: [], total: 0 };
    const rowsOf = minutePieces(scope, range, ['domain_id', ...PER_DOMAIN], 'domain_id > 0').join(' UNION ALL ');
    const cols = sums(PER_DOMAIN);
    const limit = page ? ` LIMIT ${int(page.limit)} OFFSET ${int(page.offset)}` : '';
    const d = this.store.dialect;
    const list = (total: string) =>
      `SELECT domain_id AS d, ${cols}${total} FROM (${rowsOf}) AS r GROUP BY d ORDER BY t_${sort.by} ${sort.desc ? 'DESC' : 'ASC'}, d${limit}`;
    const counted = () => this.store.query(`SELECT ${d.distinct('domain_id')} AS n FROM (${rowsOf}) AS r`);
    // The count of domains comes with the page where the store has windows (a page past the last
    // has no row to carry it: counted apart then; a first page without rows means none), else from
    // a statement of its own, at once.
    let rows: Row[];
    let total: number;
    if (d.windows) {
      rows = await this.store.query(list(', count(*) OVER () AS n'));
      total = rows.length > 0 ? num(rows[0], 'n') : page && page.offset > 0 ? num((await counted())[0], 'n') : 0;
    } else {
      const [listed, [count]] = await Promise.all([this.store.query(list('')), counted()]);
      rows = listed;
      total = num(count, 'n');
    }
    return {
      rows: rows.map((row) => ({
        domain_id: num(row, 'd'),
        ...Object.fromEntries(PER_DOMAIN.map((c) => [c, num(row, `t_${c}`)])),
      })),
      total,
    };
  }

  /** Events the nodes' spools dropped, per the batches taken in the range from these nodes. */
  async droppedEvents(nodeIds: readonly number[], range: Range): Promise<number> {
    if (nodeIds.length === 0) return 0;
    const [row] = await this.store.query(
      `SELECT sum(dropped) AS n FROM batches WHERE node_id IN (${ints(nodeIds)}) AND received_at >= ${int(range.start)} AND received_at < ${int(range.end)}`,
    );
    return num(row, 'n');
  }

  /** Bytes served for these sites in the range (resource summaries; five-minute buckets). */
  async bytesOut(siteIds: readonly number[], range: Range): Promise<number> {
    let total = 0;
    for (const n of (await this.bytesOutBySite(siteIds, range)).values()) total += n;
    return total;
  }

  /**
   * Bytes served per site in the range (traffic allowances; the per-site five-minute rollup); a
   * site without any is absent.
   */
  async bytesOutBySite(siteIds: readonly number[], range: Range): Promise<Map<number, number>> {
    if (siteIds.length === 0) return new Map();
    const r = { start: floorTo(range.start, 300), end: range.end };
    const rows = await this.store.query(
      `SELECT site_id AS s, sum(bytes_out) AS n FROM siterollup_5m WHERE ${scopeWhere({ siteIds, zoneIds: null, domainIds: null }, 'bucket', r)} GROUP BY site_id`,
    );
    return new Map(rows.map((row) => [num(row, 's'), num(row, 'n')]));
  }

  /**
   * Blocked requests (firewall and WAF) per site and minute of every site with any, for the
   * minutes after `after` up to `upTo` (unix seconds): from the per-minute rollup, which counts the
   * nodes' aggregates as well as raw events, each request once (the alerts' spike scan).
   */
  async blockedPerSiteMinute(
    after: number,
    upTo: number,
  ): Promise<{ siteId: number; minute: number; blocked: number }[]> {
    const rows = await this.store.query(
      'SELECT site_id AS site, bucket AS minute, sum(blocked) AS n FROM rollup_1m ' +
        `WHERE site_id > 0 AND bucket > ${int(after)} AND bucket <= ${int(upTo)} GROUP BY site_id, bucket`,
    );
    return rows.map((row) => ({ siteId: num(row, 'site'), minute: num(row, 'minute'), blocked: num(row, 'n') }));
  }

  /** The origin's response time percentiles per site and in all (upstream-times.ts). */
  upstreamTimes(scope: Scope, range: Range) {
    return upstreamTimes(this.store, scope, range);
  }

  /** Resolves when the store answers a statement, else throws its error (the system health). */
  async ping(): Promise<void> {
    await this.store.query('SELECT 1 AS ok');
  }
}
