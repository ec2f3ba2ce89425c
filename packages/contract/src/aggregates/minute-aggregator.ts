import type { RefusalTally } from '../edge/refusal-tally.js';
import type { AggregateMinute, CollapsedBlocks } from '../routes/analytics-aggregates.js';
import { AGGREGATE_TOP_K } from '../routes/analytics-aggregates.js';
import type { EdgeEvent } from '../routes/analytics-events.js';
import { AUX, addLow, DomainMinute, MinuteSeconds, statusText } from './domain-minute.js';
import {
  addCounters,
  type CountedRequest,
  eventFlagsInto,
  fileTypeOf,
  methodBucket,
  pathPart,
} from './event-counters.js';
import { HyperLogLog } from './hyperloglog.js';
import { MinuteValues } from './interner.js';
import { collapseKey, MinuteSketches, tallySample } from './minute-sketches.js';

/**
 * Turns a node's request events, in the order its access log has them, into minute aggregates
 * (routes/analytics-aggregates.ts): per UTC minute and domain, exact counters and low-cardinality
 * dimensions, heavy hitters, address sketches, time histograms and per-second peaks, and the
 * blocked requests collapsed per address and decision.
 *
 * When a minute is finished: nginx's workers write the log each through its own buffer, so the
 * times in it are only nearly in order. A minute closes once the log has reached `graceMs` past
 * its end (the latest time seen, or a clock the caller advances with `advance` when the log is
 * quiet and read to its end). An event for a minute already closed is not lost: it goes into a
 * correction record for that minute (`late`), shipped with the next minutes taken, which the
 * control plane sums with the rest like any partial row.
 *
 * Partial minutes (`partialMs`): so that a request shows in the statistics well before its minute
 * closes, every `partialMs` of log time the open minutes' counters are cut as they are
 * (`partialDue`, taken by `take`) and counted again from nothing: later partials and the close
 * carry only what came since, so every counter, histogram and low dimension of a minute is the sum
 * of its records. The minute's sketches (heavy hitters, address sketches, collapsed blocks:
 * minute-sketches.ts) are kept across its partials and shipped once, with its closing record (a
 * domain whose last request came before the last partial gets a closing record of zero counters
 * carrying them). After a restart, the lines whose counters a partial shipped are counted into the
 * sketches alone (`addSketchesOnly`). Per-second peaks are the exception a sum would break: the minute's seconds are kept
 * across its records (MinuteSeconds) and each record carries what the busiest second grew by, so
 * the records' peaks sum to the minute's busiest second (corrections too, while their minute's
 * seconds are kept: SECONDS_KEPT_MS). Nothing here reads a clock: the same events give the same
 * records.
 */

export interface MinuteAggregatorOptions {
  /** How far past a minute's end the log must be before the minute closes (default 5 s). */
  graceMs?: number;
  /** Capacity of the heavy-hitter summaries (default AGGREGATE_TOP_K). */
  topK?: number;
  /** The client address's country (alpha-2, "" unknown) and city (GeoNames id, 0 unknown). */
  locate?: (ip: string) => { country: string; city: number };
  /** Most collapsed records per minute and domain; further decisions go to one record per decision with ip "". */
  collapseMax?: number;
  /** Log time between partial cuts of the open minutes (0, the default: a minute is taken whole at its close). */
  partialMs?: number;
}

export const DEFAULT_GRACE_MS = 5000;
export const DEFAULT_COLLAPSE_MAX = 1000;
/** The agent's partial interval unless configured (aggregate-feed.ts). */
export const DEFAULT_PARTIAL_MS = 15_000;
/** How long after its close a minute's seconds are kept for its corrections' peaks (older ones count their own seconds). */
const SECONDS_KEPT_MS = 10 * 60_000;
const MINUTE = 60_000;
const UNKNOWN = { country: '', city: 0 };

/** Sketches by minute and domain, and each minute's interned values (shared by its domains' summaries). */
class SketchTable {
  private readonly minutes = new Map<number, { values: MinuteValues; domains: Map<number, MinuteSketches> }>();

  constructor(private readonly k: number) {}

  get(minute: number, domainId: number): MinuteSketches {
    let at = this.minutes.get(minute);
    if (at === undefined) {
      at = { values: new MinuteValues(), domains: new Map() };
      this.minutes.set(minute, at);
    }
    let s = at.domains.get(domainId);
    if (s === undefined) {
      s = new MinuteSketches(minute, domainId, this.k, AUX, at.values);
      at.domains.set(domainId, s);
    }
    return s;
  }

