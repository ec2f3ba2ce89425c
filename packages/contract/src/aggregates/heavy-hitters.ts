/**
 * The most frequent values of a stream (addresses, URLs, user agents, referers) in bounded space:
 * space-saving's answer (Metwally, Agrawal, El Abbadi 2005 — each value with a count that
 * overestimates and an error that bounds the overestimate) kept in the mergeable form of
 * Misra-Gries (Agarwal, Cormode, Huang, Phillips, Wei, Yi, "Mergeable summaries", 2012), which is
 * the same summary seen from below.
 *
 * Held: per value a lower bound `low` (weight counted while listed, less what pruning took) and an
 * upper bound `high` (never reduced), and for the summary `floor`, the most any value not listed
 * can weigh. Pruning to k values (a merge, or a full buffer while counting) subtracts the
 * (k+1)-th largest `low` from every `low`, drops those left at 0 or less and adds it to `floor`;
 * it takes k+1 units from the listed weight for each unit of floor, so at all times
 *
 *   Σ low + (k + 1) · floor ≤ N          (N: the summary's whole weight)
 *
 * and therefore floor ≤ N / (k + 1). Guarantees, for a summary of capacity k over weight N, after
 * any number of merges in any grouping or order:
 *
 *   - every value of true weight f > N / (k + 1) is listed (an unlisted one has f ≤ floor);
 *   - a listed value's `count` (min(high, low + floor)) is ≥ f, and its `error` (count − low)
 *     is ≤ floor ≤ N / (k + 1): f ∈ [count − error, count];
 *   - while the distinct values stay ≤ k nothing is pruned: floor and every error are 0, the
 *     counts exact.
 *
 * Each value also carries `aux`, side sums (a dimension row's counters) counted while it is
 * listed: lower bounds, exact for a value whose error is 0.
 */

export interface HeavyHittersData {
  /** Capacity: most values listed. */
  k: number;
  /** The whole weight counted. */
  n: number;
  /** The most an unlisted value can weigh. */
  floor: number;
  /** [value, count, error, ...aux], the largest count first (ties by value). */
  entries: (string | number)[][];
}

/** A listed value: [low, high, ...aux] (one array each: a busy node lists and drops many). */
type Entry = number[];
const LOW = 0;
const HIGH = 1;

export class HeavyHitters {
  private entries = new Map<string, Entry>();
  n = 0;
  floor = 0;

  /**
   * `k`: the values a finished summary lists; `buffer` (≥ k): how many it holds while counting
   * before pruning back to k (amortises the pruning; the bound holds for k at every moment);
   * `auxSize`: side sums per value.
   */
  constructor(
    readonly k: number,
    readonly auxSize = 0,
    private readonly buffer = Math.max(k, 4 * k),
  ) {
    if (!Number.isSafeInteger(k) || k < 1) throw new Error(`bad capacity: ${k}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Counts `weight` for `value` (and its side sums). A weight of 0 only adds the side sums of a listed value. */
  add(value: string, weight = 1, aux?: readonly number[]): void {
    this.n += weight;
    let e = this.entries.get(value);
    if (e === undefined) {
      if (weight <= 0) return;
      // Unlisted so far: it weighed at most `floor` before (the upper bound takes that).
      e = new Array<number>(2 + this.auxSize).fill(0);
      e[HIGH] = this.floor;
      this.entries.set(value, e);
    }
    e[LOW]! += weight;
    e[HIGH]! += weight;
    if (aux) for (let i = 0; i < this.auxSize; i++) e[2 + i]! += aux[i] ?? 0;
    if (this.entries.size > this.buffer) this.prune(this.k);
  }

  /**
   * Merges `other` (same k and side sums) into this one: afterwards this is a summary of both
   * streams with the guarantees above. Commutative; associative exactly while nothing is pruned
   * (distinct values ≤ k), otherwise every grouping keeps the guarantees but may list different
   * values near the floor.
   */
  merge(other: HeavyHitters): this {
    if (other.auxSize !== this.auxSize || other.k !== this.k) throw new Error('merging summaries of different shapes');
    for (const [value, o] of other.entries) {
      const e = this.entries.get(value);
      if (e === undefined) {
        // Unlisted here: it weighed at most this floor in this summary's stream.
        const copy = [...o];
        copy[HIGH]! += this.floor;
        this.entries.set(value, copy);
      } else {
        for (let i = 0; i < e.length; i++) e[i]! += o[i]!;
      }
    }
    // Values listed here and not there weighed at most the other's floor there.
    if (other.floor > 0) for (const [value, e] of this.entries) if (!other.entries.has(value)) e[HIGH]! += other.floor;
    this.n += other.n;
    this.floor += other.floor;
    this.prune(this.k);
    return this;
  }

  /** Keeps the `k` largest lows: the (k+1)-th is subtracted from every low and added to the floor. */
  private prune(k: number): void {
    if (this.entries.size <= k) return;
    const lows = Array.from(this.entries.values(), (e) => e[LOW]!).sort((a, b) => b - a);
    const cut = lows[k]!;
    for (const [value, e] of this.entries) {
      e[LOW]! -= cut;
      if (e[LOW]! <= 0) this.entries.delete(value);
    }
    this.floor += cut;
  }

  /** The listed values, the largest count first (ties by value), each with count, error and side sums. */
  list(): { value: string; count: number; error: number; aux: number[] }[] {
    this.prune(this.k);
    const out = Array.from(this.entries, ([value, e]) => {
      const count = Math.min(e[HIGH]!, e[LOW]! + this.floor);
      return { value, count, error: count - e[LOW]!, aux: e.slice(2) };
    });
    return out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  }

  /** The finished summary: pruned to k values. */
  toJSON(): HeavyHittersData {
    const entries = this.list().map((e) => [e.value, e.count, e.error, ...e.aux]);
    return { k: this.k, n: this.n, floor: this.floor, entries };
  }

  static from(data: HeavyHittersData, auxSize: number): HeavyHitters {
    const h = new HeavyHitters(data.k, auxSize);
    h.n = data.n;
    h.floor = data.floor;
    for (const [value, count, error, ...aux] of data.entries) {
      const c = count as number;
      h.entries.set(value as string, [c - (error as number), c, ...(aux as number[])]);
    }
    return h;
  }
}
