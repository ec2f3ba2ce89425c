import { describe, expect, it } from 'vitest';
import { addressOf, mulberry32 } from '../testing/edge-traffic.js';
import { HLL_EXACT_MAX, HLL_STANDARD_ERROR, HyperLogLog } from './hyperloglog.js';

const sketchOf = (values: Iterable<string>) => {
  const h = new HyperLogLog();
  for (const v of values) h.add(v);
  return h;
};
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => addressOf(from + i));

describe('HyperLogLog', () => {
  it('counts exactly up to HLL_EXACT_MAX distinct values, repeats included', () => {
    const values = range(0, HLL_EXACT_MAX);
    const h = sketchOf([...values, ...values.slice(0, 500)]);
    expect(h.exact).toBe(true);
    expect(h.count()).toBe(HLL_EXACT_MAX);
    h.add(addressOf(HLL_EXACT_MAX));
    expect(h.exact).toBe(false);
    expect(Math.abs(h.count() - (HLL_EXACT_MAX + 1))).toBeLessThanOrEqual((HLL_EXACT_MAX + 1) * HLL_STANDARD_ERROR);
  });

  it(`estimates within 3 standard errors (${(3 * HLL_STANDARD_ERROR * 100).toFixed(2)} %), and on average within one`, () => {
    const errors: number[] = [];
    let from = 0;
    for (const n of [2000, 5000, 20_000, 50_000, 100_000, 200_000, 400_000]) {
      for (let trial = 0; trial < 2; trial++) {
        const h = sketchOf(range(from, from + n));
        from += n;
        const error = (h.count() - n) / n;
        expect(Math.abs(error)).toBeLessThan(3 * HLL_STANDARD_ERROR);
        errors.push(error);
      }
    }
    const rms = Math.sqrt(errors.reduce((a, e) => a + e * e, 0) / errors.length);
    expect(rms).toBeLessThan(1.5 * HLL_STANDARD_ERROR);
  }, 60_000);

  it('merges to the sketch of the union, the same bytes whatever the grouping and order', () => {
    const r = mulberry32(9);
    // Overlapping parts: 60 of 1,000 addresses drawn from 30,000.
    const parts = Array.from({ length: 60 }, () =>
      Array.from({ length: 1000 }, () => addressOf(Math.floor(r() * 30_000))),
    );
    const union = new Set(parts.flat());
    const whole = JSON.stringify(sketchOf(union).toJSON());
    const left = parts.map(sketchOf).reduce((a, b) => a.merge(b));
    const right = parts.map(sketchOf).reduceRight((a, b) => a.merge(b));
    const shuffled = parts
      .map(sketchOf)
      .sort(() => r() - 0.5)
      .reduce((a, b) => a.merge(b));
    for (const h of [left, right, shuffled]) expect(JSON.stringify(h.toJSON())).toBe(whole);
    expect(Math.abs(left.count() - union.size)).toBeLessThan(3 * HLL_STANDARD_ERROR * union.size);
    // Small parts merged stay exact while the union is small.
    const small = [range(0, 500), range(250, 900), range(800, 1200)];
    const merged = small.map(sketchOf).reduce((a, b) => a.merge(b));
    expect(merged.exact).toBe(true);
    expect(merged.count()).toBe(1200);
  });

  it('round-trips sparse and dense, and refuses broken forms', () => {
    for (const n of [0, 1, 700, 5000]) {
      const h = sketchOf(range(0, n));
      const data = JSON.parse(JSON.stringify(h.toJSON()));
      const back = HyperLogLog.from(data);
      expect(back?.toJSON()).toEqual(h.toJSON());
      expect(back?.count()).toBe(h.count());
    }
    expect(HyperLogLog.from({ sparse: 'AAAA' })).toBeNull();
    expect(HyperLogLog.from({ sparse: '!!!!!!!!!!!!' })).toBeNull();
    expect(HyperLogLog.from({ dense: 'AAAA' })).toBeNull();
  });
});
