import type { Row } from '../analytics/analytics-store.js';
import { positionOf } from '../analytics/log-search-store.js';
import { LOG_COLUMNS, searchRecordOf } from '../analytics/logs.service.js';
import type { LedgerBatch, LogPushReads, PushScope } from '../analytics/store/log-push-reads.js';
import type { LogPushRepository } from './log-push.repository.js';

export type { PushScope };

/**
 * Where log push reads its records (docs/decisions.md "Log push"). New records are read in ingest
 * order — the analytics store's two batch ledgers (the events' and the aggregates') by `ingested_at`
 * (the control plane's clock when it wrote the batch), then batch id, then the record's key within
 * a batch — never by event time: a node that spooled while the control plane was away sends old
 * events late, and they land after the cursor, not behind it. Only batches ingested before a
 * settle lag are read, so a batch being written while the cursor moves cannot be passed over. An
 * events batch brings its requests; an aggregate batch its collapsed records, each pushed once as
 * one record with its count (the log search's record with `collapsed`), in place of the refused
 * requests it counts (store/log-push-reads.ts). A manual push reads the log search's rows of a time
 * range by event time instead (keyset on ts, ms, request id). Audit records come from the config
 * store by row id. The SQL is the store's (LogPushReads).
 */

/** The position of a delivery in the ledgers: after this batch (and this record of it, if not ''). */
export interface LedgerCursor {
  ingestedAt: number;
  batch: string;
  /** The key of the last record delivered of a batch sent in parts; '' when the batch went whole. */
  request: string;
}

export interface PushItem {
  record: Record<string, unknown>;
  /** Unix milliseconds of the record. */
  time: number;
  host: string;
  /** A stable id (the request id; a collapsed record's batch and key; the audit row id), for idempotent stores. */
  id: string;
}

export interface Limits {
  maxRecords: number;
  maxBytes: number;
}

/** Ledger batches read at once to fill one push batch. */
const LEDGER_WINDOW = 200;

const sizeOf = (r: unknown) => Buffer.byteLength(JSON.stringify(r)) + 1;

/** Takes items while within the limits (at least one), never splitting a key's records. */
function cut<T extends { item: PushItem; key: string }>(rows: readonly T[], limits: Limits): T[] {
  const out: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = sizeOf(row.item.record);
    const last = out[out.length - 1];
    const sameKey = last !== undefined && last.key === row.key;
    if (out.length > 0 && !sameKey && (out.length >= limits.maxRecords || bytes + size > limits.maxBytes)) break;
    out.push(row);
    bytes += size;
  }
  return out;
}

/**
 * A manual push's stored cursor request (cursor_request): the row's request id and row key as a
 * JSON pair; a plain request id (a cursor stored before the row key) resumes at its first row.
 */
function requestOf(stored: string): { request: string; key: string } {
  if (stored.startsWith('[')) {
    const [request, key] = JSON.parse(stored) as [string, string];
    return { request: String(request), key: String(key) };
  }
  return { request: stored, key: '' };
}

/** A row of the log search's shape as a push item (`id`: what names it for idempotent stores). */
function itemOf(r: Row, id?: string): PushItem {
  const record = searchRecordOf(r);
  return { record, time: Date.parse(record.time), host: record.host, id: id ?? record.reqID };
}

/**
 * A collapsed record's key within its batch: its minute, domain, address and decision (one record
 * each per partial), then its first time and sample.
 */
const collapsedKey = (r: Row) =>
  [r.minute, r.domain_id, r.ip, r.fw_kind, r.fw_rule, r.fw_action, r.first_ms, r.request_id].join('|');

export class LogPushSource {
  constructor(
    private readonly reads: LogPushReads,
    private readonly repo: LogPushRepository,
  ) {}

  /** The last batch of the ledgers ingested up to `settledBefore` (ingest order), or null. */
  ledgerHead(settledBefore: number): Promise<{ ingestedAt: number; batch: string } | null> {
    return this.reads.head(settledBefore);
  }

