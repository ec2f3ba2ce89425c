import { createHash } from 'node:crypto';
import type { LogPart, LogPartRef } from '@rampart/contract';
import { ingestAggregatesClickHouse } from './aggregate-clickhouse-store.js';
import type {
  AnalyticsStore,
  EventRow,
  IngestResult,
  Row,
  StoredAggregateBatch,
  StoredBatch,
  StoredL4Batch,
} from './analytics-store.js';
import { aggregateRows, BatchGroups } from './batch-groups.js';
import { ClickHouseHttp } from './clickhouse-http-store.js';
import { type ClusterSpec, localName, shardStatements } from './clickhouse-layout-store.js';
import {
  type ClickHouseShard,
  compactShard,
  dropPartsOf,
  partsOf,
  pruneShard,
} from './clickhouse-maintenance-store.js';
import { eventsNotYetStored } from './clickhouse-retry-store.js';
import {
  addedColumns,
  CLICKHOUSE_DIALECT,
  checkEvent,
  DAILY_FROM_HOURS,
  EVENT_TSV_COLUMNS,
  EVENTS_DDL,
  RETIRED,
  SITES_FROM_DOMAINS,
} from './clickhouse-schema-store.js';
import { eventTsv } from './clickhouse-tsv.js';
import { ingestL4ClickHouse } from './l4-clickhouse-store.js';

/**
 * The analytics store on ClickHouse (docs/decisions.md "Traffic analytics on ClickHouse"), for
 * installs that outgrow one machine. It speaks ClickHouse's HTTP interface with Node's fetch and
 * keeps to SQL that Debian's ClickHouse 18.16 and current servers both run: no window functions,
 * no Map type, no TTL clause, no query parameters.
 *
 * `CLICKHOUSE_URL` names the server and the database: `http[s]://user:password@host:8123/database`
 * (user and password optional, percent-encoded; the database is created when missing; settings may
 * follow as a query string). On a cluster (ClickHouseOptions.cluster) each table below is a
 * Distributed table over the shards' local ones (clickhouse-layout-store.ts): an INSERT is split by site
 * into one block per shard, each written with its views' parts there, and every read below —
 * the ledgers, a retry's look-up — goes through the Distributed tables, so sees every shard.
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

export { CLICKHOUSE_DIALECT, EVENT_TSV_COLUMNS, EVENTS_DDL, eventTsv };

/** `halfMD5` of ClickHouse: the first 8 bytes of the MD5, big-endian, as an unsigned integer. */
export function batchKey(batchId: string): string {
  return createHash('md5').update(batchId, 'utf8').digest().readBigUInt64BE(0).toString();
}

/** At most this many events go in one INSERT (one block: under max_insert_block_size's 1,048,576 rows). */
export const GROUP_MAX_EVENTS = 100_000;

export interface ClickHouseOptions {
  /** Longest a request may take, in milliseconds (default 60,000). */
  timeoutMs?: number;
  /**
   * A cluster (`CLICKHOUSE_CLUSTER`): its name in the servers' `remote_servers`, and the HTTP
   * address of one server of each shard (`CLICKHOUSE_SHARDS`; credentials, when an address has
   * none, those of the store's URL). The schema is made on each (clickhouse-layout-store.ts).
   */
  cluster?: { name: string; shards: readonly string[] };
}

/** A schema statement run on one server: as it is, or as the cluster's layout has it. */
type Ddl = (sql: string) => Promise<unknown>;

