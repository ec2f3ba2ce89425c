import { AGGREGATE_DATED_TABLES, aggregateDdl } from './aggregate-clickhouse-store.js';
import { hexOf, type Row, type SqlDialect } from './analytics-store.js';
import { ADDED_EVENT_COLUMNS, CLICKHOUSE_EVENT_COLUMNS as COLUMNS, checkEvent } from './event-columns.js';
import {
  DIM_COUNTERS,
  type DimCounter,
  HIGH_DIM_COLUMNS,
  lowDimValueSql,
  ROLLUP_COUNTERS,
  type RollupCounter,
  UPSTREAM_SQL,
} from './rollups.js';

/**
 * The ClickHouse store's schema (clickhouse-store.ts): its SQL dialect, the tables and views of the
 * single-server layout (clickhouse-layout-store.ts makes a cluster's of them), the statements that bring
 * a store from before up to date, and the tables kept by day.
 */

export const CLICKHOUSE_DIALECT: SqlDialect = {
  pieces: 'apart',
  windows: false,
  hash64: (expr) => `cityHash64(${expr})`,
  idiv: (a, b) => `intDiv(${a}, ${b})`,
  distinct: (expr) => `uniqExact(${expr})`,
  text: (expr) => `toString(${expr})`,
  int64: (expr) => `toInt64(${expr})`,
  str: (value) => `unhex('${hexOf(value)}')`,
  // 18.16 has no startsWith: the first occurrence at byte 1 is a prefix.
  contains: (expr, value) => `position(${expr}, unhex('${hexOf(value)}')) > 0`,
  startsWith: (expr, value) => `position(${expr}, unhex('${hexOf(value)}')) = 1`,
  ip4: null,
  distinctAddresses: (expr) => {
    // A canonical IPv4 address's integer (its text again when printed), 0 for any other value:
    // '0.0.0.0', '010.0.0.1' and IPv6 count as strings, apart from the integers.
    const key = `if(IPv4NumToString(IPv4StringToNum(${expr})) = ${expr}, IPv4StringToNum(${expr}), toUInt32(0))`;
    return `(uniqExactIf(${key}, ${key} != 0) + uniqExactIf(${expr}, ${key} = 0))`;
  },
};

/** Days are UTC whatever the server's time zone, so that pruning can name them. */
export const DAY_OF = (column: string) => `toYYYYMMDD(toDateTime(${column}), 'UTC')`;

/*
 * ClickHouse substitutes a SELECT alias for every identifier of the same name anywhere in the
 * query, qualified ones too in 18.16 (`sum(bytes_out) AS bytes_out` turns hit_bytes'
 * `sumIf(bytes_out, hit != 0)` into a nested aggregate), except inside the alias' own expression;
 * and 18.16's views neither fill a target's missing columns nor read from a subquery nor cascade.
 * So the rollup views, whose hit_bytes reads bytes_out, write one row per event (the plain column
 * as bytes_out, no GROUP BY): SummingMergeTree sums them on its merges (current servers already on
 * insert, `optimize_on_insert`). The dimension views read only columns that are no output of them,
 * or the output's own column, and aggregate per block.
 */
const UPSTREAM = UPSTREAM_SQL;
const STATUS_CLASS = (klass: number) => `toInt64(intDiv(status, 100) = ${klass})`;

/** What eventCounters (rollups.ts) adds per event, as an expression over the event's columns. */
const ROLLUP_VALUES: Record<RollupCounter, string> = {
  requests: 'toInt64(1)',
  bytes_in: 'bytes_in',
  bytes_out: 'bytes_out',
  hit_requests: 'toInt64(hit)',
  hit_bytes: 'if(hit != 0, bytes_out, toInt64(0))',
  blocked: 'toInt64(blocked)',
  blacklisted: 'toInt64(blacklisted)',
  dropped: 'toInt64(status = 444)',
  waf: 'toInt64(waf)',
  upstream_requests: `toInt64(${UPSTREAM})`,
  upstream_errors: `toInt64(${UPSTREAM} AND upstream_status >= 500)`,
  s2xx: STATUS_CLASS(2),
  s3xx: STATUS_CLASS(3),
  s4xx: STATUS_CLASS(4),
  s5xx: STATUS_CLASS(5),
};

