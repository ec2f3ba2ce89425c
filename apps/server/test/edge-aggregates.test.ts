import {
  type AggregateMinute,
  type EdgeEvent,
  EVENT_BATCH_MAX,
  HeavyHitters,
  HLL_STANDARD_ERROR,
  HyperLogLog,
  type HyperLogLogData,
  LOW_DIM_NAMES,
  MinuteAggregator,
  ROLLUP_COUNTERS,
} from '@rampart/contract';
import { addressOf, generateTraffic } from '@rampart/contract/testing';
import { describe, expect, it } from 'vitest';
import type { AnalyticsRepository, DomainPlace } from '../src/modules/analytics/analytics.repository.js';
import type { EventRow, StoredBatch } from '../src/modules/analytics/analytics-store.js';
import { IngestService } from '../src/modules/analytics/ingest.service.js';
import { type DimRow, type RollupRow, rollupsOf } from '../src/modules/analytics/rollups.js';

// The edge's minute aggregates (contract aggregates/minute-aggregator.ts) against the control
// plane's reference: the same generated traffic taken in as events by IngestService (placed and
// located as the server does) and rolled up by rollupsOf, and aggregated at the edge then summed
// into the same buckets. Exact counters must be equal, sketches within their stated bounds.

const NODE = { nodeId: 5, zoneId: 3, ownerId: 10 };
/** Domain d's site; every 13th domain belongs to another operator's site (counted for no site). */
const placeOf = (domainId: number): DomainPlace => ({
  domainId,
  siteId: 100 + (domainId % 7),
  ownerId: domainId % 13 === 5 ? 99 : NODE.ownerId,
});
const COUNTRIES = ['', 'DE', 'US', 'CN', 'BR', 'JP'];
/** A deterministic "geo database": the address's last character picks the country and city. */
const locate = (ip: string) => {
  const c = ip.charCodeAt(ip.length - 1) + ip.length;
  return { country: COUNTRIES[c % COUNTRIES.length] ?? '', city: c % 4 === 0 ? 0 : 2_950_000 + (c % 11) };
};

/** The events as the control plane stores them, through its own ingest (batches as the agent cuts them). */
async function storedRows(events: readonly EdgeEvent[]): Promise<EventRow[]> {
  const rows: EventRow[] = [];
  const store = {
    ingest: async (batch: StoredBatch) => {
      rows.push(...batch.events);
      return { stored: batch.events.length, duplicate: false };
    },
  };
  const repo = {
    nodePlace: async () => ({ zoneId: NODE.zoneId, ownerId: NODE.ownerId }),
    domainPlaces: async (ids: readonly number[]) => ids.map(placeOf),
  } as unknown as AnalyticsRepository;
  const ingest = new IngestService(
    store,
    repo,
    async () => locate,
    () => Date.UTC(2030, 0, 1),
  );
  for (let i = 0, seq = 1; i < events.length; i += EVENT_BATCH_MAX, seq++) {
    await ingest.ingest(NODE.nodeId, {
      batchId: `spool-${seq}`,
      dropped: 0,
      events: events.slice(i, i + EVENT_BATCH_MAX),
    });
  }
  return rows;
}

/** Where the control plane puts a minute record's domain: as it places an event (ingest.service.ts). */
function placed(record: AggregateMinute): { siteId: number; domainId: number; zoneId: number } {
  const place = record.domainId === 0 ? null : placeOf(record.domainId);
  const owned = place !== null && place.ownerId === NODE.ownerId;
  return { siteId: owned ? place.siteId : 0, domainId: owned ? record.domainId : 0, zoneId: NODE.zoneId };
}

const keyed = (rows: readonly RollupRow[]) =>
  new Map(
    rows.map((r) => [`${r.bucket}|${r.siteId}|${r.domainId}|${r.zoneId}`, ROLLUP_COUNTERS.map((c) => r.values[c])]),
  );
const keyedDims = (rows: readonly DimRow[]) =>
  new Map(
    rows.map((r) => [
      `${r.bucket}|${r.siteId}|${r.domainId}|${r.zoneId}|${r.dim}|${r.value}`,
      [r.values.requests, r.values.bytes_out, r.values.blocked, r.values.blacklisted, r.values.waf],
    ]),
  );
const sorted = <V>(m: Map<string, V>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));
const addTo = (map: Map<string, number[]>, key: string, values: readonly number[]) => {
  const sums = map.get(key);
  if (!sums) map.set(key, [...values]);
  else for (const [i, v] of values.entries()) sums[i]! += v;
};

