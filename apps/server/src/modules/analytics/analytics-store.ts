import type { LogPart, LogPartRef } from '@rampart/contract';

/**
 * The analytics store (docs/decisions.md "Traffic analytics"): where the edge's request events and
 * their rollups live, behind one interface with two implementations — DuckDB embedded in DATA_DIR
 * (duckdb-store.ts, the default) and ClickHouse for installs that outgrow one machine
 * (clickhouse-store.ts, `CLICKHOUSE_URL`). Both run the same SQL (store/statistics-reads.ts) but for the few
 * functions their dialects spell differently, so one test suite covers both.
 *
 * Values that reach SQL text are integers the services checked (ids, times); strings only travel as
 * inserted data (DuckDB's appender, ClickHouse's JSONEachRow), never inside a statement.
 */

/** One event as stored: the shipped event, placed (site, zone) and located (country, city). */
export interface EventRow {
  /** Unix seconds and the millisecond within it. */
  ts: number;
  ms: number;
  nodeId: number;
  zoneId: number;
  /** 0 when the request matched no domain (or the domain is gone). */
  siteId: number;
  domainId: number;
  requestId: string;
  batchId: string;
  ip: string;
  /** ISO 3166 alpha-2, "" when unknown. */
  country: string;
  /** The city's geoname id, 0 when unknown. */
  city: number;
  method: string;
  scheme: string;
  httpVersion: string;
  host: string;
  /** The request URI as sent (query included), and its path alone (what URL tops count). */
  uri: string;
  path: string;
  /** The file-type group of the path's extension (FILE_TYPE_GROUPS), "" for none. */
  fileType: string;
  status: number;
  bytesIn: number;
  bytesOut: number;
  requestMs: number;
  upstreamMs: number;
  upstreamStatus: number;
  cacheStatus: string;
  userAgent: string;
  referer: string;
  fwKind: string;
  fwRule: number;
  fwAction: string;
  /** A WAF decision's part of the request (WAF_PARTS), a redacted excerpt of the match and its name, "" for none. */
  wafPart: string;
  wafExcerpt: string;
  wafName: string;
  /** Derived at ingest so the rollups need no logic: 1 or 0. */
  hit: number;
  blocked: number;
  blacklisted: number;
  waf: number;
  /**
   * 1 when the event feeds the statistics (rollups, dimensions, the raw reads of tops); 0 when it
   * is kept for the logs only: its node shipped its statistics as aggregates (the batch's
   * `statistics: false`).
   */
  counted: number;
}

/** A batch as the store takes it: stored whole, once. */
export interface StoredBatch {
  batchId: string;
  nodeId: number;
  /** Unix seconds the control plane took it (the dropped counter is counted at this time). */
  receivedAt: number;
  dropped: number;
  events: EventRow[];
}

/**
 * What a layer-4 counter row counts by (docs/decisions.md "Layer-4 counters"): the agent's three
 * (contract L4_COUNTER_DIMENSIONS) and, from a source address at ingest, its country and ASN.
 */
export const L4_STORED_DIMS = ['protocol', 'tcpFlags', 'source', 'country', 'asn'] as const;
export type L4StoredDim = (typeof L4_STORED_DIMS)[number];

/** One layer-4 counter row as stored: a node's record, placed (the port's site) and located. */
export interface L4CounterRow {
  /** The minute counted (unix seconds, a multiple of 60). */
  bucket: number;
  nodeId: number;
  /** The site owning the port, 0 for the node's own counts (ICMP, GRE) and ports of no site. */
  siteId: number;
  portId: number;
  outcome: 'pass' | 'drop';
  dim: L4StoredDim;
  /** A protocol, a TCP flag combination, an address, a country code ("" unknown) or an ASN ("0" unknown). */
  value: string;
  packets: number;
  bytes: number;
}

/** A layer-4 counter batch as the store takes it: stored whole, once. */
export interface StoredL4Batch {
  batchId: string;
  nodeId: number;
  receivedAt: number;
  rows: L4CounterRow[];
}

/**
 * One minute record of a node's aggregates as stored (routes/analytics-aggregates.ts): placed as an
 * event is (its domain's site when that is the node's operator's, else site and domain 0; the
 * node's zone), its counters in ROLLUP_COUNTERS's order.
 */
export interface AggregateCounterRow {
  /** The minute's start, unix seconds. */
  minute: number;
  siteId: number;
  domainId: number;
  zoneId: number;
  counters: readonly number[];
}

