import type { AggregateDimRow } from './analytics-store.js';
import type { DuckDbColumn } from './duckdb-columns.js';
import { DIM_COUNTERS } from './rollups.js';

/**
 * The low-cardinality dimensions of the nodes' aggregates, per minute (`agg_lowdims`, both stores):
 * the rows of a batch's minute records (status, method, HTTP version, scheme, country, city, file
 * type: exact counts), summed into lowdims_1h by the hour as the events' are — DuckDB when it
 * builds an hour (rollDims) or at once for an hour built already, ClickHouse in a view — and read
 * beside the raw events wherever the statistics read those (the partial hours at a range's ends,
 * short ranges): a minute counts in a range when it starts in it.
 */

/** Columns after the key (`minute`, site, domain, zone): the dimension, its value and DIM_COUNTERS. */
export const LOW_DIM_COLUMNS = ['dim', 'value', ...DIM_COUNTERS] as const;

/** The rows of `dim` in agg_lowdims matching `where` (over `minute`), as the statistics' raw rows. */
export const aggregateLowRows = (dim: string, where: string): string =>
  `SELECT value, requests, bytes_out, blocked, blacklisted, waf FROM agg_lowdims WHERE dim = '${dim}' AND ${where}`;

/** A dimension row's columns in DuckDB's staging tables: its place, dimension, value and DIM_COUNTERS. */
export const DIM_STAGING_COLUMNS: readonly DuckDbColumn<AggregateDimRow>[] = [
  ['BIGINT', (r) => BigInt(r.minute)],
  ['INTEGER', (r) => r.siteId],
  ['INTEGER', (r) => r.domainId],
  ['INTEGER', (r) => r.zoneId],
  ['VARCHAR', (r) => r.dim],
  ['VARCHAR', (r) => r.value],
  ...DIM_COUNTERS.map((_, i): DuckDbColumn<AggregateDimRow> => ['DOUBLE', (r) => r.counts[i] ?? 0]),
];

/** Their names, in that order. */
export const DIM_STAGING_NAMES = [
  'minute',
  'site_id',
  'domain_id',
  'zone_id',
  'dim',
  'value',
  ...DIM_COUNTERS,
] as const;
