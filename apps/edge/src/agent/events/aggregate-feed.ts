import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import {
  AGGREGATE_BATCH_LIMITS,
  type AggregateBatch,
  DEFAULT_PARTIAL_MS,
  type EdgeEvent,
  EVENT_BATCH_GZIP_MAX_BYTES,
  encodeAggregateBatch,
  MinuteAggregator,
  type MinuteAggregatorOptions,
  packAggregates,
  type RefusalTally,
  type TakenAggregates,
} from '@rampart/contract';
import type { LogCursor } from './access-log-reader.js';
import { EventSpool, type SpoolReplay } from './event-spool.js';
import { LogMark } from './log-mark.js';

const gzip = promisify(gzipCallback);
const MINUTE = 60_000;

/**
 * The node's statistics as minute aggregates (contract aggregates/minute-aggregator.ts): every
 * event the collector reads is counted here, and each time minutes close they are cut into
 * batches and spooled (event-spool.ts, committed by its state: a group of batches is spooled whole
 * or not at all), shipped by their own shipper (POST /aggregates).
 *
 * Counted once across a crash: the lines of minutes still open live in memory only, so each group
 * saves where reading must start again (`from`: before the first line of the earliest minute still
 * open, or after the last line read) and what it holds (the lines up to `fedThrough` whose minute
 * is before `closedThrough`). After a restart the reader starts at `from`, and this feed skips the
 * lines up to `fedThrough` of minutes before `closedThrough` and counts the others again: what a
 * killed worker had in memory is counted once, what was spooled is not counted twice.
 *
 * Partial minutes: every `partialMs` of log time (15 s unless configured; 0: off) the open minutes'
 * counters are cut too, as they are, so that the statistics show a request within seconds rather
 * than after its minute and the grace; the lines of a minute that come after a partial make the
 * minute's next record (the control plane sums them). A minute's sketches (heavy hitters, address
 * sketches, collapsed blocks) go once, with its close: so reading still starts again at the earliest
 * open minute's first line, and the group notes how far its partials went (`partialThrough`): after
 * a restart those lines of open minutes are counted into the sketches alone. No partial is cut
 * while lines already spooled are read again.
 */

/** The end of the last line a partial shipped the counters of, and the latest minute it held lines of. */
interface PartialMark {
  end: LogCursor;
  minute: number;
}

export interface AggregateFeedOptions {
  dir: string;
  maxBytes?: number;
  /** `partialMs`: log time between partial cuts of the open minutes (DEFAULT_PARTIAL_MS unless given; 0: none). */
  aggregator?: MinuteAggregatorOptions;
}

/** Batches far below the route's gzip bound: gzip never outgrows JSON by more than a few bytes a block. */
const LIMITS = { ...AGGREGATE_BATCH_LIMITS, maxJsonBytes: EVENT_BATCH_GZIP_MAX_BYTES - 64 * 1024 };

export class AggregateFeed {
  readonly spool: EventSpool;
  private aggregator: MinuteAggregator;
  private readonly aggregatorOptions: MinuteAggregatorOptions;
  /** While reading again after a restart: the lines already in the spool. */
  private skip: { mark: LogMark; partial: LogMark | null; closedThrough: number } | null = null;
  /**
   * The end of the last line a partial shipped the counters of, and the latest minute it held
   * (after a restart: the latest seen while reading again up to it). Forgotten once that minute
   * closed: reading then starts again after it, maybe in a newer file than its end's.
   */
  private partial: PartialMark | null = null;
  /** The end of the last line counted (or the start). */
  private lastEnd: LogCursor | null = null;
  /** Open minutes, in the order their first line came: the position before that line. */
  private readonly openFrom = new Map<number, LogCursor>();
  /**
   * Taken from the aggregator and not spooled yet (the spool failed): spooled with the next group,
   * each with its partial's mark (a partial's counters are in it: the group spooling it names its end).
   */
  private held: { taken: TakenAggregates; partial: PartialMark | null }[] = [];
  /** Requests counted since the agent started (the replayed ones again). */
  counted = 0;

  constructor(private readonly options: AggregateFeedOptions) {
    this.spool = new EventSpool(options.dir, options.maxBytes, 'state');
    this.aggregatorOptions = { partialMs: DEFAULT_PARTIAL_MS, ...options.aggregator };
    this.aggregator = new MinuteAggregator(this.aggregatorOptions);
  }

  /**
   * Opens the spool; answers the cursor reading must start from (null: none saved, the caller's
   * own, then given to `start`).
   */
  async open(): Promise<LogCursor | null> {
    await this.spool.open();
    const replay = this.spool.replay;
    if (replay === null) return null;
    this.aggregator = new MinuteAggregator(this.aggregatorOptions);
    // Closed as they were when the group was cut: later lines of those minutes are corrections.
    this.aggregator.advance(replay.closedThrough + (this.options.aggregator?.graceMs ?? 5000));
    this.skip = {
      mark: new LogMark(replay.from, replay.fedThrough),
      partial: replay.partialThrough ? new LogMark(replay.from, replay.partialThrough) : null,
      closedThrough: replay.closedThrough,
    };
    this.partial = replay.partialThrough ? { end: replay.partialThrough, minute: -1 } : null;
    this.lastEnd = replay.from;
    return replay.from;
  }

