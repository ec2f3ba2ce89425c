import type { AggregateMinute, CollapsedBlocks } from '../routes/analytics-aggregates.js';
import { DIM_COUNTERS, type HIGH_DIM_NAMES, LOW_DIM_NAMES, ROLLUP_COUNTERS } from './event-counters.js';
import { HeavyHitters } from './heavy-hitters.js';
import { Histogram } from './histogram.js';
import { HyperLogLog, hash52 } from './hyperloglog.js';
import { Interner } from './interner.js';

/** One minute of one domain while the minute aggregator (minute-aggregator.ts) counts it, and its helpers. */

/** The side sums a heavy hitter keeps (DIM_COUNTERS: requests, bytes out, blocked, blacklisted, WAF). */
export const AUX = DIM_COUNTERS.length;

/** A dimension value's sums, plus one request's. */
export function addLow(values: Map<string, number[]>, v: string, dim: readonly number[]): void {
  const sums = values.get(v);
  if (sums === undefined) values.set(v, dim.slice());
  else for (let i = 0; i < AUX; i++) sums[i]! += dim[i]!;
}

/** The collapsed record's key of an address ("" the overflow record) and decision. */
export const collapseKey = (ip: string, kind: string, rule: number, action: string) =>
  `${ip}|${kind}|${rule}|${action}`;

/** Status codes as text, made once. */
const STATUS_TEXT: string[] = Array.from({ length: 1000 }, (_, i) => String(i));
export const statusText = (status: number) => STATUS_TEXT[status] ?? String(status);

/** The values of one minute's requests as ids, shared by its domains' summaries (interner.ts). */
export class MinuteValues {
  readonly url = new Interner();
  readonly referer = new Interner();
  readonly userAgent = new Interner();
  readonly ip = new Interner();
  /** Address id → its 52-bit hash (hashed once a minute). */
  private readonly ipHashes: number[] = [];

  ipHash(id: number): number {
    let h = this.ipHashes[id];
    if (h === undefined) {
      h = hash52(this.ip.values[id] as string);
      this.ipHashes[id] = h;
    }
    return h;
  }
}

/**
 * A node's per-second requests and bytes of one minute and domain, shared by every record of that
 * minute it ships (partials, the close, corrections), and the busiest second those records carried
 * so far. Each record carries what the busiest second grew by since the records before it
 * (`takePeaks`), so the records' peaks of a minute sum to its busiest second: the control plane,
 * which sums records, reads the true peak however many records a minute took.
 */
export class MinuteSeconds {
  readonly requests = new Array<number>(60).fill(0);
  readonly bytes = new Array<number>(60).fill(0);
  private shippedRequests = 0;
  private shippedBytes = 0;

  /** The busiest second's growth since the last call (requests, bytes out); at least 0. */
  takePeaks(): [number, number] {
    const requests = Math.max(...this.requests);
    const bytes = Math.max(...this.bytes);
    const grown: [number, number] = [requests - this.shippedRequests, bytes - this.shippedBytes];
    this.shippedRequests = requests;
    this.shippedBytes = bytes;
    return grown;
  }
}

/** One minute of one domain while it is being counted (one record: the whole minute, a partial, or a correction). */
export class DomainMinute {
  readonly counters = new Array<number>(ROLLUP_COUNTERS.length).fill(0);
  /** Per LOW_DIM_NAMES, in its order: value → DIM_COUNTERS. */
  readonly low: Map<string, number[]>[] = LOW_DIM_NAMES.map(() => new Map());
  readonly top: Record<(typeof HIGH_DIM_NAMES)[number] | 'ipBlacklisted' | 'ipWaf', HeavyHitters>;
  readonly ips = new HyperLogLog();
  blockedIps: HyperLogLog | null = null;
  blacklistedIps: HyperLogLog | null = null;
  readonly requestMs = new Histogram();
  readonly upstreamMs = new Histogram();
  readonly collapsed = new Map<string, CollapsedBlocks>();

  constructor(
    readonly minute: number,
    readonly domainId: number,
    readonly late: boolean,
    k: number,
    readonly values: MinuteValues,
    /** The minute's seconds, across its records. */
    readonly seconds: MinuteSeconds = new MinuteSeconds(),
  ) {
    this.top = {
      url: new HeavyHitters(k, AUX, undefined, values.url),
      referer: new HeavyHitters(k, AUX, undefined, values.referer),
      userAgent: new HeavyHitters(k, AUX, undefined, values.userAgent),
      ip: new HeavyHitters(k, AUX, undefined, values.ip),
      ipBlacklisted: new HeavyHitters(k, AUX, undefined, values.ip),
      ipWaf: new HeavyHitters(k, AUX, undefined, values.ip),
    };
  }

  /** The record (taken once: its peaks are what the minute's busiest second grew by since its records before). */
  toRecord(): AggregateMinute {
    const low = Object.fromEntries(
      LOW_DIM_NAMES.map((d, i) => [
        d,
        [...(this.low[i] ?? [])]
          .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
          .map(([value, c]) => [value, ...c]),
      ]),
    ) as AggregateMinute['low'];
    const top = this.top;
    const [peakRequests, peakBytesOut] = this.seconds.takePeaks();
    return {
      minute: this.minute,
      domainId: this.domainId,
      late: this.late,
      counters: [...this.counters] as AggregateMinute['counters'],
      low,
      top: {
        url: top.url.toJSON(),
        referer: top.referer.toJSON(),
        userAgent: top.userAgent.toJSON(),
        ip: top.ip.toJSON(),
        ...(top.ipBlacklisted.n > 0 ? { ipBlacklisted: top.ipBlacklisted.toJSON() } : {}),
        ...(top.ipWaf.n > 0 ? { ipWaf: top.ipWaf.toJSON() } : {}),
      } as AggregateMinute['top'],
      ips: this.ips.toJSON(),
      ...(this.blockedIps ? { blockedIps: this.blockedIps.toJSON() } : {}),
      ...(this.blacklistedIps ? { blacklistedIps: this.blacklistedIps.toJSON() } : {}),
      requestMs: this.requestMs.toJSON(),
      ...(this.upstreamMs.count > 0 ? { upstreamMs: this.upstreamMs.toJSON() } : {}),
      peakRequests,
      peakBytesOut,
    };
  }
}
