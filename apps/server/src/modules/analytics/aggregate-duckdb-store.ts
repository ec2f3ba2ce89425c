import type { DuckDBConnection } from '@duckdb/node-api';
import { DIM_STAGING_COLUMNS, DIM_STAGING_NAMES } from './aggregate-lowdims-store.js';
import {
  AGGREGATE_HIGH_HOURS,
  ingestSketchesDuckDb,
  PRUNE_SKETCHES,
  type SiteIpsMarks,
  SKETCH_DDL,
  SKETCH_STAGING_DDL,
} from './aggregate-sketch-duckdb-store.js';
import type { IngestResult, StoredAggregateBatch } from './analytics-store.js';
import { appendCollapsedDuckDb, COLLAPSED_DUCKDB_DDL } from './collapsed-store.js';
import { appendColumns, columnsSql } from './duckdb-columns.js';
import { appendLedger, ledgerCheck } from './duckdb-ledger-store.js';
import { DIM_COUNTERS, ROLLUP_COUNTERS } from './rollups.js';

/**
 * The DuckDB store's part of the nodes' aggregates (routes/analytics-aggregates.ts): a batch's
 * minute counters land in a temporary table, are summed into the time rollups as partial rows (as
 * a group of events is, duckdb-store.ts FROM_STAGING), and the batch goes into its ledger
 * `agg_batches`, all in one transaction on the writer connection: there whole or not at all, a
 * batch sent again found in the ledger. Its low-cardinality dimensions go into `agg_lowdims`
 * (aggregate-lowdims-store.ts) and, for hours whose dimensions are built already, into lowdims_1h
 * as partial rows (as late events' are: the store merges them in its upkeep). Its collapsed floods
 * go into `collapsed_blocks` (collapsed-store.ts) in the same transaction.
 */

const LOW_COUNTERS = DIM_COUNTERS.map((c) => `${c} BIGINT NOT NULL`).join(', ');
const LOW_COLUMNS = `minute BIGINT NOT NULL, site_id INTEGER NOT NULL, domain_id INTEGER NOT NULL, zone_id INTEGER NOT NULL,
  dim VARCHAR NOT NULL, value VARCHAR NOT NULL, ${LOW_COUNTERS}`;
const LOW_SUMS = DIM_COUNTERS.map((c) => `sum(${c})::BIGINT`).join(', ');
/** The staged low dimensions into agg_lowdims, a row per minute, place, dimension and value. */
const LOW_MERGED = `INSERT INTO agg_lowdims SELECT minute, site_id, domain_id, zone_id, dim, value, ${LOW_SUMS}
  FROM agg_low_staging GROUP BY minute, site_id, domain_id, zone_id, dim, value`;
/** agg_lowdims's rows of `where` summed by the hour, as rows of lowdims_1h (no address: ip4 NULL). */
const LOW_HOURS = (source: string) =>
  `INSERT INTO lowdims_1h SELECT (minute // 3600) * 3600 AS b, site_id, domain_id, zone_id, dim, value, ${LOW_SUMS}, NULL
   FROM ${source} GROUP BY b, site_id, domain_id, zone_id, dim, value`;
/**
 * The hours [from, to) of the aggregates' low dimensions into lowdims_1h, and of their heavy
 * hitters into dims_1h (`ip4`: the store's `ip4` column of a row, over `dim` and `value`), as
 * the store builds them from events.
 */
export const AGGREGATE_HOURS = (from: number, to: number, ip4: string) => [
  LOW_HOURS(`agg_lowdims WHERE minute >= ${from} AND minute < ${to}`),
  AGGREGATE_HIGH_HOURS(from, to, ip4),
];

/**
 * The ledger of aggregate batches taken (pruned with the events' ledger); `ingested_at` as the
 * events' ledger has it (unix ms, stamped just before the commit): log push reads the collapsed
 * records in that order (store/log-push-reads.ts). Added on open to a ledger from before it.
 */
export const AGGREGATE_DDL = [
  `CREATE TABLE IF NOT EXISTS agg_batches (batch_id VARCHAR PRIMARY KEY, node_id INTEGER NOT NULL,
     received_at BIGINT NOT NULL, dropped BIGINT NOT NULL, records INTEGER NOT NULL)`,
  'ALTER TABLE agg_batches ADD COLUMN IF NOT EXISTS ingested_at BIGINT DEFAULT 0',
  `CREATE TABLE IF NOT EXISTS agg_lowdims (${LOW_COLUMNS})`,
  ...SKETCH_DDL,
  COLLAPSED_DUCKDB_DDL,
];

/** A batch's counters and low dimensions before they are summed (temporary: never in the write-ahead log). */
export const AGGREGATE_STAGING_DDL = [
  `CREATE TEMP TABLE IF NOT EXISTS agg_staging (minute BIGINT NOT NULL,
  site_id INTEGER NOT NULL, domain_id INTEGER NOT NULL, zone_id INTEGER NOT NULL, ${ROLLUP_COUNTERS.map((c) => `${c} BIGINT NOT NULL`).join(', ')})`,
  `CREATE TEMP TABLE IF NOT EXISTS agg_low_staging (${columnsSql(DIM_STAGING_NAMES, DIM_STAGING_COLUMNS)})`,
  ...SKETCH_STAGING_DDL,
];