/** What rollupsOf adds to a dimension row per event. */
const DIM_SUMS: Record<DimCounter, string> = {
  requests: 'count()',
  bytes_out: `sum(bytes_out)`,
  blocked: `sum(blocked)`,
  blacklisted: `sum(blacklisted)`,
  waf: `sum(waf)`,
};

const KEY_COLUMNS = 'bucket Int64, site_id Int32, domain_id Int32, zone_id Int32';
const summing = (table: string, columns: string, order: string) =>
  `CREATE TABLE IF NOT EXISTS ${table} (${columns}) ENGINE = SummingMergeTree() PARTITION BY ${DAY_OF('bucket')} ORDER BY (${order})`;
const ROLLUP_TABLE = (table: string) =>
  summing(
    table,
    `${KEY_COLUMNS}, ${ROLLUP_COUNTERS.map((c) => `${c} Int64`).join(', ')}`,
    'site_id, bucket, domain_id, zone_id',
  );
const DIM_TABLE = (table: string) =>
  summing(
    table,
    `${KEY_COLUMNS}, dim String, value String, ${DIM_COUNTERS.map((c) => `${c} Int64`).join(', ')}`,
    'site_id, dim, bucket, domain_id, zone_id, value',
  );

const bucketOf = (seconds: number) => `ts - ts % ${seconds}`;
const KEYS_OF_EVENT = 'site_id, domain_id, zone_id';

/** A time rollup's view; per whole site (domain and zone 0) with `site`. */
const ROLLUP_VIEW = (table: string, seconds: number, site = false) =>
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_ev TO ${table} AS SELECT ${bucketOf(seconds)} AS bucket, ` +
  `${site ? 'site_id, toInt32(0) AS domain_id, toInt32(0) AS zone_id' : KEYS_OF_EVENT}, ` +
  `${ROLLUP_COUNTERS.map((c) => (ROLLUP_VALUES[c] === c ? c : `${ROLLUP_VALUES[c]} AS ${c}`)).join(', ')} FROM events WHERE counted = 1`;

/**
 * A row per event and dimension (ARRAY JOIN over the event's (dim, value) pairs), summed per key;
 * per whole site (domain and zone 0) with `site`.
 */
const DIM_VIEW = (
  table: string,
  view: string,
  seconds: number,
  values: Readonly<Record<string, string>>,
  site = false,
) =>
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${view} TO ${table} AS SELECT ${bucketOf(seconds)} AS bucket, ` +
  `${site ? 'site_id, toInt32(0) AS domain_id, toInt32(0) AS zone_id' : KEYS_OF_EVENT}, ` +
  `tupleElement(dim_pair, 1) AS dim, tupleElement(dim_pair, 2) AS value, ` +
  `${DIM_COUNTERS.map((c) => `toInt64(${DIM_SUMS[c]}) AS ${c}`).join(', ')} ` +
  `FROM events ARRAY JOIN [${Object.entries(values)
    .map(([dim, value]) => `('${dim}', ${value})`)
    .join(', ')}] AS dim_pair WHERE counted = 1 ` +
  `GROUP BY bucket, site_id, ${site ? '' : 'domain_id, zone_id, '}dim, value`;

/** The raw events' table (the bench's raw floor writes one alone). */
export const EVENTS_DDL =
  `CREATE TABLE IF NOT EXISTS events (${COLUMNS.map((c) => `${c.name} ${c.type}`).join(', ')}) ` +
  `ENGINE = MergeTree() PARTITION BY ${DAY_OF('ts')} ORDER BY (site_id, ts)`;

