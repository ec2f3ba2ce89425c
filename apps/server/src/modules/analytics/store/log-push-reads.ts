import type { LogPushFilters, LogPushType } from '@rampart/contract';
import type { AnalyticsStore, Row, SqlDialect } from '../analytics-store.js';
import { type LogRowPosition, type LogSearchParts, logRowsFrom } from '../log-search-store.js';
import { int, ints } from './statistics-sql.js';

/**
 * What log push reads of the analytics store (modules/log-push/log-push.source.ts; docs/decisions.md
 * "Log push"), in ingest order: the two ledgers — the events' `batches` and the aggregates'
 * `agg_batches`, each batch stamped `ingested_at` when the control plane wrote it — as one list by
 * (ingested_at, batch_id), then the events of an events batch and the collapsed records of an
 * aggregate batch (collapsed-store.ts), each by its `batch_id`. A manual push reads the log search's rows of a time range, oldest first
 * (log-search-store.ts), as exports do.
 */

/** What a push reads: its sites (already its owner's), zones, log type and filters. */
export interface PushScope {
  type: LogPushType;
  siteIds: readonly number[];
  zoneIds: readonly number[] | null;
  filters: LogPushFilters;
}

/** A batch of either ledger. */
export interface LedgerBatch {
  batch: string;
  ingestedAt: number;
  /** Events: the first event's time (unix seconds), which bounds the events read; aggregates: when taken. */
  receivedAt: number;
  /** Events, or minute records, the batch holds (what fills a push batch). */
  records: number;
  /** Aggregates bring collapsed records; events their requests. */
  kind: 'events' | 'aggregates';
}

/** Where a push stands in the ledgers: after this batch, or within it when `within`. */
export interface LedgerAfter {
  ingestedAt: number;
  batch: string;
  /** The batch was sent in part: it is read again (its rows after the cursor's). */
  within: boolean;
}

/** The conditions of a push's scope and filters, on the events' columns (events and collapsed_blocks alike). */
export function pushConditions(d: SqlDialect, scope: PushScope): string[] {
  const where = [`site_id IN (${ints(scope.siteIds.length > 0 ? scope.siteIds : [-1])})`];
  if (scope.zoneIds) where.push(`zone_id IN (${ints(scope.zoneIds.length > 0 ? scope.zoneIds : [-1])})`);
  if (scope.type === 'waf') where.push(`fw_kind = 'waf'`);
  const f = scope.filters;
  if (f.statusClasses.length > 0) {
    const parts = f.statusClasses.map((c) => {
      const base = Number(c[0]) * 100;
      return `(status >= ${int(base)} AND status < ${int(base + 100)})`;
    });
    where.push(`(${parts.join(' OR ')})`);
  }
  if (f.methods.length > 0) where.push(`method IN (${f.methods.map((m) => d.str(m)).join(', ')})`);
  if (f.domains.length > 0) where.push(`host IN (${f.domains.map((h) => d.str(h)).join(', ')})`);
  return where;
}

export class LogPushReads {
  constructor(private readonly store: Pick<AnalyticsStore, 'query' | 'dialect'>) {}

  private ledgers(where: string): string {
    const side = (table: string, records: string, kind: string) =>
      `SELECT batch_id, ingested_at, received_at, ${records}, '${kind}' AS kind FROM ${table} WHERE ${where}`;
    return `(${side('batches', 'events AS records', 'events')} UNION ALL ${side('agg_batches', 'records', 'aggregates')})`;
  }

  /** The last batch of either ledger ingested up to `settledBefore` (unix ms), or null. */
  async head(settledBefore: number): Promise<{ ingestedAt: number; batch: string } | null> {
    const [row] = await this.store.query(
      `SELECT ingested_at, batch_id FROM ${this.ledgers(`ingested_at <= ${int(settledBefore)}`)} AS ledger ` +
        'ORDER BY ingested_at DESC, batch_id DESC LIMIT 1',
    );
    return row ? { ingestedAt: Number(row.ingested_at), batch: String(row.batch_id) } : null;
  }

