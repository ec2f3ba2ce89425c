import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packAggregates } from '../aggregates/aggregate-batches.js';
import { MinuteAggregator } from '../aggregates/minute-aggregator.js';
import { generateTraffic } from '../testing/edge-traffic.js';
import { aggregateBatchSchema } from './analytics-aggregates.js';
import { isAggregateBatch } from './analytics-aggregates-check.js';

/**
 * isAggregateBatch is the node API's shortcut for aggregateBatchSchema: it passes a value only
 * when the schema passes it and answers it unchanged, and passes every such value.
 */

const START = Date.UTC(2026, 10, 28, 12, 0);

/** Batches of the agent's aggregator over generated traffic (every decision kind, a flood). */
function batches(seconds: number, rps: number, domains: number) {
  const aggregator = new MinuteAggregator({ locate: (ip) => ({ country: ip.endsWith('1') ? 'DE' : '', city: 0 }) });
  for (const e of generateTraffic({
    seed: 5,
    start: START,
    seconds,
    rps,
    domains,
    flood: { domains: [1], addresses: 20, rps: Math.ceil(rps / 4) },
  }))
    aggregator.add(e);
  aggregator.closeAll();
  return packAggregates(aggregator.take()).map((body, i) => ({ batchId: `spool${i}-${i + 1}`, dropped: i, ...body }));
}

function agree(value: unknown): boolean {
  const fast = isAggregateBatch(value);
  const parsed = aggregateBatchSchema.safeParse(value);
  const unchanged = parsed.success && isDeepStrictEqual(parsed.data, value);
  if (fast !== unchanged)
    throw new Error(
      `disagree (fast ${fast}, schema ${parsed.success}, unchanged ${unchanged}) on ${JSON.stringify(value)?.slice(0, 300)}`,
    );
  return fast;
}

/** Values of every kind, and edges of the ranges and lengths the schema draws. */
const ODD: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  60_000,
  4_102_444_800_000,
  4_102_444_860_000,
  '',
  'x',
  'AAAA',
  '192.0.2.1',
  'a'.repeat(33),
  'a'.repeat(8193),
  [],
  [0],
  ['x', 1, 2, 3, 4, 5],
  ['x', 1, 2, 3, 4, 5, 6, 7],
  [0, 1],
  {},
  { sparse: '' },
];

/** Every path into `value` (objects' keys; arrays' first and last items). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(value)) {
    for (const i of new Set([0, value.length - 1])) {
      if (i < 0) continue;
      out.push([...prefix, i], ...paths(value[i], [...prefix, i]));
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) out.push([...prefix, key], ...paths(v, [...prefix, key]));
  }
  return out;
}

/** A deep copy of `value` with `path` set to `to` (or removed, `remove`), or an extra key put at `path`. */
function changed(value: unknown, path: (string | number)[], to: unknown, how: 'set' | 'remove' | 'extra'): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (how === 'set') at[last] = to;
  else if (how === 'remove') {
    if (Array.isArray(at)) at.splice(last as number, 1);
    else delete at[last];
  } else {
    const target = at[last];
    if (target !== null && typeof target === 'object' && !Array.isArray(target))
      (target as Record<string, unknown>).extra = 1;
  }
  return copy;
}

describe('isAggregateBatch', () => {
  it("passes the aggregator's batches, as the schema does", () => {
    const made = batches(20, 400, 30);
    expect(made.length).toBeGreaterThan(0);
    for (const b of made) expect(agree(b)).toBe(true);
    expect(agree({ batchId: 'a-1', dropped: 0, closedThrough: START, minutes: [], collapsed: [] })).toBe(true);
  });

  it('agrees with the schema on every field of a batch set to every odd value, removed, or given an extra key', () => {
    // A small batch holding every optional part: a blocked minute record's and a collapsed record's.
    const [whole] = batches(2, 60, 3);
    const minute =
      whole?.minutes.find((m) => m.top?.ipBlacklisted && m.top.ipWaf && m.blockedIps && m.upstreamMs) ??
      whole?.minutes[0];
    const small = { ...whole, minutes: [minute], collapsed: whole?.collapsed.slice(0, 1) };
    expect(agree(small)).toBe(true);
    let refused = 0;
    let accepted = 0;
    for (const path of paths(small)) {
      for (const odd of ODD) agree(changed(small, path, odd, 'set')) ? accepted++ : refused++;
      agree(changed(small, path, undefined, 'remove'));
      agree(changed(small, path, undefined, 'extra'));
    }
    expect(agree({ ...small, extra: 1 })).toBe(false);
    // Both sides were exercised: most odd values refused somewhere, some passing where they fit.
    expect(refused).toBeGreaterThan(accepted);
    expect(accepted).toBeGreaterThan(0);
  }, 120_000);

  it("refuses what the schema's refinements refuse: heavy hitters beyond their bounds, a minute not whole", () => {
    const [b] = batches(2, 60, 3);
    const m = b?.minutes.find((r) => r.top);
    if (!b || !m?.top) throw new Error('no closing minute record');
    const withTop = (top: object) => ({ ...b, minutes: [{ ...m, top: { ...m.top, url: top } }] });
    const url = m.top.url;
    expect(agree(withTop({ ...url, k: Math.max(1, url.entries.length - 1) }))).toBe(url.entries.length <= 1);
    expect(agree(withTop({ ...url, floor: url.n + 1 }))).toBe(false);
    expect(agree(withTop({ ...url, entries: [['/a', url.n + 1, 0, 0, 0, 0, 0, 0]] }))).toBe(false);
    expect(agree(withTop({ ...url, entries: [['/a', 1, 2, 0, 0, 0, 0, 0]] }))).toBe(false);
    expect(agree({ ...b, minutes: [{ ...m, minute: m.minute + 1000 }] })).toBe(false);
    expect(agree({ ...b, minutes: [{ ...m, ips: { sparse: '', dense: '' } }] })).toBe(false);
    // A collapsed record's sample without its WAF fields: the schema gives them defaults, so the schema takes it.
    const c = b.collapsed[0];
    if (c) {
      const { wafPart: _p, wafExcerpt: _e, wafName: _n, ...sample } = c.sample;
      const old = { ...b, collapsed: [{ ...c, sample }] };
      expect(isAggregateBatch(old)).toBe(false);
      expect(aggregateBatchSchema.safeParse(old).success).toBe(true);
    }
  });
});
