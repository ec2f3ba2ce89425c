import type { Row } from '../analytics-store.js';
import { ROLLUP_COUNTERS, type RollupCounter } from '../rollups.js';

/**
 * The statistics' SQL pieces over the rollups (rollups.ts), one text for both engines (the
 * dialect, SqlDialect, spells what differs). Every statement is filtered by the caller's sites
 * inside the SQL ({@link Scope}: the service resolved them from the configuration database), and
 * every value in the text is an integer checked here: strings never enter a statement.
 */

/** Who and what a query covers: site ids always (none → no rows), zones and domains when narrowed. */
export interface Scope {
  siteIds: readonly number[];
  zoneIds: readonly number[] | null;
  domainIds: readonly number[] | null;
}

/** A time range in unix seconds, [start, end). */
export interface Range {
  start: number;
  end: number;
}

/**
 * Up to this long a top list reads raw events alone; beyond, the hourly dimensions for the whole
 * hours and raw events for the partial hours at each end (so every range is exact to the second).
 */
export const RAW_TOP_MAX_SECONDS = 6 * 3600;
/**
 * A range longer than this starts at the whole hour its start falls in (as series of such ranges
 * start at their bucket): its first partial hour may be older than the raw events kept, which the
 * operator may cut to one day (the log setting).
 */
export const ROUND_START_AFTER_SECONDS = 86_400;
/**
 * Up to this long cards, the per-domain list and series read the per-minute rollup; beyond, series
 * the five-minute one up to the second, then the hourly one, or the daily one for steps of whole
 * days (a series whose step is a whole number of their buckets), and cards and the list whole
 * days, hours, five minutes and minutes, counting from the range's first minute whatever its
 * length (minutePieces).
 */
export const MINUTE_ROLLUP_MAX_SECONDS = 24 * 3600;
export const FIVE_MINUTE_ROLLUP_MAX_SECONDS = 7 * 86_400;

export function ints(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new Error(`not an integer: ${v}`);
  return values.join(', ');
}
export function int(v: number): string {
  if (!Number.isSafeInteger(v)) throw new Error(`not an integer: ${v}`);
  return String(v);
}

export const DAY = 86_400;
/** `t` (unix seconds) rounded down, or up, to a whole `unit`. */
export const floorTo = (t: number, unit: number) => t - (t % unit);
export const ceilTo = (t: number, unit: number) => (t % unit === 0 ? t : floorTo(t, unit) + unit);

/** The caller's sites (and zones and domains when narrowed) and the time range, as a WHERE clause. */
export function scopeWhere(scope: Scope, time: string, range: Range): string {
  const parts = [
    `site_id IN (${ints(scope.siteIds)})`,
    `${time} >= ${int(range.start)}`,
    `${time} < ${int(range.end)}`,
  ];
  if (scope.zoneIds) parts.push(`zone_id IN (${ints(scope.zoneIds.length > 0 ? scope.zoneIds : [-1])})`);
  if (scope.domainIds) parts.push(`domain_id IN (${ints(scope.domainIds.length > 0 ? scope.domainIds : [-1])})`);
  return parts.join(' AND ');
}

/** No zone and no domain chosen: the scope is its sites whole, which the per-site tables answer for. */
export const wholeSites = (scope: Scope) => scope.zoneIds === null && scope.domainIds === null;

/** The time rollup of each bucket length in seconds. */
export const TIME_ROLLUP = { 60: 'rollup_1m', 300: 'rollup_5m', 3600: 'rollup_1h', 86400: 'rollup_1d' } as const;
export type TimeUnit = keyof typeof TIME_ROLLUP;

/**
 * The time rollup of a bucket length that a scope reads: for five minutes and whole sites, the
 * per-site table (a fraction of the per-domain rows; no zone or domain to filter by).
 */
export const timeRollupOf = (unit: TimeUnit, scope: Scope) =>
  unit === 300 && wholeSites(scope) ? 'siterollup_5m' : TIME_ROLLUP[unit];

/** The rollup a scope's range reads, and the range rounded to its buckets. */
export function rollupFor(scope: Scope, range: Range, stepSeconds: number): { table: string; range: Range } {
  const length = range.end - range.start;
  const unit: TimeUnit =
    length <= MINUTE_ROLLUP_MAX_SECONDS || stepSeconds % 300 !== 0
      ? 60
      : length <= FIVE_MINUTE_ROLLUP_MAX_SECONDS || stepSeconds % 3600 !== 0
        ? 300
        : stepSeconds % DAY !== 0
          ? 3600
          : DAY;
  return { table: timeRollupOf(unit, scope), range: { start: floorTo(range.start, unit), end: range.end } };
}

