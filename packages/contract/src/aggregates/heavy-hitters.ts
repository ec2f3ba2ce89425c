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

/** Slot layout in the slab: [low, high, ...aux] per listed value. */
const LOW = 0;
const HIGH = 1;
/** Slots a summary starts with (it grows by doubling up to its buffer). */
const FIRST_SLOTS = 8;
/** Scratch of prune(): the lows of the listed values. */
let lowsScratch = new Float64Array(256);

export class HeavyHitters {
  /** value → its slot. */
  private readonly index = new Map<string, number>();
  /** The listed values' numbers, `stride` per slot (no object per value: a busy node lists and drops many). */
  private slab: Float64Array;
  /** slot → value ("" with `used` 0 for a free slot). */
  private values: string[] = [];
  private used: Uint8Array;
  /** Free slots, a stack. */
  private free: number[] = [];
  private readonly stride: number;
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
    this.stride = 2 + auxSize;
    this.slab = new Float64Array(FIRST_SLOTS * this.stride);
    this.used = new Uint8Array(FIRST_SLOTS);
    for (let i = FIRST_SLOTS - 1; i >= 0; i--) this.free.push(i);
  }

  get size(): number {
    return this.index.size;
  }

  /** A free slot, zeroed (the slab doubles when none is left). */
  private take(): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      const slots = this.used.length;
      const slab = new Float64Array(slots * 2 * this.stride);
      slab.set(this.slab);
      this.slab = slab;
      const used = new Uint8Array(slots * 2);
      used.set(this.used);
      this.used = used;
      for (let i = slots * 2 - 1; i > slots; i--) this.free.push(i);
      slot = slots;
    } else {
      this.slab.fill(0, slot * this.stride, (slot + 1) * this.stride);
    }
    this.used[slot] = 1;
    return slot;
  }

  private release(slot: number): void {
    this.index.delete(this.values[slot]!);
    this.values[slot] = '';
    this.used[slot] = 0;
    this.free.push(slot);
  }

  /** Counts `weight` for `value` (and its side sums). A weight of 0 only adds the side sums of a listed value. */
  add(value: string, weight = 1, aux?: readonly number[]): void {
    this.n += weight;
    let slot = this.index.get(value);
    if (slot === undefined) {
      if (weight <= 0) return;
      // Unlisted so far: it weighed at most `floor` before (the upper bound takes that).
      slot = this.take();
      this.slab[slot * this.stride + HIGH] = this.floor;
      this.values[slot] = value;
      this.index.set(value, slot);
    }
    const o = slot * this.stride;
    const slab = this.slab;
    slab[o + LOW]! += weight;
    slab[o + HIGH]! += weight;
    if (aux) for (let i = 0; i < this.auxSize; i++) slab[o + 2 + i]! += aux[i] ?? 0;
    if (this.index.size > this.buffer) this.prune(this.k);
  }

  /**
   * Merges `other` (same k and side sums) into this one: afterwards this is a summary of both
   * streams with the guarantees above. Commutative; associative exactly while nothing is pruned
   * (distinct values ≤ k), otherwise every grouping keeps the guarantees but may list different
   * values near the floor.
   */
  merge(other: HeavyHitters): this {
    if (other.auxSize !== this.auxSize || other.k !== this.k) throw new Error('merging summaries of different shapes');
    const stride = this.stride;
    // Values listed here and not there weighed at most the other's floor there.
    if (other.floor > 0) {
      for (let s = 0; s < this.used.length; s++) {
        if (this.used[s] === 1 && !other.index.has(this.values[s]!)) this.slab[s * stride + HIGH]! += other.floor;
      }
    }
    for (let t = 0; t < other.used.length; t++) {
      if (other.used[t] !== 1) continue;
      const value = other.values[t]!;
      const from = t * stride;
      let slot = this.index.get(value);
      if (slot === undefined) {
        // Unlisted here: it weighed at most this floor in this summary's stream.
        slot = this.take();
        this.values[slot] = value;
        this.index.set(value, slot);
        this.slab[slot * stride + HIGH] = this.floor;
      }
      const o = slot * stride;
      for (let i = 0; i < stride; i++) this.slab[o + i]! += other.slab[from + i]!;
    }
    this.n += other.n;
    this.floor += other.floor;
    this.prune(this.k);
    return this;
  }

  /** Keeps the `k` largest lows: the (k+1)-th is subtracted from every low and added to the floor. */
  private prune(k: number): void {
    const size = this.index.size;
    if (size <= k) return;
    if (lowsScratch.length < size) lowsScratch = new Float64Array(size * 2);
    const stride = this.stride;
    const slab = this.slab;
    const used = this.used;
    let n = 0;
    for (let s = 0; s < used.length; s++) if (used[s] === 1) lowsScratch[n++] = slab[s * stride + LOW]!;
    const lows = lowsScratch.subarray(0, n).sort();
    // Ascending: the (k+1)-th largest.
    const cut = lows[n - 1 - k]!;
    for (let s = 0; s < used.length; s++) {
      if (used[s] !== 1) continue;
      const o = s * stride + LOW;
      slab[o]! -= cut;
      if (slab[o]! <= 0) this.release(s);
    }
    this.floor += cut;
  }

  /** The listed values, the largest count first (ties by value), each with count, error and side sums. */
  list(): { value: string; count: number; error: number; aux: number[] }[] {
    this.prune(this.k);
    const out: { value: string; count: number; error: number; aux: number[] }[] = [];
    const stride = this.stride;
    for (let s = 0; s < this.used.length; s++) {
      if (this.used[s] !== 1) continue;
      const o = s * stride;
      const low = this.slab[o + LOW]!;
      const count = Math.min(this.slab[o + HIGH]!, low + this.floor);
      out.push({
        value: this.values[s]!,
        count,
        error: count - low,
        aux: Array.from(this.slab.subarray(o + 2, o + stride)),
      });
    }
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
      // A value given twice: the last one stands.
      let slot = h.index.get(value as string);
      if (slot === undefined) {
        slot = h.take();
        h.values[slot] = value as string;
        h.index.set(value as string, slot);
      }
      const o = slot * h.stride;
      h.slab[o + LOW] = c - (error as number);
      h.slab[o + HIGH] = c;
      for (let i = 0; i < auxSize; i++) h.slab[o + 2 + i] = (aux[i] as number | undefined) ?? 0;
    }
    return h;
  }
}
