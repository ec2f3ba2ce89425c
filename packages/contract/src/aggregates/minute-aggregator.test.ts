import { describe, expect, it } from 'vitest';
import { aggregateBatchSchema } from '../routes/analytics-aggregates.js';
import type { EdgeEvent } from '../routes/analytics-events.js';
import { edgeEvent } from '../testing/edge-events.js';
import { generateTraffic } from '../testing/edge-traffic.js';
import { packAggregates } from './aggregate-batches.js';
import { ROLLUP_COUNTERS } from './event-counters.js';
import { MinuteAggregator } from './minute-aggregator.js';

const T0 = Date.UTC(2026, 10, 28, 12, 0);
const REQUESTS = ROLLUP_COUNTERS.indexOf('requests');

const event = (time: number, over: Partial<EdgeEvent> = {}): EdgeEvent => edgeEvent({ time, ...over });

describe('MinuteAggregator', () => {
  it('closes a minute once the log is the grace past its end, and puts later events into a correction', () => {
    const a = new MinuteAggregator({ graceMs: 5000 });
    a.add(event(T0 + 1000));
    a.add(event(T0 + 59_999));
    a.add(event(T0 + 60_000 + 4999));
    expect(a.take().minutes).toEqual([]);
    // Out of order within the grace: still the minute's own.
    a.add(event(T0 + 30_000));
    a.add(event(T0 + 60_000 + 5000));
    const first = a.take();
    expect(first.closedThrough).toBe(T0 + 60_000);
    expect(first.minutes.map((m) => [m.minute, m.late, m.counters[REQUESTS]])).toEqual([[T0, false, 3]]);
    // A straggler of the closed minute: a correction, shipped with the next take.
    a.add(event(T0 + 10_000, { bytesOut: 7 }));
    const second = a.take();
    expect(second.minutes.map((m) => [m.minute, m.late, m.counters[REQUESTS]])).toEqual([[T0, true, 1]]);
    // A quiet log: the caller's clock closes the open minute.
    a.advance(T0 + 120_000 + 5000);
    expect(a.take().minutes.map((m) => [m.minute, m.late, m.counters[REQUESTS]])).toEqual([[T0 + 60_000, false, 2]]);
    expect(a.pending).toEqual({ open: 0, closed: 0, late: 0 });
  });

  it('gives true per-second peaks, not a minute divided by 60', () => {
    const a = new MinuteAggregator();
    for (let i = 0; i < 500; i++) a.add(event(T0 + 10_000 + i, { bytesOut: 10 }));
    for (let i = 0; i < 60; i++) a.add(event(T0 + i * 1000, { bytesOut: i === 30 ? 1_000_000 : 1 }));
    a.closeAll();
    const [m] = a.take().minutes;
    expect(m?.peakRequests).toBe(501);
    expect(m?.peakBytesOut).toBe(1_000_000);
  });

  it('collapses blocked requests per address and decision, and past the cap per decision', () => {
    const a = new MinuteAggregator({ collapseMax: 3 });
    const block = { fwKind: 'blacklist', fwRule: 4, fwAction: 'deny', status: 929 } as const;
    for (let i = 0; i < 1200; i++) a.add(event(T0 + 5 + i * 10, { ...block, ip: '203.0.113.7', bytesOut: 2 }));
    for (let i = 0; i < 10; i++) a.add(event(T0 + 20_000 + i, { ...block, ip: `198.51.100.${i}` }));
    a.add(event(T0 + 30_000, { ip: '203.0.113.7' }));
    a.closeAll();
    const { collapsed, minutes } = a.take();
    expect(collapsed.map((c) => [c.ip, c.count])).toEqual([
      ['203.0.113.7', 1200],
      ['198.51.100.0', 1],
      ['198.51.100.1', 1],
      ['', 8],
    ]);
    const flood = collapsed[0];
    expect([flood?.first, flood?.last, flood?.bytesOut, flood?.sample.time]).toEqual([
      T0 + 5,
      T0 + 11_995,
      2400,
      T0 + 5,
    ]);
    const blocked = minutes[0]?.counters[ROLLUP_COUNTERS.indexOf('blocked')];
    expect(collapsed.reduce((n, c) => n + c.count, 0)).toBe(blocked);
  });

  it('packs finished minutes into batches the schema takes, within the limits, nothing lost', () => {
    const events = generateTraffic({
      seed: 4,
      start: T0,
      seconds: 150,
      rps: 50,
      domains: 40,
      flood: { domains: [3], addresses: 50, rps: 20 },
    });
    const a = new MinuteAggregator();
    for (const e of events) a.add(e);
    a.closeAll();
    const taken = a.take();
    const again = new MinuteAggregator();
    for (const e of events) again.add(e);
    again.closeAll();
    expect(JSON.stringify(again.take())).toBe(JSON.stringify(taken));
    const batches = packAggregates(taken, { maxMinutes: 25, maxCollapsed: 40, maxJsonBytes: 200_000 });
    expect(batches.length).toBeGreaterThan(2);
    for (const [i, body] of batches.entries()) {
      expect(body.minutes.length).toBeLessThanOrEqual(25);
      expect(body.collapsed.length).toBeLessThanOrEqual(40);
      expect(new TextEncoder().encode(JSON.stringify(body)).length).toBeLessThanOrEqual(200_000 + 1024);
      const parsed = aggregateBatchSchema.safeParse({ batchId: `spool-${i + 1}`, dropped: 0, ...body });
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
    expect(batches.flatMap((b) => b.minutes)).toEqual(taken.minutes);
    expect(batches.flatMap((b) => b.collapsed)).toEqual(taken.collapsed);
    const requests = taken.minutes.reduce((n, m) => n + m.counters[REQUESTS]!, 0);
    expect(requests).toBe(events.length);
  }, 60_000);
});