  /** The minutes before `bound` (all: Infinity), forgotten here. */
  takeBefore(bound: number): MinuteSketches[] {
    const out: MinuteSketches[] = [];
    for (const [minute, at] of this.minutes) {
      if (minute >= bound) continue;
      out.push(...at.domains.values());
      this.minutes.delete(minute);
    }
    return out;
  }
}

/** Finished minutes: their records and their collapsed blocks. */
export interface TakenAggregates {
  minutes: AggregateMinute[];
  collapsed: CollapsedBlocks[];
  /** Every minute before this (unix ms) is closed. */
  closedThrough: number;
}

export class MinuteAggregator {
  private readonly graceMs: number;
  private readonly k: number;
  private readonly locate: (ip: string) => { country: string; city: number };
  private readonly collapseMax: number;
  private readonly partialMs: number;
  /** Per minute and domain, its seconds across its records (partials, close, corrections). */
  private readonly seconds = new Map<number, Map<number, MinuteSeconds>>();
  /** The log time at which the open minutes are next cut as partials (0: not yet set). */
  private nextPartial = 0;
  /** Minutes still open, by minute then domain (their records since the last partial). */
  private readonly open = new Map<number, Map<number, DomainMinute>>();
  /** The open minutes' sketches, across their partials. */
  private readonly sketches: SketchTable;
  /** Corrections of closed minutes, by minute then domain. */
  private readonly late = new Map<number, Map<number, DomainMinute>>();
  /** Closed minutes not taken yet. */
  private readonly done: DomainMinute[] = [];
  /** Scratch of count(): one request's counted fields and dimension counters. */
  private readonly counted: CountedRequest = {
    hit: 0,
    blocked: 0,
    blacklisted: 0,
    waf: 0,
    status: 0,
    bytesIn: 0,
    bytesOut: 0,
    upstreamMs: 0,
    upstreamStatus: 0,
  };
  private readonly dim = [1, 0, 0, 0, 0];
  /** The latest time the log (or `advance`) has reached. */
  private watermark = 0;
  /** Every minute before this is closed. */
  private closedBefore = 0;

  constructor(options: MinuteAggregatorOptions = {}) {
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.k = options.topK ?? AGGREGATE_TOP_K;
    this.locate = options.locate ?? (() => UNKNOWN);
    this.collapseMax = options.collapseMax ?? DEFAULT_COLLAPSE_MAX;
    this.partialMs = options.partialMs ?? 0;
    this.sketches = new SketchTable(this.k);
  }

  /** Counts one event. */
  add(e: EdgeEvent): void {
    const minute = e.time - (e.time % MINUTE);
    const m = this.domainMinute(minute, e.domainId);
    this.count(m, e, 1, e.status, e.bytesIn, e.bytesOut, e.time);
    if (e.time > this.watermark) this.advance(e.time);
  }

  /** The minute (or its correction) of `domainId` at `minute`, made if new. */
  private domainMinute(minute: number, domainId: number): DomainMinute {
    const isLate = minute < this.closedBefore;
    const table = isLate ? this.late : this.open;
    let domains = table.get(minute);
    if (domains === undefined) {
      domains = new Map();
      table.set(minute, domains);
    }
    let m = domains.get(domainId);
    if (m === undefined) {
      // A correction has sketches of its own (the minute's went with its close), its values shared with the minute's other corrections.
      const sketches = isLate
        ? new MinuteSketches(
            minute,
            domainId,
            this.k,
            AUX,
            domains.values().next().value?.sketches.values ?? new MinuteValues(),
          )
        : this.sketches.get(minute, domainId);
      m = new DomainMinute(minute, domainId, isLate, sketches, this.secondsOf(minute, domainId));
      m.final = isLate;
      domains.set(domainId, m);
    }
    return m;
  }

  /**
   * Counts one event into its minute's sketches alone: a line read again after a restart whose
   * counters a partial already shipped (aggregate-feed.ts). Nothing for a minute already closed
   * (its close shipped them).
   */
  addSketchesOnly(e: EdgeEvent): void {
    const minute = e.time - (e.time % MINUTE);
    if (minute < this.closedBefore) return;
    const counted = eventFlagsInto(this.counted, e.cacheStatus, e.fwKind, e.fwAction);
    this.dimOf(counted, 1, e.bytesOut);
    this.countSketches(this.sketches.get(minute, e.domainId), e, 1, counted, e.bytesIn, e.bytesOut, e.time);
    if (e.time > this.watermark) this.advance(e.time);
  }

