import type {
  AggregateDimRow,
  AggregateHighRow,
  AggregateSketchRow,
  CollapsedRow,
  StoredAggregateBatch,
} from './analytics-store.js';
import { eventTsv, tsvField } from './clickhouse-tsv.js';
import { CLICKHOUSE_EVENT_COLUMNS } from './event-columns.js';
import { DIM_COUNTERS, ROLLUP_COUNTERS } from './rollups.js';

/**
 * The nodes' aggregate rows as TabSeparated rows for the ClickHouse store
 * (aggregate-clickhouse-store.ts), each table's INSERT naming its columns in the order written.
 * TabSeparated, not JSONEachRow: no column name repeated in every row, so about half the bytes to
 * join, encode, send and parse, and no object or JSON.stringify per row (the events' rows went
 * the same way: clickhouse-tsv.ts). The integers are checked before (the store's checks); the
 * strings escaped (tsvField).
 */

const PLACE = 'minute, site_id, domain_id, zone_id';
/** The events' columns, in the order eventTsv writes them. */
const EVENT_TSV_COLUMNS = CLICKHOUSE_EVENT_COLUMNS.map((c) => c.name).join(', ');

/** A table the aggregates write: its INSERT's target, the rows of a batch it takes and a row's text. */
export interface AggregateTsvTable<R extends { siteId: number; minute: number }> {
  table: string;
  /** The table and its columns, in the order `row` writes them. */
  target: string;
  pick: (b: StoredAggregateBatch) => readonly R[];
  row: (r: R, key: string) => string;
}

const place = (r: { minute: number; siteId: number; domainId: number; zoneId: number }) =>
  `${r.minute}\t${r.siteId}\t${r.domainId}\t${r.zoneId}`;

const counts = (r: AggregateDimRow) => {
  let out = '';
  for (let i = 0; i < DIM_COUNTERS.length; i++) out += `\t${r.counts[i] ?? 0}`;
  return out;
};

const dimRow = (r: AggregateDimRow) => `${place(r)}\t${tsvField(r.dim)}\t${tsvField(r.value)}${counts(r)}`;

const table = <R extends { siteId: number; minute: number }>(t: AggregateTsvTable<R>) =>
  t as unknown as AggregateTsvTable<{ siteId: number; minute: number }>;

/** The minute counters (their views make the time rollups). */
export const COUNTERS_TSV = table({
  table: 'agg_counters',
  target: `agg_counters (${PLACE}, ${ROLLUP_COUNTERS.join(', ')}, batch_key)`,
  pick: (b) => b.counters,
  row: (r, key) => `${place(r)}\t${r.counters.join('\t')}\t${key}`,
});

/**
 * The tables after the counters, in the order written (each before the batch's ledger row): the
 * low dimensions, the heavy hitters, the sketches and peaks, the collapsed floods.
 */
export const AGGREGATE_TSV_TABLES = [
  table({
    table: 'agg_lowdims',
    target: `agg_lowdims (${PLACE}, dim, value, ${DIM_COUNTERS.join(', ')}, batch_key)`,
    pick: (b) => b.lowDims,
    row: (r: AggregateDimRow, key) => `${dimRow(r)}\t${key}`,
  }),
  table({
    table: 'agg_highdims',
    target: `agg_highdims (${PLACE}, dim, value, ${DIM_COUNTERS.join(', ')}, error, batch_key)`,
    pick: (b) => b.highDims,
    row: (r: AggregateHighRow, key) => `${dimRow(r)}\t${r.error}\t${key}`,
  }),
  table({
    table: 'agg_sketches',
    target:
      `agg_sketches (${PLACE}, requests, bytes_out, peak_requests, peak_bytes, ips, blocked_ips, blacklisted_ips, ` +
      'request_ms, upstream_ms, batch_key)',
    pick: (b) => b.sketches,
    row: (r: AggregateSketchRow, key) =>
      [
        place(r),
        r.requests,
        r.bytesOut,
        r.peakRequests,
        r.peakBytes,
        tsvField(r.ips),
        tsvField(r.blockedIps),
        tsvField(r.blacklistedIps),
        tsvField(r.requestMs),
        tsvField(r.upstreamMs),
        key,
      ].join('\t'),
  }),
  table({
    table: 'collapsed_blocks',
    target: `collapsed_blocks (minute, requests, first_ms, last_ms, ${EVENT_TSV_COLUMNS}, batch_key)`,
    pick: (b) => b.collapsed,
    row: (r: CollapsedRow, key) => `${r.minute}\t${r.count}\t${r.firstMs}\t${r.lastMs}\t${eventTsv(r)}\t${key}`,
  }),
];
