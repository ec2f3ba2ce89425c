import { SERIES_VALUES, STATISTICS_TOPS, type StatisticsSeriesType, type StatisticsTopId } from '@rampart/contract';
import { aggregateDimRows } from './aggregate-sketch-store.js';
import type { AnalyticsStore, Row, SqlDialect } from './analytics-store.js';
import {
  type Dim,
  dimTable,
  dimValueSql,
  isHighDim,
  ROLLUP_COUNTERS,
  type RollupCounter,
  SITE_IP_DAYS,
} from './rollups.js';

/**
 * The statistics' SQL over the rollups (rollups.ts), one text for both stores (the dialect spells
 * integer division and distinct counts). Every statement is filtered by the caller's sites inside
 * the SQL ({@link Scope}: the service resolved them from the configuration database), and every
 * value in the text is an integer checked here: strings never enter a statement.
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

function ints(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new Error(`not an integer: ${v}`);
  return values.join(', ');
}
export function int(v: number): string {
  if (!Number.isSafeInteger(v)) throw new Error(`not an integer: ${v}`);
  return String(v);
}

const DAY = 86_400;
/** `t` (unix seconds) rounded down, or up, to a whole `unit`. */
const floorTo = (t: number, unit: number) => t - (t % unit);
const ceilTo = (t: number, unit: number) => (t % unit === 0 ? t : floorTo(t, unit) + unit);

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
const wholeSites = (scope: Scope) => scope.zoneIds === null && scope.domainIds === null;

/** The time rollup of each bucket length in seconds. */
const TIME_ROLLUP = { 60: 'rollup_1m', 300: 'rollup_5m', 3600: 'rollup_1h', 86400: 'rollup_1d' } as const;
type TimeUnit = keyof typeof TIME_ROLLUP;

/**
 * The time rollup of a bucket length that a scope reads: for five minutes and whole sites, the
 * per-site table (a fraction of the per-domain rows; no zone or domain to filter by).
 */
const timeRollupOf = (unit: TimeUnit, scope: Scope) =>
  unit === 300 && wholeSites(scope) ? 'siterollup_5m' : TIME_ROLLUP[unit];

