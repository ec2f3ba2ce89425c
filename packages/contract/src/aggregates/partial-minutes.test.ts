import { describe, expect, it } from 'vitest';
import type { AggregateMinute } from '../routes/analytics-aggregates.js';
import type { EdgeEvent } from '../routes/analytics-events.js';
import { edgeEvent } from '../testing/edge-events.js';
import { generateTraffic, mulberry32, zipf } from '../testing/edge-traffic.js';
import { HeavyHitters } from './heavy-hitters.js';
import { Histogram } from './histogram.js';
import { HyperLogLog } from './hyperloglog.js';
import { MinuteAggregator, type TakenAggregates } from './minute-aggregator.js';

// Partial minutes: a node cuts its open minutes every `partialMs` of log time, and later records
// of a minute carry only what came since. Each merged quantity must keep its meaning over a
// minute's several records, as the control plane merges them: counters, low dimensions and
// histograms summed, address sketches united, heavy hitters summed within their floors, peaks
// summed (each record carries what the busiest second grew by), collapsed blocks summed.

const T0 = Date.UTC(2026, 10, 28, 12, 0);

/** Every record of the events, taken as an agent takes them: each time a partial is due, and at the end. */
function run(events: readonly EdgeEvent[], partialMs: number): TakenAggregates[] {
  const a = new MinuteAggregator({ partialMs, graceMs: 5000 });
  const taken: TakenAggregates[] = [];
  for (const e of events) {
    a.add(e);
    if (a.partialDue || a.pending.closed > 0) taken.push(a.take());
  }
  a.closeAll();
  taken.push(a.take());
  return taken;
}

type Merged = {
  records: number;
  counters: number[];
  low: Map<string, number[]>;
  requestMs: Histogram;
  ips: HyperLogLog;
  peaks: [number, number];
  collapsed: Map<string, number>;
  /** The records carrying the minute's sketches, and their top lists. */
  sketched: number;
  top: string[];
};

/** Per minute and domain, the records merged as the control plane merges them. */
function merge(taken: readonly TakenAggregates[]): Map<string, Merged> {
  const out = new Map<string, Merged>();
  const of = (m: AggregateMinute): Merged => {
    const key = `${m.minute}|${m.domainId}`;
    let at = out.get(key);
    if (!at) {
      at = {
        records: 0,
        counters: m.counters.map(() => 0),
        low: new Map(),
        requestMs: new Histogram(),
        ips: new HyperLogLog(),
        peaks: [0, 0],
        collapsed: new Map(),
        sketched: 0,
        top: [],
      };
      out.set(key, at);
    }
    return at;
  };
  for (const t of taken) {
    for (const m of t.minutes) {
      const at = of(m);
      at.records++;
      m.counters.forEach((v, i) => {
        at.counters[i]! += v;
      });
      for (const [dim, rows] of Object.entries(m.low)) {
        for (const [value, ...counts] of rows) {
          const sums = at.low.get(`${dim}|${value}`) ?? counts.map(() => 0);
          counts.forEach((c, i) => {
            sums[i]! += c;
          });
          at.low.set(`${dim}|${value}`, sums);
        }
      }
      at.requestMs.merge(Histogram.from(m.requestMs));
      if (m.ips) at.ips.merge(HyperLogLog.from(m.ips) as HyperLogLog);
      if (m.top) {
        at.sketched++;
        at.top.push(JSON.stringify(m.top), JSON.stringify([m.blockedIps, m.blacklistedIps]));
      }
      at.peaks[0] += m.peakRequests;
      at.peaks[1] += m.peakBytesOut;
    }
    for (const c of t.collapsed) {
      const at = out.get(`${c.minute}|${c.domainId}`) as Merged;
      const key = `${c.ip}|${c.fwKind}|${c.fwRule}|${c.fwAction}`;
      at.collapsed.set(key, (at.collapsed.get(key) ?? 0) + c.count);
    }
  }
  return out;
}

/** A request that did not reach an origin (a cache hit's timings), 10 bytes out. */
const event = (time: number, over: Partial<EdgeEvent> = {}): EdgeEvent =>
  edgeEvent({ time, bytesOut: 10, upstreamMs: -1, upstreamStatus: 0, ...over });