  /** The first start of this spool: reading begins at `cursor`. */
  async start(cursor: LogCursor): Promise<void> {
    this.lastEnd = cursor;
    await this.spool.saveReplay({ from: cursor, fedThrough: cursor, closedThrough: 0 });
  }

  /** Counts one event, read from the line that ends at `end`. */
  add(event: EdgeEvent, end: LogCursor): void {
    const minute = event.time - (event.time % MINUTE);
    const skip = this.skip;
    let sketchesOnly = false;
    if (skip !== null) {
      // Both marks see every line (they follow the log's files in order).
      const partialShipped = skip.partial !== null && !skip.partial.after(end);
      if (skip.partial !== null && !partialShipped) skip.partial = null;
      if (!skip.mark.after(end)) {
        if (minute < skip.closedThrough) {
          this.lastEnd = end;
          return;
        }
        sketchesOnly = partialShipped;
      } else {
        this.skip = null;
      }
    }
    if (!this.openFrom.has(minute) && minute >= this.aggregator.closedThrough) {
      this.openFrom.set(minute, this.lastEnd ?? end);
    }
    if (sketchesOnly) {
      if (this.partial !== null) this.partial.minute = Math.max(this.partial.minute, minute);
      this.aggregator.addSketchesOnly(event);
      this.lastEnd = end;
      return;
    }
    this.aggregator.add(event);
    this.lastEnd = end;
    this.counted++;
  }

  /** Folds a tally of refusals nginx counted without logging them (refusal-tally.ts). */
  addRefusals(tally: RefusalTally): void {
    this.aggregator.addRefusals(tally);
    this.counted += tally.count;
  }

  /** The log's time has reached `time` (read to its end while quiet): closes the minutes it passed. */
  advance(time: number): void {
    this.aggregator.advance(time);
  }

  /** Closes every minute (the worker stopping): they are cut with the next `cut`. */
  closeAll(): void {
    this.aggregator.closeAll();
  }

  /** Whether closed minutes or corrections wait to be cut, or the open minutes' partials are due. */
  get ready(): boolean {
    const pending = this.aggregator.pending;
    return (
      this.held.length > 0 ||
      pending.closed > 0 ||
      (pending.late > 0 && pending.open === 0) ||
      (this.skip === null && this.aggregator.partialDue)
    );
  }

  /**
   * Cuts what is closed into a group of batches and spools it with where reading starts again.
   * Throws when the spool could not be written (what was taken is held for the next cut).
   */
  async cut(): Promise<{ batches: number; droppedNow: number; boundError?: unknown }> {
    // Partials take the counters of every line read so far; their minutes' sketches wait for the close.
    const end = this.lastEnd;
    if (end === null) throw new Error('cut before the feed started');
    const partials = this.skip === null && this.aggregator.partialDue;
    const taken = this.aggregator.take(partials);
    for (const minute of this.openFrom.keys()) if (minute < taken.closedThrough) this.openFrom.delete(minute);
    const all = [...this.held, { taken, partial: partials ? this.partialOfOpen(end) : null }];
    this.held = all;
    const whole: TakenAggregates = {
      minutes: all.flatMap((h) => h.taken.minutes),
      collapsed: all.flatMap((h) => h.taken.collapsed),
      closedThrough: taken.closedThrough,
    };
    // The latest partial spooled: this group's (held ones included, in the order they were cut), or the last group's.
    let latest = this.partial;
    for (const h of all) if (h.partial !== null) latest = h.partial;
    const partial = this.stillPartial(latest, taken.closedThrough);
    const replay: SpoolReplay = {
      from: this.openFrom.values().next().value ?? end,
      fedThrough: end,
      closedThrough: taken.closedThrough,
      ...(partial ? { partialThrough: partial.end } : {}),
    };
    const bodies = packAggregates(whole, LIMITS);
    const group: { dropped: number; count: number; bytes: Buffer }[] = [];
    for (const [i, body] of bodies.entries()) {
      const dropped = i === 0 ? this.spool.dropped : 0;
      const batch: AggregateBatch = { batchId: this.spool.batchIdAt(i), dropped, ...body };
      const count = body.minutes.reduce((n, m) => n + m.counters[0], 0);
      // The compact form (every string once, records as integer arrays), level 1 as event batches.
      group.push({ dropped, count, bytes: await gzip(JSON.stringify(encodeAggregateBatch(batch)), { level: 1 }) });
    }
    const result = await this.spool.appendGroup(group, end, replay);
    this.held = [];
    this.partial = partial;
    return { batches: group.length, droppedNow: result.droppedNow, boundError: result.boundError };
  }

  /** A partial cut now, through `end`: it holds lines of the minutes open (none: nothing to mark). */
  private partialOfOpen(end: LogCursor): PartialMark | null {
    const minutes = [...this.openFrom.keys()];
    return minutes.length === 0 ? null : { end, minute: Math.max(...minutes) };
  }

  /**
   * `partial`, unless every minute it held lines of is closed by now (through `closedThrough`)
   * and its end was read past after a restart: reading starts again after it then.
   */
  private stillPartial(partial: PartialMark | null, closedThrough: number): PartialMark | null {
    if (partial === null || partial.minute >= closedThrough) return partial;
    const readPast = this.skip === null || this.skip.partial === null;
    return readPast ? null : partial;
  }
}
