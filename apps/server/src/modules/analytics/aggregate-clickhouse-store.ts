import { lowDimValues } from './aggregate-lowdims-store.js';
import { ingestSketchesClickHouse, SKETCH_DATED_TABLES, sketchDdl } from './aggregate-sketch-clickhouse-store.js';
import type { IngestResult, Row, StoredAggregateBatch } from './analytics-store.js';
import { collapsedClickHouseDdl, collapsedJsonRows } from './collapsed-store.js';
import { DIM_COUNTERS, ROLLUP_COUNTERS } from './rollups.js';

/**
 * The ClickHouse store's part of the nodes' aggregates (routes/analytics-aggregates.ts), built as
 * the events are (clickhouse-store.ts): a batch's minute counters go into `agg_counters` with one
 * INSERT (one block: all its rows or none), and materialized views over that table write them into
 * the time rollups (SummingMergeTree: partial rows that sum with the events' own); then the batch
 * goes into its ledger `agg_batches`. A batch whose ledger row is there is a duplicate; one whose
 * rows are in `agg_counters` without a ledger row (an attempt cut short after its INSERT) gets
 * only the rows of the sites not there yet, then its ledger row, so its counters count once — on
 * a cluster the INSERT through the Distributed table is one block per shard, a site's rows on one
 * shard (clickhouse-layout-store.ts), so a cut may leave some sites' rows and not others'. Its low-cardinality dimensions go the same way
 * into `agg_lowdims` (aggregate-lowdims-store.ts) and by a view into lowdims_1h, checked apart (a
 * cut between the two INSERTs leaves the second to the retry). Its collapsed floods go into
 * `collapsed_blocks` (collapsed-store.ts), checked apart likewise.
 *
 * The views read the column `minute` and write it as `bucket`: ClickHouse substitutes a SELECT
 * alias for every identifier of its name (clickhouse-store.ts), so no output may be named as a
 * column it reads but its own.
 */

const COUNTER_COLUMNS = ROLLUP_COUNTERS.map((c) => `${c} Int64`).join(', ');

