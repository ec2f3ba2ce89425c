import { checkSketchRows, SKETCH_DATED_TABLES, sketchDdl } from './aggregate-sketch-clickhouse-store.js';
import type { IngestResult, Row, StoredAggregateBatch } from './analytics-store.js';
import { AGGREGATE_TSV_TABLES, type AggregateTsvTable, COUNTERS_TSV } from './clickhouse-aggregate-tsv.js';
import { checkCollapsed, collapsedClickHouseDdl } from './collapsed-store.js';
import { DIM_COUNTERS, ROLLUP_COUNTERS } from './rollups.js';

/**
 * The ClickHouse store's part of the nodes' aggregates (routes/analytics-aggregates.ts), built as
 * the events are (clickhouse-store.ts): a batch's minute counters go into `agg_counters` with one
 * INSERT (one block: all its rows or none), and materialized views over that table write them into
 * the time rollups (SummingMergeTree: partial rows that sum with the events' own); then the batch
 * goes into its ledger `agg_batches`. A batch whose ledger row is there is a duplicate; one whose
 * rows are in `agg_counters` without a ledger row (an attempt cut short after its INSERT) gets
 * only the rows of the parts (site and UTC day) not there yet, then its ledger row, so its counters
 * count once — a block is written as one part per partition (a day), so rows across midnight go
 * in one INSERT per day (insertByDay), and on a cluster the INSERT through the Distributed table
 * is one block per shard, a site's rows on one shard (clickhouse-layout-store.ts): a cut may leave
 * some sites' or days' rows and not others'. Its low-cardinality dimensions go the same way
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
  /** `format`: JSONEachRow unless named. */
  insert(target: string, rows: readonly string[], format?: string): Promise<unknown>;
}

/** Seconds in a UTC day: the tables' partitions (clickhouse-schema-store.ts DAY_OF). */
const DAY_S = 86_400;

/**
 * Where a row's part goes: its site and UTC day (`time` in seconds). An INSERT writes one part per
 * partition (a day), and a retry must find each part, not each site: a site's rows of two days are
 * two parts, and a cut may leave one without the other.
 */
export const sitePart = (siteId: number, time: number): string => `${siteId}|${Math.floor(time / DAY_S)}`;

/** The (site, day) parts (sitePart) of a query's rows `s` (site) and `d` (the day, intDiv(time, 86400)). */
const partsOfRows = (rows: readonly Row[]) => rows.map((r) => `${Number(r.s)}|${Number(r.d)}`);

/**
 * The parts (sitePart) whose rows of the batch keyed `key` are in `table` already, read within the
 * batch's times (`column` from `from` to `to`, so within its partitions).
 */
export async function storedParts(
  io: ClickHouseIo,
  table: string,
  column: string,
  from: number,
  to: number,
  key: string,
): Promise<Set<string>> {
  const rows = await io.select(
    `SELECT DISTINCT site_id AS s, intDiv(${column}, ${DAY_S}) AS d FROM ${table} ` +
      `WHERE ${column} >= ${from} AND ${column} <= ${to} AND batch_key = ${key}`,
  );
  return new Set(partsOfRows(rows));
}

/**
 * The parts (sitePart) whose rows of each batch (keyed `keys`) are in `table` already, per key,
 * read within the group's times (as storedParts).
 */
async function storedPartsOf(
  io: ClickHouseIo,
  table: string,
  from: number,
  to: number,
  keys: readonly string[],
): Promise<Map<string, Set<string>>> {
  const rows = await io.select(
    // The key as text: a UInt64 past 2^53 is not a JavaScript number.
    `SELECT DISTINCT toString(batch_key) AS k, site_id AS s, intDiv(minute, ${DAY_S}) AS d FROM ${table} ` +
      `WHERE minute >= ${from} AND minute <= ${to} AND batch_key IN (${keys.join(', ')})`,
  );
  const out = new Map<string, Set<string>>();
  for (const [i, part] of partsOfRows(rows).entries()) {
    const key = String(rows[i]?.k);
    const parts = out.get(key) ?? new Set<string>();
    out.set(key, parts);
    parts.add(part);
  }
  return out;
}

/**
 * Rows into `table`, one INSERT per UTC day (`byDay`: each day's rows), earliest first: each
 * INSERT one part of the table (and its views' parts), so that a cut leaves whole days' parts,
 * which a retry finds (storedParts) and does not write again.
 */
export async function insertByDay(
  io: ClickHouseIo,
  table: string,
  byDay: ReadonlyMap<number, string[]>,
  format?: string,
): Promise<void> {
  for (const day of [...byDay.keys()].sort((a, b) => a - b)) {
    const rows = byDay.get(day) as string[];
    if (rows.length > 0) await io.insert(table, rows, format);
  }
}

/** `row` added to its day's rows (`time` in seconds). */
export function addByDay(byDay: Map<number, string[]>, time: number, row: string): void {
  const day = Math.floor(time / DAY_S);
  const rows = byDay.get(day);
  if (rows) rows.push(row);
  else byDay.set(day, [row]);
}

