import type { Clock } from '../../platform/clock.js';
import type { LogSampleRow } from './log-samples.repository.js';

/** Seconds of one window of the arrival counts the sampler decides from. */
export const LOG_SAMPLE_WINDOW_SECONDS = 10;

/**
 * Log records a second the analytics store's raw log table takes through the node API's path, as
 * `npm run bench:log-capacity` measured on the project's 2-core machines under the other jobs'
 * load (bench/README.md; idle, about twice as many): the default capacity when
 * RAMPART_LOG_CAPACITY is unset.
 */
export const LOG_CAPACITY_DEFAULT = { duckdb: 20_000, clickhouse: 15_000 } as const;

/**
 * Per-site fair sampling of passed requests for the logs (docs/decisions.md "Log sampling"). It
 * counts the passed requests each site's event batches bring to this control plane, per window of
 * LOG_SAMPLE_WINDOW_SECONDS, and compares the rate against the log store's capacity (events a
 * second). Within capacity every request is kept. Beyond it, the capacity is shared max-min fairly
 * (water-filling): a site asking for less than an equal share keeps everything, and the share
 * left over is split equally among the busier ones, each of which keeps 1 in N with N its rate
 * over its share, rounded up. So a quiet site beside a flooded one is never sampled: only sites
 * above the fair share are, and a site's N depends on its own rate.
 *
 * A site's rate is the larger of the last whole window's and the current window's so far (so a
 * flood is caught within its first window and sampling eases one window after it ends). Which of
 * a site's requests are kept is a count (every N-th), not a coin: the kept share is exact.
 */
export class LogSampler {
  private window = Number.NaN;
  private previous = new Map<number, number>();
  private current = new Map<number, number>();
  private previousTotal = 0;
  private currentTotal = 0;
  private readonly counters = new Map<number, number>();

  constructor(
    /** Log records a second this control plane may hand the store (Infinity: never sample). */
    private readonly capacity: number,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts a batch's passed requests per site as arrived and answers each of its sites' N (keep 1
   * in N; 1: keep all).
   */
  rates(arrivals: ReadonlyMap<number, number>): Map<number, number> {
    this.roll();
    for (const [site, n] of arrivals) {
      this.current.set(site, (this.current.get(site) ?? 0) + n);
      this.currentTotal += n;
    }
    const out = new Map<number, number>();
    const budget = this.capacity * LOG_SAMPLE_WINDOW_SECONDS;
    if (Math.max(this.previousTotal, this.currentTotal) <= budget) {
      for (const site of arrivals.keys()) out.set(site, 1);
      return out;
    }
    const share = this.fairShare(budget);
    for (const site of arrivals.keys()) {
      const demand = this.demand(site);
      out.set(site, demand <= share ? 1 : Math.ceil(demand / share));
    }
    return out;
  }

  /** Whether to keep the next passed request of a site sampled at 1 in `rate`. */
  keep(site: number, rate: number): boolean {
    if (rate <= 1) return true;
    const n = this.counters.get(site) ?? 0;
    this.counters.set(site, n + 1);
    return n % rate === 0;
  }

  /** A site's requests per window: the last whole window's or the current one's so far, the larger. */
  private demand(site: number): number {
    return Math.max(this.previous.get(site) ?? 0, this.current.get(site) ?? 0);
  }

  /** The max-min fair share of `budget` among the sites of the two windows (their demands). */
  private fairShare(budget: number): number {
    const sites = new Set([...this.previous.keys(), ...this.current.keys()]);
    const demands = [...sites].map((site) => this.demand(site)).sort((a, b) => a - b);
    let left = budget;
    for (const [i, demand] of demands.entries()) {
      const equal = left / (demands.length - i);
      if (demand > equal) return equal;
      left -= demand;
    }
    return Number.POSITIVE_INFINITY;
  }

  private roll(): void {
    const window = Math.floor(this.clock() / 1000 / LOG_SAMPLE_WINDOW_SECONDS);
    if (window === this.window) return;
    // A gap of more than one window: the last whole window saw nothing.
    const adjacent = window === this.window + 1;
    this.previous = adjacent ? this.current : new Map();
    this.previousTotal = adjacent ? this.currentTotal : 0;
    this.current = new Map();
    this.currentTotal = 0;
    this.window = window;
    // Counters of sites no longer busy are forgotten (a site's count restarts with its next flood).
    for (const site of this.counters.keys()) if (!this.previous.has(site)) this.counters.delete(site);
  }
}

/**
 * A log-only batch's rows as sampled: refused requests all (the nodes collapse those already),
 * passed ones (`blocked` 0) 1 in their site's N; and per (site, minute) sampled, how many passed
 * requests arrived and how many were kept (site 0, requests of no site, is sampled unrecorded:
 * no site's log shows them).
 */
export function sampleRows<R extends { siteId: number; ts: number; blocked: number }>(
  sampler: LogSampler,
  rows: readonly R[],
): { kept: R[]; samples: LogSampleRow[] } {
  const arrivals = new Map<number, number>();
  for (const r of rows) if (r.blocked === 0) arrivals.set(r.siteId, (arrivals.get(r.siteId) ?? 0) + 1);
  const rates = sampler.rates(arrivals);
  if ([...rates.values()].every((rate) => rate === 1)) return { kept: [...rows], samples: [] };
  const kept: R[] = [];
  const tally = new Map<string, LogSampleRow>();
  for (const r of rows) {
    const rate = r.blocked === 0 ? (rates.get(r.siteId) ?? 1) : 1;
    const keep = sampler.keep(r.siteId, rate);
    if (keep) kept.push(r);
    if (rate === 1 || r.siteId === 0) continue;
    const minute = r.ts - (r.ts % 60);
    const key = `${r.siteId}:${minute}`;
    const row = tally.get(key) ?? { siteId: r.siteId, minute, seen: 0, kept: 0 };
    row.seen += 1;
    row.kept += keep ? 1 : 0;
    tally.set(key, row);
  }
  return { kept, samples: [...tally.values()] };
}