/** An aggregate batch as the store takes it: its rows merged into the rollups once (ledger `agg_batches`). */
export interface StoredAggregateBatch {
  batchId: string;
  nodeId: number;
  receivedAt: number;
  /** Requests the node's spool dropped before this batch (kept in the ledger). */
  dropped: number;
  counters: AggregateCounterRow[];
  /** Its minutes' low-cardinality dimensions: a row per value. */
  lowDims: AggregateDimRow[];
  /** Its minutes' heavy hitters (aggregate-sketch-rows.ts): a row per listed value. */
  highDims: AggregateHighRow[];
  /** Its minutes' distinct-address sketches, time histograms and per-second peaks: a row per minute record. */
  sketches: AggregateSketchRow[];
  /** Its refused floods collapsed for the logs: a row per record. */
  collapsed: CollapsedRow[];
}

/** A heavy hitter's listed value in one minute record: its counts (DIM_COUNTERS) and the summary's error of `requests`. */
export interface AggregateHighRow extends AggregateDimRow {
  error: number;
}

/** One minute record's sketches (their contract JSON, '' for none) and peaks, placed as its record. */
export interface AggregateSketchRow {
  minute: number;
  siteId: number;
  domainId: number;
  zoneId: number;
  requests: number;
  bytesOut: number;
  peakRequests: number;
  peakBytes: number;
  ips: string;
  blockedIps: string;
  blacklistedIps: string;
  requestMs: string;
  upstreamMs: string;
}

/**
 * Refused requests of one minute, node, domain, address and decision as one log record
 * (routes/analytics-aggregates.ts collapsedBlocksSchema): its sample (the first request) as an
 * event row, placed and located as events are, with the record's address ("" for a minute's
 * decisions past the node's cap of addresses), summed bytes and last time (ts, ms); and how many
 * requests, the first and last time (unix ms) and the minute (unix seconds).
 */
export interface CollapsedRow extends EventRow {
  minute: number;
  count: number;
  firstMs: number;
  lastMs: number;
}

/** A value of a low-cardinality dimension in one minute record, placed as its record, its DIM_COUNTERS in their order. */
export interface AggregateDimRow {
  minute: number;
  siteId: number;
  domainId: number;
  zoneId: number;
  dim: string;
  value: string;
  counts: readonly number[];
}

export interface IngestResult {
  stored: number;
  duplicate: boolean;
}

/** A row of a query: column name → number or string (64-bit integers come back as numbers). */
export type Row = Record<string, number | string>;

export interface SqlDialect {
  /** Integer division of two integer expressions. */
  idiv(a: string, b: string): string;
  /** Number of distinct values of an expression. */
  distinct(expr: string): string;
  /** An integer expression as a string (its decimal digits). */
  text(expr: string): string;
  /** An integer expression as a 64-bit integer (UNION ALL's sides must agree on types). */
  int64(expr: string): string;
  /**
   * A string value as an expression built from its UTF-8 bytes in hexadecimal: the statement's text
   * holds hex digits only, so no value can change it (log search filters are the only strings).
   */
  str(value: string): string;
  /** `expr` holds `value` / starts with it (byte-wise, case-sensitive). */
  contains(expr: string, value: string): string;
  startsWith(expr: string, value: string): string;
  /**
   * Client addresses as integers, where the store keeps them so (DuckDB: its dimension tables'
   * `ip4` column; null for ClickHouse, which groups the strings): `of` is a string expression's
   * IPv4 address as an unsigned 32-bit integer, NULL for any other value (IPv6, or an IPv4 written
   * other than canonically), `text` such an integer's address again. Grouping, counting and ranking
   * integers costs about half of doing so with the strings; a value with NULL is grouped as itself.
   */
  ip4: { of(expr: string): string; text(expr: string): string } | null;
  /**
   * The count of distinct client addresses among a string expression's values where the store
   * keeps them as strings (ClickHouse: the canonical IPv4 ones counted as integers, the others as
   * themselves — half the time of counting the strings at 10 million events); null where `ip4`
   * does it or `distinct` is all there is.
   */
  distinctAddresses: ((expr: string) => string) | null;
  /**
   * How a query of several pieces runs (a card's days, hours, five minutes and minutes): `union`,
   * one statement of their UNION ALL (DuckDB: one connection runs statements one after another,
   * each with its own cost of planning — seven pieces apart 30 ms against 16 ms as one at 10
   * million events); `apart`, a statement each, all at once (ClickHouse 18.16 ran them in
   * parallel, in about half the time of their UNION ALL).
   */
  pieces: 'union' | 'apart';
  /** Window functions (`count(*) OVER ()`): DuckDB has them, ClickHouse 18.16 not. */
  windows: boolean;
  /**
   * A 64-bit hash of a string expression, where ranking a high-cardinality dimension by it first
   * and counting the leaders' values exactly afterwards beats grouping the strings (ClickHouse:
   * `cityHash64`, a fifth of the time of grouping a busy site's month of addresses as strings; a
   * top stays exact, TopLists.topByHash); null where the store has its own ways (DuckDB:
   * integer addresses and siteips).
   */
  hash64: ((expr: string) => string) | null;
}

