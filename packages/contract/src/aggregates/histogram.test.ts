import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../testing/edge-traffic.js';
import { bucketOf, bucketRange, HISTOGRAM_BUCKETS, HISTOGRAM_RELATIVE_ERROR, Histogram } from './histogram.js';

/** The nearest-rank percentile of sorted values. */
const exact = (sorted: number[], q: number) => sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;

const streams: Record<string, (r: () => number) => number> = {
  uniform: (r) => Math.floor(r() * 10_000),
  heavyTail: (r) => Math.floor(1 / (r() + 1e-6)) * 3,
  small: (r) => Math.floor(r() * 70),
  huge: (r) => Math.floor(r() * 2 ** 32),
};

describe('Histogram', () => {
  it('puts every value in the bucket whose range holds it, the ranges tiling 0 … 2^32−1', () => {
    let next = 0;
    for (let b = 0; b < HISTOGRAM_BUCKETS; b++) {
      const { lo, width } = bucketRange(b);
      expect(lo).toBe(next);
      expect(bucketOf(lo)).toBe(b);
      expect(bucketOf(lo + width - 1)).toBe(b);
      expect(width <= 1 || width / lo <= 2 * HISTOGRAM_RELATIVE_ERROR).toBe(true);
      next = lo + width;
    }
    expect(next).toBe(2 ** 32);
  });

  for (const [name, draw] of Object.entries(streams)) {
    it(`answers percentiles within ${HISTOGRAM_RELATIVE_ERROR * 100} % of the true ones (${name})`, () => {
      const r = mulberry32(7);
      const values = Array.from({ length: 50_000 }, () => draw(r));
      const h = new Histogram();
      for (const v of values) h.add(v);
      const sorted = [...values].sort((a, b) => a - b);
      for (const q of [0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1]) {
        const want = exact(sorted, q);
        const got = h.percentile(q);
        expect(Math.abs(got - want)).toBeLessThanOrEqual(want * HISTOGRAM_RELATIVE_ERROR);
      }
      expect(h.count).toBe(values.length);
      expect(h.sum).toBe(values.reduce((a, b) => a + b, 0));
    });
  }

  it('merges to the histogram of both streams, the same whatever the grouping and order', () => {
    const r = mulberry32(11);
    const parts = Array.from({ length: 40 }, () =>
      Array.from({ length: Math.floor(r() * 300) }, () => streams.heavyTail!(r)),
    );
    const of = (values: number[]) => {
      const h = new Histogram();
      for (const v of values) h.add(v);
      return h;
    };
    const whole = of(parts.flat()).toJSON();
    const leftFold = parts.map(of).reduce((a, b) => a.merge(b));
    const rightFold = parts.map(of).reduceRight((a, b) => a.merge(b));
    const shuffled = parts
      .map(of)
      .sort(() => r() - 0.5)
      .reduce((a, b) => a.merge(b));
    // A tree: pairs, then pairs of pairs.
    let level = parts.map(of);
    while (level.length > 1) {
      const next: Histogram[] = [];
      for (let i = 0; i < level.length; i += 2) next.push(level[i + 1] ? level[i]!.merge(level[i + 1]!) : level[i]!);
      level = next;
    }
    for (const h of [leftFold, rightFold, shuffled, level[0]!]) expect(h.toJSON()).toEqual(whole);
  });

  it('round-trips through its serialised form', () => {
    const h = new Histogram();
    for (const v of [0, 1, 63, 64, 1000, 123_456, 2 ** 32 + 5, -3]) h.add(v);
    const back = Histogram.from(JSON.parse(JSON.stringify(h.toJSON())));
    expect(back.toJSON()).toEqual(h.toJSON());
    expect(back.percentile(0.5)).toBe(h.percentile(0.5));
    expect(new Histogram().percentile(0.5)).toBeNaN();
  });
});