/**
 * The rollup rows of the minutes of a range (from its start's minute), `columns` of them: up to
 * MINUTE_ROLLUP_MAX_SECONDS the per-minute rollup's; beyond, up to seven statements — the whole
 * UTC days from `rollup_1d`, the whole hours before and after them from `rollup_1h`, the whole
 * five minutes around those from `rollup_5m`, the minutes at the ends from `rollup_1m`. They sum
 * to what `rollup_1m` alone sums to (a day's, an hour's and five minutes' rows are their minutes'
 * rows summed, written with them) from a fraction of the rows: a month over all of an operator's
 * sites is millions of minute rows, and hundreds of thousands of hour rows.
 */
export function minutePieces(scope: Scope, range: Range, columns: readonly string[], where?: string): string[] {
  const select = (table: string, r: Range) =>
    `SELECT ${columns.join(', ')} FROM ${table} WHERE ${scopeWhere(scope, 'bucket', r)}${where ? ` AND ${where}` : ''}`;
  const parts: string[] = [];
  /** The buckets of [start, end) in the coarsest level that has whole ones, the ends in finer levels. */
  const add = (start: number, end: number, units: readonly TimeUnit[]) => {
    const [unit, ...finer] = units;
    if (!unit || start >= end) return;
    const [a, b] = finer.length === 0 ? [start, end] : [ceilTo(start, unit), floorTo(end, unit)];
    if (a >= b) return add(start, end, finer);
    parts.push(select(TIME_ROLLUP[unit], { start: a, end: b }));
    add(start, a, finer);
    add(b, end, finer);
  };
  const start = floorTo(range.start, 60);
  if (range.end - range.start <= MINUTE_ROLLUP_MAX_SECONDS) return [select(TIME_ROLLUP[60], { start, end: range.end })];
  // Over a day [start, end) is never empty: the minutes' level always adds a piece.
  add(start, range.end, [DAY, 3600, 300, 60]);
  return parts;
}

/**
 * The rollup counters summed over a range, and the busiest bucket's bytes and requests with its
 * length in seconds: a minute for ranges up to a day, five minutes beyond (a month of minutes
 * over every site of an operator is millions of rows to add up per minute).
 */
export type Totals = Record<RollupCounter | 'peak_bytes' | 'peak_requests' | 'peak_seconds', number>;

export const DOMAIN_COLUMNS = ['requests', 'bytes_out', 'bytes_in', 'hit_requests', 'blocked', 's4xx', 's5xx'] as const;
/** The per-domain sums: the statistics' columns and the origin's requests and failures (domain states). */
export const PER_DOMAIN = [...DOMAIN_COLUMNS, 'upstream_requests', 'upstream_errors'] as const;
export const TOTAL_COLUMNS = ROLLUP_COUNTERS;

export const num = (row: Row | undefined, key: string): number => Number(row?.[key] ?? 0) || 0;
/** An IPv4 address's text from its integer (SqlDialect.ip4). */
export const ip4Text = (n: number) =>
  `${Math.floor(n / 16_777_216)}.${Math.floor(n / 65_536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;
/** A canonical IPv4 address's integer (as SqlDialect.ip4 of DuckDB: no leading zeros), else null. */
const IP4_TEXT = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
export const ip4Of = (text: string): number | null =>
  IP4_TEXT.test(text) ? text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0) : null;
/** What orders a top list: requests, or the requests of a decision. */
export type TopOrder = 'requests' | 'blocked' | 'blacklisted' | 'waf';
/** A top list's row: a value, its requests, bytes served and blocked requests. */
export interface TopRow {
  key: string;
  requests: number;
  bytesOut: number;
  blocked: number;
}
export const topRow = (row: Row): TopRow => ({
  key: String(row.value),
  requests: num(row, 't_requests'),
  bytesOut: num(row, 't_bytes_out'),
  blocked: num(row, 't_blocked'),
});
/** The order of equal counts in a list: the values' text byte by byte, as the statements order it. */
export const byText = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
/** Sums of the rollup counters, each as `t_<counter>`. */
export const sums = (columns: readonly string[] = TOTAL_COLUMNS) =>
  columns.map((c) => `sum(${c}) AS t_${c}`).join(', ');

/** An address's integer as a column `k` that is never NULL (a query's NULL reads as 0, an address): -1 for none. */
export const KEY_OF = (ip4: string) => `coalesce(CAST(${ip4} AS BIGINT), -1)`;
export const keyOf = (row: Row): number | null => (num(row, 'k') >= 0 ? num(row, 'k') : null);