export const DDL = [
  EVENTS_DDL,
  ROLLUP_TABLE('rollup_1m'),
  ROLLUP_TABLE('rollup_5m'),
  ROLLUP_TABLE('rollup_1h'),
  ROLLUP_TABLE('rollup_1d'),
  ROLLUP_TABLE('siterollup_5m'),
  DIM_TABLE('lowdims_1h'),
  DIM_TABLE('dims_1h'),
  DIM_TABLE('dims_1d'),
  DIM_TABLE('sitedims_1d'),
  // The ledger, as the DuckDB store's (one row per batch taken), looked up by batch_key.
  'CREATE TABLE IF NOT EXISTS batches (batch_key UInt64, batch_id String, node_id Int32, received_at Int64, ' +
    `dropped Int64, events Int32, ingested_at Int64 DEFAULT 0) ENGINE = MergeTree() PARTITION BY ${DAY_OF('received_at')} ORDER BY batch_key`,
  // Batches begun: a row here and none in batches is an attempt that was cut short.
  'CREATE TABLE IF NOT EXISTS batch_attempts (batch_key UInt64, batch_id String, node_id Int32, received_at Int64) ' +
    `ENGINE = MergeTree() PARTITION BY ${DAY_OF('received_at')} ORDER BY batch_key`,
  // The layer-4 counters (docs/decisions.md "Layer-4 counters"): the DuckDB store's columns, and
  // the key of the batch each row came with (a batch is one INSERT: all its rows or none).
  'CREATE TABLE IF NOT EXISTS l4_counters (bucket Int64, site_id Int32, node_id Int32, port_id Int32, outcome String, ' +
    `dim String, value String, packets Int64, bytes Int64, batch_key UInt64) ENGINE = MergeTree() PARTITION BY ${DAY_OF('bucket')} ` +
    'ORDER BY (site_id, dim, bucket)',
  'CREATE TABLE IF NOT EXISTS l4_batches (batch_key UInt64, batch_id String, node_id Int32, received_at Int64, records Int32) ' +
    `ENGINE = MergeTree() PARTITION BY ${DAY_OF('received_at')} ORDER BY batch_key`,
  ROLLUP_VIEW('rollup_1m', 60),
  ROLLUP_VIEW('rollup_5m', 300),
  ROLLUP_VIEW('rollup_1h', 3600),
  ROLLUP_VIEW('rollup_1d', 86_400),
  ROLLUP_VIEW('siterollup_5m', 300, true),
  DIM_VIEW('lowdims_1h', 'lowdims_1h_ev', 3600, lowDimValueSql(CLICKHOUSE_DIALECT)),
  DIM_VIEW('dims_1h', 'dims_1h_ev', 3600, HIGH_DIM_COLUMNS),
  DIM_VIEW('dims_1d', 'dims_1d_ev', 86_400, HIGH_DIM_COLUMNS),
  DIM_VIEW('sitedims_1d', 'sitedims_1d_ev', 86_400, HIGH_DIM_COLUMNS, true),
  ...aggregateDdl(DAY_OF), // The nodes' aggregates (aggregate-clickhouse-store.ts).
];
/** The daily rollup summed from the hourly one (a store from before the daily one); no aliases (see above). */
export const DAILY_FROM_HOURS = `INSERT INTO rollup_1d SELECT intDiv(bucket, 86400) * 86400, site_id, domain_id, zone_id, ${ROLLUP_COUNTERS.map(
  (c) => `sum(${c})`,
).join(', ')} FROM rollup_1h GROUP BY intDiv(bucket, 86400) * 86400, site_id, domain_id, zone_id`;
/** The per-site five-minute rollup summed from the per-domain one (a store from before it). */
export const SITES_FROM_DOMAINS = `INSERT INTO siterollup_5m SELECT bucket, site_id, toInt32(0), toInt32(0), ${ROLLUP_COUNTERS.map(
  (c) => `sum(${c})`,
).join(', ')} FROM rollup_5m GROUP BY bucket, site_id`;
/**
 * Tables and views of earlier layouts that open() drops: the low dimensions had a five-minute
 * table; the views of events (`*_mv`) counted every event before those kept for the logs only
 * (`counted` 0), and are made again as `*_ev` (a view's query cannot be changed in place).
 */
