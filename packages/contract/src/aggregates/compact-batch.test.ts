import { describe, expect, it } from 'vitest';
import { type AggregateBatch, shipNodeAggregates } from '../routes/analytics-aggregates.js';
import { generateTraffic } from '../testing/edge-traffic.js';
import { packAggregates } from './aggregate-batches.js';
import { COMPACT_BATCH_FORMAT, decodeAggregateBatch, encodeAggregateBatch } from './compact-batch.js';
import { MinuteAggregator } from './minute-aggregator.js';

const T0 = Date.UTC(2026, 10, 28, 12, 0);

/** Batches of generated traffic with partials, corrections, blocked floods and WAF blocks. */
function batches(): AggregateBatch[] {
  const a = new MinuteAggregator({
    partialMs: 15_000,
    graceMs: 5000,
    locate: () => ({ country: 'DE', city: 2950159 }),
  });
  const events = generateTraffic({
    seed: 7,
    start: T0,
    seconds: 130,
    rps: 60,
    domains: 6,
    jitterMs: 8000,
    flood: { domains: [2], addresses: 5, rps: 40 },
  });
  const out: AggregateBatch[] = [];
  const take = (partials?: boolean) => {
    for (const body of packAggregates(a.take(partials))) out.push({ batchId: `n1-${out.length}`, dropped: 3, ...body });
  };
  for (const e of events) {
    a.add(e);
    if (a.partialDue || a.pending.closed > 0) take();
  }
  a.closeAll();
  take();
  return out;
}

const body = shipNodeAggregates.request.body;
const check = shipNodeAggregates.request.bodyCheck as (v: unknown) => boolean;

describe('the compact aggregate batch', () => {
  const made = batches();

  it('decodes to the batch it encodes, field for field, and the node API takes both forms', () => {
    expect(made.some((b) => b.minutes.some((m) => m.top && m.upstreamMs && m.blockedIps))).toBe(true);
    expect(made.some((b) => b.minutes.some((m) => m.top === undefined))).toBe(true);
    expect(made.some((b) => b.collapsed.length > 0)).toBe(true);
    for (const batch of made) {
      // Through JSON, as shipped.
      const compact = JSON.parse(JSON.stringify(encodeAggregateBatch(batch)));
      expect(compact.format).toBe(COMPACT_BATCH_FORMAT);
      expect(decodeAggregateBatch(compact)).toEqual(JSON.parse(JSON.stringify(batch)));
      expect(check(compact)).toBe(true);
      expect(body.safeParse(compact).success).toBe(true);
      // The object form of agents from before: still taken.
      const object = JSON.parse(JSON.stringify(batch));
      expect(check(object)).toBe(true);
      expect(body.safeParse(object).success).toBe(true);
    }
  });

  it('is far smaller than the object form, every string sent once', () => {
    const objectBytes = made.reduce((n, b) => n + JSON.stringify(b).length, 0);
    const compactBytes = made.reduce((n, b) => n + JSON.stringify(encodeAggregateBatch(b)).length, 0);
    expect(compactBytes).toBeLessThan(objectBytes * 0.6);
    for (const b of made) {
      const strings = encodeAggregateBatch(b).strings;
      expect(new Set(strings).size).toBe(strings.length);
    }
  });

  it('refuses, in the check and the schema alike, a record cut short, longer, or with a bad index or number', () => {
    const batch = made.find((b) => b.collapsed.length > 0 && b.minutes.some((m) => m.top)) as AggregateBatch;
    const good = encodeAggregateBatch(batch);
    const withTop = batch.minutes.findIndex((m) => m.top !== undefined);
    const broken: unknown[] = [];
    const change = (f: (c: typeof good) => void) => {
      const c = structuredClone(good);
      f(c);
      broken.push(c);
    };
    for (const part of ['minutes', 'collapsed'] as const) {
      const i = part === 'minutes' ? withTop : 0;
      change((c) => c[part][i]?.pop());
      change((c) => c[part][i]?.push(0));
      change((c) => {
        (c[part][i] as number[])[2] = 0.5;
      });
      change((c) => {
        (c[part][i] as number[])[3] = -7;
      });
      change((c) => {
        (c[part] as unknown[])[i] = 'x';
      });
    }
    // A string index out of range, a minute not whole, an unknown key, another format, a string that is not one.
    change((c) => {
      (c.collapsed[0] as number[])[2] = c.strings.length;
    });
    change((c) => {
      (c.minutes[0] as number[])[0] = T0 + 1;
    });
    change((c) => Object.assign(c, { extra: 1 }));
    change((c) => Object.assign(c, { format: 3 }));
    change((c) => {
      (c.strings as unknown[])[0] = 5;
    });
    for (const [i, b] of broken.entries()) {
      expect(check(b), `case ${i}`).toBe(false);
      expect(body.safeParse(b).success, `case ${i}`).toBe(false);
    }
  });
});
