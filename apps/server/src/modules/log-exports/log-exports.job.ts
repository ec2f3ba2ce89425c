import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Clock } from '../../platform/clock.js';
import type { Caller } from '../../platform/http/bind-route.js';
import type { AnalyticsRepository } from '../analytics/analytics.repository.js';
import { analyticsScope } from '../analytics/analytics-scope.js';
import type { AnalyticsStore, Row } from '../analytics/analytics-store.js';
import { countLogRows, logRowsAfter } from '../analytics/log-search-store.js';
import type { LogExportLimitsInForce } from '../analytics/log-settings.service.js';
import { logSearchParts, searchRecordOf } from '../analytics/logs.service.js';
import type { LogExportFiles } from './log-export-files.js';
import { csvHeader, csvLine, jsonLine } from './log-exports.presenter.js';
import type { LogExportRow, LogExportsRepository } from './log-exports.repository.js';

/** Exports written at once by one control plane. */
export const LOG_EXPORT_CONCURRENCY = 2;
/** Records read from the analytics store per query (what the job holds at most, with the file's buffers). */
export const LOG_EXPORT_CHUNK = 5000;
/** How often the job looks for queued exports (and, every UPKEEP_EVERY_MS, for expired files). */
export const LOG_EXPORT_TICK_MS = 2000;
const UPKEEP_EVERY_MS = 60_000;

export interface LogExportLimits {
  /** The retention and space bound in force, read at each use (the operator's log export setting). */
  inForce: () => Promise<LogExportLimitsInForce>;
  /** 0: no timer, the job runs only when driven (runOnce). */
  tickMs: number;
}

/** Whom an export's account is, as the calls see it: what its exports cover is resolved from it. */
export type ExportCaller = Pick<Caller, 'tier' | 'accountId' | 'operatorId' | 'zoneScope'>;

/** Why an export stopped without failing: deleted while it ran, or the control plane stops. */
class Stopped extends Error {}

/**
 * Writes queued log exports (docs/decisions.md "Log export files"): at most LOG_EXPORT_CONCURRENCY
 * at once, each counted first (the progress' 100 %), then read from the analytics store
 * LOG_EXPORT_CHUNK records at a time, newest first, by keyset (ts, ms, request_id) — never the whole
 * export in memory: the file stream's backpressure holds the reader back. The account's scope is
 * resolved when the export runs (a site given away since is no longer in it). A failure marks the
 * export failed and removes its partial file; an export deleted while it runs stops at its next
 * chunk. On start, exports a stopped control plane left running are queued again.
 *
 * Upkeep (every minute): finished files past their retention expire, then the oldest finished
 * files expire until all of them fit in `maxBytes`.
 */
export class LogExportJob {
  private timer: NodeJS.Timeout | null = null;
  private readonly active = new Map<number, Promise<void>>();
  private filling: Promise<void> | null = null;
  private stopped = true;
  private lastUpkeep = 0;

  constructor(
    private readonly exports: LogExportsRepository,
    private readonly analytics: AnalyticsRepository,
    private readonly store: AnalyticsStore,
    private readonly files: LogExportFiles,
    private readonly clock: Clock,
    private readonly limits: LogExportLimits,
    private readonly onError: (error: unknown) => void,
    /** The export's account as a caller (null: it is gone), resolved when the export runs. */
    private readonly callerOf: (accountId: number) => Promise<ExportCaller | null>,
  ) {}

  /** Re-queues what a stopped control plane left running, removes stray files, then ticks. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.exports.requeue(null, 'running');
    await this.files.importLegacy(
      async (id) => (await this.exports.find(id)) ?? null,
      (error) => this.onError(error),
    );
    await this.files.removeOthers(await this.exports.withFiles());
    if (this.limits.tickMs > 0) {
      this.timer ??= setInterval(() => this.tick(), this.limits.tickMs);
      this.timer.unref();
    }
  }

  /** Stops taking exports; those running stop at their next chunk and are queued again. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.active.values()]);
  }

  private tick(): void {
    if (this.stopped) return;
    const now = this.clock();
    if (now - this.lastUpkeep >= UPKEEP_EVERY_MS) {
      this.lastUpkeep = now;
      void this.upkeep().catch(this.onError);
    }
    void this.fill().catch(this.onError);
  }

  /** Tests: upkeep, then every queued export to its end. */
  async runOnce(): Promise<void> {
    await this.upkeep();
    for (;;) {
      await this.fill();
      if (this.active.size === 0) return;
      await Promise.race(this.active.values());
    }
  }

