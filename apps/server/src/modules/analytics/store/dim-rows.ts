import { aggregateDimRows } from '../aggregate-sketch-store.js';
import type { AnalyticsStore, SqlDialect } from '../analytics-store.js';
import { type Dim, dimTable, dimValueSql, isHighDim, SITE_IP_DAYS } from '../rollups.js';
import {
  ceilTo,
  DAY,
  floorTo,
  RAW_TOP_MAX_SECONDS,
  type Range,
  ROUND_START_AFTER_SECONDS,
  type Scope,
  scopeWhere,
  wholeSites,
} from './statistics-sql.js';

/** addressPlan's answer. */
export interface AddressPlan {
  /**
   * The range's days as siteips's bits (with a bound plan, the day it starts inside too), and all
   * but its whole days: a row holding one of those is not the range's count (DuckDB literals).
   */
  mask: string;
  outside: string;
  /**
   * dimRows's rows of the mask's days in the range (sitedims_1d, the last day's built hours and a
   * bound plan's first day's from dims_1h).
   */
  days: string;
  /** dimRows's rows of the rest of the range, if any. */
  edges: string | null;
  /** Each address of the scope is one row of siteips. */
  single: boolean;
}

/**
 * The rows a statistic of one dimension reads over a range, as SQL for the statements of the
 * statistics' reads (statistics-reads.ts, top-lists.ts): raw events, the dimension tables and the
 * nodes' aggregates, and DuckDB's per-site address table (`siteips`) where it answers.
 */
export class DimRows {
  constructor(private readonly store: Pick<AnalyticsStore, 'dialect' | 'dimsRolledTo' | 'siteAddresses'>) {}

  /**
   * Rows of one dimension over a range, as `value, requests, bytes_out, blocked, blacklisted, waf`
   * (one row per event or per partial sum; the caller sums): raw events for a short range;
   * otherwise the dimension tables for what they hold whole — days (dims_1d, or sitedims_1d for
   * whole sites: the high-cardinality dimensions), then hours (dims_1h, lowdims_1h) up to the store's `dimsRolledTo` — and raw events
   * for the rest: the partial hours at each end and the hours whose dimensions are not built yet.
   */
  dimRows(scope: Scope, range: Range, dim: Dim): string {
    const raw = (r: Range) => this.rawRows(scope, r, dim);
    if (range.end - range.start <= RAW_TOP_MAX_SECONDS) return raw(range);
    const rolled = (table: string, r: Range) => this.rolledRows(table, scope, r, dim);
    const { start, h1, h2 } = this.hoursOf(range);
    const parts: string[] = [];
    const hourly = (r: Range) => {
      if (r.start < r.end) parts.push(rolled(dimTable(dim), r));
    };
    const d1 = ceilTo(h1, 86_400);
    const d2 = floorTo(h2, 86_400);
    if (isHighDim(dim) && d1 < d2) {
      hourly({ start: h1, end: d1 });
      // Whole sites (no zone or domain chosen) read the days summed per site: fewer rows.
      const daily = wholeSites(scope) ? 'sitedims_1d' : 'dims_1d';
      parts.push(rolled(daily, { start: d1, end: d2 }));
      hourly({ start: d2, end: h2 });
    } else {
      hourly({ start: h1, end: h2 });
    }
    if (start < h1) parts.push(raw({ start, end: h1 }));
    if (h2 < range.end) parts.push(raw({ start: h2, end: range.end }));
    return parts.join(' UNION ALL ');
  }

  /** dimRows's rows of raw events in `r` and of the nodes' aggregates' minutes (aggregate-sketch-store.ts). */
  rawRows(scope: Scope, r: Range, dim: Dim): string {
    const d = this.store.dialect;
    const value = dimValueSql(d)[dim];
    const ip4 = this.ipKeys(dim); // Addresses as integers where the store keeps them so (ipKeys): `ip4` too.
    const minutes = ` UNION ALL ${aggregateDimRows(dim, scopeWhere(scope, 'minute', r), ip4 ? ip4.of('value') : null)}`;
    return `SELECT ${value} AS value, ${d.int64('1')} AS requests, ${d.int64('bytes_out')} AS bytes_out, ${d.int64('blocked')} AS blocked, ${d.int64('blacklisted')} AS blacklisted, ${d.int64('waf')} AS waf${ip4 ? `, ${ip4.of(value)} AS ip4` : ''} FROM events WHERE counted = 1 AND ${scopeWhere(scope, 'ts', r)}${minutes}`;
  }

  /** dimRows's rows of a dimension table's buckets in `r`. */
  rolledRows(table: string, scope: Scope, r: Range, dim: Dim): string {
    const ip4 = this.ipKeys(dim);
    return `SELECT value, requests, bytes_out, blocked, blacklisted, waf${ip4 ? ', ip4' : ''} FROM ${table} WHERE dim = '${dim}' AND ${scopeWhere(scope, 'bucket', r)}`;
  }