/** The aggregates summed into the rollup buckets, as the control plane will merge them. */
function rollupsOfAggregates(records: readonly AggregateMinute[]) {
  const out = {
    r1m: new Map(),
    r5m: new Map(),
    r1h: new Map(),
    r1d: new Map(),
    s5m: new Map(),
    l1h: new Map(),
  } as Record<'r1m' | 'r5m' | 'r1h' | 'r1d' | 's5m' | 'l1h', Map<string, number[]>>;
  for (const record of records) {
    const p = placed(record);
    const t = record.minute / 1000;
    const at = (unit: number, site = false) =>
      `${t - (t % unit)}|${p.siteId}|${site ? 0 : p.domainId}|${site ? 0 : p.zoneId}`;
    addTo(out.r1m, at(60), record.counters);
    addTo(out.r5m, at(300), record.counters);
    addTo(out.s5m, at(300, true), record.counters);
    addTo(out.r1h, at(3600), record.counters);
    addTo(out.r1d, at(86_400), record.counters);
    for (const dim of LOW_DIM_NAMES) {
      for (const [value, ...sums] of record.low[dim]) addTo(out.l1h, `${at(3600)}|${dim}|${value}`, sums);
    }
  }
  return out;
}

function checkExact(events: readonly EdgeEvent[], rows: EventRow[], records: AggregateMinute[]): void {
  const want = rollupsOf(rows);
  const got = rollupsOfAggregates(records);
  expect(sorted(got.r1m)).toEqual(sorted(keyed(want.r1m)));
  expect(sorted(got.r5m)).toEqual(sorted(keyed(want.r5m)));
  expect(sorted(got.s5m)).toEqual(sorted(keyed(want.s5m)));
  expect(sorted(got.r1h)).toEqual(sorted(keyed(want.r1h)));
  expect(sorted(got.r1d)).toEqual(sorted(keyed(want.r1d)));
  expect(sorted(got.l1h)).toEqual(sorted(keyedDims(want.l1h)));
  expect(records.reduce((n, r) => n + (r.counters[0] ?? 0), 0)).toBe(events.length);
}

const T0 = Date.UTC(2026, 10, 27, 23, 57, 30);
/** Many domains, every status, method, cache status and decision kind, upstream errors, and a flood across midnight. */
const traffic = () =>
  generateTraffic({
    seed: 61,
    start: T0,
    seconds: 300,
    rps: 120,
    domains: 60,
    jitterMs: 400,
    flood: { domains: [2, 5], addresses: 40, rps: 150 },
  });

