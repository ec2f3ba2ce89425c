import { Interner } from './interner.js';

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
  /** The values' ids (interner.ts; shared by the summaries of a minute, or this one's own). */
  readonly interner: Interner;
  /** Open addressing: value id → slot + 1 (0 free), twice the slots at least. */
  private table = new Int32Array(FIRST_SLOTS * 4);
  /** The listed values' numbers, `stride` per slot (no object per value: a busy node lists and drops many). */
  private slab: Float64Array;
  /** slot → value id (-1: a free slot). */
  private ids: Int32Array;
  /** Free slots, a stack. */
  private free: number[] = [];
  private listed = 0;
  private readonly stride: number;
  n = 0;
  floor = 0;

  /**
   * `k`: the values a finished summary lists; `buffer` (≥ k): how many it holds while counting
   * before pruning back to k (amortises the pruning; the bound holds for k at every moment);
   * `auxSize`: side sums per value; `interner`: the ids of values, shared with other summaries.
   */
  constructor(
    readonly k: number,
    readonly auxSize = 0,
    private readonly buffer = Math.max(k, 4 * k),
    interner?: Interner,
  ) {
    if (!Number.isSafeInteger(k) || k < 1) throw new Error(`bad capacity: ${k}`);
    this.interner = interner ?? new Interner();
    this.stride = 2 + auxSize;
    this.slab = new Float64Array(FIRST_SLOTS * this.stride);
    this.ids = new Int32Array(FIRST_SLOTS).fill(-1);
    for (let i = FIRST_SLOTS - 1; i >= 0; i--) this.free.push(i);
  }

  get size(): number {
    return this.listed;
  }

  /** The slot of value `id`, or -1. */
  private slotOf(id: number): number {
    const table = this.table;
    const mask = table.length - 1;
    let i = Math.imul(id, 0x9e3779b1) >>> 0;
    for (;;) {
      i &= mask;
      const v = table[i]!;
      if (v === 0) return -1;
      if (this.ids[v - 1] === id) return v - 1;
      i++;
    }
  }

  private place(id: number, slot: number): void {
    const table = this.table;
    const mask = table.length - 1;
    let i = Math.imul(id, 0x9e3779b1) >>> 0;
    for (;;) {
      i &= mask;
      if (table[i] === 0) {
        table[i] = slot + 1;
        return;
      }
      i++;
    }
  }

  /** The table again from the listed slots (after pruning, or to grow). */
  private rebuild(size: number): void {
    this.table = new Int32Array(size);
    for (let s = 0; s < this.ids.length; s++) if (this.ids[s]! >= 0) this.place(this.ids[s]!, s);
  }

  /** A free slot for `id`, zeroed and indexed (the slab doubles when none is left). */
  private take(id: number): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      const slots = this.ids.length;
      const slab = new Float64Array(slots * 2 * this.stride);
      slab.set(this.slab);
      this.slab = slab;
      const ids = new Int32Array(slots * 2).fill(-1);
      ids.set(this.ids);
      this.ids = ids;
      for (let i = slots * 2 - 1; i > slots; i--) this.free.push(i);
      slot = slots;
    } else {
      this.slab.fill(0, slot * this.stride, (slot + 1) * this.stride);
    }
    this.ids[slot] = id;
    this.listed++;
    if (this.listed * 2 > this.table.length) this.rebuild(this.table.length * 2);
    else this.place(id, slot);
    return slot;
  }

  /** Counts `weight` for `value` (and its side sums). A weight of 0 only adds the side sums of a listed value. */
  add(value: string, weight = 1, aux?: readonly number[]): void {
    this.addId(this.interner.id(value), weight, aux);
  }

  /** add() of a value by its id in this summary's interner. */
  addId(id: number, weight = 1, aux?: readonly number[]): void {
    this.n += weight;
    let slot = this.slotOf(id);
    if (slot < 0) {
      if (weight <= 0) return;
      // Unlisted so far: it weighed at most `floor` before (the upper bound takes that).
      slot = this.take(id);
      this.slab[slot * this.stride + HIGH] = this.floor;
    }
    const o = slot * this.stride;
    const slab = this.slab;
    slab[o + LOW]! += weight;
    slab[o + HIGH]! += weight;
    if (aux) for (let i = 0; i < this.auxSize; i++) slab[o + 2 + i]! += aux[i] ?? 0;
    if (this.listed > this.buffer) this.prune(this.k);
  }

  /** Whether `value` is listed. */
  has(value: string): boolean {
    const id = this.interner.find(value);
    return id >= 0 && this.slotOf(id) >= 0;
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
      for (let s = 0; s < this.ids.length; s++) {
        const id = this.ids[s]!;
        if (id >= 0 && !other.has(this.interner.values[id]!)) this.slab[s * stride + HIGH]! += other.floor;
      }
    }
    for (let t = 0; t < other.ids.length; t++) {
      const theirs = other.ids[t]!;
      if (theirs < 0) continue;
      const id = other.interner === this.interner ? theirs : this.interner.id(other.interner.values[theirs]!);
      const from = t * stride;
      let slot = this.slotOf(id);
      if (slot < 0) {
        // Unlisted here: it weighed at most this floor in this summary's stream.
        slot = this.take(id);
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
    const size = this.listed;
    if (size <= k) return;
    if (lowsScratch.length < size) lowsScratch = new Float64Array(size * 2);
    const stride = this.stride;
    const slab = this.slab;
    const ids = this.ids;
    let n = 0;
    for (let s = 0; s < ids.length; s++) if (ids[s]! >= 0) lowsScratch[n++] = slab[s * stride + LOW]!;
    const lows = lowsScratch.subarray(0, n).sort();
    // Ascending: the (k+1)-th largest.
    const cut = lows[n - 1 - k]!;
    for (let s = 0; s < ids.length; s++) {
      if (ids[s]! < 0) continue;
      const o = s * stride + LOW;
      slab[o]! -= cut;
      if (slab[o]! <= 0) {
        ids[s] = -1;
        this.free.push(s);
        this.listed--;
      }
    }
    this.rebuild(this.table.length);
    this.floor += cut;
  }

  /** The listed values, the largest count first (ties by value), each with count, error and side sums. */
  list(): { value: string; count: number; error: number; aux: number[] }[] {
    this.prune(this.k);
    const out: { value: string; count: number; error: number; aux: number[] }[] = [];
    const stride = this.stride;
    for (let s = 0; s < this.ids.length; s++) {
      const id = this.ids[s]!;
      if (id < 0) continue;
      const o = s * stride;
      const low = this.slab[o + LOW]!;
      const count = Math.min(this.slab[o + HIGH]!, low + this.floor);
      const aux = Array.from(this.slab.subarray(o + 2, o + stride));
      out.push({ value: this.interner.values[id]!, count, error: count - low, aux });
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
      const id = h.interner.id(value as string);
      // A value given twice: the last one stands.
      let slot = h.slotOf(id);
      if (slot < 0) slot = h.take(id);
      const o = slot * h.stride;
      h.slab[o + LOW] = c - (error as number);
      h.slab[o + HIGH] = c;
      for (let i = 0; i < auxSize; i++) h.slab[o + 2 + i] = (aux[i] as number | undefined) ?? 0;
    }
    return h;
  }
}
