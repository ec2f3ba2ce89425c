import type { DuckDBAppender } from '@duckdb/node-api';
import type { AggregateDimRow } from './analytics-store.js';
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

/** A row's values by column name (JSON rows, appenders). */
export function lowDimValues(r: AggregateDimRow): Record<string, number | string> {
  const out: Record<string, number | string> = {
    minute: r.minute,
    site_id: r.siteId,
    domain_id: r.domainId,
    zone_id: r.zoneId,
    dim: r.dim,
    value: r.value,
  };
  for (const [i, c] of DIM_COUNTERS.entries()) out[c] = r.counts[i] ?? 0;
  return out;
}

/** Appends a dimension row's place, dimension, value and DIM_COUNTERS (DuckDB's staging tables of low and high dimensions); the row is not ended. */
export function appendDimRow(appender: DuckDBAppender, r: AggregateDimRow): void {
  appender.appendBigInt(BigInt(r.minute));
  appender.appendInteger(r.siteId);
  appender.appendInteger(r.domainId);
  appender.appendInteger(r.zoneId);
  appender.appendVarchar(r.dim);
  appender.appendVarchar(r.value);
  for (let i = 0; i < DIM_COUNTERS.length; i++) appender.appendBigInt(BigInt(r.counts[i] ?? 0));
}
