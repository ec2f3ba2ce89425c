import { fromBase64, toBase64 } from './base64.js';
import { hash64 } from './hash.js';

/**
 * Distinct client addresses in bounded space: HyperLogLog (Flajolet et al. 2007) with precision
 * p = 14 (m = 16,384 registers), whose standard error is 1.04 / √m = 0.81 % (HLL_STANDARD_ERROR),
 * estimated with Ertl's improved estimator ("New cardinality estimation algorithms for
 * HyperLogLog sketches", 2017: no bias tables, no switch to linear counting, unbiased from 0 up).
 *
 * Small sets are exact: up to HLL_EXACT_MAX values the sketch keeps the values' hashes themselves
 * (sparse), and counts them; past that it turns into registers (dense). Each value is hashed with
 * MurmurHash3 x86_128 over its UTF-8 (hash.ts) and the first 52 bits kept (a JavaScript number
 * holds them exactly): 14 pick the register, the other 38 give the rank. Two distinct values of a
 * sparse sketch share their 52 bits with a chance below n²/2⁵³ (3·10⁻¹⁰ at HLL_EXACT_MAX).
 *
 * Merge is the union of the hashes, or the registers' maximum: associative and commutative, and
 * the merge of two sketches is the sketch of both streams (the same bytes whatever the order).
 * Serialised as base64: sparse, the sorted hashes of 7 bytes each; dense, the registers of 6 bits.
 */

export const HLL_PRECISION = 14;
const M = 1 << HLL_PRECISION;
/** Bits of a hash after the register index. */
const Q = 52 - HLL_PRECISION;
/** The standard error of a dense sketch's estimate. */
export const HLL_STANDARD_ERROR = 1.04 / Math.sqrt(M);
/** Most values a sketch counts exactly (its hashes are fewer bytes than its registers up to here). */
export const HLL_EXACT_MAX = 1536;
const TWO_32 = 2 ** 32;

export type HyperLogLogData = { sparse: string } | { dense: string };

/** A value's 52-bit hash. */
export function hash52(value: string): number {
  const h = hash64(value);
  return (h.hi >>> 12) * TWO_32 + h.lo;
}

function sigma(x: number): number {
  if (x === 1) return Number.POSITIVE_INFINITY;
  let y = 1;
  let z = x;
  let prev: number;
  do {
    x *= x;
    prev = z;
    z += x * y;
    y += y;
  } while (z !== prev);
  return z;
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  let prev: number;
  do {
    x = Math.sqrt(x);
    prev = z;
    y *= 0.5;
    z -= (1 - x) * (1 - x) * y;
  } while (z !== prev);
  return z / 3;
}

/**
 * The hashes of a sparse sketch: an open-addressing table of 52-bit hashes in a Float64Array (no
 * object per address), 0 marking a free cell (the hash 0 itself is held apart).
 */
class HashSet {
  table = new Float64Array(32);
  size = 0;
  zero = false;

