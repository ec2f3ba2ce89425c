import type { LogPushDestinationIn, LogPushLogStatus } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { PassLoop } from '../../platform/pass-loop.js';
import type { AnalyticsRepository } from '../analytics/analytics.repository.js';
import type { LogPushEventRow, LogPushManualRow, LogPushRepository } from './log-push.repository.js';
import { type PushBatch, sendBatch } from './log-push.senders.js';
import type { LogPushService } from './log-push.service.js';
import type { LedgerCursor, Limits, LogPushSource, PushItem, PushScope } from './log-push.source.js';

export const LOG_PUSH_TICK_MS = 1000;
export const LOG_PUSH_SETTLE_MS = 5000;
export const LOG_PUSH_DEAD_AFTER_SECONDS = 86_400;
/** A push batch: at most this many records and bytes (the JSON of the records). */
export const LOG_PUSH_BATCH: Limits = { maxRecords: 1000, maxBytes: 1024 * 1024 };
/** Retry waits: 1 s doubling to 5 minutes. */
export const LOG_PUSH_BACKOFF = { base: 1000, max: 300_000 };
/** Events pushed at once per control plane (each has one batch in flight at most). */
const PARALLEL = 4;
/** Batches one event sends in a row before the others get their turn. */
const BATCHES_PER_TURN = 20;
/** Delivery log rows are kept this long. */
const LOG_KEEP_MS = 30 * 86_400_000;
/** An audit row pending this long belongs to a call that never completed it. */
const AUDIT_ABANDONED_MS = 10 * 60_000;

export interface LogPushJobOptions {
  tickMs: number;
  settleMs: number;
  deadAfterMs: number;
  backoff: { base: number; max: number };
  limits: Limits;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
}

/** What one turn of an event sends: records from the ledger (or audit), or of a manual push. */
interface Pending {
  items: PushItem[];
  manual: LogPushManualRow | null;
  /** Where the event's cursor goes once delivered. */
  commit: () => Promise<boolean>;
}

/**
 * The log push job (docs/decisions.md "Log push"): at-least-once and ordered per event. Each
 * enabled event that is not dead has at most one batch in flight; its cursor (the event row) moves
 * only once the receiver took the batch, so a restart resends the batch that was in flight. A batch
 * that fails is retried with exponential backoff (`backoff.base` doubling to `backoff.max`) until it
 * has failed for `deadAfterMs`; then it is dead and the event parked (state `dead`) until its owner
 * updates it, which resends from the same cursor. Every attempt's outcome is a delivery log row.
 * Manual pushes of an event go when its stream has nothing to send.
 */
export class LogPushJob {
  private readonly loop: PassLoop;
  private lastPrune = 0;
  /**
   * What a pass looked up once for every event: the ledger's last settled batch (an event at it
   * reads nothing more) and the events with manual pushes (the others look for none).
   */
  private head: { ingestedAt: number; batch: string } | null = null;
  private manuals = new Set<number>();

  constructor(
    private readonly repo: LogPushRepository,
    private readonly service: LogPushService,
    private readonly source: LogPushSource,
    private readonly analytics: AnalyticsRepository,
    private readonly clock: Clock,
    private readonly options: LogPushJobOptions,
    private readonly onError: (error: unknown) => void,
  ) {
    this.loop = new PassLoop(
      () => this.pass(),
      (e) => this.onError(e),
    );
  }

