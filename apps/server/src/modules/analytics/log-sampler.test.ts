import { describe, expect, it } from 'vitest';
import { LOG_SAMPLE_WINDOW_SECONDS, LogSampler, sampleRows } from './log-sampler.js';

// The sampler's arithmetic: max-min fair shares of the capacity per window, N from a site's own
// rate, every N-th request kept, and sampling easing once a flood has passed.

const W = LOG_SAMPLE_WINDOW_SECONDS * 1000;

describe('LogSampler', () => {
  it('keeps everything within capacity, however the sites share it', () => {
    const sampler = new LogSampler(100, () => 0);
    const rates = sampler.rates(
      new Map([
        [1, 600],
        [2, 300],
        [3, 100],
      ]),
    );
    expect([...rates.values()]).toEqual([1, 1, 1]);
  });

  it('shares the capacity max-min fairly: sites under the share keep all, the rest 1 in N of their own rate', () => {
    // 1,000 a window: sites 2 and 3 ask less than an equal share (333), site 4 its 400 exactly
    // within what is left ((1000 - 50 - 100) / 2 = 425), site 1 the rest's 1 in ceil(5000 / 425).
    const sampler = new LogSampler(100, () => 0);
    const rates = sampler.rates(
      new Map([
        [1, 5000],
        [2, 50],
        [3, 100],
        [4, 400],
      ]),
    );
    expect(Object.fromEntries(rates)).toEqual({ 1: 12, 2: 1, 3: 1, 4: 1 });
  });

  it("decides from the last whole window's rate too, and eases one window after a flood", () => {
    let now = 0;
    const sampler = new LogSampler(10, () => now);
    expect(sampler.rates(new Map([[1, 400]])).get(1)).toBe(4);
    now += W;
    // A trickle in the next window: the last window's 400 still counts.
    expect(sampler.rates(new Map([[1, 10]])).get(1)).toBe(4);
    now += W;
    expect(sampler.rates(new Map([[1, 10]])).get(1)).toBe(1);
    // A second flood, a window with nothing after it: forgotten two windows on.
    now += W;
    expect(sampler.rates(new Map([[1, 400]])).get(1)).toBe(4);
    now += 2 * W;
    expect(sampler.rates(new Map([[1, 50]])).get(1)).toBe(1);
  });

  it("keeps every N-th passed request, all refused ones, and tallies each sampled site's minutes", () => {
    const sampler = new LogSampler(1, () => 0);
    const rows = [
      ...Array.from({ length: 40 }, (_, i) => ({ siteId: 7, ts: 120 + i * 2, blocked: 0 })),
      { siteId: 7, ts: 130, blocked: 1 },
      ...Array.from({ length: 5 }, () => ({ siteId: 8, ts: 125, blocked: 0 })),
    ];
    // 10 a window: site 8's 5 within the equal share, site 7's 40 over the 5 left: 1 in 8.
    const { kept, samples } = sampleRows(sampler, rows);
    expect(kept.filter((r) => r.siteId === 7 && r.blocked === 0).map((r) => r.ts)).toEqual([120, 136, 152, 168, 184]);
    expect(kept.filter((r) => r.blocked === 1)).toHaveLength(1);
    expect(kept.filter((r) => r.siteId === 8)).toHaveLength(5);
    expect(samples).toEqual([
      { siteId: 7, minute: 120, seen: 30, kept: 4 },
      { siteId: 7, minute: 180, seen: 10, kept: 1 },
    ]);
  });
});
