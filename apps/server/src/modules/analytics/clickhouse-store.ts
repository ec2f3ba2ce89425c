import { createHash } from 'node:crypto';
import { LOG_TABLES, type LogPart, type LogPartRef, type LogTable } from '@rampart/contract';
import { AGGREGATE_DATED_TABLES, aggregateDdl, ingestAggregatesClickHouse } from './aggregate-clickhouse-store.js';
import {
  type AnalyticsStore,
  type EventRow,
  hexOf,
  type IngestResult,
  type Row,
  type SqlDialect,
  type StoredAggregateBatch,
  type StoredBatch,
  type StoredL4Batch,
} from './analytics-store.js';
import { BatchGroups } from './batch-groups.js';
import { eventTsv } from './clickhouse-tsv.js';
import { ADDED_EVENT_COLUMNS, CLICKHOUSE_EVENT_COLUMNS as COLUMNS, checkEvent } from './event-columns.js';
import { checkedParts } from './log-parts.js';
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
 * The analytics store on ClickHouse (docs/decisions.md "Traffic analytics on ClickHouse"), for
 * installs that outgrow one machine. It speaks ClickHouse's HTTP interface with Node's fetch and
 * keeps to SQL that Debian's ClickHouse 18.16 and current servers both run: no window functions,
 * no Map type, no TTL clause, no query parameters.
 *
 * `CLICKHOUSE_URL` names the server and the database: `http[s]://user:password@host:8123/database`
 * (user and password optional, percent-encoded; the database is created when missing; settings may
 * follow as a query string, e.g. `?insert_distributed_sync=1` on a cluster).
 *
 * Layout: `events` (MergeTree, one partition per UTC day, ordered by site and time) and the six
 * rollup tables of rollups.ts as SummingMergeTree tables, each fed by a materialized view over
 * `events` that computes what `rollupsOf` computes, so an INSERT of events brings its rollups with
 * it. Table and column names are the DuckDB store's: the statistics run the same SQL on both.
 *
 * Exactly once without transactions: the ledger `batches` holds one row per batch taken (the
 * DuckDB store's table) and `batch_attempts` one row per batch begun. The batches that arrive
 * while one round is written go together in the next (as DuckDB's group commit), and `ingest`
 * does for each:
 * 1. a batch in `batches` is a duplicate;
 * 2. otherwise it is marked begun in `batch_attempts`, unless an earlier attempt did so already;
 *    then that attempt was cut short, and the request ids of this batch already in `events` are
 *    looked up (within the batch's sites, nodes and time range, so within its partitions);
 * 3. the events not stored yet go in with one `INSERT ... FORMAT TabSeparated`;
 * 4. the batch goes into `batches`.
 * ClickHouse takes an INSERT of up to `max_insert_block_size` rows (a million; a batch holds 5,000
 * at most) as one block, read whole before anything is written: a client cut short mid-request
 * leaves nothing. A block is written as one part per partition, and the materialized views run
 * on the same block right after and write their parts; once the INSERT is acknowledged, the
 * events and their rollup rows are all there. So after any cut, the events of the batch in `events`
 * are exactly those whose rollup rows exist, the retry adds the others (and through the views their
 * rollups), and every event counts once. What this cannot cover is a server crash or a failing
 * view between the events' part and the views' parts (the events would be there without their
 * rollups): ClickHouse has no transaction around them.
 *
 * Strings never enter a statement: the ledger is looked up by `halfMD5(batch_id)` (computed here
 * and inlined as an integer, the strings compared after reading), events travel as TabSeparated
 * data (their strings escaped: tsvField).
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
const DAY_OF = (column: string) => `toYYYYMMDD(toDateTime(${column}), 'UTC')`;

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

const DDL = [
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
const DAILY_FROM_HOURS = `INSERT INTO rollup_1d SELECT intDiv(bucket, 86400) * 86400, site_id, domain_id, zone_id, ${ROLLUP_COUNTERS.map(
  (c) => `sum(${c})`,
).join(', ')} FROM rollup_1h GROUP BY intDiv(bucket, 86400) * 86400, site_id, domain_id, zone_id`;
/** The per-site five-minute rollup summed from the per-domain one (a store from before it). */
const SITES_FROM_DOMAINS = `INSERT INTO siterollup_5m SELECT bucket, site_id, toInt32(0), toInt32(0), ${ROLLUP_COUNTERS.map(
  (c) => `sum(${c})`,
).join(', ')} FROM rollup_5m GROUP BY bucket, site_id`;
/**
 * Tables and views of earlier layouts that open() drops: the low dimensions had a five-minute
 * table; the views of events (`*_mv`) counted every event before those kept for the logs only
 * (`counted` 0), and are made again as `*_ev` (a view's query cannot be changed in place).
 */
const RETIRED = [
  'dims_5m_mv',
  'dims_5m',
  'dims_1h_all_mv',
  ...'rollup_1m rollup_5m rollup_1h rollup_1d siterollup_5m lowdims_1h dims_1h dims_1d sitedims_1d'
    .split(' ')
    .map((t) => `${t}_mv`),
];

/** The tables pruned by day, with the column that dates a row and which cut applies. */
const DATED_TABLES: readonly [string, string, 'raw' | 'rollup' | 'ledger'][] = [
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
const SUMMED_TABLES = [
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

export { eventTsv };

/** `halfMD5` of ClickHouse: the first 8 bytes of the MD5, big-endian, as an unsigned integer. */
export function batchKey(batchId: string): string {
  return createHash('md5').update(batchId, 'utf8').digest().readBigUInt64BE(0).toString();
}

/** The events table's columns in the order `eventTsv` writes them (an INSERT names them). */
export const EVENT_TSV_COLUMNS = COLUMNS.map((c) => c.name).join(', ');

const NUMERIC_TYPE = /^(Nullable\()?(U?Int\d+|Float\d+|Decimal)/;

const UTC_DAY = 86_400;

/** 20240105 → the unix second its UTC day starts; null for a partition that is not a day. */
function dayStart(partition: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(partition);
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 1000;
}

function dayName(seconds: number): number {
  const d = new Date(seconds * 1000);
  return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** At most this many events go in one INSERT (one block: under max_insert_block_size's 1,048,576 rows). */
export const GROUP_MAX_EVENTS = 100_000;

export interface ClickHouseOptions {
  /** Longest a request may take, in milliseconds (default 60,000). */
  timeoutMs?: number;
}

export class ClickHouseStore implements AnalyticsStore {
  readonly kind = 'clickhouse' as const;
  readonly dialect = CLICKHOUSE_DIALECT;
  /** The views count every event in the dimension tables as it is inserted. */
  readonly dimsRolledTo = Number.MAX_SAFE_INTEGER;
  /** No per-site address table: the statistics group the daily rows (docs/decisions.md "Addresses per site"). */
  readonly siteAddresses = null;
  /** Base address without credentials, path or query. */
  private readonly endpoint: string;
  private readonly database: string;
  private readonly authorization: string | null;
  private readonly settings: Record<string, string>;
  private readonly timeoutMs: number;
  private opened = false;
  /** Batches waiting for the next group's round: one INSERT block of their events. */
  private readonly groups = new BatchGroups(GROUP_MAX_EVENTS, (batches) => this.writeGroup(batches));

  /** `url`: CLICKHOUSE_URL, `http[s]://[user[:password]@]host[:port]/database[?setting=value...]`. */
  constructor(url: string, options: ClickHouseOptions = {}) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error('CLICKHOUSE_URL must be an http:// or https:// address');
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, '')) || 'default';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) {
      throw new Error('CLICKHOUSE_URL: the database (the path) must be letters, digits and _');
    }
    this.database = database;
    this.authorization =
      parsed.username !== ''
        ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`
        : null;
    // The views of an INSERT run at once (docs/decisions.md "The views in parallel"), unless the URL says otherwise.
    this.settings = { parallel_view_processing: '1', ...Object.fromEntries(parsed.searchParams) };
    this.endpoint = `${parsed.protocol}//${parsed.host}/`;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** The database this store keeps its tables in. */
  get databaseName(): string {
    return this.database;
  }

  /**
   * One HTTP request: `sql` in the body, or in the URL when `data` is the body (an INSERT's rows).
   * Answers the response text; an error status throws with ClickHouse's message.
   */
  private async request(
    sql: string,
    options: { data?: string; settings?: Record<string, string>; database?: string | null } = {},
  ): Promise<string> {
    const params = new URLSearchParams({ ...this.settings, ...options.settings });
    const database = options.database === undefined ? this.database : options.database;
    if (database !== null) params.set('database', database);
    if (options.data !== undefined) params.set('query', sql);
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
    if (this.authorization) headers.authorization = this.authorization;
    const response = await fetch(`${this.endpoint}?${params}`, {
      method: 'POST',
      headers,
      body: options.data ?? sql,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`ClickHouse (${response.status}): ${text.trim().slice(0, 1000)}`);
    }
    return text;
  }

  /** Runs a statement that answers no rows. */
  private execute(sql: string, database?: string | null): Promise<string> {
    return this.request(sql, { database });
  }

  /** Rows into `target` (a table, or a table and its column list), one per line, in `format`. */
  private insert(target: string, rows: readonly string[], format = 'JSONEachRow'): Promise<string> {
    return this.request(`INSERT INTO ${target} FORMAT ${format}`, { data: `${rows.join('\n')}\n` });
  }

  /** Rows of a query we build (`FORMAT JSON` appended). */
  private async select(sql: string, readOnly = false): Promise<Row[]> {
    const text = await this.request(`${sql.trim().replace(/;\s*$/, '')}\nFORMAT JSON`, {
      // readonly=2: no writes, but settings may still be given (as the two below).
      settings: {
        ...(readOnly ? { readonly: '2' } : {}),
        output_format_json_quote_64bit_integers: '0',
        // Buffer the whole answer, so that an error mid-query is an error status, not a cut body.
        wait_end_of_query: '1',
      },
    });
    const parsed = JSON.parse(text) as { meta: { name: string; type: string }[]; data: Record<string, unknown>[] };
    const numeric = new Set(parsed.meta.filter((m) => NUMERIC_TYPE.test(m.type)).map((m) => m.name));
    return parsed.data.map((row) => {
      const out: Row = {};
      for (const [k, v] of Object.entries(row)) {
        if (v === null || v === undefined) out[k] = 0;
        else if (typeof v === 'number') out[k] = v;
        else if (numeric.has(k)) out[k] = Number(v);
        else out[k] = typeof v === 'string' ? v : JSON.stringify(v);
      }
      return out;
    });
  }

  /**
   * Creates the single-server layout where it is missing. A cluster's layout is the operator's
   * (docs/decisions.md): when `events` is a Distributed table, nothing is created — a view over
   * it here would count every event a second time beside the shards' own views.
   */
  async open(): Promise<void> {
    await this.execute(`CREATE DATABASE IF NOT EXISTS ${this.database}`, null);
    const [events] = await this.select(
      "SELECT engine FROM system.tables WHERE database = currentDatabase() AND name = 'events'",
    );
    if (events?.engine !== 'Distributed') {
      for (const table of RETIRED) await this.execute(`DROP TABLE IF EXISTS ${table}`);
      const tables = new Set(
        (await this.select('SELECT name FROM system.tables WHERE database = currentDatabase()')).map((r) =>
          String(r.name),
        ),
      );
      await this.execute(EVENTS_DDL);
      // A store from before a column was added (18.16 has no ADD COLUMN IF NOT EXISTS), before the views that read it.
      const have = new Set(
        (
          await this.select("SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'events'")
        ).map((r) => String(r.name)),
      );
      for (const c of COLUMNS) {
        const older = ADDED_EVENT_COLUMNS.get(c.name);
        if (older && !have.has(c.name))
          await this.execute(`ALTER TABLE events ADD COLUMN ${c.name} ${c.type} DEFAULT ${older}`);
      }
      for (const statement of DDL) await this.execute(statement);
      // A store from before the daily or the per-site rollup: it is summed from the finer or
      // per-domain one once, as it is created — before this control plane takes a batch (another one writing to the same server
      // meanwhile would have the events of those moments in both).
      if (tables.has('rollup_1h') && !tables.has('rollup_1d')) await this.execute(DAILY_FROM_HOURS);
      if (tables.has('rollup_5m') && !tables.has('siterollup_5m')) await this.execute(SITES_FROM_DOMAINS);
      // A ledger from before log push (docs/decisions.md "Log push"): its batches count as ingested at 0.
      const ledger = await this.select(
        "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'batches' AND name = 'ingested_at'",
      );
      if (ledger.length === 0) await this.execute('ALTER TABLE batches ADD COLUMN ingested_at Int64 DEFAULT 0');
    }
    this.opened = true;
  }

  async close(): Promise<void> {
    await this.groups.settled();
    this.opened = false;
  }

  private assertOpen(): void {
    if (!this.opened) throw new Error('the analytics store is not open');
  }

  ingest(batch: StoredBatch): Promise<IngestResult> {
    return this.groups.add(batch);
  }

  /**
   * The ledger protocol of the class comment for a group of batches: the taken ones answer
   * `duplicate` (a batch twice in the group counts once: the second answers `duplicate`), the
   * begun ones have their stored events taken off, the others are marked begun; then one INSERT of
   * every event not stored yet, then the ledger rows.
   */
  private async writeGroup(batches: readonly StoredBatch[]): Promise<IngestResult[]> {
    this.assertOpen();
    for (const batch of batches) {
      for (const n of [batch.nodeId, batch.receivedAt, batch.dropped]) {
        if (!Number.isSafeInteger(n)) throw new Error('ingest: node, time and dropped must be integers');
      }
      for (const e of batch.events) checkEvent(e);
    }
    const keys = batches.map((b) => batchKey(b.batchId));
    const keyList = [...new Set(keys)].join(', ');
    const taken = new Set(
      (await this.select(`SELECT batch_id FROM batches WHERE batch_key IN (${keyList})`)).map((r) =>
        String(r.batch_id),
      ),
    );
    const begun = new Set(
      (await this.select(`SELECT batch_id FROM batch_attempts WHERE batch_key IN (${keyList})`)).map((r) =>
        String(r.batch_id),
      ),
    );
    const results: IngestResult[] = [];
    const fresh: { batch: StoredBatch; key: string; missing: readonly EventRow[] }[] = [];
    const attempts: string[] = [];
    for (const [i, batch] of batches.entries()) {
      const key = keys[i] as string;
      if (taken.has(batch.batchId)) {
        results.push({ stored: 0, duplicate: true });
        continue;
      }
      taken.add(batch.batchId);
      let missing: readonly EventRow[] = batch.events;
      if (begun.has(batch.batchId)) {
        missing = await this.notYetStored(batch, key);
      } else {
        attempts.push(
          JSON.stringify({
            batch_key: key,
            batch_id: batch.batchId,
            node_id: batch.nodeId,
            received_at: batch.receivedAt,
          }),
        );
      }
      // Stored by this call: a batch completed after a cut counts what this call added.
      results.push({ stored: missing.length, duplicate: false });
      fresh.push({ batch, key, missing });
    }
    if (fresh.length === 0) return results;
    if (attempts.length > 0) await this.insert('batch_attempts', attempts);
    // One INSERT: one block, its rollups written with it by the materialized views.
    const rows = fresh.flatMap((f) => f.missing.map(eventTsv));
    if (rows.length > 0) await this.insert(`events (${EVENT_TSV_COLUMNS})`, rows, 'TabSeparated');
    // The ledger rows go last, stamped now: once one is visible its events are (log push reads by it).
    const ingestedAt = Date.now();
    await this.insert(
      'batches',
      fresh.map(({ batch, key }) =>
        JSON.stringify({
          ingested_at: ingestedAt,
          batch_key: key,
          batch_id: batch.batchId,
          node_id: batch.nodeId,
          received_at: batch.receivedAt,
          dropped: batch.dropped,
          events: batch.events.length,
        }),
      ),
    );
    return results;
  }

  ingestAggregates(batch: StoredAggregateBatch): Promise<IngestResult> {
    this.assertOpen();
    return ingestAggregatesClickHouse(
      { select: (sql) => this.select(sql), insert: (t, rows) => this.insert(t, rows) },
      batch,
      batchKey(batch.batchId),
    );
  }

  /**
   * A layer-4 counter batch exactly once without a transaction: taken when its ledger row is
   * there; otherwise its rows go in with one INSERT (one block: all or nothing) unless an attempt
   * cut short after that INSERT left them there already (looked up by the batch's key within its
   * minutes), then the ledger row.
   */
  async ingestL4(batch: StoredL4Batch): Promise<IngestResult> {
    this.assertOpen();
    for (const n of [batch.nodeId, batch.receivedAt]) {
      if (!Number.isSafeInteger(n)) throw new Error('ingest: node and time must be integers');
    }
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    for (const r of batch.rows) {
      for (const n of [r.bucket, r.siteId, r.nodeId, r.portId, r.packets, r.bytes]) {
        if (!Number.isSafeInteger(n)) throw new Error('ingest: counter rows hold integers');
      }
      from = Math.min(from, r.bucket);
      to = Math.max(to, r.bucket);
    }
    const key = batchKey(batch.batchId);
    const taken = await this.select(`SELECT batch_id FROM l4_batches WHERE batch_key = ${key}`);
    if (taken.some((r) => r.batch_id === batch.batchId)) return { stored: 0, duplicate: true };
    let stored = batch.rows.length;
    if (stored > 0) {
      const [there] = await this.select(
        `SELECT count() AS n FROM l4_counters WHERE bucket >= ${from} AND bucket <= ${to} AND batch_key = ${key}`,
      );
      if (there && Number(there.n) > 0) stored = 0;
      else
        await this.insert(
          'l4_counters',
          batch.rows.map((r) =>
            JSON.stringify({
              bucket: r.bucket,
              site_id: r.siteId,
              node_id: r.nodeId,
              port_id: r.portId,
              outcome: r.outcome,
              dim: r.dim,
              value: r.value,
              packets: r.packets,
              bytes: r.bytes,
              batch_key: key,
            }),
          ),
        );
    }
    await this.insert('l4_batches', [
      JSON.stringify({
        batch_key: key,
        batch_id: batch.batchId,
        node_id: batch.nodeId,
        received_at: batch.receivedAt,
        records: batch.rows.length,
      }),
    ]);
    return { stored, duplicate: false };
  }

  /**
   * The events of a batch cut short that are not in `events` yet: what is there is read by request
   * id within the batch's sites, nodes and seconds (the primary key and the day partitions bound
   * the read), and taken off as a multiset (a request id twice in a batch is stored twice).
   */
  private async notYetStored(batch: StoredBatch, key: string): Promise<EventRow[]> {
    if (batch.events.length === 0) return [];
    const sites = [...new Set(batch.events.map((e) => e.siteId))];
    const nodes = [...new Set(batch.events.map((e) => e.nodeId))];
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    for (const e of batch.events) {
      from = Math.min(from, e.ts);
      to = Math.max(to, e.ts);
    }
    const stored = await this.select(
      `SELECT request_id, batch_id FROM events WHERE site_id IN (${sites.join(', ')}) AND node_id IN (${nodes.join(', ')}) ` +
        `AND ts >= ${from} AND ts <= ${to} AND halfMD5(batch_id) = ${key}`,
    );
    const count = new Map<string, number>();
    for (const r of stored) {
      if (r.batch_id !== batch.batchId) continue;
      const id = String(r.request_id);
      count.set(id, (count.get(id) ?? 0) + 1);
    }
    return batch.events.filter((e) => {
      const n = count.get(e.requestId) ?? 0;
      if (n === 0) return true;
      count.set(e.requestId, n - 1);
      return false;
    });
  }

  query(sql: string): Promise<Row[]> {
    this.assertOpen();
    return this.select(sql, true);
  }

  /**
   * Retention without a TTL clause (18.16 has none): the day partitions wholly before the cut are
   * dropped (`ALTER TABLE ... DROP PARTITION`, immediate and cheap); when the cut falls inside a
   * day that holds older rows, those are deleted with `ALTER TABLE ... DELETE WHERE`, a mutation
   * that rewrites the day's parts in the background (so they go a little later).
   */
  async prune(rawBefore: number, rollupBefore: number): Promise<void> {
    this.assertOpen();
    if (!Number.isSafeInteger(rawBefore) || !Number.isSafeInteger(rollupBefore)) {
      throw new Error('prune: times must be integers');
    }
    const cuts = { raw: rawBefore, rollup: rollupBefore, ledger: Math.min(rawBefore, rollupBefore) };
    const parts = await this.select(
      'SELECT table, partition FROM system.parts WHERE database = currentDatabase() AND active GROUP BY table, partition',
    );
    for (const [table, column, which] of DATED_TABLES) {
      const cut = cuts[which];
      for (const p of parts) {
        if (p.table !== table) continue;
        const start = dayStart(String(p.partition));
        if (start !== null && start + UTC_DAY <= cut) {
          await this.execute(`ALTER TABLE ${table} DROP PARTITION ${String(p.partition)}`);
        }
      }
      if (cut % UTC_DAY !== 0) {
        const day = dayName(cut);
        const [older] = await this.select(
          `SELECT count() AS n FROM ${table} WHERE ${DAY_OF(column)} = ${day} AND ${column} < ${cut}`,
        );
        if (older && Number(older.n) > 0) await this.execute(`ALTER TABLE ${table} DELETE WHERE ${column} < ${cut}`);
      }
    }
  }

  /**
   * SummingMergeTree sums the partial rows of a key when it merges parts, on its own schedule;
   * this merges the days of [from, to) now (`OPTIMIZE ... PARTITION ... FINAL`), skipping days that
   * are one merged part already (a part straight from an INSERT, level 0, may hold a key twice).
   * A merge already running on the day makes OPTIMIZE a no-op: it is asked again a few times, and
   * then left to the background merges.
   */
  async compact(from: number, to: number): Promise<void> {
    this.assertOpen();
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) {
      throw new Error('compact: times must be integers');
    }
    if (to <= from) return;
    const first = dayName(from);
    const last = dayName(to - 1);
    const parts = await this.select(
      `SELECT table, partition, count() AS parts, min(level) AS level FROM system.parts WHERE database = currentDatabase() ` +
        `AND active AND table IN (${SUMMED_TABLES.map((t) => `'${t}'`).join(', ')}) GROUP BY table, partition`,
    );
    for (const p of parts) {
      const day = Number(p.partition);
      if (dayStart(String(p.partition)) === null || day < first || day > last) continue;
      if (Number(p.parts) === 1 && Number(p.level) > 0) continue;
      for (let attempt = 1; ; attempt++) {
        try {
          await this.request(`OPTIMIZE TABLE ${String(p.table)} PARTITION ${day} FINAL`, {
            settings: { optimize_throw_if_noop: '1' },
          });
          break;
        } catch {
          if (attempt >= 5) break;
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
    }
  }

  /**
   * The active parts of the tables kept by day, summed per partition (a UTC day): rows as stored
   * (a rollup table's rows are partial sums until merged) and bytes on disk.
   */
  async parts(): Promise<LogPart[]> {
    this.assertOpen();
    const rows = await this.select(
      'SELECT table, partition, sum(rows) AS part_rows, sum(bytes_on_disk) AS part_bytes FROM system.parts ' +
        `WHERE database = currentDatabase() AND active AND table IN (${LOG_TABLES.map((t) => `'${t}'`).join(', ')}) ` +
        'GROUP BY table, partition',
    );
    return rows
      .filter((r) => dayStart(String(r.partition)) !== null)
      .map((r) => ({
        table: r.table as LogTable,
        part: String(r.partition),
        rows: Number(r.part_rows),
        bytes: Number(r.part_bytes),
      }));
  }

  /** Drops each part's partition (the table's rows of that UTC day), one after another. */
  async dropParts(items: readonly LogPartRef[]): Promise<void> {
    this.assertOpen();
    for (const p of checkedParts(items)) await this.execute(`ALTER TABLE ${p.table} DROP PARTITION ${p.part}`);
  }
}
