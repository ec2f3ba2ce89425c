import { type EdgeEvent, EVENT_BATCH_MAX } from '@rampart/contract';
import type { AdminEndpoint } from '../../data-plane/admin-client.js';
import { pause } from '../backoff.js';
import { errorText, type Logger } from '../log.js';
import { AccessLogReader, type LogCursor, NO_FILE, type ReaderNotice } from './access-log-reader.js';
import type { AggregateFeed } from './aggregate-feed.js';
import { parseEventLine } from './event-line.js';
import { BatchTooLargeError, EventSpool } from './event-spool.js';
import { LogMark } from './log-mark.js';
import { drainRefusals } from './refusal-drain.js';

/**
 * Turns nginx's access log into spooled batches (docs/decisions.md "Traffic analytics at the
 * edge"): reads the new lines every `intervalMs` (access-log-reader.ts), parses each into an
 * event (event-line.ts; a line that is no event is counted and skipped) and cuts a batch at
 * EVENT_BATCH_MAX events or `cutMs` after its first event (event-spool.ts). Nothing here may stop
 * the node serving: a spool that cannot be written is said once and tried again, the lines wait
 * in the log meanwhile (the reader takes no more than one batch ahead).
 */

export interface EventCollectorOptions {
  /** nginx's `logs/access.log`. */
  logFile: string;
  spool: EventSpool;
  log: Logger;
  signal: AbortSignal;
  intervalMs?: number;
  cutMs?: number;
  maxEvents?: number;
  /** How long a rotated log must stay quiet before the reader moves on (nginx flushes every second). */
  graceMs?: number;
  /**
   * Whether the rest of the node keeps the CPUs busy (cpu-gauge.ts): rounds then come `busyRoundMs`
   * apart, so the collector takes at most one batch a round (5,000 lines a second by default) and
   * catches up once the node has CPU to spare.
   */
  busy?: () => boolean;
  busyRoundMs?: number;
  now?: () => number;
  /** Told of each event read (the node's request counters, node-metrics.ts). */
  onEvent?: (event: EdgeEvent) => void;
  /**
   * The node's statistics as minute aggregates (aggregate-feed.ts): every event is counted there,
   * and the event batches are marked for the logs only (`statistics: false`).
   */
  aggregates?: AggregateFeed;
  /** With the aggregates: nginx's admin server, whose refusal tallies are drained into them each round. */
  refusals?: AdminEndpoint;
  /**
   * Where the log ended when the agent started (access-log-reader.ts `logEnd`): a first start (no
   * saved cursor) reads from there, so the lines nginx wrote while this process came up are counted.
   * Without it a first start reads from the end of the log as it finds it.
   */
  firstStart?: LogCursor | null;
}

/** Invalid lines are summed up in one warning at most this often. */
const INVALID_LOG_MS = 60_000;

export class EventCollector {
  private reader: AccessLogReader | null = null;
  /** Events read and not yet in a batch, each with the log position after its line. */
  private pending: { event: EdgeEvent; end: LogCursor }[] = [];
  private firstPendingAt = 0;
  /** After a restart that reads again for the aggregates: the end of the lines already spooled as events. */
  private eventMark: LogMark | null = null;
  /** Whether the spool failed (said once per failing stretch). */
  private spoolFailing = false;
  /** When nginx's refusal tallies were last drained. */
  private drainedAt = Number.NEGATIVE_INFINITY;
  private invalid = { count: 0, reason: '', loggedAt: Number.NEGATIVE_INFINITY };
  /** Lines skipped since the agent started (not events, or broken). */
  invalidTotal = 0;

  constructor(private readonly options: EventCollectorOptions) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private get max(): number {
    return this.options.maxEvents ?? EVENT_BATCH_MAX;
  }

  /** Events waiting to be cut into a batch. */
  get waiting(): number {
    return this.pending.length;
  }