/** The hexadecimal digits of a string's UTF-8 bytes (for SqlDialect.str). */
export const hexOf = (value: string): string => Buffer.from(value, 'utf8').toString('hex');

export interface AnalyticsStore {
  readonly kind: 'duckdb' | 'clickhouse';
  readonly dialect: SqlDialect;
  /** Creates what is missing (tables, views); safe to call on every start. */
  open(): Promise<void>;
  close(): Promise<void>;
  /**
   * Stores a batch and its rollups exactly once: a batch already taken answers `duplicate`; a batch
   * whose earlier attempt was cut short is completed (the events already stored, by request id,
   * are left out).
   */
  ingest(batch: StoredBatch): Promise<IngestResult>;
  /**
   * Stores a layer-4 counter batch exactly once (`l4_counters`, ledger `l4_batches`): a batch
   * already taken answers `duplicate`. Its rows are pruned with the rollups, its ledger with the
   * events' ledger.
   */
  ingestL4(batch: StoredL4Batch): Promise<IngestResult>;
  /**
   * Merges an aggregate batch into the rollups exactly once (ledger `agg_batches`): its counters
   * as partial rows of the time rollups (rollup_1m … rollup_1d, siterollup_5m), which sum with the
   * rows of raw events, its low-cardinality dimensions into `agg_lowdims` (per minute, read with
   * raw events) and lowdims_1h, its heavy hitters into `agg_highdims` and dims_1h, its sketches and
   * peaks into `agg_sketches`; a batch already taken answers `duplicate`. A batch whose `signal`
   * aborts (its sender went) before its write starts is not written (rejected with the abort).
   */
  ingestAggregates(batch: StoredAggregateBatch, signal?: AbortSignal): Promise<IngestResult>;
  /**
   * Events before this (unix seconds, a whole hour) are counted in the dimension tables (lowdims_1h,
   * dims_1h; dims_1d for the whole days before it); later ones only in events, where the statistics
   * read them. DuckDB builds the dimensions of ended hours in `compact`; ClickHouse's views build
   * them as events arrive (MAX_SAFE_INTEGER).
   */
  readonly dimsRolledTo: number;
  /**
   * DuckDB's per-site address table (`siteips`: each address of a site once, with masks of its
   * days; docs/decisions.md "Addresses per site"): the days its masks answer for, [from, to) —
   * whole days from `from`, the last one's hours up to `to` (dimsRolledTo) — and whether it holds
   * one row per address (false while late events' partial rows wait for `compact`); null where
   * the store has none (ClickHouse, or nothing built yet).
   */
  readonly siteAddresses: { from: number; to: number; merged: boolean } | null;
  /**
   * Runs a read-only statement built by a reader of the store layer (store/: the statistics and
   * layer-4 reads; the log readers): services ask those typed reads, never this.
   */
  query(sql: string): Promise<Row[]>;
  /** Deletes raw events older than `rawBefore` and rollups older than `rollupBefore` (unix seconds). */
  prune(rawBefore: number, rollupBefore: number): Promise<void>;
  /**
   * Merges the partial rollup rows of buckets in [from, to) (unix seconds) into one row per key;
   * DuckDB first builds the dimensions of the whole hours before `to` not built yet.
   */
  compact(from: number, to: number): Promise<void>;
  /**
   * The parts of the tables kept by day (contract LOG_TABLES): one per table and UTC day that holds
   * rows, in no particular order; `bytes` on disk where the store can say, else null.
   */
  parts(): Promise<LogPart[]>;
  /**
   * Deletes the rows of these parts (a table of LOG_TABLES and a real day, re-checked here: nothing
   * else reaches a statement); a part that holds nothing is no error.
   */
  dropParts(items: readonly LogPartRef[]): Promise<void>;
}