  /** Up to `limit` batches of both ledgers after `after`, ingested up to `settledBefore` (unix ms), in order. */
  async batchesAfter(after: LedgerAfter, settledBefore: number, limit: number): Promise<LedgerBatch[]> {
    const ia = int(after.ingestedAt);
    const batch = this.store.dialect.str(after.batch);
    const where =
      `ingested_at <= ${int(settledBefore)} AND ` +
      `(ingested_at > ${ia} OR (ingested_at = ${ia} AND batch_id ${after.within ? '>=' : '>'} ${batch}))`;
    const rows = await this.store.query(
      `SELECT * FROM ${this.ledgers(where)} AS ledger ORDER BY ingested_at, batch_id LIMIT ${int(limit)}`,
    );
    return rows.map((r) => ({
      batch: String(r.batch_id),
      ingestedAt: Number(r.ingested_at),
      receivedAt: Number(r.received_at),
      records: Number(r.records),
      kind: r.kind === 'aggregates' ? 'aggregates' : 'events',
    }));
  }

  /**
   * The events of `batches` (events batches) in the scope, `columns` and `batch_id`, from their
   * first event's time (which bounds the partitions read; no upper bound: a node's clock ahead of
   * the control plane's stamps events in the future). A refused request of a node that ships its
   * statistics as aggregates (`counted = 0`, `blocked = 1`) is left out: its node's collapsed record
   * counts it (the aggregator collapses every refused request it logs), and is pushed in its place.
   */
  async events(scope: PushScope, columns: string, batches: readonly LedgerBatch[]): Promise<Row[]> {
    if (batches.length === 0) return [];
    const d = this.store.dialect;
    const from = Math.min(...batches.map((b) => b.receivedAt));
    const where = [
      `batch_id IN (${batches.map((b) => d.str(b.batch)).join(', ')})`,
      `ts >= ${int(from)}`,
      'NOT (counted = 0 AND blocked = 1)',
      ...pushConditions(d, scope),
    ];
    return this.store.query(`SELECT ${columns}, batch_id FROM events WHERE ${where.join(' AND ')}`);
  }

  /**
   * The collapsed records of `batches` (aggregate batches; a record carries its batch's id) in the
   * scope: `columns` (the sample's, with the record's address, bytes and last time as `ts`, `ms`),
   * `minute`, `requests`, `first_ms`, `last_ms` and `batch_id`, each record as its node sent it (a
   * minute sent in parts is several records, each counting what came since: their counts sum to
   * the flood's).
   */
  async collapsed(scope: PushScope, columns: string, batches: readonly LedgerBatch[]): Promise<Row[]> {
    if (batches.length === 0) return [];
    const d = this.store.dialect;
    const where = [`batch_id IN (${batches.map((b) => d.str(b.batch)).join(', ')})`, ...pushConditions(d, scope)];
    return this.store.query(
      `SELECT ${columns}, minute, requests, first_ms, last_ms, batch_id FROM collapsed_blocks WHERE ${where.join(' AND ')}`,
    );
  }

  /**
   * A manual push's rows: the log search's rows (requests and merged collapsed records) with event
   * time in [startTs, endTs) after `after` (a row's keyset position), oldest first.
   */
  rangeRows(
    scope: PushScope,
    columns: string,
    range: { startTs: number; endTs: number },
    after: LogRowPosition | null,
    limit: number,
  ): Promise<Row[]> {
    const d = this.store.dialect;
    const conditions = pushConditions(d, scope);
    // The records that may cover the range's events: the scope's (its sites and zones, the first conditions).
    const sites = conditions.slice(0, scope.zoneIds ? 2 : 1);
    const parts: Omit<LogSearchParts, 'limit' | 'offset'> = {
      columns,
      where: [`ts >= ${int(range.startTs)}`, `ts < ${int(range.endTs)}`, ...conditions].join(' AND '),
      // A record's time is its last request's: its minute may start before the range.
      collapsedMinutes: [`minute >= ${int(range.startTs - 60)}`, `minute < ${int(range.endTs)}`, ...sites].join(
        ' AND ',
      ),
      byAddress: false,
    };
    return logRowsFrom(this.store, parts, after, limit);
  }
}
