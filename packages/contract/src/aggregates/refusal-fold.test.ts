import { describe, expect, it } from 'vitest';
import type { RefusalTally } from '../edge/refusal-tally.js';
import { type AggregateMinute, aggregateBatchSchema } from '../routes/analytics-aggregates.js';
import type { EdgeEvent } from '../routes/analytics-events.js';
import { generateTraffic } from '../testing/edge-traffic.js';
import { packAggregates } from './aggregate-batches.js';
import { ROLLUP_COUNTERS } from './event-counters.js';
import { MinuteAggregator } from './minute-aggregator.js';

// A flood nginx logs once and tallies after (edge/refusal-tally.ts) must give the statistics the
// same flood logged line by line gives, but for what a tally does not carry: the per-second peaks
// (a tally has its last time only).

const T0 = Date.UTC(2026, 10, 28, 12, 0);
const REQUESTS = ROLLUP_COUNTERS.indexOf('requests');
const locate = (ip: string) => ({
  country: ip.startsWith('203.') ? 'NL' : 'DE',
  city: ip.endsWith('.7') ? 2759794 : 0,
});

/** `n` refusals of one address by blacklist rule 4 on domain 3, spread over the minute, as nginx would log them. */
function flood(n: number, minute: number, status = 444): EdgeEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `flood-${minute}-${i}`,
    time: minute + 100 + Math.floor((i * 59_000) / n),
    domainId: 3,
    ip: '203.0.113.7',
    method: 'POST',
    scheme: 'https',
    httpVersion: '1.1',
    host: 'shop.example',
    path: '/login.php?u=a',
    status,
    bytesIn: 300 + (i % 17),
    bytesOut: status === 444 ? 0 : 120 + (i % 5),
    requestMs: 0,
    upstreamMs: -1,
    upstreamStatus: 0,
    cacheStatus: '',
    userAgent: 'flood/1.0',
    referer: '',
    fwKind: 'blacklist',
    fwRule: 4,
    fwAction: 'deny',
    wafPart: '',
    wafExcerpt: '',
    wafName: '',
  }));
}

/** The tally nginx keeps of all the flood's lines but the first. */
function tallyOf(lines: EdgeEvent[]): RefusalTally {
  const rest = lines.slice(1);
  const first = lines[0] as EdgeEvent;
  return {
    minute: first.time - (first.time % 60_000),
    domainId: first.domainId,
    ip: first.ip,
    fwKind: first.fwKind,
    fwRule: first.fwRule,
    fwAction: first.fwAction,
    status: first.status,
    count: rest.length,
    bytesIn: rest.reduce((s, e) => s + e.bytesIn, 0),
    bytesOut: rest.reduce((s, e) => s + e.bytesOut, 0),
    last: (rest.at(-1) as EdgeEvent).time,
  };
}

const withoutPeaks = (m: AggregateMinute) => {
  const { peakRequests: _r, peakBytesOut: _b, ...rest } = m;
  return rest;
};

describe('refusal tallies folded into the minute aggregates', () => {
  it('give the statistics and the collapsed record of the flood logged line by line', () => {
    const background = generateTraffic({ seed: 61, start: T0, seconds: 60, rps: 40, domains: 5, jitterMs: 0 });
    for (const status of [444, 403]) {
      const lines = flood(2500, T0, status);
      const logged = new MinuteAggregator({ locate });
      const tallied = new MinuteAggregator({ locate });
      const all = [...background, ...lines].sort((a, b) => a.time - b.time);
      for (const e of all) logged.add(e);
      for (const e of all) if (!lines.includes(e) || e === lines[0]) tallied.add(e);
      tallied.addRefusals(tallyOf(lines));
      logged.closeAll();
      tallied.closeAll();
      const a = logged.take();
      const b = tallied.take();
      expect(b.minutes.map(withoutPeaks)).toEqual(a.minutes.map(withoutPeaks));
      expect(b.collapsed).toEqual(a.collapsed);
      const record = b.collapsed.find((c) => c.ip === '203.0.113.7');
      expect(record).toMatchObject({ count: 2500, fwKind: 'blacklist', fwRule: 4, first: lines[0]?.time });
      const domain3 = b.minutes.find((m) => m.domainId === 3) as AggregateMinute;
      expect(domain3.counters[ROLLUP_COUNTERS.indexOf('blacklisted')]).toBeGreaterThanOrEqual(2500);
      const dropped = background.filter((e) => e.domainId === 3 && e.status === 444).length;
      expect(domain3.counters[ROLLUP_COUNTERS.indexOf('dropped')]).toBe(dropped + (status === 444 ? 2500 : 0));
    }
  });

  it('takes the logged first request as the sample when its tally was drained before its line was read', () => {
    const a = new MinuteAggregator({ locate });
    const lines = flood(10, T0);
    a.addRefusals(tallyOf(lines));
    a.add(lines[0] as EdgeEvent);
    a.closeAll();
    const [record] = a.take().collapsed;
    expect(record?.count).toBe(10);
    expect(record?.sample).toEqual(lines[0]);
  });

  it('counts a tally without its logged first request, and one of a closed minute as a correction', () => {
    const a = new MinuteAggregator({ locate, graceMs: 1000 });
    const lines = flood(10, T0);
    a.addRefusals(tallyOf(lines));
    a.add({ ...(lines[0] as EdgeEvent), id: 'later', time: T0 + 62_000, fwKind: '', fwAction: '', status: 200 });
    a.addRefusals(tallyOf(lines));
    const taken = a.take();
    const rows = taken.minutes.map((m) => [m.minute, m.late, m.counters[REQUESTS]]);
    // The first tally is in the closed minute; the second, folded after it closed, a correction.
    expect(rows).toEqual([
      [T0, false, 9],
      [T0, true, 9],
    ]);
    expect(taken.collapsed.map((c) => [c.minute, c.count, c.ip, c.sample.method])).toEqual([
      [T0, 9, '203.0.113.7', ''],
      [T0, 9, '203.0.113.7', ''],
    ]);
    // What a tally alone makes is a valid batch.
    for (const body of packAggregates(taken)) {
      expect(aggregateBatchSchema.safeParse({ batchId: 'a-1', dropped: 0, ...body }).error).toBeUndefined();
    }
  });
});
