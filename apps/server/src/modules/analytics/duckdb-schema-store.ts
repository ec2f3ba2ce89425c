import type { DuckDBConnection } from '@duckdb/node-api';
import { AGGREGATE_DDL, AGGREGATE_STAGING_DDL } from './aggregate-duckdb-store.js';
import { hexOf, type L4CounterRow, type SqlDialect } from './analytics-store.js';
import { SITE_IP_DDL } from './duckdb-site-ips-store.js';
import { ADDED_EVENT_COLUMNS, EVENT_COLUMNS } from './event-columns.js';
import { DIM_COUNTERS, ROLLUP_COUNTERS } from './rollups.js';

/**
 * The embedded analytics store's dialect and tables (duckdb-store.ts): their DDL, the tables of
 * partial sums compaction merges, and what opening a store from an older version adds to it.
 */

/** An IPv4 address's octet written canonically (0–255, no leading zero). */
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** The i-th (1–4) octet of a dotted address, as a BIGINT. */
const octet = (expr: string, i: number) => `CAST(split_part(${expr}, '.', ${i}) AS BIGINT)`;

export const DUCKDB_DIALECT: SqlDialect = {
  pieces: 'union',
  windows: true,
  hash64: null,
  idiv: (a, b) => `((${a}) // (${b}))`,
  distinct: (expr) => `count(DISTINCT ${expr})`,
  text: (expr) => `CAST(${expr} AS VARCHAR)`,
  int64: (expr) => `CAST(${expr} AS BIGINT)`,
  str: (value) => `decode(unhex('${hexOf(value)}'))`,
  contains: (expr, value) => `contains(${expr}, decode(unhex('${hexOf(value)}')))`,
  startsWith: (expr, value) => `starts_with(${expr}, decode(unhex('${hexOf(value)}')))`,
  ip4: {
    // Canonical only, so that the integer's text is the value again (a value is one key, both ways).
    of: (expr) =>
      `CASE WHEN regexp_full_match(${expr}, '(${OCTET}\\.){3}${OCTET}') THEN CAST(${octet(expr, 1)} * 16777216 + ${octet(expr, 2)} * 65536 + ${octet(expr, 3)} * 256 + ${octet(expr, 4)} AS UINTEGER) END`,
    text: (expr) =>
      `concat_ws('.', ${expr} // 16777216, (${expr} // 65536) % 256, (${expr} // 256) % 256, ${expr} % 256)`,
  },
  distinctAddresses: null,
};
/** A dimension row's `ip4` column over its `dim` and `value`. */
export const IP4_OF_VALUE = `CASE WHEN dim = 'ip' THEN ${DUCKDB_DIALECT.ip4?.of('value')} END`;

/** Column name and DuckDB type of the layer-4 counters table, in the appender's order. */
export const L4_COLUMNS: readonly [keyof L4CounterRow, string, string][] = [
  ['bucket', 'bucket', 'BIGINT'],
  ['siteId', 'site_id', 'INTEGER'],
  ['nodeId', 'node_id', 'INTEGER'],
  ['portId', 'port_id', 'INTEGER'],
  ['outcome', 'outcome', 'VARCHAR'],
  ['dim', 'dim', 'VARCHAR'],
  ['value', 'value', 'VARCHAR'],
  ['packets', 'packets', 'BIGINT'],
  ['bytes', 'bytes', 'BIGINT'],
];

const KEY_COLUMNS =
  'bucket BIGINT NOT NULL, site_id INTEGER NOT NULL, domain_id INTEGER NOT NULL, zone_id INTEGER NOT NULL';
const ROLLUP_DDL = (table: string) =>
  `CREATE TABLE IF NOT EXISTS ${table} (${KEY_COLUMNS}, ${ROLLUP_COUNTERS.map((c) => `${c} BIGINT NOT NULL`).join(', ')})`;
/**
 * `ip4`: an address's value as an integer (DUCKDB_DIALECT.ip4: IPv4 only, NULL for the rest and
 * for the other dimensions), which the statistics group and count instead of the string. Added
 * after the tables first shipped: it goes last (stores from before get it on open, filled).
 */