/** The rollup a scope's range reads, and the range rounded to its buckets. */
function rollupFor(scope: Scope, range: Range, stepSeconds: number): { table: string; range: Range } {
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
function minutePieces(scope: Scope, range: Range, columns: readonly string[], where?: string): string[] {
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

const DOMAIN_COLUMNS = ['requests', 'bytes_out', 'bytes_in', 'hit_requests', 'blocked', 's4xx', 's5xx'] as const;
/** The per-domain sums: the statistics' columns and the origin's requests and failures (domain states). */
const PER_DOMAIN = [...DOMAIN_COLUMNS, 'upstream_requests', 'upstream_errors'] as const;
const TOTAL_COLUMNS = ROLLUP_COUNTERS;

const num = (row: Row | undefined, key: string): number => Number(row?.[key] ?? 0) || 0;
/** An IPv4 address's text from its integer (SqlDialect.ip4). */
const ip4Text = (n: number) =>
  `${Math.floor(n / 16_777_216)}.${Math.floor(n / 65_536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;
/** A canonical IPv4 address's integer (as SqlDialect.ip4 of DuckDB: no leading zeros), else null. */
const IP4_TEXT = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
const ip4Of = (text: string): number | null =>
  IP4_TEXT.test(text) ? text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0) : null;
const topRow = (row: Row) => ({
  key: String(row.value),
  requests: num(row, 't_requests'),
  bytesOut: num(row, 't_bytes_out'),
  blocked: num(row, 't_blocked'),
});
/** The order of equal counts in a list: the values' text byte by byte, as the statements order it. */
const byText = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
/** Sums of the rollup counters, each as `t_<counter>`. */
const sums = (columns: readonly string[] = TOTAL_COLUMNS) => columns.map((c) => `sum(${c}) AS t_${c}`).join(', ');

export class StatisticsQueries {
  constructor(readonly store: AnalyticsStore) {}

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
  private rawRows(scope: Scope, r: Range, dim: Dim): string {
    const d = this.store.dialect;
    const value = dimValueSql(d)[dim];
    const ip4 = this.ipKeys(dim); // Addresses as integers where the store keeps them so (ipKeys): `ip4` too.
    const minutes = ` UNION ALL ${aggregateDimRows(dim, scopeWhere(scope, 'minute', r), ip4 ? ip4.of('value') : null)}`;
    return `SELECT ${value} AS value, ${d.int64('1')} AS requests, ${d.int64('bytes_out')} AS bytes_out, ${d.int64('blocked')} AS blocked, ${d.int64('blacklisted')} AS blacklisted, ${d.int64('waf')} AS waf${ip4 ? `, ${ip4.of(value)} AS ip4` : ''} FROM events WHERE counted = 1 AND ${scopeWhere(scope, 'ts', r)}${minutes}`;
  }

  /** dimRows's rows of a dimension table's buckets in `r`. */
  private rolledRows(table: string, scope: Scope, r: Range, dim: Dim): string {
    const ip4 = this.ipKeys(dim);
    return `SELECT value, requests, bytes_out, blocked, blacklisted, waf${ip4 ? ', ip4' : ''} FROM ${table} WHERE dim = '${dim}' AND ${scopeWhere(scope, 'bucket', r)}`;
  }

  /**
   * Where dimRows cuts a range longer than RAW_TOP_MAX_SECONDS: its start (the first whole hour's
   * for ranges over ROUND_START_AFTER_SECONDS), the first whole hour h1, and h2, the end of the
   * whole hours [h1, h2) whose dimensions are built.
   */
  private hoursOf(range: Range): { start: number; h1: number; h2: number } {
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
  private addressPlan(scope: Scope, range: Range, bound = false): AddressPlan | null {
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

  /**
   * {@link top} of addresses from siteips (addressPlan), exact. An address's sums in siteips bound
   * what it counts in the range's days from above, and are that count when `exact` and none of
   * its days is outside the range's whole days. The candidates: the addresses whose bound plus
   * their count in the edges (the range's rest, which counts on top) reaches `cut` (at first the
   * bound of the list's length + 10th), and those whose edges alone reach it; each is counted
   * from its siteips row where that is its count, else from the days' rows, plus its edge rows.
   * An address left out counts less than `cut`, so when the list's last counts `cut` or more the
   * list is exact; otherwise `cut` drops to that last count (then every address that may place
   * is a candidate), or to 1 (every address).
   */
  private async topFromSiteIps(
    scope: Scope,
    plan: AddressPlan,
    by: 'requests' | 'blocked' | 'blacklisted' | 'waf',
    limit: number,
  ): Promise<{ key: string; requests: number; bytesOut: number; blocked: number }[]> {
    const d = this.store.dialect;
    const sites = `site_id IN (${ints(scope.siteIds)})`;
    const mask = by === 'requests' ? 'days' : `${by}_days`;
    const rowsOf = `FROM siteips WHERE ${sites} AND (${mask} & ${plan.mask}) <> 0`;
    // An address's row, and whether its sums are the range's days' count.
    const whole = `CASE WHEN exact AND (days & ${plan.outside}) = 0 THEN 1 ELSE 0 END AS whole`;
    const rowColumns = `value, requests AS r, bytes_out AS bo, blocked AS bl, ${by} AS o, ${whole}`;
    type Sums = { requests: number; bytesOut: number; blocked: number; ord: number };
    const sumsOf = (row: Row): Sums => ({
      requests: num(row, 'r'),
      bytesOut: num(row, 'bo'),
      blocked: num(row, 'bl'),
      ord: num(row, 'o'),
    });
    const add = (a: Sums | undefined, b: Sums): Sums =>
      a
        ? {
            requests: a.requests + b.requests,
            bytesOut: a.bytesOut + b.bytesOut,
            blocked: a.blocked + b.blocked,
            ord: a.ord + b.ord,
          }
        : b;
    const columns = `sum(requests) AS r, sum(bytes_out) AS bo, sum(blocked) AS bl, sum(${by}) AS o`;
    /** Addresses as a filter: IPv4 ones by their integer, others by their text (hexadecimal in the statement). */
    const matching = (keys: Map<string, number | null>) => {
      const v4 = [...keys.values()].filter((k): k is number => k !== null);
      const other = [...keys].filter(([, k]) => k === null).map(([v]) => d.str(v));
      const parts = [];
      if (v4.length > 0) parts.push(`ip4 IN (${ints(v4)})`);
      if (other.length > 0) parts.push(`(ip4 IS NULL AND value IN (${other.join(', ')}))`);
      return parts.length > 0 ? `(${parts.join(' OR ')})` : 'false';
    };
    // The edges (hours and minutes at the range's ends) count on top of the days: an address counts
    // at most its bound plus its edges' count, so one whose bound is under `cut` less the edges'
    // largest count counts under `cut`, and one without a row of the days its edges' count. Only
    // what the list needs of them leaves the store: that largest count, and the rows of the
    // candidates and of the addresses whose edges alone reach `cut` (a busy site's raw minutes
    // are thousands of addresses, and reading them all out cost more than grouping them).
    const edgeSums = plan.edges ? `SELECT value, ${columns} FROM (${plan.edges}) AS e GROUP BY value` : null;
    let cut: number | null = null;
    for (;;) {
      // The cut (at first the bound of the list's length + 10th) and the edges' largest count, then
      // the addresses whose bound and edges' count reach the cut: the scan filters the bounds by the
      // cut less that count, a constant, before it reads a mask or joins the edges (one statement
      // with the cut as a subquery read the site's addresses twice, masks and all). With one row
      // per address (single) the rows are the bounds, so they come with what counting them needs.
      const bounds = plan.single ? `SELECT ${by} AS u ${rowsOf}` : `SELECT sum(${by}) AS u ${rowsOf} GROUP BY value`;
      const [first] = await this.store.query(
        `SELECT ${cut === null ? `greatest(1, coalesce((SELECT u FROM (${bounds}) AS b ORDER BY u DESC LIMIT 1 OFFSET ${int(limit + 10)}), 1))` : int(cut)} AS cut, ` +
          `${edgeSums ? `(SELECT coalesce(max(o), 0) FROM (${edgeSums}) AS g)` : '0'} AS most`,
      );
      const f = num(first, 'cut');
      const most = num(first, 'most');
      const reach = most > 0 ? `u + coalesce((SELECT o FROM e WHERE e.value = c.value), 0) >= ${int(f)}` : 'true';
      const bounded = plan.single
        ? `SELECT ${KEY_OF('ip4')} AS k, ${by} AS u, ${rowColumns} FROM siteips WHERE ${sites} AND ${by} >= ${int(f - most)} AND (${mask} & ${plan.mask}) <> 0`
        : `SELECT value, ${KEY_OF('any_value(ip4)')} AS k, sum(${by}) AS u ${rowsOf} GROUP BY value HAVING sum(${by}) >= ${int(f - most)}`;
      // The candidates and the edge rows the list needs (those that alone reach the cut, and the
      // candidates'), in one statement that groups the edges once: both parts read them (as two
      // statements each grouped them again, 10 ms of the busiest site's five hours each).
      const read = await this.store.query(
        edgeSums
          ? `WITH e AS MATERIALIZED (${edgeSums}), c AS MATERIALIZED (SELECT * FROM (${bounded}) AS c WHERE ${reach}) ` +
              `SELECT 'c' AS src, * FROM c UNION ALL BY NAME SELECT 'e' AS src, * FROM e WHERE o >= ${int(f)} OR value IN (SELECT value FROM c)`
          : `SELECT 'c' AS src, * FROM (${bounded}) AS c`,
      );
      const found = read.filter((row) => row.src === 'c');
      const candidates = new Map<string, number | null>();
      for (const row of found) candidates.set(String(row.value), keyOf(row));
      const edges = new Map<string, Sums>();
      const unread = new Map<string, number | null>(plan.single ? [] : candidates);
      for (const row of read) {
        if (row.src !== 'e') continue;
        const value = String(row.value);
        edges.set(value, sumsOf(row));
        if (!candidates.has(value)) {
          const key = ip4Of(value);
          candidates.set(value, key);
          unread.set(value, key);
        }
      }
      // The candidates' siteips rows (those not read with the bounds): sums, and whether whole.
      const rowsOfCandidates = [
        ...(plan.single ? found : []),
        ...(unread.size === 0
          ? []
          : await this.store.query(
              `SELECT ${rowColumns} FROM siteips WHERE ${sites} AND (days & ${plan.mask}) <> 0 AND ${matching(unread)}`,
            )),
      ];
      const exact = new Map<string, Sums>();
      const partial = new Set<string>();
      for (const row of rowsOfCandidates) {
        const value = String(row.value);
        if (num(row, 'whole') === 1 && !partial.has(value)) exact.set(value, add(exact.get(value), sumsOf(row)));
        else {
          partial.add(value);
          exact.delete(value);
        }
      }
      if (partial.size > 0) {
        const scan = new Map([...partial].map((v) => [v, candidates.get(v) ?? null] as const));
        for (const row of await this.store.query(
          `SELECT value, ${columns} FROM (${plan.days}) AS t WHERE ${matching(scan)} GROUP BY value`,
        )) {
          exact.set(String(row.value), sumsOf(row));
        }
      }
      const list: { key: string; sums: Sums }[] = [];
      for (const value of candidates.keys()) {
        let sums = exact.get(value);
        const edge = edges.get(value);
        if (edge) sums = add(sums, edge);
        if (sums && sums.ord > 0) list.push({ key: value, sums });
      }
      list.sort((x, y) => y.sums.ord - x.sums.ord || byText(x.key, y.key));
      const top = list.slice(0, limit);
      const last = top[limit - 1];
      if (f <= 1 || (last && last.sums.ord >= f)) {
        return top.map(({ key, sums }) => ({
          key,
          requests: sums.requests,
          bytesOut: sums.bytesOut,
          blocked: sums.blocked,
        }));
      }
      cut = last ? Math.max(1, last.sums.ord) : 1;
    }
  }

  /** The store's address integers (SqlDialect.ip4) when `dim` is the address and the store has them. */
  private ipKeys(dim: Dim): SqlDialect['ip4'] {
    return dim === 'ip' ? this.store.dialect.ip4 : null;
  }

  /** Requests, bytes and decisions per value of a dimension, `by` the largest first. */
  async top(
    scope: Scope,
    range: Range,
    dim: Dim,
    by: 'requests' | 'blocked' | 'blacklisted' | 'waf',
    limit: number,
  ): Promise<{ key: string; requests: number; bytesOut: number; blocked: number }[]> {
    if (scope.siteIds.length === 0) return [];
    const plan = dim === 'ip' ? this.addressPlan(scope, range, true) : null;
    if (plan) return this.topFromSiteIps(scope, plan, by, limit);
    if (this.ipKeys(dim) && by === 'requests') {
      const addresses = await this.topAddresses(scope, range, limit);
      if (addresses) return addresses;
    }
    const nonEmpty =
      dim === 'referer' || dim === 'country' || dim === 'city' || dim === 'fileType' ? `value <> ''` : '';
    const columns = `sum(requests) AS t_requests, sum(bytes_out) AS t_bytes_out, sum(blocked) AS t_blocked, sum(${by}) AS ord`;
    const rowsOf = this.dimRows(scope, range, dim);
    if (isHighDim(dim) && this.store.dialect.hash64) {
      const ranked = await this.topByHash(rowsOf, nonEmpty, by, limit);
      if (ranked) return ranked;
    }
    let where = nonEmpty;
    if (by !== 'requests') {
      // Ordered by a decision: the values with one are found among the rows that count one (few
      // beside all of a busy site's addresses), and only their rows are summed in full.
      const decided = `SELECT value FROM (${rowsOf}) AS d WHERE ${by} > 0${nonEmpty ? ` AND ${nonEmpty}` : ''} GROUP BY value ORDER BY sum(${by}) DESC, value LIMIT ${int(limit)}`;
      where = `value IN (${decided})`;
    }
    const rows = await this.store.query(
      `SELECT value, ${columns} FROM (${rowsOf}) AS t${where ? ` WHERE ${where}` : ''} GROUP BY value ORDER BY ord DESC, value LIMIT ${int(limit)}`,
    );
    return rows.map(topRow);
  }

  /**
   * {@link top} of a high-cardinality dimension where the store hashes a value for less than it
   * groups it (SqlDialect.hash64): the values' hashes ranked by `by` (the first `limit + 10`, and
   * the count of the one after them), then every value of those hashes counted exactly, by its
   * text. A value of any other hash counts at most what its hash counts, so at most the one after
   * them: when the list's last counts more than that, the list is exact (two values sharing a hash
   * are each counted apart). Otherwise (ties reaching past the hashes read: a small site's values
   * seen once or twice) null, and the caller groups the strings.
   */
  private async topByHash(
    rowsOf: string,
    nonEmpty: string,
    by: 'requests' | 'blocked' | 'blacklisted' | 'waf',
    limit: number,
  ): Promise<{ key: string; requests: number; bytesOut: number; blocked: number }[] | null> {
    const d = this.store.dialect;
    const hash = d.hash64 as (expr: string) => string;
    const fetch = limit + 10;
    // Ordered by a decision: only the rows that count one.
    const filter = [nonEmpty, by === 'requests' ? '' : `${by} > 0`].filter((c) => c !== '').join(' AND ');
    const ranked = await this.store.query(
      `SELECT ${d.text('h')} AS hk, o FROM (SELECT ${hash('value')} AS h, sum(${by}) AS o FROM (${rowsOf}) AS t` +
        `${filter ? ` WHERE ${filter}` : ''} GROUP BY h) AS g ORDER BY o DESC LIMIT ${int(fetch + 1)}`,
    );
    if (ranked.length === 0) return [];
    const hashes = ranked.slice(0, fetch).map((row) => {
      const text = String(row.hk);
      if (!/^[0-9]{1,20}$/.test(text)) throw new Error(`not a 64-bit hash: ${text}`);
      return text;
    });
    // The most a value of a hash not read counts (none: every hash was read).
    const next = ranked.length > fetch ? num(ranked[fetch], 'o') : 0;
    const rows = await this.store.query(
      `SELECT value, sum(requests) AS t_requests, sum(bytes_out) AS t_bytes_out, sum(blocked) AS t_blocked, sum(${by}) AS ord ` +
        `FROM (${rowsOf}) AS t WHERE ${hash('value')} IN (${hashes.join(', ')})${nonEmpty ? ` AND ${nonEmpty}` : ''} GROUP BY value`,
    );
    const list = rows
      .filter((row) => num(row, 'ord') > 0)
      .sort((x, y) => num(y, 'ord') - num(x, 'ord') || byText(String(x.value), String(y.value)))
      .slice(0, limit);
    const last = list[limit - 1];
    if (ranked.length > fetch && !(last && num(last, 'ord') > next)) return null;
    return list.map(topRow);
  }

  /**
   * {@link top} of client addresses by requests where the store keeps them as integers
   * (SqlDialect.ip4): the IPv4 rows grouped by the integer and the others by their text, apart (a
   * string key, even one NULL nearly everywhere, costs the grouping what strings cost), the largest
   * first; the order among equals — the addresses' text — is put in here, from a few more rows than
   * the list holds. When values tied with the list's last reach past those rows, null: the caller
   * ranks the strings. (Lists ordered by a decision keep the strings: they group only the rows
   * with one, and two passes over the integers measured slower.)
   */
  private async topAddresses(
    scope: Scope,
    range: Range,
    limit: number,
  ): Promise<{ key: string; requests: number; bytesOut: number; blocked: number }[] | null> {
    const d = this.store.dialect;
    const rowsOf = this.dimRows(scope, range, 'ip');
    const sums = 'sum(requests) AS t_requests, sum(bytes_out) AS t_bytes_out, sum(blocked) AS t_blocked';
    const fetch = limit * 2 + 10;
    // k -1: no integer (a NULL would read as 0, an address).
    const rows = await this.store.query(
      `SELECT * FROM (SELECT ${d.int64('ip4')} AS k, '' AS other, ${sums} FROM (${rowsOf}) AS a WHERE ip4 IS NOT NULL GROUP BY ip4 ` +
        `UNION ALL SELECT ${d.int64('-1')} AS k, value AS other, ${sums} FROM (${rowsOf}) AS b WHERE ip4 IS NULL GROUP BY value) AS g ` +
        `ORDER BY t_requests DESC LIMIT ${int(fetch)}`,
    );
    if (rows.length === fetch && num(rows[fetch - 1], 't_requests') >= num(rows[limit - 1], 't_requests')) return null;
    return rows
      .map((row): Row => ({ ...row, value: num(row, 'k') >= 0 ? ip4Text(num(row, 'k')) : String(row.other) }))
      .sort((x, y) => num(y, 't_requests') - num(x, 't_requests') || byText(String(x.value), String(y.value)))
      .slice(0, limit)
      .map(topRow);
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
    const plan = dim === 'ip' ? this.addressPlan(scope, range) : null;
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
    const n = this.ipKeys(dim)
      ? `${d.distinct('ip4')} + ${d.distinct('CASE WHEN ip4 IS NULL THEN value END')}`
      : dim === 'ip' && d.distinctAddresses
        ? d.distinctAddresses('value')
        : d.distinct('value');
    const [row] = await this.store.query(
      // Counters are never negative: a value with a decision is one with a row that counts one.
      `SELECT ${n} AS n FROM (${this.dimRows(scope, range, dim)}) AS r WHERE value <> ''${having ? ` AND ${having} > 0` : ''}`,
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
}

/** An address's integer as a column `k` that is never NULL (a query's NULL reads as 0, an address): -1 for none. */
const KEY_OF = (ip4: string) => `coalesce(CAST(${ip4} AS BIGINT), -1)`;
const keyOf = (row: Row): number | null => (num(row, 'k') >= 0 ? num(row, 'k') : null);

/** addressPlan's answer. */
interface AddressPlan {
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

/** What each top-list id counts: the dimension and what orders it. */
export const TOP_SOURCES: Readonly<
  Record<StatisticsTopId, { dim: Dim | 'domain'; by: 'requests' | 'blocked' | 'blacklisted' | 'waf' }>
> = {
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
