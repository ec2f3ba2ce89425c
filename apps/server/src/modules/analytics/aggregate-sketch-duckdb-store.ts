import type { DuckDBConnection } from '@duckdb/node-api';
import { DIM_STAGING_COLUMNS, DIM_STAGING_NAMES } from './aggregate-lowdims-store.js';
import type { AggregateHighRow, StoredAggregateBatch } from './analytics-store.js';
import { appendColumns, columnsSql, type DuckDbColumn } from './duckdb-columns.js';
import { SITE_IP_DECISIONS, SITE_IP_ROWS } from './duckdb-site-ips-store.js';
import { DIM_COUNTERS } from './rollups.js';

/**
 * The DuckDB store's part of the nodes' heavy hitters, sketches and peaks (aggregate-sketch-rows.ts),
 * taken in the transaction of the batch's counters (aggregate-duckdb-store.ts):
 *
 * - `agg_highdims`: a row per listed value of each minute record's heavy hitters (URL, referer,
 *   user agent, address), kept as long as raw events and read beside them wherever the statistics
 *   read raw events; summed by the hour into dims_1h when the store builds an hour (and so into
 *   dims_1d, sitedims_1d and siteips, which are built from dims_1h), or at once as partial rows
 *   into dims_1h (and dims_1d, sitedims_1d for built days) for an hour built already;
 * - `agg_sketches`: a row per minute record — its distinct-address sketches, time histograms and
 *   per-second peaks (contract JSON), with its requests and bytes — kept as long as the rollups.
 */

const COUNTS = DIM_COUNTERS.map((c) => `${c} BIGINT NOT NULL`).join(', ');
const KEY = 'minute BIGINT NOT NULL, site_id INTEGER NOT NULL, domain_id INTEGER NOT NULL, zone_id INTEGER NOT NULL';
const HIGH_COLUMNS = `${KEY}, dim VARCHAR NOT NULL, value VARCHAR NOT NULL, ${COUNTS}, error BIGINT NOT NULL`;
/** agg_sketches's columns after the key, in the appender's order. */
export const SKETCH_COLUMNS = [
  'requests',
  'bytes_out',
  'peak_requests',
  'peak_bytes',
  'ips',
  'blocked_ips',
  'blacklisted_ips',
  'request_ms',
  'upstream_ms',
] as const;

export const SKETCH_DDL = [
  `CREATE TABLE IF NOT EXISTS agg_highdims (${HIGH_COLUMNS})`,
  `CREATE TABLE IF NOT EXISTS agg_sketches (${KEY}, requests BIGINT NOT NULL, bytes_out BIGINT NOT NULL,
     peak_requests BIGINT NOT NULL, peak_bytes BIGINT NOT NULL, ips VARCHAR NOT NULL, blocked_ips VARCHAR NOT NULL,
     blacklisted_ips VARCHAR NOT NULL, request_ms VARCHAR NOT NULL, upstream_ms VARCHAR NOT NULL)`,
];
/** A heavy hitter's columns in the staging table: a dimension row's and its error bound. */
const HIGH_STAGING_COLUMNS: readonly DuckDbColumn<AggregateHighRow>[] = [
  ...DIM_STAGING_COLUMNS,
  ['DOUBLE', (r) => r.error],
];
export const SKETCH_STAGING_DDL = [
  `CREATE TEMP TABLE IF NOT EXISTS agg_high_staging (${columnsSql([...DIM_STAGING_NAMES, 'error'], HIGH_STAGING_COLUMNS)})`,
];

const SUMS = DIM_COUNTERS.map((c) => `sum(${c})::BIGINT`).join(', ');
/**
 * Rows of `source` (agg_highdims's columns) summed into `table` by `unit` seconds, as rows of the
 * dimension tables; `ip4`: the store's `ip4` column of a row (over `dim` and `value`).
 */
const HIGH_INTO = (table: string, unit: number, source: string, ip4: string, site = false) =>
  `INSERT INTO ${table} SELECT (minute // ${unit}) * ${unit} AS b, site_id, ${site ? '0, 0' : 'domain_id, zone_id'}, dim, value, ${SUMS},
     ${ip4} FROM ${source} GROUP BY b, site_id, ${site ? '' : 'domain_id, zone_id, '}dim, value`;

