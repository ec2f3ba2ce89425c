/**
 * A log-linear histogram of non-negative integer times (milliseconds), after HdrHistogram: values
 * below 2·S are counted exactly, each power of two above is cut into S equal buckets (S = 2^SUB_BITS,
 * 32). A bucket [lo, lo + w) has w ≤ lo / S, so a percentile answered with its bucket's middle is
 * within 1 / (2·S) = 1.5625 % of the true value (HISTOGRAM_RELATIVE_ERROR), exact for values
 * under 64 ms. Merge is a sum per bucket: associative, commutative, and the merge of two
 * histograms equals the histogram of both streams. Count and sum are kept exactly (the mean is
 * exact). Values over HISTOGRAM_MAX_VALUE (about 49 days) count as that value.
 */

export const HISTOGRAM_SUB_BITS = 5;
const S = 1 << HISTOGRAM_SUB_BITS;
/** The bound of a percentile's relative error (the true value is the nearest-rank one). */
export const HISTOGRAM_RELATIVE_ERROR = 1 / (2 * S);
export const HISTOGRAM_MAX_VALUE = 2 ** 32 - 1;
/** Buckets of a histogram: indexes run from 0 to this less one. */
export const HISTOGRAM_BUCKETS = (32 - HISTOGRAM_SUB_BITS + 1) * S;

/** The bucket of a value. */
export function bucketOf(value: number): number {
  const v = value <= 0 ? 0 : value >= HISTOGRAM_MAX_VALUE ? HISTOGRAM_MAX_VALUE : Math.floor(value);
  if (v < 2 * S) return v;
  const shift = 31 - Math.clz32(v) - HISTOGRAM_SUB_BITS;
  return shift * S + (v >>> shift);
}

/** The values a bucket holds: [lo, lo + width). */
export function bucketRange(index: number): { lo: number; width: number } {
  if (index < 2 * S) return { lo: index, width: 1 };
  const shift = Math.floor(index / S) - 1;
  const width = 2 ** shift;
  return { lo: (index - shift * S) * width, width };
}

/** The serialised form: [bucket, count] pairs for the buckets that hold any, ascending. */
export interface HistogramData {
  count: number;
  sum: number;
  buckets: [number, number][];
}

export class Histogram {
  /** Count per bucket, as far as the largest bucket counted (grown by doubling). */
  private counts = new Float64Array(0);
  count = 0;
  sum = 0;

  private bucket(b: number): void {
    if (b < this.counts.length) return;
    const counts = new Float64Array(Math.min(HISTOGRAM_BUCKETS, Math.max(64, this.counts.length * 2, b + 1)));
    counts.set(this.counts);
    this.counts = counts;
  }

  add(value: number, times = 1): void {
    const b = bucketOf(value);
    if (b >= this.counts.length) this.bucket(b);
    this.counts[b]! += times;
    this.count += times;
    this.sum += Math.min(Math.max(0, Math.floor(value)), HISTOGRAM_MAX_VALUE) * times;
  }

  merge(other: Histogram): this {
    this.bucket(other.counts.length - 1);
    for (let b = 0; b < other.counts.length; b++) this.counts[b]! += other.counts[b]!;
    this.count += other.count;
    this.sum += other.sum;
    return this;
  }

  /**
   * The value at nearest rank ⌈q·count⌉ (q in [0, 1]) as its bucket's middle: within
   * HISTOGRAM_RELATIVE_ERROR of the true one. NaN for an empty histogram.
   */
  percentile(q: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil(Math.min(1, Math.max(0, q)) * this.count));
    let seen = 0;
    for (let b = 0; b < this.counts.length; b++) {
      seen += this.counts[b]!;
      if (seen >= rank && this.counts[b]! > 0) {
        const { lo, width } = bucketRange(b);
        return lo + (width - 1) / 2;
      }
    }
    return Number.NaN;
  }

  get mean(): number {
    return this.count === 0 ? Number.NaN : this.sum / this.count;
  }

  toJSON(): HistogramData {
    const buckets: [number, number][] = [];
    for (let b = 0; b < this.counts.length; b++) if (this.counts[b]! > 0) buckets.push([b, this.counts[b]!]);
    return { count: this.count, sum: this.sum, buckets };
  }

  static from(data: HistogramData): Histogram {
    const h = new Histogram();
    for (const [b, n] of data.buckets) {
      h.bucket(b);
      h.counts[b]! += n;
    }
    h.count = data.count;
    h.sum = data.sum;
    return h;
  }
}
