import { describe, expect, it } from 'vitest';
import { mulberry32, zipf } from '../testing/edge-traffic.js';
import { HeavyHitters } from './heavy-hitters.js';

/**
 * Checks a summary against the true counts of its stream: its whole weight; every value over
 * n / (k + 1) listed; each listed count an upper bound whose error bounds the overestimate; the
 * errors and the floor within n / (k + 1). Answers the largest error seen.
 */
function checkBounds(h: HeavyHitters, truth: Map<string, number>): number {
  const n = [...truth.values()].reduce((a, b) => a + b, 0);
  expect(h.n).toBe(n);
  const bound = n / (h.k + 1);
  expect(h.floor).toBeLessThanOrEqual(bound);
  const listed = new Map(h.list().map((e) => [e.value, e]));
  expect(listed.size).toBeLessThanOrEqual(h.k);
  // Problems collected, then asserted at once (an expect per value of 40,000 costs seconds).
  const problems: string[] = [];
  for (const [value, f] of truth) {
    const e = listed.get(value);
    if (f > bound && e === undefined) problems.push(`${value} (${f} > ${bound}) not listed`);
    if (e === undefined && f > h.floor) problems.push(`${value} (${f}) unlisted over the floor ${h.floor}`);
  }
  let worst = 0;
  for (const e of listed.values()) {
    const f = truth.get(e.value) ?? 0;
    if (e.count < f || e.count - e.error > f)
      problems.push(`${e.value}: ${f} outside [${e.count - e.error}, ${e.count}]`);
    if (e.error > bound) problems.push(`${e.value}: error ${e.error} > ${bound}`);
    worst = Math.max(worst, e.count - f);
  }
  expect(problems).toEqual([]);
  return worst;
}

const countOf = (values: readonly string[]) => {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
};
const summaryOf = (values: readonly string[], k: number) => {
  const h = new HeavyHitters(k, 1);
  for (const v of values) h.add(v, 1, [1]);
  return h;
};
/** Merged in a balanced tree. */
const tree = (parts: HeavyHitters[]): HeavyHitters => {
  let level = parts;
  while (level.length > 1) {
    const next: HeavyHitters[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(level[i + 1] ? level[i]!.merge(level[i + 1]!) : level[i]!);
    level = next;
  }
  return level[0]!;
};

describe('HeavyHitters', () => {
  it('is exact, and the same whatever the grouping or order of merges, while the values are at most k', () => {
    const r = mulberry32(3);
    const values = Array.from({ length: 5000 }, () => `v${Math.floor(r() * 40)}`);
    const parts = Array.from({ length: 25 }, (_, i) => values.slice(i * 200, (i + 1) * 200));
    const whole = summaryOf(values, 40);
    const truth = countOf(values);
    expect(whole.floor).toBe(0);
    for (const e of whole.list()) {
      expect(e.count).toBe(truth.get(e.value));
      expect(e.error).toBe(0);
      expect(e.aux).toEqual([truth.get(e.value)]);
    }
    const json = JSON.stringify(whole.toJSON());
    const groupings = [
      parts.map((p) => summaryOf(p, 40)).reduce((a, b) => a.merge(b)),
      parts.map((p) => summaryOf(p, 40)).reduceRight((a, b) => a.merge(b)),
      tree(parts.map((p) => summaryOf(p, 40))),
      tree(parts.map((p) => summaryOf(p, 40)).sort(() => r() - 0.5)),
    ];
    for (const h of groupings) expect(JSON.stringify(h.toJSON())).toBe(json);
  });

  it('merges commutatively: a with b is b with a, byte for byte', () => {
    const r = mulberry32(5);
    const draw = zipf(2000, 1.1, r);
    const a = Array.from({ length: 3000 }, () => `a${draw()}`);
    const b = Array.from({ length: 3000 }, () => `a${draw()}`);
    const ab = summaryOf(a, 32).merge(summaryOf(b, 32));
    const ba = summaryOf(b, 32).merge(summaryOf(a, 32));
    expect(JSON.stringify(ab.toJSON())).toBe(JSON.stringify(ba.toJSON()));
  });

  const streams: Record<string, (r: () => number) => string[]> = {
    zipf: (r) => {
      const draw = zipf(50_000, 1.05, r);
      return Array.from({ length: 60_000 }, () => `z${draw()}`);
    },
    uniform: (r) => Array.from({ length: 60_000 }, () => `u${Math.floor(r() * 5000)}`),
    // Space-saving's hard case: every value once first, then the heavy ones.
    distinctFirst: () => [
      ...Array.from({ length: 40_000 }, (_, i) => `d${i}`),
      ...Array.from({ length: 20_000 }, (_, i) => `heavy${i % 20}`),
    ],
    // The heavy ones first, then a flood of distinct values that pushes them out.
    heavyFirst: () => [
      ...Array.from({ length: 20_000 }, (_, i) => `heavy${i % 20}`),
      ...Array.from({ length: 40_000 }, (_, i) => `d${i}`),
    ],
    interleaved: () => Array.from({ length: 60_000 }, (_, i) => (i % 3 === 0 ? `heavy${i % 30}` : `d${i}`)),
  };

  for (const [name, make] of Object.entries(streams)) {
    it(`keeps its bounds on one stream and on many merges of small summaries (${name})`, () => {
      const r = mulberry32(17);
      const values = make(r);
      const truth = countOf(values);
      for (const k of [8, 64]) {
        checkBounds(summaryOf(values, k), truth);
        const parts = Array.from({ length: 300 }, (_, i) => values.slice(i * 200, (i + 1) * 200));
        checkBounds(
          parts.map((p) => summaryOf(p, k)).reduce((a, b) => a.merge(b)),
          truth,
        );
        checkBounds(tree(parts.map((p) => summaryOf(p, k)).sort(() => r() - 0.5)), truth);
        // Merged through their serialised form, as the control plane will.
        checkBounds(
          parts
            .map((p) => HeavyHitters.from(JSON.parse(JSON.stringify(summaryOf(p, k).toJSON())), 1))
            .reduce((a, b) => a.merge(b)),
          truth,
        );
      }
    }, 60_000);
  }

  it('finds a heavy value whose weight arrives spread thin over many summaries', () => {
    // Each part holds one heavy value 30 times among 170 distinct others, every copy far apart:
    // the parts' buffers prune it away again and again, yet its total (9,000 of 60,000) is over
    // n / (k + 1), so the merge lists it.
    const parts = Array.from({ length: 300 }, (_, i) =>
      Array.from({ length: 200 }, (_, j) => (j % 7 === 3 && j < 210 ? 'heavy' : `p${i}-${j}`)).slice(0, 200),
    );
    const truth = countOf(parts.flat());
    expect(truth.get('heavy')).toBeGreaterThan(60_000 / 17);
    for (const merged of [
      parts.map((p) => summaryOf(p, 16)).reduce((a, b) => a.merge(b)),
      tree(parts.map((p) => summaryOf(p, 16))),
    ]) {
      checkBounds(merged, truth);
      expect(merged.list()[0]?.value).toBe('heavy');
    }
  }, 60_000);

  it('round-trips through its serialised form and refuses merging another shape', () => {
    const h = summaryOf(['a', 'b', 'a', 'c', 'a', 'b', 'd', 'e'], 2);
    const data = h.toJSON();
    expect(HeavyHitters.from(JSON.parse(JSON.stringify(data)), 1).toJSON()).toEqual(data);
    expect(data.entries.length).toBe(2);
    expect(() => h.merge(new HeavyHitters(3, 1))).toThrow();
    expect(() => h.merge(new HeavyHitters(2, 0))).toThrow();
  });
});
