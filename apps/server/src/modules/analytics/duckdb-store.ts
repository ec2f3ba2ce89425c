import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { LOG_TABLES, type LogPart, type LogPartRef, type LogTable, logPartOf } from '@rampart/contract';
import { lockStore, type StoreLock } from '../../platform/db/store-lock.js';
import {
  AGGREGATE_DDL,
  AGGREGATE_HOURS,
  AGGREGATE_STAGING_DDL,
  FIRST_SECOND,
  ingestAggregatesDuckDb,
  PRUNE_AGGREGATES,
} from './aggregate-duckdb-store.js';
import {
  type AnalyticsStore,
  hexOf,
  type IngestResult,
  type L4CounterRow,
  type Row,
  type SqlDialect,
  type StoredAggregateBatch,
  type StoredBatch,
  type StoredL4Batch,
} from './analytics-store.js';
import { aggregateRows, BatchGroups } from './batch-groups.js';
import { appendEvent } from './duckdb-events.js';
import { appendLedger, ledgerCheck } from './duckdb-ledger-store.js';
import {
  ALL_DAYS,
  HOURLY_IPS,
  MERGE_SITE_IPS,
  REPLACE_SITE_IPS,
  SITE_IP_DDL,
  SITE_IP_DECISIONS,
  SITE_IP_MASKS,
  SITE_IP_ROWS,
  SITE_IP_SYNC_SECONDS,
  siteIpDayBit,
  UPSERT_SITE_IPS,
} from './duckdb-site-ips-store.js';
import { ADDED_EVENT_COLUMNS, EVENT_COLUMNS } from './event-columns.js';
import { checkedParts, DATED_COLUMN } from './log-parts.js';
import {
  DIM_COUNTERS,
  HIGH_DIM_COLUMNS,
  lowDimValueSql,
  ROLLUP_COUNTERS,
  SITE_IP_DAYS,
  UPSTREAM_SQL,
} from './rollups.js';

/**
 * The embedded analytics store: one DuckDB file in DATA_DIR (`analytics/analytics.duckdb`), owned
 * by one control-plane process (DuckDB lets only one process open a file; `analytics.lock` says
 * which, as the embedded config database's lock does). A batch, its rollups and its ledger row are
 * written in one transaction through DuckDB's appender, so a batch is there whole or not at all and
 * a retried one is recognised by the ledger. The time rollups are computed in SQL from the batch,
 * the dimensions from the events of hours that ended, in `compact` (rollDims), with the same sums
 * as rollups.ts, which the store tests compare them with. Writes are serialised on one connection;
 * reads use a second one and see committed batches only.
 */

/** An IPv4 address's octet written canonically (0–255, no leading zero). */
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** The i-th (1–4) octet of a dotted address, as a BIGINT. */
const octet = (expr: string, i: number) => `CAST(split_part(${expr}, '.', ${i}) AS BIGINT)`;