describe('partial minutes', () => {
  it('cuts the open minutes every interval of log time; later records carry only what came since', () => {
    const a = new MinuteAggregator({ partialMs: 15_000, graceMs: 5000 });
    a.add(event(T0 + 1000));
    a.add(event(T0 + 15_999));
    expect(a.partialDue).toBe(false);
    a.add(event(T0 + 16_000));
    expect(a.partialDue).toBe(true);
    const first = a.take();
    expect(first.minutes.map((m) => [m.minute, m.late, m.counters[0]])).toEqual([[T0, false, 3]]);
    // A partial closes nothing: its minute is still open.
    expect(first.closedThrough).toBe(T0);
    expect(a.partialDue).toBe(false);
    // Out of order: a request of a second already cut belongs to the next record of its minute.
    a.add(event(T0 + 2000));
    a.add(event(T0 + 30_000));
    expect(a.partialDue).toBe(false);
    a.add(event(T0 + 31_000));
    expect(a.take().minutes.map((m) => [m.minute, m.counters[0]])).toEqual([[T0, 3]]);
    // The close carries the rest; the next minute's first partial comes an interval after the close.
    a.add(event(T0 + 50_000));
    a.add(event(T0 + 65_000));
    const closed = a.take();
    expect(closed.minutes.map((m) => [m.minute, m.late, m.counters[0]])).toEqual([[T0, false, 1]]);
    expect(closed.closedThrough).toBe(T0 + 60_000);
    expect(a.pending).toEqual({ open: 1, closed: 0, late: 0 });
    a.add(event(T0 + 79_999));
    expect(a.partialDue).toBe(false);
    a.add(event(T0 + 80_000));
    expect(a.take().minutes.map((m) => [m.minute, m.counters[0]])).toEqual([[T0 + 60_000, 3]]);
    // Off by default: a minute is taken whole at its close.
    const whole = new MinuteAggregator();
    for (let s = 0; s < 60; s++) whole.add(event(T0 + s * 1000));
    expect(whole.partialDue).toBe(false);
    expect(whole.take().minutes).toEqual([]);
  });

  it("keeps every merged quantity's meaning over a minute's records (sums, peaks); its sketches go once, whole", () => {
    const events = generateTraffic({
      seed: 61,
      start: T0 + 300,
      seconds: 150,
      rps: 40,
      domains: 5,
      jitterMs: 1500,
      flood: { domains: [2], addresses: 4, rps: 30 },
    });
    const whole = merge(run(events, 0));
    const parts = run(events, 15_000);
    const partial = merge(parts);
    expect([...partial.keys()].sort()).toEqual([...whole.keys()].sort());
    // Several records per minute, as the interval asks (a close and three partials at most).
    expect(Math.max(...[...partial.values()].map((m) => m.records))).toBeGreaterThanOrEqual(4);
    for (const [key, w] of whole) {
      const p = partial.get(key) as Merged;
      expect(p.counters, key).toEqual(w.counters);
      expect(p.low, key).toEqual(w.low);
      expect(p.requestMs.toJSON(), key).toEqual(w.requestMs.toJSON());
      expect(p.ips.toJSON(), key).toEqual(w.ips.toJSON());
      expect(p.peaks, key).toEqual(w.peaks);
      expect(p.collapsed, key).toEqual(w.collapsed);
      // Heavy hitters, address sketches and collapsed blocks: once per minute and domain, the same as the whole minute's.
      expect(p.sketched, key).toBe(1);
      expect(p.top, key).toEqual(w.top);
    }
    // A partial carries neither heavy hitters nor address sketches nor collapsed blocks.
    const partials = parts.flatMap((t) => t.minutes).filter((m) => m.top === undefined);
    expect(partials.length).toBeGreaterThan(0);
    expect(partials.every((m) => m.ips === undefined && m.blockedIps === undefined)).toBe(true);
    expect(parts.reduce((n, t) => n + t.collapsed.length, 0)).toBe(
      [...partial.values()].reduce((n, m) => n + m.collapsed.size, 0),
    );
  });

  it("ships a domain's sketches at its minute's close even when all its requests went with partials", () => {
    const a = new MinuteAggregator({ partialMs: 15_000, graceMs: 5000 });
    a.add(event(T0 + 1000, { domainId: 7, ip: '198.51.100.1' }));
    a.add(event(T0 + 16_000, { domainId: 8 }));
    const partial = a.take();
    expect(partial.minutes.map((m) => [m.domainId, m.counters[0], m.top === undefined])).toEqual([
      [7, 1, true],
      [8, 1, true],
    ]);
    a.add(event(T0 + 65_000, { domainId: 8 }));
    const closed = a.take().minutes.filter((m) => m.minute === T0);
    expect(closed.map((m) => [m.domainId, m.counters[0], m.top?.ip.entries.map((e) => e[0])])).toEqual([
      [7, 0, ['198.51.100.1']],
      [8, 0, [event(0).ip]],
    ]);
    // A correction carries its own sketches.
    a.add(event(T0 + 30_000, { domainId: 7, ip: '198.51.100.2' }));
    const late = a.take(true).minutes.filter((m) => m.late);
    expect(late.map((m) => [m.domainId, m.counters[0], m.top?.ip.entries.map((e) => e[0])])).toEqual([
      [7, 1, ['198.51.100.2']],
    ]);
  });

  it('counts lines read again after a restart into the sketches alone', () => {
    const events = generateTraffic({ seed: 5, start: T0, seconds: 60, rps: 30, domains: 3, jitterMs: 0 });
    const whole = new MinuteAggregator({ graceMs: 5000 });
    for (const e of events) whole.add(e);
    whole.closeAll();
    const expected = whole.take().minutes.map((m) => JSON.stringify(m.top));
    // A partial shipped the first half's counters, then the agent died: the restarted one reads the minute again.
    const half = events.length >> 1;
    const restarted = new MinuteAggregator({ graceMs: 5000 });
    for (const e of events.slice(0, half)) restarted.addSketchesOnly(e);
    for (const e of events.slice(half)) restarted.add(e);
    restarted.closeAll();
    const got = restarted.take().minutes;
    expect(got.map((m) => JSON.stringify(m.top))).toEqual(expected);
    expect(got.reduce((n, m) => n + m.counters[0], 0)).toBe(events.length - half);
  });

  it('sums the peaks of a second split across records to that second, not to the records’ own busiest seconds', () => {
    const a = new MinuteAggregator({ partialMs: 15_000, graceMs: 5000 });
    for (let i = 0; i < 100; i++) a.add(event(T0 + 14_000 + i));
    const records = [a.take(true)];
    // Second 14 gets 50 more after the cut (nginx's buffers), second 20 has 80 of its own.
    for (let i = 0; i < 50; i++) a.add(event(T0 + 14_500 + i));
    for (let i = 0; i < 80; i++) a.add(event(T0 + 20_000 + i));
    a.closeAll();
    records.push(a.take());
    const peaks = records.flatMap((t) => t.minutes.map((m) => m.peakRequests));
    expect(peaks.length).toBe(2);
    expect(peaks.reduce((s, p) => s + p, 0)).toBe(150);
    // A correction of the closed minute adds what the busiest second grew by, or nothing.
    a.add(event(T0 + 20_100));
    a.add(event(T0 + 14_999));
    expect(a.take(true).minutes.map((m) => [m.late, m.counters[0], m.peakRequests])).toEqual([[true, 2, 1]]);
  });

  it('sums heavy hitters over k partials within the summed floors, at most N / (k + 1) whatever the partials', () => {
    const r = mulberry32(17);
    const pick = zipf(3000, 1.1, r);
    const stream = Array.from({ length: 60_000 }, () => `v${pick()}`);
    const truth = new Map<string, number>();
    for (const v of stream) truth.set(v, (truth.get(v) ?? 0) + 1);
    const k = 64;
    const floors: number[] = [];
    for (const parts of [1, 2, 4, 8]) {
      // The rows the control plane sums: each record's listed values with their counts.
      const summed = new Map<string, number>();
      let floor = 0;
      for (let p = 0; p < parts; p++) {
        const h = new HeavyHitters(k);
        for (const v of stream.slice((p * stream.length) / parts, ((p + 1) * stream.length) / parts)) h.add(v);
        floor += h.floor;
        for (const e of h.list()) summed.set(e.value, (summed.get(e.value) ?? 0) + e.count);
      }
      floors.push(floor);
      expect(floor).toBeLessThanOrEqual(stream.length / (k + 1));
      const problems: string[] = [];
      for (const [value, f] of truth) {
        const got = summed.get(value);
        if (got === undefined) {
          if (f > floor) problems.push(`${value} (${f}) over F ${floor} and not listed`);
        } else if (Math.abs(got - f) > floor) problems.push(`${value}: ${got} vs ${f}, F ${floor}`);
      }
      expect(problems, `${parts} partials`).toEqual([]);
    }
    // Each partial pays its own floor, yet the floors' sum stays within N / (k + 1) (above; here 186, 179, 177, 174).
    expect(floors).toHaveLength(4);
  });
});