  /** The seconds of `domainId` at `minute`, made if new. */
  private secondsOf(minute: number, domainId: number): MinuteSeconds {
    let domains = this.seconds.get(minute);
    if (domains === undefined) {
      domains = new Map();
      this.seconds.set(minute, domains);
    }
    let s = domains.get(domainId);
    if (s === undefined) {
      s = new MinuteSeconds();
      domains.set(domainId, s);
    }
    return s;
  }

  /**
   * Folds a tally of refusals nginx counted without logging them (edge/refusal-tally.ts): `count`
   * requests like the logged first one of its (minute, domain, address, decision), whose collapsed
   * record carries it, with the tally's status and bytes. What a tally does not carry is taken
   * from that first request (method, URL, user agent, referer, HTTP version, scheme, file type,
   * request time) and its requests count in the second of the last one (the minute's per-second
   * peak can read high). Without a logged first request in this minute (logged in the minute
   * before, or not read), a sample is made of the tally alone (no URL, method OTHER). A tally of a
   * minute already closed is a correction. The log's time does not move.
   */
  addRefusals(t: RefusalTally): void {
    const m = this.domainMinute(t.minute, t.domainId);
    const logged = m.sketches.collapsed.get(collapseKey(t.ip, t.fwKind, t.fwRule, t.fwAction));
    const sample = logged?.sample ?? tallySample(t);
    const time = Math.min(Math.max(t.last, t.minute), t.minute + MINUTE - 1);
    this.count(m, sample, t.count, t.status, t.bytesIn, t.bytesOut, time);
  }

  /**
   * Counts `n` requests like `e` with the status, summed bytes and time given (an event: 1 and its
   * own; a tally: its count, status, bytes and last time).
   */
  private count(
    m: DomainMinute,
    e: EdgeEvent,
    n: number,
    status: number,
    bytesIn: number,
    bytesOut: number,
    time: number,
  ): void {
    const counted = eventFlagsInto(this.counted, e.cacheStatus, e.fwKind, e.fwAction);
    counted.status = status;
    counted.bytesIn = bytesIn;
    counted.bytesOut = bytesOut;
    counted.upstreamMs = e.upstreamMs;
    counted.upstreamStatus = e.upstreamStatus;
    addCounters(m.counters, counted, n);
    const dim = this.dimOf(counted, n, bytesOut);
    const where = this.locate(e.ip);
    const path = pathPart(e.path);
    const low = m.low;
    addLow(low[0]!, statusText(status), dim);
    addLow(low[1]!, methodBucket(e.method), dim);
    addLow(low[2]!, e.httpVersion, dim);
    addLow(low[3]!, e.scheme, dim);
    addLow(low[4]!, where.country, dim);
    addLow(low[5]!, where.city > 0 ? String(where.city) : '', dim);
    addLow(low[6]!, fileTypeOf(path), dim);
    this.countSketches(m.sketches, e, n, counted, bytesIn, bytesOut, time);
    m.requestMs.add(e.requestMs, n);
    if (e.upstreamMs >= 0) m.upstreamMs.add(e.upstreamMs, n);
    const second = Math.floor((time - m.minute) / 1000);
    m.seconds.requests[second]! += n;
    m.seconds.bytes[second]! += bytesOut;
  }

  /** The dimension rows' counters of `n` requests (DIM_COUNTERS), in a reused array: the sums copy them. */
  private dimOf(counted: CountedRequest, n: number, bytesOut: number): number[] {
    const dim = this.dim;
    dim[0] = n;
    dim[1] = bytesOut;
    dim[2] = counted.blocked * n;
    dim[3] = counted.blacklisted * n;
    dim[4] = counted.waf * n;
    return dim;
  }