  /**
   * The next records after `cursor` among the batches ingested up to `settledBefore` (unix ms): at
   * most `limits`, with the cursor after them. `items` may be empty with a cursor that moved (the
   * batches held nothing of this event's); null when no settled batch follows the cursor.
   */
  async nextFromLedger(
    scope: PushScope,
    cursor: LedgerCursor,
    settledBefore: number,
    limits: Limits,
  ): Promise<{ items: PushItem[]; next: LedgerCursor } | null> {
    const ledger = await this.reads.batchesAfter(
      { ingestedAt: cursor.ingestedAt, batch: cursor.batch, within: cursor.request !== '' },
      settledBefore,
      LEDGER_WINDOW,
    );
    if (ledger.length === 0) return null;
    // Whole batches until they hold enough records for one push batch.
    const window: LedgerBatch[] = [];
    let records = 0;
    for (const b of ledger) {
      window.push(b);
      records += b.records;
      if (records >= limits.maxRecords) break;
    }
    const last = window[window.length - 1] as LedgerBatch;
    const order = new Map(window.map((w, i) => [w.batch, i]));
    const [events, collapsed] = await Promise.all([
      this.reads.events(
        scope,
        LOG_COLUMNS,
        window.filter((w) => w.kind === 'events'),
      ),
      this.reads.collapsed(
        scope,
        LOG_COLUMNS,
        window.filter((w) => w.kind === 'aggregates'),
      ),
    ]);
    const rows = [
      ...events.map((r) => ({ batch: String(r.batch_id), key: String(r.request_id), item: itemOf(r) })),
      ...collapsed.map((r) => {
        const batch = String(r.batch_id);
        const key = collapsedKey(r);
        return { batch, key, item: itemOf(r, `collapsed-${batch}-${key}`) };
      }),
    ];
    const sorted = rows
      .filter((x) => x.batch !== cursor.batch || cursor.request === '' || x.key > cursor.request)
      .sort((a, b) => {
        const oa = order.get(a.batch) ?? 0;
        const ob = order.get(b.batch) ?? 0;
        if (oa !== ob) return oa - ob;
        return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
      })
      .map((x) => ({ ...x, key: `${x.batch}\u0000${x.key}`, request: x.key }));
    const taken = cut(sorted, limits);
    if (taken.length === sorted.length) {
      // All of the window's records: the cursor goes after its last batch.
      return {
        items: taken.map((t) => t.item),
        next: { ingestedAt: last.ingestedAt, batch: last.batch, request: '' },
      };
    }
    const end = taken[taken.length - 1] as (typeof taken)[number];
    const w = window[order.get(end.batch) ?? 0] as LedgerBatch;
    return {
      items: taken.map((t) => t.item),
      next: { ingestedAt: w.ingestedAt, batch: end.batch, request: end.request },
    };
  }

  /** A manual push's next records: the log search's rows with event time in [startTs, endTs) after the keyset position. */
  async nextInRange(
    scope: PushScope,
    range: { startTs: number; endTs: number },
    cursor: { ts: number; ms: number; request: string },
    limits: Limits,
  ): Promise<{ items: PushItem[]; next: { ts: number; ms: number; request: string } } | null> {
    const rows = await this.reads.rangeRows(
      scope,
      LOG_COLUMNS,
      range,
      cursor.ts < 0 ? null : { ts: cursor.ts, ms: cursor.ms, ...requestOf(cursor.request) },
      limits.maxRecords,
    );
    if (rows.length === 0) return null;
    // Each row its own key: the cursor may stop between any two.
    const sorted = rows.map((r, i) => ({ key: String(i), r, item: itemOf(r) }));
    const taken = cut(sorted, limits);
    const end = positionOf((taken[taken.length - 1] as (typeof taken)[number]).r);
    return {
      items: taken.map((t) => t.item),
      next: { ts: end.ts, ms: end.ms, request: JSON.stringify([end.request, end.key]) },
    };
  }

  /** The newest audit row id (where an audit push starts). */
  auditHead(): Promise<number> {
    return this.repo.auditHead();
  }

  /**
   * The account's audit records after row `afterId`, oldest first: the rows its audit log shows
   * (`visible_to`), complete ones only. A row still pending stops the read (its call is running),
   * unless it is older than `abandonedBefore` (a call that never completed its row).
   */
  async nextAudit(
    accountId: number,
    afterId: number,
    settledBefore: Date,
    abandonedBefore: Date,
    limits: Limits,
  ): Promise<{ items: PushItem[]; next: number } | null> {
    const rows = await this.repo.auditAfter(accountId, afterId, settledBefore, limits.maxRecords);
    if (rows.length === 0) return null;
    const items: PushItem[] = [];
    let next = afterId;
    let bytes = 0;
    for (const r of rows) {
      if (r.pending && r.createdAt > abandonedBefore) break;
      const record = {
        id: r.id,
        time: r.createdAt.toISOString(),
        accountID: r.accountId,
        accountName: r.accountName,
        realAccountName: r.realAccountName,
        action: r.action,
        method: r.method,
        url: r.url,
        target: r.target,
        ip: r.ip,
        reqID: r.reqId,
        status: r.status,
        code: r.code,
      };
      const size = sizeOf(record);
      if (items.length > 0 && bytes + size > limits.maxBytes) break;
      bytes += size;
      next = r.id;
      items.push({ record, time: r.createdAt.getTime(), host: '', id: `audit-${r.id}` });
    }
    if (next === afterId) return null;
    return { items, next };
  }
}