  /**
   * Opens the spool and positions the reader: at the saved cursor, or on the very first start where
   * the log ended when the agent started (`firstStart`), so that only an existing log's old lines
   * are skipped, however late this runs. Never throws: a failure is said and prepare runs again from `run`.
   */
  async prepare(): Promise<boolean> {
    if (this.reader !== null) return true;
    try {
      const { spool, aggregates } = this.options;
      await spool.open();
      // The aggregates may need lines from before the events' cursor read again (aggregate-feed.ts).
      const replayFrom = (await aggregates?.open()) ?? null;
      const start = replayFrom ?? spool.cursor ?? this.options.firstStart ?? null;
      const reader = new AccessLogReader(this.options.logFile, start, {
        graceMs: this.options.graceMs,
        now: this.options.now,
        notice: (notice) => this.notice(notice),
      });
      await reader.open();
      // Saved at once: a restart must not take lines nginx writes from now on for old ones.
      if (spool.cursor === null) await spool.saveCursor(reader.cursor ?? NO_FILE);
      if (aggregates !== undefined && replayFrom === null) await aggregates.start(spool.cursor ?? NO_FILE);
      this.eventMark = replayFrom === null ? null : new LogMark(replayFrom, spool.cursor);
      this.reader = reader;
      this.spoolOk();
      return true;
    } catch (err) {
      this.spoolFailed(err);
      return false;
    }
  }

  /**
   * Runs until the signal aborts; then spools what was read (best effort) and closes the log. A
   * round that read all it asked for starts the next one at once: behind the log (after a burst,
   * a restart, or while the node had no CPU to spare), it reads as fast as it can, not one batch
   * per interval (which capped it at 20,000 lines a second) — unless the node is busy (`busy`).
   */
  async run(): Promise<void> {
    const { signal } = this.options;
    const interval = this.options.intervalMs ?? 250;
    while (!signal.aborted) {
      const busy = this.options.busy?.() ?? false;
      const behind = (await this.prepare()) && (await this.tick());
      if (busy) await pause(this.options.busyRoundMs ?? 1000, signal);
      else if (behind) await new Promise((resolve) => setImmediate(resolve));
      else await pause(interval, signal);
    }
    if (this.pending.length > 0) await this.cut();
    if (this.options.aggregates !== undefined) {
      this.options.aggregates.closeAll();
      await this.cutAggregates();
    }
    await this.close();
  }

