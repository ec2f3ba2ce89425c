import type { RefusalTally } from '../edge/refusal-tally.js';
import type { AggregateMinute, CollapsedBlocks } from '../routes/analytics-aggregates.js';
import { AGGREGATE_TOP_K } from '../routes/analytics-aggregates.js';
import type { EdgeEvent } from '../routes/analytics-events.js';
import { addLow, collapseKey, DomainMinute, MinuteSeconds, MinuteValues, statusText } from './domain-minute.js';
import {
  addCounters,
  type CountedRequest,
  eventFlagsInto,
  fileTypeOf,
  methodBucket,
  pathPart,
} from './event-counters.js';
import { HyperLogLog } from './hyperloglog.js';

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
 * closes, every `partialMs` of log time the open minutes are cut as they are (`partialDue`, taken
 * by `take`) and counted again from nothing: later partials and the close carry only what came
 * since, so every counter, histogram and low dimension of a minute is the sum of its records, its
 * address sketches their union (register max), its heavy hitters their sum within the summed floors
 * of the records (heavy-hitters.ts), its collapsed blocks one per record (the log search merges
 * them). Per-second peaks are the exception a sum would break: the minute's seconds are kept
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
/** The id of a sample made of a tally alone (no logged request yet): a logged request replaces it. */
const TALLY_SAMPLE_ID = 'tally';

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
  /** Minutes still open, by minute then domain. */
  private readonly open = new Map<number, Map<number, DomainMinute>>();
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
      const first = domains.values().next().value;
      m = new DomainMinute(
        minute,
        domainId,
        isLate,
        this.k,
        first?.values ?? new MinuteValues(),
        this.secondsOf(minute, domainId),
      );
      domains.set(domainId, m);
    }
    return m;
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
    const logged = m.collapsed.get(collapseKey(t.ip, t.fwKind, t.fwRule, t.fwAction));
    const sample: EdgeEvent = logged?.sample ?? {
      id: TALLY_SAMPLE_ID,
      time: t.last,
      domainId: t.domainId,
      ip: t.ip,
      method: '',
      scheme: 'http',
      httpVersion: '',
      host: '',
      path: '',
      status: t.status,
      bytesIn: 0,
      bytesOut: 0,
      requestMs: 0,
      upstreamMs: -1,
      upstreamStatus: 0,
      cacheStatus: '',
      userAgent: '',
      referer: '',
      fwKind: t.fwKind,
      fwRule: t.fwRule,
      fwAction: t.fwAction,
      wafPart: '',
      wafExcerpt: '',
      wafName: '',
    };
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
    // The dimension rows' counters of these requests (DIM_COUNTERS), reused: the sums copy them.
    const dim = this.dim;
    dim[0] = n;
    dim[1] = bytesOut;
    dim[2] = counted.blocked * n;
    dim[3] = counted.blacklisted * n;
    dim[4] = counted.waf * n;
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
    const top = m.top;
    const values = m.values;
    const ip = values.ip.id(e.ip);
    top.url.addId(values.url.id(path), n, dim);
    top.referer.addId(values.referer.id(e.referer), n, dim);
    top.userAgent.addId(values.userAgent.id(e.userAgent), n, dim);
    top.ip.addId(ip, n, dim);
    const address = values.ipHash(ip);
    m.ips.addHash(address);
    if (counted.blocked) {
      if (m.blockedIps === null) m.blockedIps = new HyperLogLog();
      m.blockedIps.addHash(address);
      this.collapse(m, e, n, bytesIn, bytesOut, time);
    }
    if (counted.blacklisted) {
      if (m.blacklistedIps === null) m.blacklistedIps = new HyperLogLog();
      m.blacklistedIps.addHash(address);
      top.ipBlacklisted.addId(ip, n, dim);
    }
    if (counted.waf) top.ipWaf.addId(ip, n, dim);
    m.requestMs.add(e.requestMs, n);
    if (e.upstreamMs >= 0) m.upstreamMs.add(e.upstreamMs, n);
    const second = Math.floor((time - m.minute) / 1000);
    m.seconds.requests[second]! += n;
    m.seconds.bytes[second]! += bytesOut;
  }

  /** Blocked requests into their collapsed record (or the minute's overflow record of their decision). */
  private collapse(m: DomainMinute, e: EdgeEvent, n: number, bytesIn: number, bytesOut: number, time: number): void {
    let key = collapseKey(e.ip, e.fwKind, e.fwRule, e.fwAction);
    let record = m.collapsed.get(key);
    if (record === undefined && m.collapsed.size >= this.collapseMax) {
      key = collapseKey('', e.fwKind, e.fwRule, e.fwAction);
      record = m.collapsed.get(key);
    }
    if (record === undefined) {
      const ip = key.startsWith('|') ? '' : e.ip;
      m.collapsed.set(key, {
        minute: m.minute,
        domainId: m.domainId,
        ip,
        fwKind: e.fwKind,
        fwRule: e.fwRule,
        fwAction: e.fwAction,
        count: n,
        first: time,
        last: time,
        bytesIn,
        bytesOut,
        sample: e,
      });
      return;
    }
    record.count += n;
    // nginx flushes its log a second apart while tallies are drained at once: the logged first
    // request may come after its tally, and becomes the sample (its id is the one its page showed).
    if (
      record.sample.id === TALLY_SAMPLE_ID &&
      e.id !== TALLY_SAMPLE_ID &&
      key === collapseKey(e.ip, e.fwKind, e.fwRule, e.fwAction)
    ) {
      record.sample = e;
    }
    if (time < record.first) record.first = time;
    if (time > record.last) record.last = time;
    record.bytesIn += bytesIn;
    record.bytesOut += bytesOut;
  }

  /** Moves the log's time to `time` (unix ms) if later, closing the minutes it has passed by the grace. */
  advance(time: number): void {
    if (time > this.watermark) this.watermark = time;
    if (this.partialMs > 0 && this.nextPartial === 0) this.nextPartial = this.watermark + this.partialMs;
    const closeBefore = Math.max(0, this.watermark - this.graceMs);
    const bound = closeBefore - (closeBefore % MINUTE);
    if (bound <= this.closedBefore) return;
    this.closedBefore = bound;
    let closed = false;
    for (const minute of [...this.open.keys()].sort((a, b) => a - b)) {
      if (minute >= bound) continue;
      this.done.push(...(this.open.get(minute) as Map<number, DomainMinute>).values());
      this.open.delete(minute);
      closed = true;
    }
    for (const minute of this.seconds.keys()) if (minute < bound - SECONDS_KEPT_MS) this.seconds.delete(minute);
    // A close ships the closing minutes' last part: the next partial is an interval after it.
    if (closed && this.partialMs > 0) this.nextPartial = this.watermark + this.partialMs;
  }

  /** Whether the open minutes are due to be cut as partials (the log has reached the partial interval since the last cut). */
  get partialDue(): boolean {
    return this.partialMs > 0 && this.open.size > 0 && this.watermark >= this.nextPartial;
  }

  /** Closes every minute (the agent stopping): what is open is taken with the rest. */
  closeAll(): void {
    for (const domains of this.open.values()) this.done.push(...domains.values());
    this.open.clear();
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
    for (const m of finished) collapsed.push(...m.collapsed.values());
    return { minutes: finished.map((m) => m.toRecord()), collapsed, closedThrough: this.closedBefore };
  }
}