/** The hours [from, to) of the aggregates' heavy hitters into dims_1h, as the store builds them from events. */
export const AGGREGATE_HIGH_HOURS = (from: number, to: number, ip4: string) =>
  HIGH_INTO('dims_1h', 3600, `agg_highdims WHERE minute >= ${from} AND minute < ${to}`, ip4);

/** The heavy hitters older than `raw` (as raw events), the sketches older than `rollup` (as the rollups). */
export const PRUNE_SKETCHES = (raw: number, rollup: number) => [
  `DELETE FROM agg_highdims WHERE minute < ${raw}`,
  `DELETE FROM agg_sketches WHERE minute < ${rollup}`,
];

/** What siteips holds ([from, to) of its masks, as DuckDbStore.siteAddresses; null: nothing yet). */
export type SiteIpsMarks = { from: number; to: number } | null;

/**
 * A batch's heavy hitters and sketches, in its transaction: `hours` (dimsRolledTo) and `days`
 * (its whole day) say what is built already, `siteIps` what siteips holds; answers the hours and
 * days it added partial rows to, and whether it added partial rows to siteips.
 */
export async function ingestSketchesDuckDb(
  db: DuckDBConnection,
  batch: StoredAggregateBatch,
  hours: number,
  ip4: string,
  siteIps: SiteIpsMarks,
): Promise<{ lateHours: Set<number>; lateDays: Set<number>; siteIpsPartial: boolean }> {
  const lateHours = new Set<number>();
  const lateDays = new Set<number>();
  let siteIpsPartial = false;
  const days = hours - (hours % 86_400);
  if (batch.highDims.length > 0) {
    await appendColumns(db, 'agg_high_staging', HIGH_STAGING_COLUMNS, batch.highDims, 'temp');
    for (const r of batch.highDims) {
      if (r.minute < hours) lateHours.add(r.minute - (r.minute % 3600));
      if (r.minute < days) lateDays.add(r.minute - (r.minute % 86_400));
      if (siteIps && r.dim === 'ip' && r.minute < siteIps.to && r.minute >= siteIps.from) siteIpsPartial = true;
    }
    // A row per minute, place, dimension and value (a group's batches summed: the reads sum them).
    await db.run(
      `INSERT INTO agg_highdims SELECT minute, site_id, domain_id, zone_id, dim, value, ${SUMS}, sum(error)::BIGINT
       FROM agg_high_staging GROUP BY minute, site_id, domain_id, zone_id, dim, value`,
    );
    if (lateHours.size > 0) await db.run(HIGH_INTO('dims_1h', 3600, `agg_high_staging WHERE minute < ${hours}`, ip4));
    if (lateDays.size > 0) {
      const late = `agg_high_staging WHERE minute < ${days}`;
      await db.run(HIGH_INTO('dims_1d', 86_400, late, ip4));
      await db.run(HIGH_INTO('sitedims_1d', 86_400, late, ip4, true));
    }
    // Addresses of hours siteips holds already (it takes only the hours built after its mark
    // from dims_1h): partial rows of siteips, merged in compact, as late events' are.
    if (siteIps && siteIpsPartial) {
      await db.run(
        `INSERT INTO siteips ${SITE_IP_ROWS(`(SELECT site_id, value, ${ip4} AS ip4, minute AS bucket, requests, ${SITE_IP_DECISIONS.join(', ')}, bytes_out
           FROM agg_high_staging WHERE dim = 'ip' AND minute < ${siteIps.to} AND minute >= ${siteIps.from})`)}`,
      );
      await db.run(`INSERT OR REPLACE INTO rolled VALUES ('siteips', 1)`);
    }
    await db.run('DELETE FROM agg_high_staging');
  }
  if (batch.sketches.length > 0) {
    const appender = await db.createAppender('agg_sketches');
    for (const r of batch.sketches) {
      appender.appendBigInt(BigInt(r.minute));
      appender.appendInteger(r.siteId);
      appender.appendInteger(r.domainId);
      appender.appendInteger(r.zoneId);
      for (const n of [r.requests, r.bytesOut, r.peakRequests, r.peakBytes]) appender.appendBigInt(BigInt(n));
      for (const text of [r.ips, r.blockedIps, r.blacklistedIps, r.requestMs, r.upstreamMs])
        appender.appendVarchar(text);
      appender.endRow();
    }
    appender.closeSync();
  }
  return { lateHours, lateDays, siteIpsPartial };
}
