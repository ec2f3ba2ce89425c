import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { LOG_TABLES, type LogPart, type LogPartRef, type LogTable, logPartOf } from '@rampart/contract';
import { lockStore, type StoreLock } from '../../platform/db/store-lock.js';
import { FIRST_SECOND, ingestAggregatesDuckDb, PRUNE_AGGREGATES } from './aggregate-duckdb-store.js';
import type {
  AnalyticsStore,
  IngestResult,
  Row,
  StoredAggregateBatch,
  StoredBatch,
  StoredL4Batch,
} from './analytics-store.js';
import { aggregateRows, BatchGroups } from './batch-groups.js';
import { writeEventGroup } from './duckdb-event-group-store.js';
import { appendEvent } from './duckdb-events.js';
import { ingestL4DuckDb } from './duckdb-l4-store.js';
import { ROLL_DAY, ROLL_HOURS } from './duckdb-rollup-store.js';
import {
  DAY_TABLES,
  DIM_TABLES,
  DUCKDB_DIALECT,
  EVENTS_DDL,
  GROUP_MAX_EVENTS,
  IP4_OF_VALUE,
  inTransaction,
  L4_COLUMNS,
  migrateDuckDb,
  SUMMED_TABLES,
} from './duckdb-schema-store.js';
import { ALL_DAYS, SITE_IP_MASKS, siteIpDayBit, siteIpsFrom, siteIpsSync } from './duckdb-site-ips-store.js';
import { checkedParts, DATED_COLUMN } from './log-parts.js';

/**
 * The embedded analytics store: one DuckDB file in DATA_DIR (`analytics/analytics.duckdb`), owned
 * by one control-plane process (DuckDB lets only one process open a file; `analytics.lock` says
 * which, as the embedded config database's lock does). A batch, its rollups and its ledger row are
 * written in one transaction through DuckDB's appender, so a batch is there whole or not at all and
 * a retried one is recognised by the ledger. The time rollups are computed in SQL from the batch,
 * the dimensions from the events of hours that ended, in `compact` (rollDims), with the same sums
 * as rollups.ts, which the store tests compare them with. Writes are serialised on one connection;
 * reads use a second one and see committed batches only. Its tables: duckdb-schema-store.ts; its rollup
 * SQL: duckdb-rollup-store.ts; a group of events: duckdb-event-group-store.ts.
 */

// What the benches and tests import from here.
export { appendEvent, DUCKDB_DIALECT, EVENTS_DDL, GROUP_MAX_EVENTS, L4_COLUMNS };

/**
 * DuckDB's threads (a setting of the whole database, reads included): one by default. Every
 * statement of the ingest ran in parallel on two threads and cost ~25 % more CPU in all (its
 * merges, rollup inserts and commits: bench/ingest-path.ts, store 1.20-1.43 s per node-minute on
 * two threads, 0.95-1.08 s on one), CPU the control plane's own thread needs on a 2-core machine;
 * an operator with cores to spare for the statistics' reads sets RAMPART_ANALYTICS_THREADS.
 */
export const DUCKDB_THREADS_DEFAULT = 1;

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
        siteIps: this.siteIpsTo > 0 ? { from: siteIpsFrom(this.siteIpsTo), to: this.siteIpsTo } : null,
        siteIpsPartial: () => {
          this.siteIpsMerged = false;
        },
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
    /** DuckDB's threads (DUCKDB_THREADS_DEFAULT; the configuration's RAMPART_ANALYTICS_THREADS). */
    private readonly threads = DUCKDB_THREADS_DEFAULT,
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
    await this.writer.run(`SET threads = ${Math.max(1, Math.floor(this.threads))}`);
    await migrateDuckDb(this.writer);
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
    return { from: siteIpsFrom(this.siteIpsTo), to: this.siteIpsTo, merged: this.siteIpsMerged };
  }

  /**
   * Brings siteips to the dimensions' mark, in one transaction: the hours built since merged in
   * (the days that started since dropping their bit's older day), or — far behind, or `rebuild` —
   * built again from the dimension tables (their whole days from sitedims_1d, the last day's hours
   * from dims_1h); merges late events' partial rows either way.
   */
  private async syncSiteIps(db: DuckDBConnection, rebuild = false): Promise<void> {
    const to = this.rolledTo;
    const statements = siteIpsSync(to, this.siteIpsTo, this.siteIpsMerged, rebuild);
    if (statements === null) return;
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

  /** One transaction: the group's fresh batches, their events, rollups and ledger rows (duckdb-event-group-store.ts). */
  private async writeGroup(db: DuckDBConnection, batches: readonly StoredBatch[]): Promise<IngestResult[]> {
    const { results, siteIpsPartial } = await writeEventGroup(db, batches, {
      rolledTo: this.rolledTo,
      siteIpsTo: this.siteIpsTo,
      siteIpsFrom: siteIpsFrom(this.siteIpsTo),
      lateHours: this.lateHours,
      lateDays: this.lateDays,
    });
    if (siteIpsPartial) this.siteIpsMerged = false;
    return results;
  }

  ingestAggregates(batch: StoredAggregateBatch, signal?: AbortSignal): Promise<IngestResult> {
    return this.aggregateGroups.add(batch, signal);
  }

  ingestL4(batch: StoredL4Batch): Promise<IngestResult> {
    return this.serialised((db) => ingestL4DuckDb(db, batch));
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
        for (let day = siteIpsFrom(this.siteIpsTo); day < rollupBefore && day < this.siteIpsTo; day += 86_400) {
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