  /** `n` requests like `e` into the minute's sketches (after dimOf). */
  private countSketches(
    s: MinuteSketches,
    e: EdgeEvent,
    n: number,
    counted: CountedRequest,
    bytesIn: number,
    bytesOut: number,
    time: number,
  ): void {
    const dim = this.dim;
    const top = s.top;
    const values = s.values;
    const ip = values.ip.id(e.ip);
    top.url.addId(values.url.id(pathPart(e.path)), n, dim);
    top.referer.addId(values.referer.id(e.referer), n, dim);
    top.userAgent.addId(values.userAgent.id(e.userAgent), n, dim);
    top.ip.addId(ip, n, dim);
    const address = values.ipHash(ip);
    s.ips.addHash(address);
    if (counted.blocked) {
      if (s.blockedIps === null) s.blockedIps = new HyperLogLog();
      s.blockedIps.addHash(address);
      s.collapse(e, n, bytesIn, bytesOut, time, this.collapseMax);
    }
    if (counted.blacklisted) {
      if (s.blacklistedIps === null) s.blacklistedIps = new HyperLogLog();
      s.blacklistedIps.addHash(address);
      top.ipBlacklisted.addId(ip, n, dim);
    }
    if (counted.waf) top.ipWaf.addId(ip, n, dim);
  }

  /** Moves the log's time to `time` (unix ms) if later, closing the minutes it has passed by the grace. */
  advance(time: number): void {
    if (time > this.watermark) this.watermark = time;
    if (this.partialMs > 0 && this.nextPartial === 0) this.nextPartial = this.watermark + this.partialMs;
    const closeBefore = Math.max(0, this.watermark - this.graceMs);
    const bound = closeBefore - (closeBefore % MINUTE);
    if (bound <= this.closedBefore) return;
    this.closedBefore = bound;
    const closed = this.closeBefore(bound);
    for (const minute of this.seconds.keys()) if (minute < bound - SECONDS_KEPT_MS) this.seconds.delete(minute);
    // A close ships the closing minutes' last part: the next partial is an interval after it.
    if (closed && this.partialMs > 0) this.nextPartial = this.watermark + this.partialMs;
  }

  /** Whether the open minutes are due to be cut as partials (the log has reached the partial interval since the last cut). */
  get partialDue(): boolean {
    return this.partialMs > 0 && this.open.size > 0 && this.watermark >= this.nextPartial;
  }

  /**
   * Closes the open minutes before `bound`: each domain's record since the last partial, or one of
   * zero counters where none is open (its requests all went with partials), made final to ship
   * the minute's sketches. Whether any closed.
   */
  private closeBefore(bound: number): boolean {
    const closing = this.sketches.takeBefore(bound);
    for (const s of closing) {
      const domains = this.open.get(s.minute);
      let m = domains?.get(s.domainId);
      if (m === undefined) m = new DomainMinute(s.minute, s.domainId, false, s, this.secondsOf(s.minute, s.domainId));
      m.final = true;
      this.done.push(m);
    }
    for (const minute of this.open.keys()) if (minute < bound) this.open.delete(minute);
    return closing.length > 0;
  }

  /** Closes every minute (the agent stopping): what is open is taken with the rest. */
  closeAll(): void {
    this.closeBefore(Number.POSITIVE_INFINITY);
    const last = Math.max(this.closedBefore, this.watermark - (this.watermark % MINUTE) + MINUTE);
    this.closedBefore = last;
  }

  /** Every minute before this (unix ms) is closed: later requests of those minutes are corrections. */
  get closedThrough(): number {
    return this.closedBefore;
  }

  /** Minutes being counted, and corrections waiting. */
  get pending(): { open: number; closed: number; late: number } {
    let open = 0;
    for (const d of this.open.values()) open += d.size;
    let late = 0;
    for (const d of this.late.values()) late += d.size;
    return { open, closed: this.done.length, late };
  }

  /**
   * The closed minutes and the corrections so far, and with `partials` (by default when due) what
   * the open minutes hold, as records (sorted by minute, then domain); they are forgotten here.
   */
  take(partials = this.partialDue): TakenAggregates {
    const finished = [...this.done];
    this.done.length = 0;
    if (partials) {
      for (const domains of this.open.values()) finished.push(...domains.values());
      this.open.clear();
      if (this.partialMs > 0) this.nextPartial = this.watermark + this.partialMs;
    }
    for (const domains of this.late.values()) finished.push(...domains.values());
    this.late.clear();
    finished.sort((a, b) => a.minute - b.minute || a.domainId - b.domainId || Number(a.late) - Number(b.late));
    const collapsed: CollapsedBlocks[] = [];
    for (const m of finished) collapsed.push(...m.collapsed);
    return { minutes: finished.map((m) => m.toRecord()), collapsed, closedThrough: this.closedBefore };
  }
}