  /** Closes the log file (the spool keeps the cursor); `prepare` opens it again. */
  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = null;
    await reader?.close();
  }

  /**
   * One round: reads what fits the pending batch and cuts it when full or old enough. Answers
   * whether it got every line it asked for (more are probably waiting).
   */
  async tick(): Promise<boolean> {
    const reader = this.reader;
    if (reader === null) return false;
    const spool = this.options.spool;
    let full = false;
    try {
      const wanted = this.max - this.pending.length;
      const lines = await reader.read(wanted);
      full = wanted > 0 && lines.length === wanted;
      for (const line of lines) {
        if (line.text.trim() === '') continue;
        const parsed = parseEventLine(line.text, () => `${spool.spoolId}.${spool.nextSeq}.${this.pending.length}`);
        if (parsed.ok) this.options.aggregates?.add(parsed.event, line.end);
        // Read again for the aggregates only: already spooled as events.
        if (this.eventMark !== null && !this.eventMark.after(line.end)) continue;
        this.eventMark = null;
        if (parsed.ok) {
          if (this.pending.length === 0) this.firstPendingAt = this.now();
          this.pending.push({ event: parsed.event, end: line.end });
          this.options.onEvent?.(parsed.event);
        } else {
          this.skipped(1, parsed.reason);
        }
      }
    } catch (err) {
      // The log unreadable for a moment (a rotation racing the read): the next round tries again.
      this.options.log('warn', 'events.log_unreadable', { error: errorText(err) });
    }
    const cutMs = this.options.cutMs ?? 1000;
    if (this.pending.length >= this.max || (this.pending.length > 0 && this.now() - this.firstPendingAt >= cutMs)) {
      await this.cut();
    } else if (this.pending.length === 0 && reader.cursor !== null && this.eventMark === null) {
      // Only skipped lines, or a finished file: remember the position so they are not read again.
      await spool.saveCursor(reader.cursor).catch(() => undefined);
    }
    const aggregates = this.options.aggregates;
    if (aggregates !== undefined) {
      // At most once an interval (nginx moves its tallies into the dict every 0.25 s): a round behind
      // the log comes again at once, and would otherwise ask nginx on every one.
      const interval = this.options.intervalMs ?? 250;
      if (this.options.refusals !== undefined && this.now() - this.drainedAt >= interval) {
        this.drainedAt = this.now();
        await this.drainRefusals(aggregates, this.options.refusals);
      }
      // Read to its end: the log's time is now (a quiet log's minutes close too).
      if (!full) aggregates.advance(this.now());
      if (aggregates.ready) await this.cutAggregates();
    }
    this.logInvalid();
    return full;
  }

  /** Folds nginx's refusal tallies into the aggregates; a node without them (nginx down) says so and goes on. */
  private async drainRefusals(aggregates: AggregateFeed, endpoint: AdminEndpoint): Promise<void> {
    try {
      const drained = await drainRefusals(endpoint, (tally) => aggregates.addRefusals(tally));
      if (drained.dropped > 0) this.options.log('warn', 'aggregates.refusals_dropped', { dropped: drained.dropped });
    } catch (err) {
      this.options.log('warn', 'aggregates.refusals_unreadable', { error: errorText(err) });
    }
  }

  /**
   * Spools the closed minutes' aggregates, after the pending events (so that reading again after a
   * restart never starts past an event not spooled).
   */
  private async cutAggregates(): Promise<void> {
    const aggregates = this.options.aggregates as AggregateFeed;
    if (this.pending.length > 0) await this.cut();
    if (this.pending.length > 0) return;
    try {
      const { droppedNow, boundError } = await aggregates.cut();
      if (droppedNow > 0) {
        this.options.log('warn', 'aggregates.spool_full', { dropped: droppedNow, spoolBytes: aggregates.spool.bytes });
      }
      if (boundError !== undefined) {
        this.options.log('warn', 'aggregates.spool_trim_failed', { error: errorText(boundError) });
      }
    } catch (err) {
      // Held: spooled with the next cut.
      this.spoolFailed(err);
    }
  }

  /** Spools the pending events (halved while a batch would be over the route's limits). */
  private async cut(): Promise<void> {
    const spool = this.options.spool;
    let take = this.pending.length;
    while (take > 0) {
      const batch = spool.nextBatch(
        this.pending.slice(0, take).map((p) => p.event),
        this.options.aggregates === undefined ? undefined : false,
      );
      let bytes: Buffer;
      try {
        bytes = await EventSpool.encode(batch);
      } catch (err) {
        if (!(err instanceof BatchTooLargeError)) {
          this.spoolFailed(err);
          return;
        }
        if (take > 1) {
          take = Math.ceil(take / 2);
          continue;
        }
        // One event over the limit cannot be: the schema bounds every field far below it.
        this.pending.splice(0, 1);
        this.skipped(1, errorText(err));
        take = this.pending.length;
        continue;
      }
      const end = this.pending[take - 1]?.end as LogCursor;
      try {
        const { droppedNow, boundError } = await spool.append(batch, bytes, end);
        if (droppedNow > 0) {
          this.options.log('warn', 'events.spool_full', { dropped: droppedNow, spoolBytes: spool.bytes });
        }
        if (boundError !== undefined) {
          this.options.log('warn', 'events.spool_trim_failed', { error: errorText(boundError) });
        }
        this.spoolOk();
      } catch (err) {
        // Nothing changed: the same events are cut again next round, the reader waits meanwhile.
        this.spoolFailed(err);
        return;
      }
      this.pending.splice(0, take);
      if (this.pending.length > 0) this.firstPendingAt = this.now();
      take = this.pending.length;
    }
  }

  private notice(notice: ReaderNotice): void {
    const { log } = this.options;
    if (notice.lost) log('warn', 'events.log_lost', { inode: notice.lost.inode });
    if (notice.truncated) log('warn', 'events.log_truncated', notice.truncated);
    if (notice.broken) this.skipped(1, `${notice.broken} bytes without a line end`);
  }

  private skipped(count: number, reason: string): void {
    this.invalid.count += count;
    this.invalidTotal += count;
    if (this.invalid.reason === '') this.invalid.reason = reason;
  }

  private logInvalid(): void {
    if (this.invalid.count === 0 || this.now() - this.invalid.loggedAt < INVALID_LOG_MS) return;
    this.options.log('warn', 'events.lines_skipped', { count: this.invalid.count, first: this.invalid.reason });
    this.invalid = { count: 0, reason: '', loggedAt: this.now() };
  }

  private spoolFailed(err: unknown): void {
    if (!this.spoolFailing) {
      this.options.log('warn', 'events.spool_unwritable', { dir: this.options.spool.dir, error: errorText(err) });
    }
    this.spoolFailing = true;
  }

  private spoolOk(): void {
    if (this.spoolFailing) this.options.log('info', 'events.spool_writable', { dir: this.options.spool.dir });
    this.spoolFailing = false;
  }
}
