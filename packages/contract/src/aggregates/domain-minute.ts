import type { AggregateMinute, CollapsedBlocks } from '../routes/analytics-aggregates.js';
import { DIM_COUNTERS, LOW_DIM_NAMES, ROLLUP_COUNTERS } from './event-counters.js';
import { Histogram } from './histogram.js';
import type { MinuteSketches } from './minute-sketches.js';

/** One minute of one domain while the minute aggregator (minute-aggregator.ts) counts it, and its helpers. */

/** The side sums a heavy hitter keeps (DIM_COUNTERS: requests, bytes out, blocked, blacklisted, WAF). */
export const AUX = DIM_COUNTERS.length;

/** A dimension value's sums, plus one request's. */
export function addLow(values: Map<string, number[]>, v: string, dim: readonly number[]): void {
  const sums = values.get(v);
  if (sums === undefined) values.set(v, dim.slice());
  else for (let i = 0; i < AUX; i++) sums[i]! += dim[i]!;
}

/** Status codes as text, made once. */
const STATUS_TEXT: string[] = Array.from({ length: 1000 }, (_, i) => String(i));
export const statusText = (status: number) => STATUS_TEXT[status] ?? String(status);

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

/**
 * One record of one minute and domain while it is being counted: a partial (counters, low
 * dimensions, histograms, peaks: what came since the minute's record before), or the minute's
 * closing record (`final`), which also carries the minute's sketches (minute-sketches.ts), or a
 * correction (a final record of its own sketches).
 */
export class DomainMinute {
  readonly counters = new Array<number>(ROLLUP_COUNTERS.length).fill(0);
  /** Per LOW_DIM_NAMES, in its order: value → DIM_COUNTERS. */
  readonly low: Map<string, number[]>[] = LOW_DIM_NAMES.map(() => new Map());
  readonly requestMs = new Histogram();
  readonly upstreamMs = new Histogram();
  /** The minute's closing record or a correction: it ships the sketches. */
  final = false;

  constructor(
    readonly minute: number,
    readonly domainId: number,
    readonly late: boolean,
    /** The minute's sketches, across its records (a correction's its own). */
    readonly sketches: MinuteSketches,
    /** The minute's seconds, across its records. */
    readonly seconds: MinuteSeconds = new MinuteSeconds(),
  ) {}

  /** The blocked requests collapsed for the logs this record ships (a final record's). */
  get collapsed(): Iterable<CollapsedBlocks> {
    return this.final ? this.sketches.collapsed.values() : [];
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
    const [peakRequests, peakBytesOut] = this.seconds.takePeaks();
    return {
      minute: this.minute,
      domainId: this.domainId,
      late: this.late,
      counters: [...this.counters] as AggregateMinute['counters'],
      low,
      ...(this.final ? this.sketches.toRecord() : {}),
      requestMs: this.requestMs.toJSON(),
      ...(this.upstreamMs.count > 0 ? { upstreamMs: this.upstreamMs.toJSON() } : {}),
      peakRequests,
      peakBytesOut,
    };
  }
}