  /** Takes queued exports while a slot is free. */
  private fill(): Promise<void> {
    this.filling ??= (async () => {
      while (!this.stopped && this.active.size < LOG_EXPORT_CONCURRENCY) {
        const row = await this.exports.claimNext(new Date(this.clock()));
        if (!row) return;
        const run = this.run(row)
          .catch(this.onError)
          .finally(() => {
            this.active.delete(row.id);
            if (this.limits.tickMs > 0) this.tick();
          });
        this.active.set(row.id, run);
      }
    })().finally(() => {
      this.filling = null;
    });
    return this.filling;
  }

  /**
   * A new retention for the files already written: each finished file expires `retentionDays`
   * after it was finished, then upkeep runs at once (expiry and the space bound).
   */
  async applyLimits(limits: LogExportLimitsInForce): Promise<void> {
    await this.exports.setRetention(limits.retentionDays);
    await this.upkeep();
  }

  /** Expires files past their retention, then the oldest finished ones while over the space bound. */
  async upkeep(): Promise<void> {
    const now = this.clock();
    const { maxBytes } = await this.limits.inForce();
    const expired = await this.exports.expiredBy(new Date(now));
    await this.expire(expired.map((r) => r.id));
    let used = 0;
    const over: number[] = [];
    // Newest first: the newest files that fit stay, every older one goes.
    for (const row of (await this.exports.doneOldestFirst()).reverse()) {
      used += row.bytes;
      if (used > maxBytes) over.push(row.id);
    }
    await this.expire(over);
    await this.exports.pruneDays(new Date(now - 86_400_000).toISOString().slice(0, 10));
  }

  private async expire(ids: number[]): Promise<void> {
    for (const id of await this.exports.expire(ids)) await this.files.remove(id);
  }

  private async run(row: LogExportRow): Promise<void> {
    try {
      const part = await this.files.partPath(row.id);
      const lines = this.lines(row);
      const out = createWriteStream(part);
      const source = Readable.from(lines, { objectMode: true, highWaterMark: 1 });
      if (row.gzip) await pipeline(source, createGzip(), out);
      else await pipeline(source, out);
      const { size } = await stat(part);
      // Stored first: an export is done only with its file in the config store, where any control
      // plane serves it.
      await this.files.store(row.id, row.accountId, part);
      await rm(part, { force: true });
      const now = this.clock();
      const { retentionDays } = await this.limits.inForce();
      const finished = await this.exports.finish(row.id, {
        status: 'done',
        bytes: size,
        finishedAt: new Date(now),
        expiresAt: new Date(now + retentionDays * 86_400_000),
      });
      if (!finished) await this.files.remove(row.id);
      else await this.upkeep();
    } catch (error) {
      await this.files.remove(row.id).catch(this.onError);
      if (error instanceof Stopped) {
        if (this.stopped) await this.exports.requeue([row.id], 'running').catch(() => undefined);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      await this.exports.finish(row.id, {
        status: 'failed',
        error: message.slice(0, 500),
        finishedAt: new Date(this.clock()),
        expiresAt: null,
      });
    }
  }

  /** The file's text, a chunk of records at a time, as the file stream asks for it. */
  private async *lines(row: LogExportRow): AsyncGenerator<string> {
    if (row.format === 'csv') yield csvHeader();
    const caller = await this.callerOf(row.accountId);
    if (!caller) throw new Error('the account of this export no longer exists');
    const scope = await analyticsScope(this.analytics, caller, row.filter);
    if (scope.siteIds.length === 0) {
      await this.progress(row.id, { total: 0, records: 0 });
      return;
    }
    // The log search's rows: the requests and the refused floods the nodes collapsed, each record once.
    const parts = logSearchParts(this.store.dialect, scope, row.type, row.filter);
    await this.progress(row.id, { total: await countLogRows(this.store, parts), records: 0 });
    const line = row.format === 'csv' ? csvLine : jsonLine;
    let last: Row | null = null;
    let written = 0;
    for (;;) {
      if (this.stopped) throw new Stopped('the control plane stops');
      const rows = await logRowsAfter(this.store, parts, last, LOG_EXPORT_CHUNK);
      if (rows.length === 0) return;
      let text = '';
      for (const r of rows) text += line(searchRecordOf(r));
      yield text;
      written += rows.length;
      await this.progress(row.id, { records: written });
      if (rows.length < LOG_EXPORT_CHUNK) return;
      last = rows[rows.length - 1] ?? null;
    }
  }

  private async progress(id: number, values: { total?: number; records: number }): Promise<void> {
    if (!(await this.exports.progress(id, values))) throw new Stopped('the export was deleted');
  }
}