const SUMS = ROLLUP_COUNTERS.map((c) => `sum(${c})::BIGINT`).join(', ');
const ROLLUP_FROM_STAGING = (table: string, unit: number, site = false) =>
  `INSERT INTO ${table} SELECT (minute // ${unit}) * ${unit} AS b, site_id, ${site ? '0, 0' : 'domain_id, zone_id'}, ${SUMS}
   FROM agg_staging GROUP BY b, site_id${site ? '' : ', domain_id, zone_id'}`;
const FROM_STAGING = [
  ROLLUP_FROM_STAGING('rollup_1m', 60),
  ROLLUP_FROM_STAGING('rollup_5m', 300),
  ROLLUP_FROM_STAGING('rollup_1h', 3600),
  ROLLUP_FROM_STAGING('rollup_1d', 86_400),
  ROLLUP_FROM_STAGING('siterollup_5m', 300, true),
  'DELETE FROM agg_staging',
];

/** The first second the dimensions hold: of the events or of the aggregates' low dimensions (null: neither). */
export const FIRST_SECOND =
  'SELECT min(t) AS ts FROM (SELECT min(ts) AS t FROM events UNION ALL SELECT min(minute) FROM agg_lowdims)';

/**
 * The ledger rows older than `ledger`, the minutes' low dimensions and heavy hitters older than
 * `raw` (as raw events, and the collapsed records), their sketches older than `rollup` (as the rollups), unix seconds.
 */
export const PRUNE_AGGREGATES = (ledger: number, raw: number, rollup: number) => [
  `DELETE FROM agg_batches WHERE received_at < ${ledger}`,
  `DELETE FROM agg_lowdims WHERE minute < ${raw}`,
  ...PRUNE_SKETCHES(raw, rollup),
  `DELETE FROM collapsed_blocks WHERE minute < ${raw}`,
];

/** The group's rows as one batch's (its arrays joined), for the one pass over them. */
function joined(batches: readonly StoredAggregateBatch[]): StoredAggregateBatch {
  const all: StoredAggregateBatch = { ...(batches[0] as StoredAggregateBatch) };
  for (const key of ['counters', 'lowDims', 'highDims', 'sketches', 'collapsed'] as const) {
    const rows: unknown[] = [];
    for (const b of batches) for (const r of b[key]) rows.push(r);
    (all as unknown as Record<string, unknown[]>)[key] = rows;
  }
  return all;
}

/**
 * Takes a group of batches, each once, on the writer connection in one transaction (the store
 * serialises the calls and groups the batches waiting: BatchGroups): those in the ledger, or
 * sent twice within the group, answered as duplicates; the others' rows written together, the
 * dimension rows of the same minute, place, dimension and value summed into one (the reads sum
 * them anyway: a hundred nodes' minutes of a site share most values), and a ledger row for each.
 * `built`: the store's dimsRolledTo; `ip4` its `ip4` column of a dimension row
 * (aggregate-sketch-duckdb-store.ts). Adds to `late` the hours and days of the dimension tables it
 * added partial rows to (for the upkeep), and calls its siteIpsPartial when it added partial rows to
 * siteips (of the days `late.siteIps` says it holds).
 */
export async function ingestAggregatesDuckDb(
  db: DuckDBConnection,
  batches: readonly StoredAggregateBatch[],
  built: number,
  ip4: string,
  late: { hours: Set<number>; days: Set<number>; siteIps: SiteIpsMarks; siteIpsPartial: () => void },
): Promise<IngestResult[]> {
  await db.run('BEGIN TRANSACTION');
  try {
    const { results, fresh } = await ledgerCheck(db, 'agg_batches', batches, (b) => b.counters.length);
    if (fresh.length === 0) {
      await db.run('ROLLBACK');
      return results;
    }
    const batch = fresh.length === 1 ? (fresh[0] as StoredAggregateBatch) : joined(fresh);
    if (batch.counters.length > 0) {
      const appender = await db.createAppender('agg_staging');
      for (const r of batch.counters) {
        appender.appendBigInt(BigInt(r.minute));
        appender.appendInteger(r.siteId);
        appender.appendInteger(r.domainId);
        appender.appendInteger(r.zoneId);
        for (let i = 0; i < ROLLUP_COUNTERS.length; i++) appender.appendBigInt(BigInt(r.counters[i] ?? 0));
        appender.endRow();
      }
      appender.closeSync();
      for (const statement of FROM_STAGING) await db.run(statement);
    }
    const lateHours = new Set<number>();
    if (batch.lowDims.length > 0) {
      await appendColumns(db, 'agg_low_staging', DIM_STAGING_COLUMNS, batch.lowDims, 'temp');
      for (const r of batch.lowDims) if (r.minute < built) lateHours.add(r.minute - (r.minute % 3600));
      await db.run(LOW_MERGED);
      if (lateHours.size > 0) await db.run(LOW_HOURS(`agg_low_staging WHERE minute < ${built}`));
      await db.run('DELETE FROM agg_low_staging');
    }
    // The heavy hitters, sketches and peaks (aggregate-sketch-duckdb-store.ts).
    const sketches = await ingestSketchesDuckDb(db, batch, built, ip4, late.siteIps);
    for (const hour of sketches.lateHours) lateHours.add(hour);
    await appendCollapsedDuckDb(db, batch.collapsed);
    await appendLedger(db, 'agg_batches', fresh, (b) => b.counters.length);
    await db.run('COMMIT');
    for (const hour of lateHours) late.hours.add(hour);
    for (const day of sketches.lateDays) late.days.add(day);
    if (sketches.siteIpsPartial) late.siteIpsPartial();
    return results;
  } catch (error) {
    await db.run('ROLLBACK').catch(() => {});
    throw error;
  }
}
