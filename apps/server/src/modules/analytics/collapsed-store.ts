import type { DuckDBConnection } from '@duckdb/node-api';
import type { CollapsedRow } from './analytics-store.js';
import { appendEvent } from './duckdb-events.js';
import { CLICKHOUSE_EVENT_COLUMNS, checkEvent, EVENT_COLUMNS } from './event-columns.js';

/**
 * The refused floods the nodes collapse for the logs (routes/analytics-aggregates.ts
 * `collapsed`; docs/decisions "Collapsed floods in the logs"), in both stores: a table
 * `collapsed_blocks` of the events' columns (its sample request, so that the log search reads
 * both tables alike: log-search-store.ts) after four of its own (minute, requests, first_ms, last_ms). Rows come with their aggregate batch, exactly once:
 * DuckDB in the batch's transaction, ClickHouse in one INSERT with the batch's key (a retry finds
 * them by it, as the counters).
 */

export const COLLAPSED_DUCKDB_DDL =
  'CREATE TABLE IF NOT EXISTS collapsed_blocks (minute BIGINT NOT NULL, requests BIGINT NOT NULL, first_ms BIGINT NOT NULL, ' +
  `last_ms BIGINT NOT NULL, ${EVENT_COLUMNS.map(([, name, type]) => `${name} ${type} NOT NULL`).join(', ')})`;

/** The ClickHouse table, given how a column's UTC day is written (clickhouse-store.ts DAY_OF). */
export const collapsedClickHouseDdl = (dayOf: (column: string) => string): string =>
  'CREATE TABLE IF NOT EXISTS collapsed_blocks (minute Int64, requests Int64, first_ms Int64, last_ms Int64, ' +
  `${CLICKHOUSE_EVENT_COLUMNS.map((c) => `${c.name} ${c.type}`).join(', ')}, batch_key UInt64) ` +
  `ENGINE = MergeTree() PARTITION BY ${dayOf('minute')} ORDER BY (site_id, minute)`;

/** A collapsed record holds integers where the tables do, and an event's checked values. */
export function checkCollapsed(r: CollapsedRow): void {
  for (const n of [r.minute, r.count, r.firstMs, r.lastMs]) {
    if (!Number.isSafeInteger(n) || n < 0) throw new Error('ingest: a collapsed record holds integers');
  }
  checkEvent(r);
}

/** Appends a batch's collapsed rows (inside the caller's transaction). */
export async function appendCollapsedDuckDb(db: DuckDBConnection, rows: readonly CollapsedRow[]): Promise<void> {
  if (rows.length === 0) return;
  const appender = await db.createAppender('collapsed_blocks');
  for (const r of rows) {
    checkCollapsed(r);
    appender.appendBigInt(BigInt(r.minute));
    appender.appendBigInt(BigInt(r.count));
    appender.appendBigInt(BigInt(r.firstMs));
    appender.appendBigInt(BigInt(r.lastMs));
    appendEvent(appender, r);
  }
  appender.closeSync();
}