  add(h: number): void {
    if (h === 0) {
      if (!this.zero) {
        this.zero = true;
        this.size++;
      }
      return;
    }
    let table = this.table;
    if ((this.size + 1) * 2 > table.length) {
      this.grow();
      table = this.table;
    }
    const mask = table.length - 1;
    let i = (h >>> 0) & mask;
    for (;;) {
      const v = table[i]!;
      if (v === h) return;
      if (v === 0) {
        table[i] = h;
        this.size++;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.table;
    const table = new Float64Array(old.length * 2);
    const mask = table.length - 1;
    for (let j = 0; j < old.length; j++) {
      const h = old[j]!;
      if (h === 0) continue;
      let i = (h >>> 0) & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = h;
    }
    this.table = table;
  }

  /** The hashes, ascending. */
  sorted(): Float64Array {
    const out = new Float64Array(this.size);
    let n = 0;
    if (this.zero) out[n++] = 0;
    for (const h of this.table) if (h !== 0) out[n++] = h;
    return out.sort();
  }

  /** The hashes, in no order. */
  *values(): Generator<number> {
    if (this.zero) yield 0;
    for (const h of this.table) if (h !== 0) yield h;
  }
}

export class HyperLogLog {
  private sparse: HashSet | null = new HashSet();
  private registers: Uint8Array | null = null;

  get exact(): boolean {
    return this.sparse !== null;
  }

  add(value: string): void {
    this.addHash(hash52(value));
  }

  addHash(h: number): void {
    if (this.sparse !== null) {
      this.sparse.add(h);
      if (this.sparse.size > HLL_EXACT_MAX) this.densify();
      return;
    }
    const registers = this.registers as Uint8Array;
    const hi = Math.floor(h / TWO_32);
    const index = hi >>> (20 - HLL_PRECISION);
    // The rank: the first 1 bit of the other 38 bits (6 of hi, 32 of lo), counted from 1.
    const top = hi & ((1 << (20 - HLL_PRECISION)) - 1);
    const lo = h % TWO_32;
    const rank =
      top !== 0
        ? Math.clz32(top) - (32 - (20 - HLL_PRECISION)) + 1
        : lo !== 0
          ? 20 - HLL_PRECISION + Math.clz32(lo) + 1
          : Q + 1;
    if (rank > registers[index]!) registers[index] = rank;
  }

  private densify(): void {
    const hashes = this.sparse;
    this.sparse = null;
    this.registers = new Uint8Array(M);
    if (hashes !== null) for (const h of hashes.values()) this.addHash(h);
  }

  merge(other: HyperLogLog): this {
    if (other.sparse !== null) {
      for (const h of other.sparse.values()) this.addHash(h);
      return this;
    }
    if (this.sparse !== null) this.densify();
    const mine = this.registers as Uint8Array;
    const theirs = other.registers as Uint8Array;
    for (let i = 0; i < M; i++) if (theirs[i]! > mine[i]!) mine[i] = theirs[i]!;
    return this;
  }

  /** The distinct values added: exact while sparse, else the estimate (standard error HLL_STANDARD_ERROR). */
  count(): number {
    if (this.sparse !== null) return this.sparse.size;
    const registers = this.registers as Uint8Array;
    const c = new Array<number>(Q + 2).fill(0);
    for (let i = 0; i < M; i++) c[registers[i]!]!++;
    let z = M * tau(1 - c[Q + 1]! / M);
    for (let k = Q; k >= 1; k--) z = 0.5 * (z + c[k]!);
    z += M * sigma(c[0]! / M);
    return Math.round((M * (M / z)) / (2 * Math.LN2));
  }

  toJSON(): HyperLogLogData {
    if (this.sparse !== null) {
      const sorted = this.sparse.sorted();
      const bytes = new Uint8Array(sorted.length * 7);
      for (let i = 0; i < sorted.length; i++) {
        let v = sorted[i]!;
        for (let j = 6; j >= 0; j--) {
          bytes[i * 7 + j] = v % 256;
          v = Math.floor(v / 256);
        }
      }
      return { sparse: toBase64(bytes) };
    }
    const registers = this.registers as Uint8Array;
    const bytes = new Uint8Array((M * 6) / 8);
    for (let i = 0; i < M; i += 4) {
      const n = (registers[i]! << 18) | (registers[i + 1]! << 12) | (registers[i + 2]! << 6) | registers[i + 3]!;
      const o = (i / 4) * 3;
      bytes[o] = n >> 16;
      bytes[o + 1] = (n >> 8) & 255;
      bytes[o + 2] = n & 255;
    }
    return { dense: toBase64(bytes) };
  }

  /** A sketch from its serialised form; null when the form is broken. */
  static from(data: HyperLogLogData): HyperLogLog | null {
    const h = new HyperLogLog();
    if ('sparse' in data) {
      const bytes = fromBase64(data.sparse);
      if (bytes === null || bytes.length % 7 !== 0 || bytes.length / 7 > HLL_EXACT_MAX) return null;
      for (let i = 0; i < bytes.length; i += 7) {
        let v = 0;
        for (let j = 0; j < 7; j++) v = v * 256 + bytes[i + j]!;
        if (v >= 2 ** 52) return null;
        h.sparse?.add(v);
      }
      return h;
    }
    const bytes = fromBase64(data.dense);
    if (bytes === null || bytes.length !== (M * 6) / 8) return null;
    h.sparse = null;
    const registers = new Uint8Array(M);
    for (let i = 0; i < M; i += 4) {
      const o = (i / 4) * 3;
      const n = (bytes[o]! << 16) | (bytes[o + 1]! << 8) | bytes[o + 2]!;
      registers[i] = n >> 18;
      registers[i + 1] = (n >> 12) & 63;
      registers[i + 2] = (n >> 6) & 63;
      registers[i + 3] = n & 63;
    }
    if (registers.some((r) => r > Q + 1)) return null;
    h.registers = registers;
    return h;
  }
}