/** A batch of a group with its key. */
export interface KeyedAggregateBatch {
  batch: StoredAggregateBatch;
  key: string;
}

/**
 * A group of batches (the store's BatchGroups: one group at a time, so a batch sent again while
 * its first attempt is under way waits for it and finds it in the ledger), each taken once: those
 * in the ledger, or twice in the group, answered as duplicates; the others' rows written with one
 * INSERT per table (each row with its batch's key), but a batch's sites already in a table (an
 * attempt cut short) left out of it; then their ledger rows in one INSERT. The group's rows are
 * bounded (BatchGroups' most) so that each INSERT is one block.
 */
export async function ingestAggregatesClickHouse(
  io: ClickHouseIo,
  group: readonly KeyedAggregateBatch[],
): Promise<IngestResult[]> {
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const { batch } of group) {
    for (const n of [batch.nodeId, batch.receivedAt, batch.dropped]) {
      if (!Number.isSafeInteger(n)) throw new Error('ingest: node, time and dropped must be integers');
    }
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const r of batch.counters) {
      for (const n of [r.minute, r.siteId, r.domainId, r.zoneId, ...r.counters]) {
        if (!Number.isSafeInteger(n)) throw new Error('ingest: aggregate rows hold integers');
      }
      if (r.counters.length !== ROLLUP_COUNTERS.length) throw new Error('ingest: an aggregate row holds every counter');
      first = Math.min(first, r.minute);
      last = Math.max(last, r.minute);
    }
    for (const r of batch.lowDims) {
      for (const n of [r.minute, r.siteId, r.domainId, r.zoneId, ...r.counts]) {
        if (!Number.isSafeInteger(n)) throw new Error('ingest: aggregate rows hold integers');
      }
      if (r.minute < first || r.minute > last) throw new Error('ingest: a dimension row of no minute record');
    }
    // A batch's collapsed records may be of minutes whose records went in an earlier batch (the
    // agent fills a batch with minute records, then collapsed ones): the reads cover them too.
    for (const r of batch.collapsed) {
      checkCollapsed(r);
      first = Math.min(first, r.minute);
      last = Math.max(last, r.minute);
    }
    checkSketchRows(batch);
    from = Math.min(from, first);
    to = Math.max(to, last);
  }
  const keys = [...new Set(group.map((g) => g.key))];
  const taken = new Set(
    (await io.select(`SELECT batch_id FROM agg_batches WHERE batch_key IN (${keys.join(', ')})`)).map((r) =>
      String(r.batch_id),
    ),
  );
  const results = group.map(({ batch }): IngestResult => {
    if (taken.has(batch.batchId)) return { stored: 0, duplicate: true };
    taken.add(batch.batchId);
    return { stored: 0, duplicate: false };
  });
  const fresh = group.filter((_, i) => !(results[i] as IngestResult).duplicate);
  if (fresh.length === 0) return results;
  const freshKeys = fresh.map((g) => g.key);
  const empty = new Set<string>();
  /**
   * The rows of `t` of every fresh batch whose part (site and day) is not in its table yet, as
   * TabSeparated (clickhouse-aggregate-tsv.ts), inserted a day at a time (insertByDay); answers
   * how many of each batch.
   */
  const write = async (t: AggregateTsvTable<{ siteId: number; minute: number }>): Promise<number[]> => {
    const any = fresh.some(({ batch }) => t.pick(batch).length > 0);
    const there = any && Number.isFinite(from) ? await storedPartsOf(io, t.table, from, to, freshKeys) : new Map();
    const byDay = new Map<number, string[]>();
    const per: number[] = [];
    for (const { batch, key } of fresh) {
      const stored = there.get(key) ?? empty;
      let n = 0;
      for (const r of t.pick(batch)) {
        if (stored.has(sitePart(r.siteId, r.minute))) continue;
        addByDay(byDay, r.minute, t.row(r, key));
        n++;
      }
      per.push(n);
    }
    await insertByDay(io, t.target, byDay, 'TabSeparated');
    return per;
  };
  const counters = await write(COUNTERS_TSV);
  // The low dimensions, heavy hitters, sketches and peaks, collapsed floods, before the ledger rows.
  for (const t of AGGREGATE_TSV_TABLES) await write(t);
  // The ledger rows last, stamped now (as the events' ledger): log push reads the collapsed records by it.
  const now = Date.now();
  await io.insert(
    'agg_batches',
    fresh.map(({ batch, key }) =>
      JSON.stringify({
        ingested_at: now,
        batch_key: key,
        batch_id: batch.batchId,
        node_id: batch.nodeId,
        received_at: batch.receivedAt,
        dropped: batch.dropped,
        records: batch.counters.length,
      }),
    ),
  );
  let i = 0;
  for (const [n, result] of results.entries()) {
    if (result.duplicate) continue;
    results[n] = { stored: counters[i] ?? 0, duplicate: false };
    i++;
  }
  return results;
}
