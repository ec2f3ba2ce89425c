import type { LogPushFilters, LogPushType } from '@rampart/contract';
import type { AnalyticsStore, SqlDialect } from '../analytics/analytics-store.js';
import { LOG_COLUMNS, recordOf } from '../analytics/logs.service.js';
import { int } from '../analytics/store/statistics-sql.js';
import type { LogPushRepository } from './log-push.repository.js';

/**
 * Where log push reads its records (docs/decisions.md "Log push"). New access and WAF events are
 * read in ingest order — the analytics store's batch ledger by `ingested_at` (the control plane's
 * clock when it wrote the batch), then batch id, then the request id within a batch — never by
 * event time: a node that spooled while the control plane was away sends old events late, and they
 * land after the cursor, not behind it. Only batches ingested before a settle lag are read, so a
 * batch being written while the cursor moves cannot be passed over. A manual push reads a time
 * range by event time instead (keyset on ts, ms, request id). Audit records come from the config
 * store by row id.
 */

/** The position of an event's delivery in the ledger: after this batch (and this request of it, if not ''). */
export interface LedgerCursor {
  ingestedAt: number;
  batch: string;
  /** The last request id delivered of a batch sent in parts; '' when the batch went whole. */
  request: string;
}

/** What an event reads: its sites (already its owner's), zones, log type and filters. */
export interface PushScope {
  type: LogPushType;
  siteIds: readonly number[];
  zoneIds: readonly number[] | null;
  filters: LogPushFilters;
}

export interface PushItem {
  record: Record<string, unknown>;
  /** Unix milliseconds of the record. */
  time: number;
  host: string;
  /** A stable id (the request id; the audit row id), for idempotent stores. */
  id: string;
}

export interface Limits {
  maxRecords: number;
  maxBytes: number;
}

/** Ledger batches read at once to fill one push batch. */
const LEDGER_WINDOW = 200;

function ints(values: readonly number[]): string {
  return values.map(int).join(', ');
}

/** The conditions of an event's scope and filters on `events`. */
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

const sizeOf = (r: unknown) => Buffer.byteLength(JSON.stringify(r)) + 1;

/** Takes items while within the limits (at least one), never splitting a request id's records. */
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

export class LogPushSource {
  constructor(
    private readonly store: AnalyticsStore,
    private readonly repo: LogPushRepository,
  ) {}

  /** The last batch of the ledger ingested up to `settledBefore` (ingest order), or null. */
  async ledgerHead(settledBefore: number): Promise<{ ingestedAt: number; batch: string } | null> {
    const [row] = await this.store.query(
      `SELECT ingested_at, batch_id FROM batches WHERE ingested_at <= ${int(settledBefore)} ` +
        'ORDER BY ingested_at DESC, batch_id DESC LIMIT 1',
    );
    return row ? { ingestedAt: Number(row.ingested_at), batch: String(row.batch_id) } : null;
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
    const d = this.store.dialect;
    const ia = int(cursor.ingestedAt);
    const after = [
      `ingested_at > ${ia}`,
      `(ingested_at = ${ia} AND batch_id ${cursor.request === '' ? '>' : '>='} ${d.str(cursor.batch)})`,
    ].join(' OR ');
    const ledger = await this.store.query(
      `SELECT batch_id, ingested_at, received_at, events FROM batches WHERE ingested_at <= ${int(settledBefore)} ` +
        `AND (${after}) ORDER BY ingested_at, batch_id LIMIT ${LEDGER_WINDOW}`,
    );
    if (ledger.length === 0) return null;
    // Whole batches until they hold enough events for one push batch.
    const window: { batch: string; ingestedAt: number; receivedAt: number }[] = [];
    let events = 0;
    for (const row of ledger) {
      window.push({
        batch: String(row.batch_id),
        ingestedAt: Number(row.ingested_at),
        receivedAt: Number(row.received_at),
      });
      events += Number(row.events);
      if (events >= limits.maxRecords) break;
    }
    const last = window[window.length - 1] as (typeof window)[number];
    const order = new Map(window.map((w, i) => [w.batch, i]));
    // A batch's events are no older than its received_at (the first event's time): it bounds the read.
    const from = Math.min(...window.map((w) => w.receivedAt));
    // No upper bound: a node's clock ahead of the control plane's stamps events in the future.
    const where = [
      `batch_id IN (${window.map((w) => d.str(w.batch)).join(', ')})`,
      `ts >= ${int(from)}`,
      ...pushConditions(d, scope),
    ];
    const rows = await this.store.query(`SELECT ${LOG_COLUMNS}, batch_id FROM events WHERE ${where.join(' AND ')}`);
    const sorted = rows
      .map((r) => ({ batch: String(r.batch_id), request: String(r.request_id), r }))
      .filter((x) => {
        if (x.batch !== cursor.batch || cursor.request === '') return true;
        return x.request > cursor.request;
      })
      .sort((a, b) => {
        const oa = order.get(a.batch) ?? 0;
        const ob = order.get(b.batch) ?? 0;
        if (oa !== ob) return oa - ob;
        return a.request < b.request ? -1 : a.request > b.request ? 1 : 0;
      })
      .map((x) => {
        const record = recordOf(x.r);
        return {
          key: `${x.batch}\u0000${x.request}`,
          batch: x.batch,
          request: x.request,
          item: { record, time: Date.parse(record.time), host: record.host, id: record.reqID } as PushItem,
        };
      });
    const taken = cut(sorted, limits);
    if (taken.length === sorted.length) {
      // All of the window's records: the cursor goes after its last batch.
      return {
        items: taken.map((t) => t.item),
        next: { ingestedAt: last.ingestedAt, batch: last.batch, request: '' },
      };
    }
    const end = taken[taken.length - 1] as (typeof taken)[number];
    const w = window[order.get(end.batch) ?? 0] as (typeof window)[number];
    return {
      items: taken.map((t) => t.item),
      next: { ingestedAt: w.ingestedAt, batch: end.batch, request: end.request },
    };
  }

  /** A manual push's next records: event time in [startTs, endTs) after the keyset position. */
  async nextInRange(
    scope: PushScope,
    range: { startTs: number; endTs: number },
    cursor: { ts: number; ms: number; request: string },
    limits: Limits,
  ): Promise<{ items: PushItem[]; next: { ts: number; ms: number; request: string } } | null> {
    const d = this.store.dialect;
    const ts = int(cursor.ts);
    const ms = int(cursor.ms);
    const after =
      cursor.ts < 0
        ? '1 = 1'
        : `(ts > ${ts} OR (ts = ${ts} AND ms > ${ms}) OR (ts = ${ts} AND ms = ${ms} AND request_id > ${d.str(cursor.request)}))`;
    const where = [`ts >= ${int(range.startTs)}`, `ts < ${int(range.endTs)}`, after, ...pushConditions(d, scope)];
    const rows = await this.store.query(
      `SELECT ${LOG_COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY ts, ms, request_id LIMIT ${int(limits.maxRecords)}`,
    );
    if (rows.length === 0) return null;
    const sorted = rows.map((r) => {
      const record = recordOf(r);
      return {
        key: `${r.ts}.${r.ms}.${r.request_id}`,
        r,
        item: { record, time: Date.parse(record.time), host: record.host, id: record.reqID } as PushItem,
      };
    });
    const taken = cut(sorted, limits);
    const end = (taken[taken.length - 1] as (typeof taken)[number]).r;
    return {
      items: taken.map((t) => t.item),
      next: { ts: Number(end.ts), ms: Number(end.ms), request: String(end.request_id) },
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
