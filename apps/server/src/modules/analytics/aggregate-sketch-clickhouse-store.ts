import type { StoredAggregateBatch } from './analytics-store.js';
import { DIM_COUNTERS } from './rollups.js';

/**
 * The ClickHouse store's part of the nodes' heavy hitters, sketches and peaks
 * (aggregate-sketch-rows.ts), as aggregate-sketch-duckdb.ts's for DuckDB: `agg_highdims` (a row
 * per listed value of each minute record's heavy hitters, pruned with raw events) with views that
 * sum it into dims_1h, dims_1d and sitedims_1d as the events' views do; `agg_sketches` (a row per
 * minute record: distinct-address sketches, time histograms, per-second peaks; pruned with the
 * rollups). Each goes in (clickhouse-aggregate-tsv.ts) with one INSERT carrying the batch key, before the batch's ledger row; a
 * retry after a cut finds its rows by that key and does not write them again.
 */

const COUNTS = DIM_COUNTERS.map((c) => `${c} Int64`).join(', ');
const KEY = 'minute Int64, site_id Int32, domain_id Int32, zone_id Int32';

/** A dimension table's view over agg_highdims; per whole site (domain and zone 0) with `site`. */
const HIGH_VIEW = (table: string, seconds: number, site = false) =>
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_aggh TO ${table} AS SELECT minute - minute % ${seconds} AS bucket, ` +
  `site_id, ${site ? 'toInt32(0) AS domain_id, toInt32(0) AS zone_id' : 'domain_id, zone_id'}, dim, value, ${DIM_COUNTERS.join(', ')} FROM agg_highdims`;

/** The tables and views, given how a column's UTC day is written (clickhouse-store.ts DAY_OF). */
export const sketchDdl = (dayOf: (column: string) => string): string[] => [
  `CREATE TABLE IF NOT EXISTS agg_highdims (${KEY}, dim String, value String, ${COUNTS}, error Int64, batch_key UInt64) ` +
    `ENGINE = MergeTree() PARTITION BY ${dayOf('minute')} ORDER BY (site_id, dim, minute)`,
  HIGH_VIEW('dims_1h', 3600),
  HIGH_VIEW('dims_1d', 86_400),
  HIGH_VIEW('sitedims_1d', 86_400, true),
  `CREATE TABLE IF NOT EXISTS agg_sketches (${KEY}, requests Int64, bytes_out Int64, peak_requests Int64, peak_bytes Int64, ` +
    'ips String, blocked_ips String, blacklisted_ips String, request_ms String, upstream_ms String, batch_key UInt64) ' +
    `ENGINE = MergeTree() PARTITION BY ${dayOf('minute')} ORDER BY (site_id, minute)`,
];

export const SKETCH_DATED_TABLES: readonly [string, string, 'raw' | 'rollup' | 'ledger'][] = [
  ['agg_highdims', 'minute', 'raw'],
  ['agg_sketches', 'minute', 'rollup'],
];

/** A batch's heavy hitters and sketches hold integers where the tables do (checked before any write). */
export function checkSketchRows(batch: StoredAggregateBatch): void {
  for (const r of [...batch.highDims, ...batch.sketches]) {
    const numbers = 'counts' in r ? [...r.counts, r.error] : [r.requests, r.bytesOut, r.peakRequests, r.peakBytes];
    for (const n of [r.minute, r.siteId, r.domainId, r.zoneId, ...numbers]) {
      if (!Number.isSafeInteger(n)) throw new Error('ingest: aggregate rows hold integers');
    }
  }
}
