import {
  DIM_COUNTERS,
  type Dim,
  type DimCounter,
  eventCounters,
  type HighDim,
  type LowDim,
  methodBucket,
  ROLLUP_COUNTERS,
  type RollupCounter,
  TRACKED_METHODS,
} from '@rampart/contract';
import type { EventRow, SqlDialect } from './analytics-store.js';

// The counters, dimensions and method buckets are the contract's (aggregates/event-counters.ts),
// shared with the edge's minute aggregates.
export {
  DIM_COUNTERS,
  type Dim,
  type DimCounter,
  eventCounters,
  type HighDim,
  type LowDim,
  methodBucket,
  ROLLUP_COUNTERS,
  type RollupCounter,
  TRACKED_METHODS,
};

/**
 * The rollups the statistics read (docs/decisions.md "Traffic analytics"), so that a query over 30
 * days never scans raw events:
 *
 * - `rollup_1m`, `rollup_5m`, `rollup_1h` and `rollup_1d`: per site, domain and zone, per minute,
 *   five minutes, hour and UTC day, the counters of {@link ROLLUP_COUNTERS};
 * - `siterollup_5m`: the same per whole site (domain and zone 0) and five minutes, which the
 *   busiest five minutes of whole sites over days and their monthly traffic read (a month of an
 *   operator's sites is a fraction of the per-domain rows);
 * - `lowdims_1h`: per site, domain, zone and hour, requests, bytes and decisions per value of each
 *   low-cardinality dimension ({@link LOW_DIMS}: status, method, HTTP version, scheme, country,
 *   city, file type);
 * - `dims_1h`: the same for the high-cardinality ones ({@link HIGH_DIMS}: URL path, referer, user
 *   agent, client address), apart so that the small lists do not read the large ones' rows;
 * - `dims_1d`: the high-cardinality ones per UTC day (a client or a URL seen in many hours of a day
 *   is one row), which lists over days read for their whole days;
 * - `sitedims_1d`: the same per site alone (domain and zone 0: a client of several domains or
 *   nodes of a site is one row), which lists over days of whole sites read instead.
 *
 * Top lists read the whole hours of a range from these and the partial hours at its ends from raw
 * events (store/statistics-reads.ts), so they are exact to the second without a finer table (a
 * five-minute one wrote up to seven rows per event on quiet domains).
 *
 * The stores compute them in SQL — DuckDB the time rollups from each batch in its transaction and
 * the dimensions from the events of each ended hour (duckdb-store.ts, its `dimsRolledTo`),
 * ClickHouse in materialized views over the events table (clickhouse-store.ts); {@link rollupsOf}
 * computes the same in JavaScript, the reference the store tests compare both with. Rows are
 * partial sums: a key may have several rows until compaction, and every query sums.
 */

/**
 * Days a per-site address row's masks cover (docs/decisions.md "Addresses per site"): bit
 * `day % SITE_IP_DAYS` of each mask is that UTC day, valid for the SITE_IP_DAYS days up to the last
 * one built (a day's bit is cleared when the day SITE_IP_DAYS later starts); a statistics range
 * (STATISTICS_RANGE_MAX_DAYS, 93) fits.
 */
export const SITE_IP_DAYS = 128;

/** Low-cardinality dimensions and the event value each counts. */
export const LOW_DIMS = {
  status: (e: EventRow) => String(e.status),
  method: (e: EventRow) => methodBucket(e.method),
  httpVersion: (e: EventRow) => e.httpVersion,
  scheme: (e: EventRow) => e.scheme,
  country: (e: EventRow) => e.country,
  city: (e: EventRow) => (e.city > 0 ? String(e.city) : ''),
  fileType: (e: EventRow) => e.fileType,
} as const satisfies Record<LowDim, (e: EventRow) => string>;
/** High-cardinality dimensions. */
export const HIGH_DIMS = {
  url: (e: EventRow) => e.path,
  referer: (e: EventRow) => e.referer,
  userAgent: (e: EventRow) => e.userAgent,
  ip: (e: EventRow) => e.ip,
} as const satisfies Record<HighDim, (e: EventRow) => string>;
/** {@link methodBucket} as SQL (the same text in both stores). */
export const METHOD_BUCKET_SQL = `CASE WHEN method IN (${TRACKED_METHODS.map((m) => `'${m}'`).join(', ')}) THEN method ELSE 'OTHER' END`;
/** eventCounters' "reached an origin", as SQL over the events' columns. */
export const UPSTREAM_SQL = '(upstream_ms >= 0 OR upstream_status > 0)';
/** The events' column each high-cardinality dimension counts (the rollup and raw-event queries). */
export const HIGH_DIM_COLUMNS: Readonly<Record<HighDim, string>> = {
  url: 'path',
  referer: 'referer',
  userAgent: 'user_agent',
  ip: 'ip',
};
export function isHighDim(dim: string): dim is HighDim {
  return Object.hasOwn(HIGH_DIMS, dim);
}
/** The hourly table of a dimension. */
export const dimTable = (dim: Dim): 'dims_1h' | 'lowdims_1h' => (isHighDim(dim) ? 'dims_1h' : 'lowdims_1h');