export const RETIRED = [
  'dims_5m_mv',
  'dims_5m',
  'dims_1h_all_mv',
  ...'rollup_1m rollup_5m rollup_1h rollup_1d siterollup_5m lowdims_1h dims_1h dims_1d sitedims_1d'
    .split(' ')
    .map((t) => `${t}_mv`),
];

/** The tables pruned by day, with the column that dates a row and which cut applies. */
export const DATED_TABLES: readonly [string, string, 'raw' | 'rollup' | 'ledger'][] = [
  ['events', 'ts', 'raw'],
  ['rollup_1m', 'bucket', 'rollup'],
  ['rollup_5m', 'bucket', 'rollup'],
  ['rollup_1h', 'bucket', 'rollup'],
  ['rollup_1d', 'bucket', 'rollup'],
  ['siterollup_5m', 'bucket', 'rollup'],
  ['lowdims_1h', 'bucket', 'rollup'],
  ['dims_1h', 'bucket', 'rollup'],
  ['dims_1d', 'bucket', 'rollup'],
  ['sitedims_1d', 'bucket', 'rollup'],
  ['batches', 'received_at', 'ledger'],
  ['batch_attempts', 'received_at', 'ledger'],
  ['l4_counters', 'bucket', 'rollup'],
  ['l4_batches', 'received_at', 'ledger'],
  ...AGGREGATE_DATED_TABLES,
];
export const SUMMED_TABLES = [
  'rollup_1m',
  'rollup_5m',
  'rollup_1h',
  'rollup_1d',
  'siterollup_5m',
  'lowdims_1h',
  'dims_1h',
  'dims_1d',
  'sitedims_1d',
] as const;

/** The events table's columns in the order `eventTsv` writes them (an INSERT names them). */
export { COLUMNS, checkEvent };

export const EVENT_TSV_COLUMNS = COLUMNS.map((c) => c.name).join(', ');

export const UTC_DAY = 86_400;

/** 20240105 → the unix second its UTC day starts; null for a partition that is not a day. */
export function dayStart(partition: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(partition);
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 1000;
}

export function dayName(seconds: number): number {
  const d = new Date(seconds * 1000);
  return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/**
 * Brings one server's tables up to date after EVENTS_DDL (`table`: a table's name on that server):
 * the events' columns added since (18.16 has no ADD COLUMN IF NOT EXISTS), before the views that
 * read them; then DDL; then the ledgers' `ingested_at` where a ledger is from before log push read
 * it (docs/decisions.md "Log push"): their batches count as ingested at 0.
 */
export async function addedColumns(
  select: (sql: string) => Promise<Row[]>,
  table: (name: string) => string,
  ddl: (sql: string) => Promise<unknown>,
): Promise<void> {
  const columnsOf = async (names: string[]) => {
    const tables = names.map((n) => `'${table(n)}'`).join(', ');
    const rows = await select(
      `SELECT table, name FROM system.columns WHERE database = currentDatabase() AND table IN (${tables})`,
    );
    return new Set(rows.map((r) => `${r.table}.${r.name}`));
  };
  const events = await columnsOf(['events']);
  for (const c of COLUMNS) {
    const older = ADDED_EVENT_COLUMNS.get(c.name);
    if (older && !events.has(`${table('events')}.${c.name}`)) {
      await ddl(`ALTER TABLE events ADD COLUMN ${c.name} ${c.type} DEFAULT ${older}`);
    }
  }
  for (const statement of DDL) await ddl(statement);
  const ledgers = ['batches', 'agg_batches'];
  const stamped = await columnsOf(ledgers);
  for (const ledger of ledgers) {
    if (!stamped.has(`${table(ledger)}.ingested_at`))
      await ddl(`ALTER TABLE ${ledger} ADD COLUMN ingested_at Int64 DEFAULT 0`);
  }
}