/** A time rollup's view over agg_counters; per whole site (domain and zone 0) with `site`. */
const ROLLUP_VIEW = (table: string, seconds: number, site = false) =>
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_agg TO ${table} AS SELECT minute - minute % ${seconds} AS bucket, ` +
  `site_id, ${site ? 'toInt32(0) AS domain_id, toInt32(0) AS zone_id' : 'domain_id, zone_id'}, ${ROLLUP_COUNTERS.join(', ')} FROM agg_counters`;

/** The tables and views, given how a column's UTC day is written (clickhouse-store.ts DAY_OF). */
export const aggregateDdl = (dayOf: (column: string) => string): string[] => [
  `CREATE TABLE IF NOT EXISTS agg_counters (minute Int64, site_id Int32, domain_id Int32, zone_id Int32, ${COUNTER_COLUMNS}, ` +
    `batch_key UInt64) ENGINE = MergeTree() PARTITION BY ${dayOf('minute')} ORDER BY (site_id, minute)`,
  'CREATE TABLE IF NOT EXISTS agg_batches (batch_key UInt64, batch_id String, node_id Int32, received_at Int64, ' +
    `dropped Int64, records Int32, ingested_at Int64 DEFAULT 0) ENGINE = MergeTree() PARTITION BY ${dayOf('received_at')} ORDER BY batch_key`,
  ROLLUP_VIEW('rollup_1m', 60),
  ROLLUP_VIEW('rollup_5m', 300),
  ROLLUP_VIEW('rollup_1h', 3600),
  ROLLUP_VIEW('rollup_1d', 86_400),
  ROLLUP_VIEW('siterollup_5m', 300, true),
  'CREATE TABLE IF NOT EXISTS agg_lowdims (minute Int64, site_id Int32, domain_id Int32, zone_id Int32, dim String, value String, ' +
    `${DIM_COUNTERS.map((c) => `${c} Int64`).join(', ')}, batch_key UInt64) ENGINE = MergeTree() PARTITION BY ${dayOf('minute')} ` +
    'ORDER BY (site_id, dim, minute)',
  'CREATE MATERIALIZED VIEW IF NOT EXISTS lowdims_1h_agg TO lowdims_1h AS SELECT minute - minute % 3600 AS bucket, ' +
    `site_id, domain_id, zone_id, dim, value, ${DIM_COUNTERS.join(', ')} FROM agg_lowdims`,
  ...sketchDdl(dayOf), // The heavy hitters, sketches and peaks (aggregate-sketch-clickhouse-store.ts).
  collapsedClickHouseDdl(dayOf),
];

/** The tables pruned by day (clickhouse-store.ts DATED_TABLES): the counters with the rollups, the ledger with the events'. */
export const AGGREGATE_DATED_TABLES: readonly [string, string, 'raw' | 'rollup' | 'ledger'][] = [
  ['agg_counters', 'minute', 'rollup'],
  ['agg_lowdims', 'minute', 'raw'],
  ['collapsed_blocks', 'minute', 'raw'],
  ['agg_batches', 'received_at', 'ledger'],
  ...SKETCH_DATED_TABLES,
];

/** What the store lends: its reads, and its inserts of JSON rows. */
export interface ClickHouseIo {
  select(sql: string): Promise<Row[]>;
  insert(target: string, rows: readonly string[]): Promise<unknown>;
}

/**
 * The sites whose rows of the batch keyed `key` are in `table` already, read within the batch's
 * times (`column` from `from` to `to`, so within its partitions).
 */
export async function storedSites(
  io: ClickHouseIo,
  table: string,
  column: string,
  from: number,
  to: number,
  key: string,
): Promise<Set<number>> {
  const rows = await io.select(
    `SELECT DISTINCT site_id FROM ${table} WHERE ${column} >= ${from} AND ${column} <= ${to} AND batch_key = ${key}`,
  );
  return new Set(rows.map((r) => Number(r.site_id)));
}

/** The attempts under way per store (its io) and batch id. */
const underWay = new WeakMap<ClickHouseIo, Map<string, Promise<IngestResult>>>();

/**
 * Takes a batch once (`key`: its batch id's batchKey), an attempt at a time per batch id: a node
 * that sends a batch again while its first attempt is still under way (its answer late, the
 * client gave up) waits for the first, then finds it in the ledger. Two attempts at once would
 * both find neither the ledger row nor the rows and both write them.
 */
export function ingestAggregatesClickHouse(
  io: ClickHouseIo,
  batch: StoredAggregateBatch,
  key: string,
): Promise<IngestResult> {
  let mine = underWay.get(io);
  if (!mine) {
    mine = new Map();
    underWay.set(io, mine);
  }
  const attempts = mine;
  const before = attempts.get(batch.batchId);
  const attempt = (before ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => ingestOnce(io, batch, key))
    .finally(() => {
      if (attempts.get(batch.batchId) === attempt) attempts.delete(batch.batchId);
    });
  attempts.set(batch.batchId, attempt);
  return attempt;
}

async function ingestOnce(io: ClickHouseIo, batch: StoredAggregateBatch, key: string): Promise<IngestResult> {
  for (const n of [batch.nodeId, batch.receivedAt, batch.dropped]) {
    if (!Number.isSafeInteger(n)) throw new Error('ingest: node, time and dropped must be integers');
  }
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const r of batch.counters) {
    for (const n of [r.minute, r.siteId, r.domainId, r.zoneId, ...r.counters]) {
      if (!Number.isSafeInteger(n)) throw new Error('ingest: aggregate rows hold integers');
    }
    if (r.counters.length !== ROLLUP_COUNTERS.length) throw new Error('ingest: an aggregate row holds every counter');
    from = Math.min(from, r.minute);
    to = Math.max(to, r.minute);
  }
  const taken = await io.select(`SELECT batch_id FROM agg_batches WHERE batch_key = ${key}`);
  if (taken.some((r) => r.batch_id === batch.batchId)) return { stored: 0, duplicate: true };
  const there = (table: string) => storedSites(io, table, 'minute', from, to, key);
  const storedCounters = batch.counters.length > 0 ? await there('agg_counters') : new Set<number>();
  const counters = batch.counters.filter((r) => !storedCounters.has(r.siteId));
  const stored = counters.length;
  if (stored > 0) {
    await io.insert(
      'agg_counters',
      counters.map((r) =>
        JSON.stringify({
          minute: r.minute,
          site_id: r.siteId,
          domain_id: r.domainId,
          zone_id: r.zoneId,
          ...Object.fromEntries(ROLLUP_COUNTERS.map((c, i) => [c, r.counters[i]])),
          batch_key: key,
        }),
      ),
    );
  }
  for (const r of batch.lowDims) {
    for (const n of [r.minute, r.siteId, r.domainId, r.zoneId, ...r.counts]) {
      if (!Number.isSafeInteger(n)) throw new Error('ingest: aggregate rows hold integers');
    }
    if (r.minute < from || r.minute > to) throw new Error('ingest: a dimension row of no minute record');
  }
  const storedDims = batch.lowDims.length > 0 ? await there('agg_lowdims') : new Set<number>();
  const lowDims = batch.lowDims.filter((r) => !storedDims.has(r.siteId));
  if (lowDims.length > 0) {
    await io.insert(
      'agg_lowdims',
      lowDims.map((r) => JSON.stringify({ ...lowDimValues(r), batch_key: key })),
    );
  }
  // The heavy hitters, sketches and peaks (aggregate-sketch-clickhouse-store.ts), before the ledger row.
  await ingestSketchesClickHouse(io, batch, key, there);
  for (const r of batch.collapsed) {
    if (!(r.minute >= from && r.minute <= to)) throw new Error('ingest: a collapsed record of no minute record');
  }
  const storedCollapsed = batch.collapsed.length > 0 ? await there('collapsed_blocks') : new Set<number>();
  const collapsed = batch.collapsed.filter((r) => !storedCollapsed.has(r.siteId));
  if (collapsed.length > 0) await io.insert('collapsed_blocks', collapsedJsonRows(collapsed, key));
  // The ledger row last, stamped now (as the events' ledger): log push reads the collapsed records by it.
  await io.insert('agg_batches', [
    JSON.stringify({
      ingested_at: Date.now(),
      batch_key: key,
      batch_id: batch.batchId,
      node_id: batch.nodeId,
      received_at: batch.receivedAt,
      dropped: batch.dropped,
      records: batch.counters.length,
    }),
  ]);
  return { stored, duplicate: false };
}