/** Each low-cardinality dimension's value (LOW_DIMS) as a string expression over the events' columns. */
export function lowDimValueSql(d: SqlDialect): Readonly<Record<LowDim, string>> {
  return {
    status: d.text('status'),
    method: METHOD_BUCKET_SQL,
    httpVersion: 'http_version',
    scheme: 'scheme',
    country: 'country',
    city: `CASE WHEN city > 0 THEN ${d.text('city')} ELSE '' END`,
    fileType: 'file_type',
  };
}
/** Every dimension's value as a string expression over the events' columns. */
export function dimValueSql(d: SqlDialect): Readonly<Record<Dim, string>> {
  return { ...lowDimValueSql(d), ...HIGH_DIM_COLUMNS };
}

export interface RollupRow {
  bucket: number;
  siteId: number;
  domainId: number;
  zoneId: number;
  values: Record<RollupCounter, number>;
}

export interface DimRow {
  bucket: number;
  siteId: number;
  domainId: number;
  zoneId: number;
  dim: Dim;
  value: string;
  values: Record<DimCounter, number>;
}

function addInto<K extends string>(target: Record<K, number>, add: Record<K, number>, keys: readonly K[]): void {
  for (const k of keys) target[k] += add[k];
}

function zeroes<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

export interface BatchRollups {
  r1m: RollupRow[];
  r5m: RollupRow[];
  r1h: RollupRow[];
  r1d: RollupRow[];
  /** siterollup_5m (domain and zone 0). */
  s5m: RollupRow[];
  /** lowdims_1h and dims_1h. */
  l1h: DimRow[];
  d1h: DimRow[];
  /** dims_1d, and sitedims_1d (domain and zone 0). */
  d1d: DimRow[];
  s1d: DimRow[];
}

/** The partial rollup rows of a batch's events. */
export function rollupsOf(events: readonly EventRow[]): BatchRollups {
  const r1m = new Map<string, RollupRow>();
  const r5m = new Map<string, RollupRow>();
  const r1h = new Map<string, RollupRow>();
  const r1d = new Map<string, RollupRow>();
  const s5m = new Map<string, RollupRow>();
  const l1h = new Map<string, DimRow>();
  const d1h = new Map<string, DimRow>();
  const d1d = new Map<string, DimRow>();
  const s1d = new Map<string, DimRow>();
  const addRollup = (
    map: Map<string, RollupRow>,
    bucket: number,
    e: EventRow,
    c: Record<RollupCounter, number>,
    site = false,
  ) => {
    const domainId = site ? 0 : e.domainId;
    const zoneId = site ? 0 : e.zoneId;
    const key = `${bucket}|${e.siteId}|${domainId}|${zoneId}`;
    let row = map.get(key);
    if (!row) {
      row = { bucket, siteId: e.siteId, domainId, zoneId, values: zeroes(ROLLUP_COUNTERS) };
      map.set(key, row);
    }
    addInto(row.values, c, ROLLUP_COUNTERS);
  };
  const addDim = (map: Map<string, DimRow>, bucket: number, e: EventRow, dim: Dim, value: string, site = false) => {
    const domainId = site ? 0 : e.domainId;
    const zoneId = site ? 0 : e.zoneId;
    const key = `${bucket}|${e.siteId}|${domainId}|${zoneId}|${dim}|${value}`;
    let row = map.get(key);
    if (!row) {
      row = {
        bucket,
        siteId: e.siteId,
        domainId,
        zoneId,
        dim,
        value,
        values: zeroes(DIM_COUNTERS),
      };
      map.set(key, row);
    }
    const v = row.values;
    v.requests += 1;
    v.bytes_out += e.bytesOut;
    v.blocked += e.blocked;
    v.blacklisted += e.blacklisted;
    v.waf += e.waf;
  };
  const lowDims = Object.entries(LOW_DIMS) as [LowDim, (e: EventRow) => string][];
  const highDims = Object.entries(HIGH_DIMS) as [HighDim, (e: EventRow) => string][];
  for (const e of events) {
    // Kept for the logs only: its node shipped its statistics as aggregates.
    if (e.counted === 0) continue;
    const c = eventCounters(e);
    const five = e.ts - (e.ts % 300);
    const hour = e.ts - (e.ts % 3600);
    const day = e.ts - (e.ts % 86_400);
    addRollup(r1m, e.ts - (e.ts % 60), e, c);
    addRollup(r5m, five, e, c);
    addRollup(s5m, five, e, c, true);
    addRollup(r1h, hour, e, c);
    addRollup(r1d, day, e, c);
    for (const [dim, of] of lowDims) addDim(l1h, hour, e, dim, of(e));
    for (const [dim, of] of highDims) {
      addDim(d1h, hour, e, dim, of(e));
      addDim(d1d, day, e, dim, of(e));
      addDim(s1d, day, e, dim, of(e), true);
    }
  }
  return {
    r1m: [...r1m.values()],
    r5m: [...r5m.values()],
    r1h: [...r1h.values()],
    r1d: [...r1d.values()],
    s5m: [...s5m.values()],
    l1h: [...l1h.values()],
    d1h: [...d1h.values()],
    d1d: [...d1d.values()],
    s1d: [...s1d.values()],
  };
}