export class ClickHouseStore implements AnalyticsStore {
  readonly kind = 'clickhouse' as const;
  readonly dialect = CLICKHOUSE_DIALECT;
  /** The views count every event in the dimension tables as it is inserted. */
  readonly dimsRolledTo = Number.MAX_SAFE_INTEGER;
  /** No per-site address table: the statistics group the daily rows (docs/decisions.md "Addresses per site"). */
  readonly siteAddresses = null;
  /** The server this store reads from and inserts through. */
  private readonly http: ClickHouseHttp;
  private readonly database: string;
  private readonly cluster: (ClusterSpec & { shards: readonly ClickHouseShard[] }) | null;
  private opened = false;
  /** Batches waiting for the next group's round: one INSERT block of their events. */
  private readonly groups = new BatchGroups(GROUP_MAX_EVENTS, (batches) => this.writeGroup(batches));
  /**
   * The nodes' aggregate batches waiting, written a group at a time: at most a million rows, so
   * that each table's INSERT is one block (max_insert_block_size).
   */
  private readonly aggregateGroups = new BatchGroups<StoredAggregateBatch>(
    1_000_000,
    (batches) =>
      ingestAggregatesClickHouse(
        this.io,
        batches.map((batch) => ({ batch, key: batchKey(batch.batchId) })),
      ),
    undefined,
    aggregateRows,
  );

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
    const timeoutMs = options.timeoutMs ?? 60_000;
    // The views of an INSERT run at once (docs/decisions.md "The views in parallel"); on a cluster
    // an INSERT through a Distributed table is acknowledged once the shards wrote it (else it waits
    // in a queue on the server, and a retry would not find its rows); a subquery over a Distributed
    // table inside a query over another (the log search's collapsed records) is read once and sent
    // to the shards (GLOBAL IN), not refused: unless the URL says otherwise.
    const settings = {
      parallel_view_processing: '1',
      ...(options.cluster ? { insert_distributed_sync: '1', distributed_product_mode: 'global' } : {}),
      ...Object.fromEntries(parsed.searchParams),
    };
    this.http = new ClickHouseHttp(parsed, database, settings, timeoutMs);
    if (options.cluster) {
      const { name, shards } = options.cluster;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error('CLICKHOUSE_CLUSTER must be letters, digits and _');
      if (shards.length === 0) throw new Error('CLICKHOUSE_SHARDS names no server');
      // The store reads and inserts through CLICKHOUSE_URL's server: one where it made the Distributed tables.
      if (!shards.some((address) => new URL(address).host === parsed.host)) {
        throw new Error('CLICKHOUSE_URL must name a server of CLICKHOUSE_SHARDS (the same host and port)');
      }
      this.cluster = {
        name,
        database,
        shards: shards.map((address) => {
          const shard = new URL(address);
          if (shard.username === '') {
            shard.username = parsed.username;
            shard.password = parsed.password;
          }
          return { http: new ClickHouseHttp(shard, database, settings, timeoutMs), table: localName };
        }),
      };
    } else this.cluster = null;
  }

  /** The database this store keeps its tables in. */
  get databaseName(): string {
    return this.database;
  }

  private select(sql: string, readOnly = false): Promise<Row[]> {
    return this.http.select(sql, readOnly);
  }

  private insert(target: string, rows: readonly string[], format?: string): Promise<string> {
    return this.http.insert(target, rows, format);
  }

  /** The servers that hold rows, with the names they hold them under. */
  private get shards(): readonly ClickHouseShard[] {
    return this.cluster?.shards ?? [{ http: this.http, table: (name) => name }];
  }

  /**
   * Creates the layout where it is missing: on the one server, or on every shard of the cluster
   * (clickhouse-layout-store.ts; each shard is given the statements itself — `ON CLUSTER` would need
   * ZooKeeper, docs/decisions.md "ClickHouse on a cluster"). Without a cluster, a store whose
   * `events` is a Distributed table is a layout an operator made: nothing is created (a view
   * here over it would count every event a second time beside the shards' own views).
   */
  async open(): Promise<void> {
    const cluster = this.cluster;
    if (cluster) {
      const [known] = await this.http
        .request(
          `SELECT count(DISTINCT shard_num) FROM system.clusters WHERE cluster = '${cluster.name}' FORMAT TabSeparated`,
          { database: null },
        )
        .then((text) => text.trim().split('\n'));
      if (Number(known) !== cluster.shards.length) {
        throw new Error(
          `CLICKHOUSE_CLUSTER ${cluster.name}: the server knows ${Number(known)} shards, CLICKHOUSE_SHARDS names ${cluster.shards.length}`,
        );
      }
      // The shards at once: each one's statements in order, none of them reading another shard.
      await Promise.all(
        cluster.shards.map(async (shard) => {
          await shard.http.execute(`CREATE DATABASE IF NOT EXISTS ${this.database}`, null);
          await this.openShard(shard, async (sql) => {
            for (const statement of shardStatements(sql, cluster)) await shard.http.execute(statement);
          });
        }),
      );
    } else {
      await this.http.execute(`CREATE DATABASE IF NOT EXISTS ${this.database}`, null);
      const [events] = await this.select(
        "SELECT engine FROM system.tables WHERE database = currentDatabase() AND name = 'events'",
      );
      if (events?.engine !== 'Distributed') {
        const tables = await this.openShard(this.shards[0] as ClickHouseShard, (sql) => this.http.execute(sql));
        // A store from before the daily or the per-site rollup: it is summed from the finer or
        // per-domain one once, as it is created — before this control plane takes a batch (another
        // one writing to the same server meanwhile would have the events of those moments in both).
        // (A cluster's layout is newer than both.)
        if (tables.has('rollup_1h') && !tables.has('rollup_1d')) await this.http.execute(DAILY_FROM_HOURS);
        if (tables.has('rollup_5m') && !tables.has('siterollup_5m')) await this.http.execute(SITES_FROM_DOMAINS);
      }
    }
    this.opened = true;
  }

  /** One server's tables and views, brought up to date; answers the tables it had before. */
  private async openShard(shard: ClickHouseShard, ddl: Ddl): Promise<Set<string>> {
    for (const table of RETIRED) await ddl(`DROP TABLE IF EXISTS ${table}`);
    const tables = new Set(
      (await shard.http.select('SELECT name FROM system.tables WHERE database = currentDatabase()')).map((r) =>
        String(r.name),
      ),
    );
    await ddl(EVENTS_DDL);
    await addedColumns(shard.http.select.bind(shard.http), (t) => shard.table(t), ddl);
    return tables;
  }

  async close(): Promise<void> {
    await this.groups.settled();
    await this.aggregateGroups.settled();
    this.opened = false;
    this.http.closeIdle();
    for (const shard of this.cluster?.shards ?? []) shard.http.closeIdle();
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
        missing = await eventsNotYetStored(this.io, batch, key);
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

  ingestAggregates(batch: StoredAggregateBatch, signal?: AbortSignal): Promise<IngestResult> {
    this.assertOpen();
    return this.aggregateGroups.add(batch, signal);
  }

  ingestL4(batch: StoredL4Batch): Promise<IngestResult> {
    this.assertOpen();
    return ingestL4ClickHouse(this.io, batch, batchKey(batch.batchId));
  }

  /** What the ingest modules borrow: reads, and inserts of JSON rows. */
  private readonly io = {
    select: (sql: string) => this.select(sql),
    insert: (t: string, rows: readonly string[], format?: string) => this.insert(t, rows, format),
  };

  query(sql: string): Promise<Row[]> {
    this.assertOpen();
    return this.select(sql, true);
  }

  async prune(rawBefore: number, rollupBefore: number): Promise<void> {
    this.assertOpen();
    if (!Number.isSafeInteger(rawBefore) || !Number.isSafeInteger(rollupBefore)) {
      throw new Error('prune: times must be integers');
    }
    for (const shard of this.shards) await pruneShard(shard, rawBefore, rollupBefore);
  }

  async compact(from: number, to: number): Promise<void> {
    this.assertOpen();
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) {
      throw new Error('compact: times must be integers');
    }
    if (to <= from) return;
    for (const shard of this.shards) await compactShard(shard, from, to);
  }

  parts(): Promise<LogPart[]> {
    this.assertOpen();
    return partsOf(this.shards);
  }

  dropParts(items: readonly LogPartRef[]): Promise<void> {
    this.assertOpen();
    return dropPartsOf(this.shards, items);
  }
}