const DIM_DDL = (table: string) =>
  `CREATE TABLE IF NOT EXISTS ${table} (${KEY_COLUMNS}, dim VARCHAR NOT NULL, value VARCHAR NOT NULL, ${DIM_COUNTERS.map((c) => `${c} BIGINT NOT NULL`).join(', ')}, ip4 UINTEGER)`;

/** The raw events' table (the bench's raw floor writes one alone). */
export const EVENTS_DDL = `CREATE TABLE IF NOT EXISTS events (${EVENT_COLUMNS.map(([, name, type]) => `${name} ${type} NOT NULL`).join(', ')})`;

const DDL = [
  EVENTS_DDL,
  ROLLUP_DDL('rollup_1m'),
  ROLLUP_DDL('rollup_5m'),
  ROLLUP_DDL('rollup_1h'),
  ROLLUP_DDL('rollup_1d'),
  ROLLUP_DDL('siterollup_5m'),
  DIM_DDL('lowdims_1h'),
  DIM_DDL('dims_1h'),
  DIM_DDL('dims_1d'),
  DIM_DDL('sitedims_1d'),
  SITE_IP_DDL,
  // How far the dimension tables are built from events (see rollDims): one row, 'dims'.
  'CREATE TABLE IF NOT EXISTS rolled (name VARCHAR PRIMARY KEY, upto BIGINT NOT NULL)',
  // The ledger: every batch taken, with the events the node's spool dropped before it.
  // `ingested_at`: when the control plane wrote it (unix milliseconds, the wall clock): the order
  // log push reads new events in (docs/decisions.md "Log push"); 0 for batches from before it.
  `CREATE TABLE IF NOT EXISTS batches (batch_id VARCHAR PRIMARY KEY, node_id INTEGER NOT NULL,
     received_at BIGINT NOT NULL, dropped BIGINT NOT NULL, events INTEGER NOT NULL, ingested_at BIGINT NOT NULL DEFAULT 0)`,
  // The layer-4 counters (docs/decisions.md "Layer-4 counters"): partial sums per minute, site,
  // node, port, outcome and dimension value, as the nodes' batches bring them; and their ledger.
  `CREATE TABLE IF NOT EXISTS l4_counters (${L4_COLUMNS.map(([, name, type]) => `${name} ${type} NOT NULL`).join(', ')})`,
  `CREATE TABLE IF NOT EXISTS l4_batches (batch_id VARCHAR PRIMARY KEY, node_id INTEGER NOT NULL,
     received_at BIGINT NOT NULL, records INTEGER NOT NULL)`,
  ...AGGREGATE_DDL, // The nodes' aggregates' ledger (aggregate-duckdb-store.ts).
];

/**
 * A group of batches lands here first (a temporary table: it lives in memory and is emptied in the
 * same transaction, so it never reaches the write-ahead log); the rollups are computed from it in
 * SQL, then its rows move to events.
 */
export const STAGING_DDL = `CREATE TEMP TABLE IF NOT EXISTS ingest_staging (${EVENT_COLUMNS.map(([, name, type]) => `${name} ${type} NOT NULL`).join(', ')})`;

/**
 * At most this many events are written in one transaction. Batches that arrive while one is being
 * written wait and go together in the next (group commit): a transaction's cost is mostly fixed
 * (the rollups' statements, the commit), and one of more than DuckDB's row group (122,880 rows)
 * writes the events straight to the database file instead of through the write-ahead log.
 */
export const GROUP_MAX_EVENTS = 200_000;

/**
 * Tables whose rows are partial sums, with their key columns (what compaction groups by) and the
 * columns after the counters (a function of the key).
 */