  /**
   * Where dimRows cuts a range longer than RAW_TOP_MAX_SECONDS: its start (the first whole hour's
   * for ranges over ROUND_START_AFTER_SECONDS), the first whole hour h1, and h2, the end of the
   * whole hours [h1, h2) whose dimensions are built.
   */
  hoursOf(range: Range): { start: number; h1: number; h2: number } {
    const start = range.end - range.start > ROUND_START_AFTER_SECONDS ? floorTo(range.start, 3600) : range.start;
    const h1 = ceilTo(start, 3600);
    const h2 = Math.min(Math.max(h1, floorTo(range.end, 3600)), Math.max(h1, floorTo(this.store.dimsRolledTo, 3600)));
    return { start, h1, h2 };
  }

  /**
   * How the store's per-site address table (AnalyticsStore.siteAddresses, `siteips`) answers for
   * the address rows of whole sites over a range longer than RAW_TOP_MAX_SECONDS: the whole days
   * [d1, d2) of dimRows's cut as a mask of siteips's bits (the last day may be the one being
   * built, when the range reaches its built hours: its bit holds just those), `edges` the rows of
   * the rest (the hours before d1, or after the last whole day, from dims_1h; the partial hours
   * raw), `single` when each address of the scope is one row (one site, merged). Null where the
   * table cannot answer: ClickHouse, zones or domains chosen, days it does not hold.
   *
   * `bound` (a top, which only needs siteips's sums as an upper bound): the day the range starts
   * inside is one of the mask's days too when the table holds it, its hours in the range counted
   * with the days' rows (an address with its bit is never whole) rather than as edges, which the
   * top groups for every statement that needs them (up to 23 hours of a busy site's addresses).
   */
  addressPlan(scope: Scope, range: Range, bound = false): AddressPlan | null {
    const table = this.store.siteAddresses;
    if (!table || !wholeSites(scope)) return null;
    if (range.end - range.start <= RAW_TOP_MAX_SECONDS) return null;
    const { start, h1, h2 } = this.hoursOf(range);
    const d1 = ceilTo(h1, DAY);
    let d2 = floorTo(h2, DAY);
    const edges: string[] = [];
    const last = floorTo(h2, DAY);
    // The last day's bit holds its hours before table.to: it stands for them when the range
    // holds them all (its hours after, up to h2, are edges).
    const today = last < table.to && table.to <= h2 && h2 % DAY !== 0;
    if (today) {
      d2 += DAY;
      if (table.to < h2) edges.push(this.rolledRows('dims_1h', scope, { start: table.to, end: h2 }, 'ip'));
    } else if (d2 > floorTo(table.to, DAY)) return null;
    else if (d2 < h2) edges.push(this.rolledRows('dims_1h', scope, { start: d2, end: h2 }, 'ip'));
    if (d1 >= d2 || d1 < table.from) return null;
    // The rows of the days the mask stands for: whole days, and the last one's hours in the table.
    const days = [this.rolledRows('sitedims_1d', scope, { start: d1, end: today ? last : d2 }, 'ip')];
    if (today) days.push(this.rolledRows('dims_1h', scope, { start: last, end: table.to }, 'ip'));
    let mask = 0n;
    for (let day = d1; day < d2; day += DAY) mask |= 1n << BigInt((day / DAY) % SITE_IP_DAYS);
    const all = (1n << BigInt(SITE_IP_DAYS)) - 1n;
    const outside = all ^ mask;
    if (h1 < d1) {
      const first = { start: h1, end: d1 };
      if (bound && d1 - DAY >= table.from) {
        mask |= 1n << BigInt(((d1 - DAY) / DAY) % SITE_IP_DAYS);
        days.push(this.rolledRows('dims_1h', scope, first, 'ip'));
      } else edges.push(this.rolledRows('dims_1h', scope, first, 'ip'));
    }
    if (start < h1) edges.push(this.rawRows(scope, { start, end: h1 }, 'ip'));
    if (h2 < range.end) edges.push(this.rawRows(scope, { start: h2, end: range.end }, 'ip'));
    return {
      // DuckDB's spelling: the table is DuckDB's alone.
      mask: `'${mask}'::UHUGEINT`,
      outside: `'${outside}'::UHUGEINT`,
      days: days.join(' UNION ALL '),
      edges: edges.length > 0 ? edges.join(' UNION ALL ') : null,
      single: scope.siteIds.length === 1 && table.merged,
    };
  }

  /** The store's address integers (SqlDialect.ip4) when `dim` is the address and the store has them. */
  ipKeys(dim: Dim): SqlDialect['ip4'] {
    return dim === 'ip' ? this.store.dialect.ip4 : null;
  }
}