export { appendEvent };

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
const IP4_OF_VALUE = `CASE WHEN dim = 'ip' THEN ${DUCKDB_DIALECT.ip4?.of('value')} END`;

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
const STAGING_DDL = `CREATE TEMP TABLE IF NOT EXISTS ingest_staging (${EVENT_COLUMNS.map(([, name, type]) => `${name} ${type} NOT NULL`).join(', ')})`;

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
const SUMMED_TABLES: readonly [string, string, readonly string[], string][] = [
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
const DAY_TABLES: ReadonlySet<string> = new Set(['rollup_1d', 'dims_1d', 'sitedims_1d']);
/** The dimension tables: built from events by the hour (rollDims), merged only where late events added rows. */
const DIM_TABLES: ReadonlySet<string> = new Set(['lowdims_1h', 'dims_1h', 'dims_1d', 'sitedims_1d']);

const UPSTREAM = UPSTREAM_SQL;
/** rollups.ts's eventCounters, in SQL over ingest_staging. */
const ROLLUP_SELECT = (
  unit: number,
  site = false,
) => `SELECT (ts // ${unit}) * ${unit} AS bucket, site_id, ${site ? '0, 0' : 'domain_id, zone_id'},
  count(*), sum(bytes_in), sum(bytes_out), sum(hit), sum(hit * bytes_out), sum(blocked), sum(blacklisted),
  sum(CASE WHEN status = 444 THEN 1 ELSE 0 END), sum(waf),
  sum(CASE WHEN ${UPSTREAM} THEN 1 ELSE 0 END),
  sum(CASE WHEN ${UPSTREAM} AND upstream_status >= 500 THEN 1 ELSE 0 END),
  sum(CASE WHEN status // 100 = 2 THEN 1 ELSE 0 END), sum(CASE WHEN status // 100 = 3 THEN 1 ELSE 0 END),
  sum(CASE WHEN status // 100 = 4 THEN 1 ELSE 0 END), sum(CASE WHEN status // 100 = 5 THEN 1 ELSE 0 END)
  FROM ingest_staging WHERE counted = 1 GROUP BY ${site ? '1, 2' : '1, 2, 3, 4'}`;
/**
 * rollups.ts's dimensions, in SQL over `source` (a table and its filter): one scan with a grouping
 * set per dimension (`grouping()` says which set a row is of: its bit is 0 for the dimension the
 * row counts); the columns of the dimension tables, in their order (`ip4` last).
 */
const DIM_SELECT = (unit: number, dims: Readonly<Record<string, string>>, source: string) => {
  const values = Object.entries(dims);
  const all = (1 << values.length) - 1;
  const which = values.map(([dim], i) => `WHEN g = ${all ^ (1 << (values.length - 1 - i))} THEN '${dim}'`).join(' ');
  const v = values.map((_, i) => `v${i}`);
  return `SELECT *, ${IP4_OF_VALUE} FROM (SELECT b, site_id, domain_id, zone_id, CASE ${which} END AS dim, COALESCE(${v.join(', ')}) AS value, r, bo, bl, bk, w FROM (
  SELECT (ts // ${unit}) * ${unit} AS b, site_id, domain_id, zone_id, ${values.map(([, sql], i) => `${sql} AS v${i}`).join(', ')},
    grouping(${v.join(', ')}) AS g, count(*) AS r, sum(bytes_out) AS bo, sum(blocked) AS bl, sum(blacklisted) AS bk, sum(waf) AS w
  FROM ${source} GROUP BY GROUPING SETS (${v.map((x) => `(b, site_id, domain_id, zone_id, ${x})`).join(', ')})))`;
};
const LOW_DIMS_SQL = lowDimValueSql(DUCKDB_DIALECT);
/** The daily rollup summed from the hourly one (a store from before the daily one). */
const DAILY_FROM_HOURS = `INSERT INTO rollup_1d SELECT (bucket // 86400) * 86400 AS day, site_id, domain_id, zone_id,
  ${ROLLUP_COUNTERS.map((c) => `sum(${c})::BIGINT`).join(', ')} FROM rollup_1h GROUP BY day, site_id, domain_id, zone_id ORDER BY site_id, day`;
/** The per-site five-minute rollup summed from the per-domain one (a store from before it). */
const SITES_FROM_DOMAINS = `INSERT INTO siterollup_5m SELECT bucket, site_id, 0, 0,
  ${ROLLUP_COUNTERS.map((c) => `sum(${c})::BIGINT`).join(', ')} FROM rollup_5m GROUP BY bucket, site_id ORDER BY site_id, bucket`;
/** Every group's statements: the time rollups from its events, then the events themselves. */
const FROM_STAGING = [
  `INSERT INTO rollup_1m ${ROLLUP_SELECT(60)}`,
  `INSERT INTO rollup_5m ${ROLLUP_SELECT(300)}`,
  `INSERT INTO rollup_1h ${ROLLUP_SELECT(3600)}`,
  `INSERT INTO rollup_1d ${ROLLUP_SELECT(86_400)}`,
  `INSERT INTO siterollup_5m ${ROLLUP_SELECT(300, true)}`,
  'INSERT INTO events SELECT * FROM ingest_staging',
  'DELETE FROM ingest_staging',
];
/** The dimension counters summed, as BIGINT, from these columns (in DIM_COUNTERS's order). */
const SUMS = (columns: string) =>
  columns
    .split(', ')
    .map((c) => `sum(${c})::BIGINT`)
    .join(', ');
/**
 * A group's late events (before `hours`, the whole hours whose dimensions are built, or `days`,
 * the whole days): their dimensions are added to the built ones as partial rows.
 */
const LATE_DIMS = (hours: number, days: number) => {
  const late = [
    `INSERT INTO lowdims_1h ${DIM_SELECT(3600, LOW_DIMS_SQL, `ingest_staging WHERE counted = 1 AND ts < ${hours}`)}`,
    `INSERT INTO dims_1h ${DIM_SELECT(3600, HIGH_DIM_COLUMNS, `ingest_staging WHERE counted = 1 AND ts < ${hours}`)}`,
  ];
  if (days > 0) {
    const day = DIM_SELECT(86_400, HIGH_DIM_COLUMNS, `ingest_staging WHERE counted = 1 AND ts < ${days}`);
    late.push(
      `INSERT INTO dims_1d ${day}`,
      `INSERT INTO sitedims_1d SELECT b, site_id, 0, 0, d, v, ${SUMS('r, bo, bl, bk, w')}, ip FROM (${day})
         AS x(b, site_id, domain_id, zone_id, d, v, r, bo, bl, bk, w, ip) GROUP BY b, site_id, d, v, ip`,
    );
  }
  return late;
};
/** The hourly dimensions of the events in [from, to), whole hours: replace whatever those hours held. */
const ROLL_HOURS = (from: number, to: number) => {
  const events = `events WHERE counted = 1 AND ts >= ${from} AND ts < ${to}`;
  return [
    `DELETE FROM lowdims_1h WHERE bucket >= ${from} AND bucket < ${to}`,
    `DELETE FROM dims_1h WHERE bucket >= ${from} AND bucket < ${to}`,
    // Ordered by site (as compaction orders its ranges): a site's rows then sit in few row groups.
    `INSERT INTO lowdims_1h ${DIM_SELECT(3600, LOW_DIMS_SQL, events)} ORDER BY site_id, b`,
    `INSERT INTO dims_1h ${DIM_SELECT(3600, HIGH_DIM_COLUMNS, events)} ORDER BY site_id, b`,
    ...AGGREGATE_HOURS(from, to, IP4_OF_VALUE), // The nodes' aggregates' hours too (aggregate-duckdb-store.ts).
  ];
};
/**
 * The day `day` of the high-cardinality dimensions, summed from its hours (all built by now), and
 * per whole site from that.
 */
const ROLL_DAY = (day: number) => {
  const sums = SUMS(DIM_COUNTERS.join(', '));
  return [
    `DELETE FROM dims_1d WHERE bucket = ${day}`,
    `INSERT INTO dims_1d SELECT ${day}, site_id, domain_id, zone_id, dim, value, ${sums}, ip4 FROM dims_1h
       WHERE bucket >= ${day} AND bucket < ${day + 86_400} GROUP BY site_id, domain_id, zone_id, dim, value, ip4 ORDER BY site_id`,
    `DELETE FROM sitedims_1d WHERE bucket = ${day}`,
    `INSERT INTO sitedims_1d SELECT ${day}, site_id, 0, 0, dim, value, ${sums}, ip4 FROM dims_1d
       WHERE bucket = ${day} GROUP BY site_id, dim, value, ip4 ORDER BY site_id, dim`,
  ];
};

/** Runs the statements in one transaction: all or none. */
async function inTransaction(db: DuckDBConnection, statements: readonly string[]): Promise<void> {
  await db.run('BEGIN TRANSACTION');
  try {
    for (const statement of statements) await db.run(statement);
    await db.run('COMMIT');
  } catch (error) {
    await db.run('ROLLBACK').catch(() => {});
    throw error;
  }
}

const toNumber = (v: unknown): number | string => {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (v === null || v === undefined) return 0;
  return Number(String(v));
};

export class DuckDbStore implements AnalyticsStore {
  readonly kind = 'duckdb' as const;
  readonly dialect = DUCKDB_DIALECT;
  private instance: DuckDBInstance | null = null;
  private writer: DuckDBConnection | null = null;
  private reader: DuckDBConnection | null = null;
  private lock: StoreLock | null = null;
  /** Writes one after another on the writer connection (its transaction is the connection's). */
  private writes: Promise<unknown> = Promise.resolve();
  /** Batches waiting for the next group's transaction (behind the other writes). */
  private readonly groups: BatchGroups;
  /** The nodes' aggregate batches waiting, written a group at a time (at most 2,000,000 rows). */
  private readonly aggregateGroups = new BatchGroups<StoredAggregateBatch>(
    GROUP_MAX_EVENTS * 10,
    (batches) =>
      ingestAggregatesDuckDb(this.connection('writer'), batches, this.rolledTo, IP4_OF_VALUE, {
        hours: this.lateHours,
        days: this.lateDays,
      }),
    (drain) => this.serialised(drain),
    aggregateRows,
  );
  /**
   * The dimension tables hold the events before this (a whole hour; dims_1d the whole days before
   * it): rollDims builds them from events for hours that ended, and the groups add the late events'
   * (those before it) as partial rows. 0 until the first hours are built.
   */
  private rolledTo = 0;
  /** Hour and day buckets given late partial dimension rows since compact last merged them. */
  private readonly lateHours = new Set<number>();
  private readonly lateDays = new Set<number>();
  /** siteips holds one row per address (no late partial rows since it was last merged). */
  private siteIpsMerged = true;
  /** siteips holds the dimensions' hours before this (0: nothing); compact brings it to rolledTo. */
  private siteIpsTo = 0;

  /** `dir`: the store's directory (DATA_DIR/analytics); null keeps everything in memory (tests). */
  constructor(
    private readonly dir: string | null,
    /** At most this many events per group (GROUP_MAX_EVENTS; tests make many small groups). */
    groupMaxEvents = GROUP_MAX_EVENTS,
  ) {
    this.groups = new BatchGroups(
      groupMaxEvents,
      (batches) => this.writeGroup(this.connection('writer'), batches),
      (drain) => this.serialised(drain),
    );
  }

  async open(): Promise<void> {
    let file = ':memory:';
    if (this.dir !== null) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.lock = await lockStore(this.dir, 'analytics store');
      file = path.join(this.dir, 'analytics.duckdb');
    }
    this.instance = await DuckDBInstance.create(file);
    this.writer = await this.instance.connect();
    this.reader = await this.instance.connect();
    // A checkpoint (writing the write-ahead log's changes into the file, compressed) every 16 MB of
    // log, DuckDB's default, cost more than the ingest itself at a high rate; one per 256 MB, and
    // one after each compaction (compact), write the same in far fewer, larger steps.
    await this.writer.run("SET checkpoint_threshold = '256MB'");
    // A store from before the daily or the per-site rollup: it is summed from the finer or
    // per-domain one once, as it is created.
    const tables = new Set(
      (await this.writer.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"))
        .getRowObjectsJS()
        .map((row) => String(row.table_name)),
    );
    for (const statement of DDL) await this.writer.run(statement);
    if (tables.has('rollup_1h') && !tables.has('rollup_1d')) await inTransaction(this.writer, [DAILY_FROM_HOURS]);
    if (tables.has('rollup_5m') && !tables.has('siterollup_5m')) await inTransaction(this.writer, [SITES_FROM_DOMAINS]);
    // A store from before a column was added: it goes last, as EVENT_COLUMNS (and the appender) say.
    for (const [, name, type] of EVENT_COLUMNS) {
      const older = ADDED_EVENT_COLUMNS.get(name);
      if (older) await this.writer.run(`ALTER TABLE events ADD COLUMN IF NOT EXISTS ${name} ${type} DEFAULT ${older}`);
    }
    // Dimension tables from before addresses were kept as integers: the column, filled.
    for (const table of DIM_TABLES) {
      const has = await this.writer.runAndReadAll(
        `SELECT 1 FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = '${table}' AND column_name = 'ip4'`,
      );
      if (has.currentRowCount > 0) continue;
      await this.writer.run(`ALTER TABLE ${table} ADD COLUMN ip4 UINTEGER`);
      await this.writer.run(`UPDATE ${table} SET ip4 = ${IP4_OF_VALUE} WHERE dim = 'ip'`);
    }
    // A ledger from before log push: its batches count as ingested at 0.
    await this.writer.run('ALTER TABLE batches ADD COLUMN IF NOT EXISTS ingested_at BIGINT DEFAULT 0');
    // An older version staged in a table of the database; a temporary one replaces it.
    await this.writer.run('DROP TABLE IF EXISTS main.ingest_staging');
    // Before the low-cardinality dimensions went hourly (lowdims_1h) they had a five-minute table.
    await this.writer.run('DROP TABLE IF EXISTS dims_5m');
    for (const ddl of [STAGING_DDL, ...AGGREGATE_STAGING_DDL]) await this.writer.run(ddl);
    this.rolledTo = await this.loadRolledTo(this.writer);
    const marks = new Map(
      (await this.writer.runAndReadAll(`SELECT name, upto FROM rolled WHERE name IN ('siteips', 'siteips_to')`))
        .getRowObjectsJS()
        .map((r) => [String(r.name), Number(r.upto)]),
    );
    this.siteIpsMerged = (marks.get('siteips') ?? 0) === 0;
    this.siteIpsTo = marks.get('siteips_to') ?? 0;
    // A store from before siteips: built from the dimension tables.
    if (!marks.has('siteips_to') && this.rolledTo > 0) await this.syncSiteIps(this.writer);
  }

  /**
   * The days siteips's masks answer for, [from, to) (`to` the dimensions' mark: the last day's
   * bit holds its hours built so far), and whether it holds one row per address; null before any
   * hour is built.
   */
  get siteAddresses(): { from: number; to: number; merged: boolean } | null {
    if (this.siteIpsTo === 0) return null;
    return { from: this.siteIpsFrom(this.siteIpsTo), to: this.siteIpsTo, merged: this.siteIpsMerged };
  }

  /** The first day siteips's masks hold when built to `to` (SITE_IP_DAYS days up to the one its last hour is in). */
  private siteIpsFrom(to: number): number {
    const last = to - 1 - ((to - 1) % 86_400);
    return last - (SITE_IP_DAYS - 1) * 86_400;
  }

  /**
   * Brings siteips to the dimensions' mark, in one transaction: the hours built since merged in
   * (the days that started since dropping their bit's older day), or — far behind, or `rebuild` —
   * built again from the dimension tables (their whole days from sitedims_1d, the last day's hours
   * from dims_1h); merges late events' partial rows either way.
   */
  private async syncSiteIps(db: DuckDBConnection, rebuild = false): Promise<void> {
    const to = this.rolledTo;
    if (to === 0 || (!rebuild && this.siteIpsTo === to && this.siteIpsMerged)) return;
    // Every SITE_IP_SYNC_SECONDS, and when a day starts (the one before whole in the masks): the
    // hours after are read from dims_1h meanwhile (store/dim-rows.ts, addressPlan).
    const dayOf = (t: number) => Math.floor((t - 1) / 86_400);
    if (!rebuild && this.siteIpsMerged && this.siteIpsTo > 0) {
      if (to - this.siteIpsTo < SITE_IP_SYNC_SECONDS && dayOf(to) === dayOf(this.siteIpsTo)) return;
    }
    let statements: string[];
    if (rebuild || this.siteIpsTo === 0 || to - this.siteIpsTo > 64 * 86_400) {
      const from = this.siteIpsFrom(to);
      const dayEnd = to - (to % 86_400);
      const columns = `site_id, value, ip4, bucket, requests, ${SITE_IP_DECISIONS.join(', ')}, bytes_out`;
      statements = REPLACE_SITE_IPS(
        `${SITE_IP_ROWS(`(SELECT ${columns} FROM sitedims_1d WHERE dim = 'ip' AND bucket >= ${from} AND bucket < ${dayEnd}
           UNION ALL SELECT ${columns} FROM dims_1h WHERE dim = 'ip' AND bucket >= ${Math.max(dayEnd, from)} AND bucket < ${to})`)} ORDER BY site_id`,
      );
    } else {
      let clear = 0n;
      for (let day = Math.ceil(this.siteIpsTo / 86_400) * 86_400; day < to; day += 86_400) clear |= siteIpDayBit(day);
      if (clear !== 0n) {
        // A day started: the table rewritten, merged and ordered by site, once a day. Updated in
        // place, new addresses go to its end at every merge, and after a week of them each site's
        // rows lay in every row group (the bench's busiest site's distinct addresses 145 ms p95).
        statements = MERGE_SITE_IPS(HOURLY_IPS(this.siteIpsTo, to), clear);
      } else {
        // Late events' partial rows merged first (the update adds to every row of an address).
        statements = this.siteIpsMerged ? [] : MERGE_SITE_IPS(null, 0n);
        if (this.siteIpsTo < to) statements.push(...UPSERT_SITE_IPS(HOURLY_IPS(this.siteIpsTo, to)));
      }
    }
    await inTransaction(db, [...statements, `INSERT OR REPLACE INTO rolled VALUES ('siteips_to', ${to})`]);
    this.siteIpsTo = to;
    this.siteIpsMerged = true;
  }

  /** Events before this are in the dimension tables (store/dim-rows.ts reads events after it). */
  get dimsRolledTo(): number {
    return this.rolledTo;
  }

  private async loadRolledTo(db: DuckDBConnection): Promise<number> {
    const mark = (await db.runAndReadAll(`SELECT upto FROM rolled WHERE name = 'dims'`)).getRowObjectsJS()[0];
    if (mark) return Number(mark.upto);
    // A store from before the dimensions were built by the hour computed them for every batch it
    // took: they hold every event, but for the last hour's, which the next roll builds again whole.
    const [last] = (
      await db.runAndReadAll(
        'SELECT (SELECT max(ts) FROM events) AS ts, (SELECT count(*) FROM (SELECT 1 FROM dims_1h LIMIT 1)) AS dims',
      )
    ).getRowObjectsJS();
    if (last?.ts === null || last?.ts === undefined || Number(last.dims) === 0) return 0;
    const upto = Number(last.ts) - (Number(last.ts) % 3600);
    await db.run(`INSERT INTO rolled VALUES ('dims', ${upto})`);
    return upto;
  }

  async close(): Promise<void> {
    await this.writes.catch(() => {});
    this.reader?.closeSync();
    this.writer?.closeSync();
    this.instance?.closeSync();
    this.reader = this.writer = this.instance = null;
    await this.lock?.release();
    this.lock = null;
  }

  private connection(which: 'writer' | 'reader'): DuckDBConnection {
    const c = which === 'writer' ? this.writer : this.reader;
    if (!c) throw new Error('the analytics store is not open');
    return c;
  }

  private serialised<T>(work: (db: DuckDBConnection) => Promise<T>): Promise<T> {
    const run = this.writes.then(() => work(this.connection('writer')));
    this.writes = run.catch(() => {});
    return run;
  }

  ingest(batch: StoredBatch): Promise<IngestResult> {
    return this.groups.add(batch);
  }

  /**
   * One transaction: the group's batches not in the ledger yet (a batch sent twice, even within the
   * group, is stored once), their events, their rollups and their ledger rows — all or nothing.
   */
  private async writeGroup(db: DuckDBConnection, batches: readonly StoredBatch[]): Promise<IngestResult[]> {
    await db.run('BEGIN TRANSACTION');
    try {
      // The ledger's entries of the group's batch ids, in one statement.
      const { results, fresh } = await ledgerCheck(db, 'batches', batches, (b) => b.events.length);
      if (fresh.length === 0) {
        await db.run('ROLLBACK');
        return results;
      }
      const staging = await db.createAppender('ingest_staging', null, 'temp');
      let first = Number.MAX_SAFE_INTEGER;
      for (const batch of fresh) {
        for (const e of batch.events) {
          appendEvent(staging, e);
          if (e.ts < first) first = e.ts;
        }
      }
      staging.closeSync();
      // Events of hours whose dimensions are built already (a node that was away, a clock behind).
      const hours = this.rolledTo;
      const days = hours - (hours % 86_400);
      const late = first < hours;
      const statements: string[] = [];
      if (late) {
        statements.push(...LATE_DIMS(hours, first < days ? days : 0));
        // Their addresses as partial rows of siteips (of the days its masks hold), merged in compact.
        if (this.siteIpsTo > 0 && first < this.siteIpsTo) {
          const ips = `(SELECT site_id, ip AS value, ${DUCKDB_DIALECT.ip4?.of('ip')} AS ip4, ts AS bucket, 1 AS requests, ${SITE_IP_DECISIONS.join(', ')},
            bytes_out FROM ingest_staging WHERE counted = 1 AND ts < ${this.siteIpsTo} AND ts >= ${this.siteIpsFrom(this.siteIpsTo)})`;
          statements.push(
            `INSERT INTO siteips ${SITE_IP_ROWS(ips)}`,
            `INSERT OR REPLACE INTO rolled VALUES ('siteips', 1)`,
          );
        }
      }
      // One call for all of them (no value in them but integers checked here).
      await db.run([...statements, ...FROM_STAGING].join(';\n'));
      await appendLedger(db, 'batches', fresh, (b) => b.events.length);
      await db.run('COMMIT');
      if (late) {
        if (this.siteIpsTo > 0 && first < this.siteIpsTo) this.siteIpsMerged = false;
        for (const batch of fresh) {
          for (const e of batch.events) {
            if (e.ts >= hours) continue;
            this.lateHours.add(e.ts - (e.ts % 3600));
            if (e.ts < days) this.lateDays.add(e.ts - (e.ts % 86_400));
          }
        }
      }
      return results;
    } catch (error) {
      await db.run('ROLLBACK').catch(() => {});
      // The staging table is temporary and emptied in the transaction; a rollback empties it too.
      throw error;
    }
  }

  ingestAggregates(batch: StoredAggregateBatch, signal?: AbortSignal): Promise<IngestResult> {
    return this.aggregateGroups.add(batch, signal);
  }

  ingestL4(batch: StoredL4Batch): Promise<IngestResult> {
    return this.serialised(async (db) => {
      await db.run('BEGIN TRANSACTION');
      try {
        if (
          (await db.runAndReadAll('SELECT 1 FROM l4_batches WHERE batch_id = $1', [batch.batchId])).currentRowCount > 0
        ) {
          await db.run('ROLLBACK');
          return { stored: 0, duplicate: true };
        }
        const appender = await db.createAppender('l4_counters');
        for (const r of batch.rows) {
          appender.appendBigInt(BigInt(r.bucket));
          appender.appendInteger(r.siteId);
          appender.appendInteger(r.nodeId);
          appender.appendInteger(r.portId);
          appender.appendVarchar(r.outcome);
          appender.appendVarchar(r.dim);
          appender.appendVarchar(r.value);
          appender.appendBigInt(BigInt(r.packets));
          appender.appendBigInt(BigInt(r.bytes));
          appender.endRow();
        }
        appender.closeSync();
        await db.run('INSERT INTO l4_batches (batch_id, node_id, received_at, records) VALUES ($1, $2, $3, $4)', [
          batch.batchId,
          batch.nodeId,
          BigInt(batch.receivedAt),
          batch.rows.length,
        ]);
        await db.run('COMMIT');
        return { stored: batch.rows.length, duplicate: false };
      } catch (error) {
        await db.run('ROLLBACK').catch(() => {});
        throw error;
      }
    });
  }

  /**
   * A statement's rows, read column by column from the result's chunks: the client's row objects
   * (getRowObjectsJS) cost ~4 µs a row of five columns on these machines — 25 ms for a busy
   * site's 7,000 edge addresses, more than the statement — against well under 1 µs here.
   */
  async query(sql: string): Promise<Row[]> {
    const result = await this.connection('reader').run(sql);
    const names = result.columnNames();
    const rows: Row[] = [];
    for (let c = 0; c < result.chunkCount; c++) {
      const chunk = result.getChunk(c);
      const first = rows.length;
      for (let i = 0; i < chunk.rowCount; i++) rows.push({});
      names.forEach((name, j) => {
        const vector = chunk.getColumnVector(j);
        for (let i = 0; i < chunk.rowCount; i++) (rows[first + i] as Row)[name] = toNumber(vector.getItem(i));
      });
    }
    return rows;
  }

  prune(rawBefore: number, rollupBefore: number): Promise<void> {
    if (!Number.isSafeInteger(rawBefore) || !Number.isSafeInteger(rollupBefore)) {
      return Promise.reject(new Error('prune: times must be integers'));
    }
    return this.serialised(async (db) => {
      await db.run(`DELETE FROM events WHERE ts < ${rawBefore}`);
      for (const [table] of SUMMED_TABLES) await db.run(`DELETE FROM ${table} WHERE bucket < ${rollupBefore}`);
      // The pruned days leave siteips's masks (whole days: as sitedims_1d's rows go).
      let clear = 0n;
      if (this.siteIpsTo > 0) {
        for (let day = this.siteIpsFrom(this.siteIpsTo); day < rollupBefore && day < this.siteIpsTo; day += 86_400) {
          clear |= siteIpDayBit(day);
        }
      }
      if (clear !== 0n) {
        const keep = `'${ALL_DAYS ^ clear}'::UHUGEINT`;
        await db.run(
          `UPDATE siteips SET ${SITE_IP_MASKS.map((m) => `${m} = ${m} & ${keep}`).join(', ')}, exact = exact AND (days & '${clear}'::UHUGEINT) = 0`,
        );
        await db.run('DELETE FROM siteips WHERE days = 0');
      }
      await db.run(`DELETE FROM batches WHERE received_at < ${Math.min(rawBefore, rollupBefore)}`);
      const ledgers = [`DELETE FROM l4_batches WHERE received_at < ${Math.min(rawBefore, rollupBefore)}`];
      for (const statement of [
        `DELETE FROM l4_counters WHERE bucket < ${rollupBefore}`,
        ...ledgers,
        ...PRUNE_AGGREGATES(Math.min(rawBefore, rollupBefore), rawBefore, rollupBefore),
      ])
        await db.run(statement);
    });
  }

  /**
   * The upkeep of [from, to): builds the dimensions of the hours before `to` not built yet
   * (rollDims), merges the partial rows of the time rollups in the range and those late events
   * gave the dimension tables, then checkpoints.
   */
  compact(from: number, to: number): Promise<void> {
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) {
      return Promise.reject(new Error('compact: times must be integers'));
    }
    return this.serialised(async (db) => {
      await this.rollDims(db, to - (to % 3600));
      await this.syncSiteIps(db);
      for (const [table, key, counters, after] of SUMMED_TABLES) {
        const day = DAY_TABLES.has(table);
        // A day's rows from its start: a range that starts inside the day holds its bucket too.
        let range = `bucket >= ${day ? from - (from % 86_400) : from} AND bucket < ${to}`;
        if (DIM_TABLES.has(table)) {
          // Only the buckets late events added to: the others were built whole.
          const late = [...(day ? this.lateDays : this.lateHours)].filter((b) => b < this.rolledTo);
          if (late.length === 0) continue;
          range = `bucket IN (${late.join(', ')})`;
        }
        await db.run('BEGIN TRANSACTION');
        try {
          const sums = counters.map((c) => `sum(${c})::BIGINT AS ${c}`).join(', ');
          await db.run(
            // Ordered by site: a compacted range's row groups then each hold few sites, and their
            // min/max let a query for one site skip the others'.
            `CREATE TEMP TABLE compacted AS SELECT ${key}, ${sums}${after && `, ${after}`} FROM ${table} WHERE ${range} GROUP BY ${key}${after && `, ${after}`} ORDER BY site_id, bucket`,
          );
          await db.run(`DELETE FROM ${table} WHERE ${range}`);
          await db.run(`INSERT INTO ${table} SELECT * FROM compacted`);
          await db.run('DROP TABLE compacted');
          await db.run('COMMIT');
        } catch (error) {
          await db.run('ROLLBACK').catch(() => {});
          throw error;
        }
      }
      for (const b of [...this.lateHours]) if (b < this.rolledTo) this.lateHours.delete(b);
      for (const b of [...this.lateDays]) if (b < this.rolledTo) this.lateDays.delete(b);
      await db.run('CHECKPOINT');
    });
  }

  /**
   * Builds the dimension tables from the events of the whole hours in [rolledTo, to) — a day at
   * most per transaction, each moving the mark — and dims_1d for each day those hours end. The
   * first build starts at the first event's hour.
   */
  private async rollDims(db: DuckDBConnection, to: number): Promise<void> {
    let from = this.rolledTo;
    if (from === 0) {
      const first = (await db.runAndReadAll(FIRST_SECOND)).getRowObjectsJS()[0];
      if (first?.ts === null || first?.ts === undefined) return;
      from = Number(first.ts) - (Number(first.ts) % 3600);
    }
    while (from < to) {
      const end = Math.min(to, from - (from % 86_400) + 86_400);
      await inTransaction(db, [
        ...ROLL_HOURS(from, end),
        ...(end % 86_400 === 0 ? ROLL_DAY(end - 86_400) : []),
        `INSERT OR REPLACE INTO rolled VALUES ('dims', ${end})`,
      ]);
      this.rolledTo = end;
      from = end;
    }
  }

  /** One part per table and UTC day holding rows; DuckDB cannot say the bytes of a day's rows. */
  async parts(): Promise<LogPart[]> {
    const sql = LOG_TABLES.map(
      (table) =>
        `SELECT '${table}' AS tbl, ${DATED_COLUMN[table]} // 86400 AS day, count(*) AS n FROM ${table} GROUP BY day`,
    ).join(' UNION ALL ');
    return (await this.query(sql)).map((r) => ({
      table: r.tbl as LogTable,
      part: logPartOf(Number(r.day) * 86_400),
      rows: Number(r.n),
      bytes: null,
    }));
  }

  /** Deletes each part's rows (its table's rows dated within its UTC day), all in one transaction. */
  async dropParts(items: readonly LogPartRef[]): Promise<void> {
    const parts = checkedParts(items);
    await this.serialised(async (db) => {
      await db.run('BEGIN TRANSACTION');
      try {
        for (const p of parts) {
          await db.run(`DELETE FROM ${p.table} WHERE ${p.column} >= ${p.start} AND ${p.column} < ${p.end}`);
        }
        await db.run('COMMIT');
        // siteips is built from these two: again, from what is left.
        if (parts.some((p) => p.table === 'sitedims_1d' || p.table === 'dims_1h')) await this.syncSiteIps(db, true);
      } catch (error) {
        await db.run('ROLLBACK').catch(() => {});
        throw error;
      }
    });
  }
}