  start(): void {
    this.loop.start(this.options.tickMs);
    this.wake();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Runs a pass now (or right after the one running). */
  wake(): void {
    this.loop.wake();
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  /** One pass over every event (tests drive it). */
  async pass(): Promise<void> {
    const now = this.clock();
    if (now - this.lastPrune > 3_600_000) {
      this.lastPrune = now;
      await this.repo.pruneLogs(new Date(now - LOG_KEEP_MS));
    }
    const events = (await this.repo.active()).filter(
      (e) => e.nextAttemptAt === null || e.nextAttemptAt.getTime() <= now,
    );
    if (events.length === 0) return;
    this.head = await this.source.ledgerHead(Date.now() - this.options.settleMs);
    this.manuals = await this.repo.withManuals();
    let next = 0;
    const worker = async () => {
      while (!this.stopped && next < events.length) {
        const event = events[next++] as LogPushEventRow;
        try {
          await this.turn(event);
        } catch (e) {
          this.onError(e);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, events.length) }, worker));
  }

  /** Sends an event's batches in a row until it is caught up, fails, or had its turn. */
  private async turn(initial: LogPushEventRow): Promise<void> {
    let event = initial;
    for (let i = 0; i < BATCHES_PER_TURN && !this.stopped; i++) {
      const pending = await this.nextBatch(event);
      if (pending === null) return;
      if (pending.items.length === 0) {
        // Batches holding nothing of this event's: the cursor moves past them, nothing is sent.
        if (!(await pending.commit())) return;
        const fresh = await this.repo.find(event.id);
        if (!fresh) return;
        event = fresh;
        continue;
      }
      const ok = await this.attempt(event, pending);
      if (!ok) return;
      const fresh = await this.repo.find(event.id);
      if (!fresh?.enabled || fresh.state === 'dead') return;
      event = fresh;
    }
  }

  private async scopeOf(event: LogPushEventRow): Promise<PushScope> {
    const siteIds =
      event.tier === 'user'
        ? await this.analytics.visibleSites({ userId: event.accountId }, { siteIds: event.siteIds })
        : await this.analytics.visibleSites({ ownerId: event.accountId }, {});
    return {
      type: event.type,
      siteIds,
      zoneIds: event.tier === 'client' && event.zoneIds.length > 0 ? event.zoneIds : null,
      filters: event.filters,
    };
  }

  /** The event's next batch: its stream first, then its oldest manual push; null when there is nothing. */
  private async nextBatch(event: LogPushEventRow): Promise<Pending | null> {
    const seen = event.updatedAt;
    if (event.type === 'audit') {
      const now = this.clock();
      const found = await this.source.nextAudit(
        event.accountId,
        event.cursorAudit,
        new Date(now - this.options.settleMs),
        new Date(now - AUDIT_ABANDONED_MS),
        this.options.limits,
      );
      if (!found) return null;
      return {
        items: found.items,
        manual: null,
        commit: () => this.repo.afterAttempt(event.id, seen, { cursorAudit: found.next }),
      };
    }
    const cursor: LedgerCursor = {
      ingestedAt: event.cursorReceivedAt,
      batch: event.cursorBatch,
      request: event.cursorRequest,
    };
    const head = this.head;
    // Caught up with the ledger as this pass found it: no read (most events, most passes).
    const caughtUp =
      head === null ||
      (cursor.request === '' &&
        (cursor.ingestedAt > head.ingestedAt || (cursor.ingestedAt === head.ingestedAt && cursor.batch >= head.batch)));
    if (caughtUp && !this.manuals.has(event.id)) return null;
    const scope = await this.scopeOf(event);
    // The ledger's stamps are the wall clock's (the store writes them).
    const found = caughtUp
      ? null
      : await this.source.nextFromLedger(scope, cursor, Date.now() - this.options.settleMs, this.options.limits);
    if (found) {
      return {
        items: found.items,
        manual: null,
        commit: () =>
          this.repo.afterAttempt(event.id, seen, {
            cursorReceivedAt: found.next.ingestedAt,
            cursorBatch: found.next.batch,
            cursorRequest: found.next.request,
          }),
      };
    }
    const manual = this.manuals.has(event.id) ? await this.repo.nextManual(event.id) : undefined;
    if (!manual) {
      this.manuals.delete(event.id);
      return null;
    }
    const inRange = await this.source.nextInRange(
      scope,
      { startTs: manual.startTs, endTs: manual.endTs },
      { ts: manual.cursorTs, ms: manual.cursorMs, request: manual.cursorRequest },
      this.options.limits,
    );
    if (!inRange) {
      await this.repo.deleteManual(manual.id);
      return this.nextBatch(event);
    }
    return {
      items: inRange.items,
      manual,
      commit: async () => {
        await this.repo.advanceManual(manual.id, {
          cursorTs: inRange.next.ts,
          cursorMs: inRange.next.ms,
          cursorRequest: inRange.next.request,
        });
        return true;
      },
    };
  }

  /** One attempt at a batch: delivered (the cursor moves), or retrying, or dead. */
  private async attempt(event: LogPushEventRow, pending: Pending): Promise<boolean> {
    const destination = { ...event.destination, ...this.service.secretsOf(event) } as LogPushDestinationIn;
    const batch: PushBatch = {
      type: event.type,
      records: pending.items.map((i) => i.record),
      ids: pending.items.map((i) => (event.type === 'audit' ? i.id : i.id || null)),
      times: pending.items.map((i) => i.time),
      hosts: pending.items.map((i) => i.host),
    };
    const times = pending.items.map((i) => i.time);
    const rangeStart = new Date(Math.min(...times));
    const rangeEnd = new Date(Math.max(...times));
    const attempt = event.attempt + 1;
    const log = async (status: LogPushLogStatus, bytes: number, error: string | null) =>
      this.repo.insertLog({
        eventId: event.id,
        accountId: event.accountId,
        operatorId: event.operatorId,
        eventName: event.name,
        status,
        attempt,
        records: batch.records.length,
        bytes,
        error,
        rangeStart,
        rangeEnd,
        manual: pending.manual !== null,
        createdAt: new Date(this.clock()),
      });
    let bytes = 0;
    try {
      bytes = await sendBatch(
        destination,
        batch,
        {
          targets: this.service.targets,
          check: this.service.outgoingCheck(event.operatorId),
          connectTimeoutMs: this.options.connectTimeoutMs,
          requestTimeoutMs: this.options.requestTimeoutMs,
        },
        this.clock(),
      );
    } catch (e) {
      const error = (e instanceof Error ? e.message : String(e)).slice(0, 1000);
      const now = this.clock();
      const since = event.failingSince ?? new Date(now);
      const dead = now - since.getTime() >= this.options.deadAfterMs;
      const wait = Math.min(this.options.backoff.base * 2 ** (attempt - 1), this.options.backoff.max);
      const changed = await this.repo.afterAttempt(event.id, event.updatedAt, {
        state: dead ? 'dead' : 'retrying',
        lastError: error,
        attempt,
        failingSince: since,
        nextAttemptAt: dead ? null : new Date(now + wait),
      });
      if (changed) await log(dead ? 'dead' : 'retrying', 0, error);
      return false;
    }
    const moved = await pending.commit();
    if (!moved) return false;
    await this.repo.afterAttempt(event.id, event.updatedAt, {
      state: 'active',
      lastError: null,
      attempt: 0,
      failingSince: null,
      nextAttemptAt: null,
      lastDeliveredAt: new Date(this.clock()),
    });
    await log('delivered', bytes, null);
    return true;
  }
}