const DIM_KEY = 'bucket, site_id, domain_id, zone_id, dim, value';
export const SUMMED_TABLES: readonly [string, string, readonly string[], string][] = [
  ['rollup_1m', 'bucket, site_id, domain_id, zone_id', ROLLUP_COUNTERS, ''],
  ['rollup_5m', 'bucket, site_id, domain_id, zone_id', ROLLUP_COUNTERS, ''],
  ['rollup_1h', 'bucket, site_id, domain_id, zone_id', ROLLUP_COUNTERS, ''],
  ['rollup_1d', 'bucket, site_id, domain_id, zone_id', ROLLUP_COUNTERS, ''],
  ['siterollup_5m', 'bucket, site_id, domain_id, zone_id', ROLLUP_COUNTERS, ''],
  ['lowdims_1h', DIM_KEY, DIM_COUNTERS, 'ip4'],
  ['dims_1h', DIM_KEY, DIM_COUNTERS, 'ip4'],
  ['dims_1d', DIM_KEY, DIM_COUNTERS, 'ip4'],
  ['sitedims_1d', DIM_KEY, DIM_COUNTERS, 'ip4'],
];
/** Tables of day buckets. */
export const DAY_TABLES: ReadonlySet<string> = new Set(['rollup_1d', 'dims_1d', 'sitedims_1d']);
/** The dimension tables: built from events by the hour (rollDims), merged only where late events added rows. */
export const DIM_TABLES: ReadonlySet<string> = new Set(['lowdims_1h', 'dims_1h', 'dims_1d', 'sitedims_1d']);

/** The daily rollup summed from the hourly one (a store from before the daily one). */
const DAILY_FROM_HOURS = `INSERT INTO rollup_1d SELECT (bucket // 86400) * 86400 AS day, site_id, domain_id, zone_id,
  ${ROLLUP_COUNTERS.map((c) => `sum(${c})::BIGINT`).join(', ')} FROM rollup_1h GROUP BY day, site_id, domain_id, zone_id ORDER BY site_id, day`;
/** The per-site five-minute rollup summed from the per-domain one (a store from before it). */
const SITES_FROM_DOMAINS = `INSERT INTO siterollup_5m SELECT bucket, site_id, 0, 0,
  ${ROLLUP_COUNTERS.map((c) => `sum(${c})::BIGINT`).join(', ')} FROM rollup_5m GROUP BY bucket, site_id ORDER BY site_id, bucket`;

/** Runs the statements in one transaction: all or none. */
export async function inTransaction(db: DuckDBConnection, statements: readonly string[]): Promise<void> {
  await db.run('BEGIN TRANSACTION');
  try {
    for (const statement of statements) await db.run(statement);
    await db.run('COMMIT');
  } catch (error) {
    await db.run('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** Creates the tables a store lacks and brings one from an older version up to date (on open, on the writer). */
export async function migrateDuckDb(db: DuckDBConnection): Promise<void> {
  // A store from before the daily or the per-site rollup: it is summed from the finer or
  // per-domain one once, as it is created.
  const tables = new Set(
    (await db.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"))
      .getRowObjectsJS()
      .map((row) => String(row.table_name)),
  );
  for (const statement of DDL) await db.run(statement);
  if (tables.has('rollup_1h') && !tables.has('rollup_1d')) await inTransaction(db, [DAILY_FROM_HOURS]);
  if (tables.has('rollup_5m') && !tables.has('siterollup_5m')) await inTransaction(db, [SITES_FROM_DOMAINS]);
  // A store from before a column was added: it goes last, as EVENT_COLUMNS (and the appender) say.
  for (const [, name, type] of EVENT_COLUMNS) {
    const older = ADDED_EVENT_COLUMNS.get(name);
    if (older) await db.run(`ALTER TABLE events ADD COLUMN IF NOT EXISTS ${name} ${type} DEFAULT ${older}`);
  }
  // Dimension tables from before addresses were kept as integers: the column, filled.
  for (const table of DIM_TABLES) {
    const has = await db.runAndReadAll(
      `SELECT 1 FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = '${table}' AND column_name = 'ip4'`,
    );
    if (has.currentRowCount > 0) continue;
    await db.run(`ALTER TABLE ${table} ADD COLUMN ip4 UINTEGER`);
    await db.run(`UPDATE ${table} SET ip4 = ${IP4_OF_VALUE} WHERE dim = 'ip'`);
  }
  // A ledger from before log push: its batches count as ingested at 0.
  await db.run('ALTER TABLE batches ADD COLUMN IF NOT EXISTS ingested_at BIGINT DEFAULT 0');
  // An older version staged in a table of the database; a temporary one replaces it.
  await db.run('DROP TABLE IF EXISTS main.ingest_staging');
  // Before the low-cardinality dimensions went hourly (lowdims_1h) they had a five-minute table.
  await db.run('DROP TABLE IF EXISTS dims_5m');
  for (const ddl of [STAGING_DDL, ...AGGREGATE_STAGING_DDL]) await db.run(ddl);
}