describe('edge minute aggregates against the rollups of raw events', () => {
  it('sum to exactly the rollups and low dimensions of the same events, across minutes, hours and a day', async () => {
    const events = traffic();
    const rows = await storedRows(events);
    const a = new MinuteAggregator({ locate });
    for (const e of events) a.add(e);
    a.closeAll();
    const { minutes, collapsed } = a.take();
    expect(minutes.some((m) => m.late)).toBe(false);
    checkExact(events, rows, minutes);

    // Peaks: each record's are the true per-second maxima of its domain's requests and bytes.
    const seconds = new Map<string, { requests: number; bytes: number }>();
    for (const e of events) {
      const key = `${e.time - (e.time % 60_000)}|${e.domainId}|${Math.floor((e.time % 60_000) / 1000)}`;
      const s = seconds.get(key) ?? { requests: 0, bytes: 0 };
      s.requests += 1;
      s.bytes += e.bytesOut;
      seconds.set(key, s);
    }
    for (const m of minutes) {
      let requests = 0;
      let bytes = 0;
      for (let s = 0; s < 60; s++) {
        const v = seconds.get(`${m.minute}|${m.domainId}|${s}`);
        requests = Math.max(requests, v?.requests ?? 0);
        bytes = Math.max(bytes, v?.bytes ?? 0);
      }
      expect([m.peakRequests, m.peakBytesOut]).toEqual([requests, bytes]);
    }

    // The flood collapsed: per minute and domain its records count every blocked request.
    const blocked = ROLLUP_COUNTERS.indexOf('blocked');
    for (const m of minutes) {
      const counted = collapsed.filter((c) => c.minute === m.minute && c.domainId === m.domainId);
      expect(counted.reduce((n, c) => n + c.count, 0)).toBe(m.counters[blocked]);
    }
    // The flood's 40 addresses on domain 2 over six minutes: at most one record each per minute.
    const floodAddresses = new Set(Array.from({ length: 40 }, (_, i) => addressOf(1_000_000 + i)));
    const flood = collapsed.filter((c) => floodAddresses.has(c.ip) && c.domainId === 2);
    expect(flood.length).toBeLessThanOrEqual(6 * 40);
    expect(flood.every((c) => c.fwKind === 'blacklist' && c.fwRule === 4)).toBe(true);
    expect(flood.reduce((n, c) => n + c.count, 0)).toBeGreaterThan(15_000);

    // Heavy hitters per hour and domain, merged from the minutes, within their bound of the true counts.
    const want = rollupsOf(rows);
    const truth = new Map<string, Map<string, number[]>>();
    for (const r of want.d1h) {
      const key = `${r.bucket}|${r.siteId}|${r.domainId}|${r.zoneId}|${r.dim}`;
      const values = truth.get(key) ?? new Map<string, number[]>();
      values.set(r.value, [r.values.requests, r.values.blacklisted, r.values.waf]);
      truth.set(key, values);
    }
    const merged = new Map<string, HeavyHitters>();
    const ips = new Map<string, HyperLogLog>();
    const tops = [
      ['url', 'url', 0],
      ['referer', 'referer', 0],
      ['userAgent', 'userAgent', 0],
      ['ip', 'ip', 0],
      ['ipBlacklisted', 'ip', 1],
      ['ipWaf', 'ip', 2],
    ] as const;
    for (const m of minutes) {
      const p = placed(m);
      const hour = m.minute / 1000 - ((m.minute / 1000) % 3600);
      const at = `${hour}|${p.siteId}|${p.domainId}|${p.zoneId}`;
      for (const [name] of tops) {
        const data = m.top?.[name];
        if (!data) continue;
        const h = HeavyHitters.from(data, 5);
        const key = `${at}|${name}`;
        const into = merged.get(key);
        if (into) into.merge(h);
        else merged.set(key, h);
      }
      // A partial record carries no sketches (its minute's closing record does).
      if (!m.ips) continue;
      const sketch = HyperLogLog.from(m.ips as HyperLogLogData) as HyperLogLog;
      const into = ips.get(at);
      if (into) into.merge(sketch);
      else ips.set(at, sketch);
    }
    let checked = 0;
    for (const [key, h] of merged) {
      const [at, name] = [key.slice(0, key.lastIndexOf('|')), key.slice(key.lastIndexOf('|') + 1)];
      const [, dim, weight] = tops.find(([n]) => n === name) as (typeof tops)[number];
      const values = truth.get(`${at}|${dim}`) ?? new Map<string, number[]>();
      const n = [...values.values()].reduce((s, v) => s + (v[weight] ?? 0), 0);
      expect(h.n).toBe(n);
      const bound = n / (h.k + 1);
      const listed = new Map(h.list().map((e) => [e.value, e]));
      const problems: string[] = [];
      for (const [value, v] of values) {
        const f = v[weight] ?? 0;
        const e = listed.get(value);
        if (f > bound && !e) problems.push(`${key}: ${value} (${f} > ${bound}) missing`);
        if (e && (e.count < f || e.count - e.error > f || e.error > bound))
          problems.push(`${key}: ${value} ${f} vs ${e.count}±${e.error}`);
      }
      expect(problems).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);

    // Distinct addresses per hour and domain: exact while small, else within 3 standard errors.
    const distinct = new Map<string, Set<string>>();
    for (const r of want.d1h) {
      if (r.dim !== 'ip') continue;
      const at = `${r.bucket}|${r.siteId}|${r.domainId}|${r.zoneId}`;
      distinct.set(at, (distinct.get(at) ?? new Set()).add(r.value));
    }
    expect([...ips.keys()].sort()).toEqual([...distinct.keys()].sort());
    for (const [at, sketch] of ips) {
      const n = distinct.get(at)?.size ?? 0;
      if (sketch.exact) expect(sketch.count()).toBe(n);
      else expect(Math.abs(sketch.count() - n)).toBeLessThanOrEqual(3 * HLL_STANDARD_ERROR * n);
    }
  }, 180_000);

  it('stays exact when events arrive after their minute closed (corrections)', async () => {
    const events = traffic().slice(0, 40_000);
    const rows = await storedRows(events);
    // A grace shorter than the log's disorder: many events come after their minute closed.
    const a = new MinuteAggregator({ locate, graceMs: 100 });
    const records: AggregateMinute[] = [];
    for (const [i, e] of events.entries()) {
      a.add(e);
      if (i % 997 === 0) records.push(...a.take().minutes);
    }
    a.closeAll();
    records.push(...a.take().minutes);
    expect(records.filter((m) => m.late).length).toBeGreaterThan(5);
    checkExact(events, rows, records);
  }, 180_000);
});
