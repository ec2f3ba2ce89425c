import {
  AGGREGATE_TOP_K_MAX,
  type AggregateBatch,
  type EdgeEvent,
  EVENT_BATCH_MAX,
  HLL_STANDARD_ERROR,
  MinuteAggregator,
  type MinuteAggregatorOptions,
  pathPart,
  STATISTICS_SERIES_TYPES,
} from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AggregateIngestService } from '../src/modules/analytics/aggregate-ingest.service.js';
import type { AnalyticsRepository, DomainPlace } from '../src/modules/analytics/analytics.repository.js';
import type { AnalyticsStore } from '../src/modules/analytics/analytics-store.js';
import { IngestService } from '../src/modules/analytics/ingest.service.js';
import { StatisticsReads } from '../src/modules/analytics/store/statistics-reads.js';
import type { Range } from '../src/modules/analytics/store/statistics-sql.js';
import { createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';

/**
 * The statistics read the nodes' heavy hitters, address sketches and per-second peaks
 * (aggregate-sketch-store.ts), on DuckDB (server-pglite) and ClickHouse (server-postgres): the same
 * traffic taken in as raw events by one store, and by another half as raw events and half as the
 * edge's minute aggregates, gives the same top lists (short ranges from the minutes, long ones
 * from the hourly and daily tables) and distinct addresses; a merged top stays within its stated
 * error bound where the summaries pruned; a flood's busiest second shows, not a minute's mean.
 */

const NODE = { nodeId: 5, zoneId: 3, ownerId: 10 };
const placeOf = (domainId: number): DomainPlace => ({ domainId, siteId: 100 + (domainId % 3), ownerId: NODE.ownerId });
const locate = () => ({ country: 'DE', city: 0 });
const repo = {
  nodePlace: async () => ({ zoneId: NODE.zoneId, ownerId: NODE.ownerId }),
  domainPlaces: async (ids: readonly number[]) => ids.map(placeOf),
} as unknown as AnalyticsRepository;
const clock = () => Date.UTC(2026, 10, 28, 1, 0, 0);
const T0 = Date.UTC(2026, 10, 27, 23, 58, 10);
const DAY = 86_400;
const SCOPE = { siteIds: [0, 100, 101, 102], zoneIds: null, domainIds: null };
const UPKEEP = { from: T0 / 1000 - DAY, to: T0 / 1000 + DAY };

/** The edge's aggregates of `events`, a batch per 40 minute records. */
function aggregateBatches(events: readonly EdgeEvent[], prefix: string, options: MinuteAggregatorOptions = {}) {
  const a = new MinuteAggregator({ locate, ...options });
  for (const e of events) a.add(e);
  a.closeAll();
  const { minutes } = a.take();
  const batches: AggregateBatch[] = [];
  for (let i = 0; i < minutes.length; i += 40) {
    const slice = minutes.slice(i, i + 40);
    batches.push({ batchId: `${prefix}-${i}`, dropped: 0, closedThrough: 0, minutes: slice, collapsed: [] });
  }
  return batches;
}

async function ingestEvents(store: AnalyticsStore, events: readonly EdgeEvent[], prefix: string) {
  const ingest = new IngestService(store, repo, async () => locate, clock);
  for (let i = 0; i < events.length; i += EVENT_BATCH_MAX) {
    await ingest.ingest(NODE.nodeId, {
      batchId: `${prefix}-${i}`,
      dropped: 0,
      events: events.slice(i, i + EVENT_BATCH_MAX),
    });
  }
}

async function ingestAggregates(store: AnalyticsStore, batches: readonly AggregateBatch[]) {
  const ingest = new AggregateIngestService(
    store,
    repo,
    new IngestService(store, repo, async () => locate, clock),
    clock,
  );
  for (const b of batches) expect((await ingest.ingest(NODE.nodeId, b)).duplicate).toBe(false);
}

const sketchesOf = (store: AnalyticsStore) => new StatisticsReads(store).sketches;

describe(`the statistics read the nodes' sketches (${TEST_ANALYTICS_KIND})`, () => {
  let fromEvents: AnalyticsStore;
  let mixed: AnalyticsStore;
  beforeEach(async () => {
    fromEvents = await createTestAnalyticsStore();
    mixed = await createTestAnalyticsStore();
  });
  afterEach(async () => {
    await fromEvents.close();
    await mixed.close();
  });

  it('give the tops and distinct addresses of the same traffic taken in as events', async () => {
    // Few requests a minute (under the summaries' capacity): nothing is pruned, every count exact.
    const events = generateTraffic({
      seed: 61,
      start: T0,
      seconds: 240,
      rps: 3,
      domains: 6,
      addresses: 300,
      flood: { domains: [2], addresses: 5, rps: 1 },
    });
    await ingestEvents(fromEvents, events, 'e');
    // Odd domains as the edge's aggregates (their events kept for the logs only), the rest as events.
    const aggregated = events.filter((e) => e.domainId % 2 === 1);
    const raw = events.filter((e) => e.domainId % 2 === 0);
    expect(aggregated.length).toBeGreaterThan(100);
    await ingestEvents(mixed, raw, 'e');
    await ingestAggregates(mixed, aggregateBatches(aggregated, 'a', { topK: AGGREGATE_TOP_K_MAX }));
    for (const store of [fromEvents, mixed]) await store.compact(UPKEEP.from, UPKEEP.to);

    const short: Range = { start: T0 / 1000 - 10, end: T0 / 1000 + 300 };
    const long: Range = { start: T0 / 1000 - 3 * DAY, end: T0 / 1000 + DAY };
    const lists = [
      ['url', 'requests'],
      ['referer', 'requests'],
      ['userAgent', 'requests'],
      ['ip', 'requests'],
      ['ip', 'blacklisted'],
      ['ip', 'waf'],
    ] as const;
    for (const range of [short, long]) {
      for (const [dim, by] of lists) {
        const top = (store: AnalyticsStore) => new StatisticsReads(store).top(SCOPE, range, dim, by, 50);
        const want = await top(fromEvents);
        expect(want.length, `${dim} by ${by}`).toBeGreaterThan(1);
        expect(await top(mixed), `${dim} by ${by}`).toEqual(want);
      }
      for (const having of [undefined, 'blocked', 'blacklisted'] as const) {
        const want = await new StatisticsReads(fromEvents).distinct(SCOPE, range, 'ip', having);
        expect(want).toBeGreaterThan(1);
        // Small sets: the union of the sketches and the raw addresses is exact.
        expect(await sketchesOf(mixed).distinctAddresses(SCOPE, range, having)).toEqual({
          count: want,
          standardError: 0,
        });
        // A store without aggregates leaves the count to the raw events.
        expect(await sketchesOf(fromEvents).distinctAddresses(SCOPE, range, having)).toBeNull();
      }
    }
  }, 240_000);

  it('give the same tops when the aggregates come after their hours and days are built (late partial rows)', async () => {
    // A flood on an odd domain: its blocked addresses come late too.
    const events = generateTraffic({
      seed: 63,
      start: T0,
      seconds: 240,
      rps: 3,
      domains: 6,
      addresses: 300,
      flood: { domains: [3], addresses: 5, rps: 1 },
    });
    await ingestEvents(fromEvents, events, 'e');
    await fromEvents.compact(UPKEEP.from, UPKEEP.to);
    // Even domains as events, built first: the odd ones' aggregates land in built hours (dims_1h)
    // and, before midnight, a built day (dims_1d, sitedims_1d); their addresses in days DuckDB's
    // per-site address table holds already (siteips).
    await ingestEvents(
      mixed,
      events.filter((e) => e.domainId % 2 === 0),
      'e',
    );
    await mixed.compact(UPKEEP.from, UPKEEP.to);
    const aggregated = events.filter((e) => e.domainId % 2 === 1);
    await ingestAggregates(mixed, aggregateBatches(aggregated, 'a', { topK: AGGREGATE_TOP_K_MAX }));
    const ranges: Range[] = [
      { start: T0 / 1000 - 3 * DAY, end: T0 / 1000 + DAY },
      { start: T0 / 1000 - 3600, end: T0 / 1000 + 3600 },
    ];
    // Before the upkeep merges the partial rows, too.
    for (const range of ranges) {
      const top = (store: AnalyticsStore) => new StatisticsReads(store).top(SCOPE, range, 'ip', 'requests', 50);
      expect(await top(mixed), `${range.start} ip, unmerged`).toEqual(await top(fromEvents));
    }
    await mixed.compact(UPKEEP.from, UPKEEP.to);
    const lists = [
      ...(['url', 'referer', 'userAgent', 'status', 'method', 'country', 'ip'] as const).map(
        (d) => [d, 'requests'] as const,
      ),
      ['ip', 'blacklisted'],
      ['ip', 'waf'],
    ] as const;
    for (const range of ranges) {
      for (const [dim, by] of lists) {
        const top = (store: AnalyticsStore) => new StatisticsReads(store).top(SCOPE, range, dim, by, 50);
        const want = await top(fromEvents);
        expect(want.length, `${dim} by ${by}`).toBeGreaterThan(0);
        expect(await top(mixed), `${range.start} ${dim} by ${by}`).toEqual(want);
      }
      // The totals and the per-domain list over the same range (the rollups' late rows).
      const reads = (store: AnalyticsStore) => new StatisticsReads(store);
      expect(await reads(mixed).totals(SCOPE, range), `${range.start} totals`).toEqual(
        await reads(fromEvents).totals(SCOPE, range),
      );
      const perDomain = (store: AnalyticsStore) =>
        reads(store).perDomain(SCOPE, range, { by: 'requests', desc: true }, null);
      expect(await perDomain(mixed), `${range.start} per domain`).toEqual(await perDomain(fromEvents));
      for (const type of STATISTICS_SERIES_TYPES) {
        const series = (store: AnalyticsStore) => reads(store).series(SCOPE, range, type, 60);
        expect(await series(mixed), `${range.start} ${type} series`).toEqual(await series(fromEvents));
      }
      // Distinct addresses: the sketches' union with the raw addresses (small sets: exact).
      for (const having of [undefined, 'blocked', 'blacklisted'] as const) {
        const want = await new StatisticsReads(fromEvents).distinct(SCOPE, range, 'ip', having);
        expect(want).toBeGreaterThan(1);
        expect(await sketchesOf(mixed).distinctAddresses(SCOPE, range, having), `${range.start} ${having}`).toEqual({
          count: want,
          standardError: 0,
        });
      }
    }
  }, 240_000);

  it("gives the origin's response time percentiles of the same traffic taken in as events", async () => {
    const events = generateTraffic({ seed: 62, start: T0, seconds: 180, rps: 20, domains: 6, addresses: 200 });
    await ingestEvents(fromEvents, events, 'e');
    // Odd domains as the edge's aggregates (their histograms), the rest as events.
    await ingestEvents(
      mixed,
      events.filter((e) => e.domainId % 2 === 0),
      'e',
    );
    await ingestAggregates(
      mixed,
      aggregateBatches(
        events.filter((e) => e.domainId % 2 === 1),
        'u',
      ),
    );
    const range: Range = { start: T0 / 1000 - 10, end: T0 / 1000 + 300 };
    const want = await new StatisticsReads(fromEvents).upstreamTimes(SCOPE, range);
    // The nearest-rank values of the generated times, per site: each percentile within the stated error.
    const timed = events.filter((e) => e.upstreamMs >= 0);
    expect(want.total.count).toBe(timed.length);
    // A request of no known domain is its node's (site 0).
    const siteOf = (e: EdgeEvent) => (e.domainId === 0 ? 0 : placeOf(e.domainId).siteId);
    expect(want.sites.map((r) => r.siteId)).toEqual([...new Set(timed.map(siteOf))].sort((a, b) => a - b));
    for (const row of want.sites) {
      const times = timed
        .filter((e) => siteOf(e) === row.siteId)
        .map((e) => e.upstreamMs)
        .sort((a, b) => a - b);
      expect(row.count).toBe(times.length);
      for (const [q, got] of [
        [0.5, row.p50],
        [0.95, row.p95],
        [0.99, row.p99],
      ] as const) {
        const truth = times[Math.ceil(q * times.length) - 1] as number;
        expect(Math.abs((got as number) - truth), `site ${row.siteId} p${q * 100}`).toBeLessThanOrEqual(
          Math.max(0.5, truth * want.relativeError),
        );
      }
    }
    // Half the traffic from the nodes' histograms: the same answer, bucket for bucket.
    expect(await new StatisticsReads(mixed).upstreamTimes(SCOPE, range)).toEqual(want);
    // Nothing timed in the range: no percentile.
    const empty = await new StatisticsReads(mixed).upstreamTimes(SCOPE, { start: 1000, end: 2000 });
    expect(empty).toMatchObject({ total: { count: 0, p50: null, p95: null, p99: null }, sites: [] });
  }, 120_000);

  it('keeps a merged top within its error bound where the summaries pruned', async () => {
    const events = generateTraffic({ seed: 7, start: T0, seconds: 180, rps: 60, domains: 4, addresses: 2000 });
    const k = 8;
    const batches = aggregateBatches(events, 'p', { topK: k });
    await ingestAggregates(mixed, batches);
    // F: the floors of every minute's URL summary; every listed count is within F of the truth.
    const floor = batches.flatMap((b) => b.minutes).reduce((n, m) => n + (m.top?.url.floor ?? 0), 0);
    const total = events.length;
    expect(floor).toBeGreaterThan(0);
    expect(floor).toBeLessThanOrEqual(total / (k + 1));
    const truth = new Map<string, number>();
    for (const e of events) truth.set(pathPart(e.path), (truth.get(pathPart(e.path)) ?? 0) + 1);
    const range = { start: T0 / 1000 - 10, end: T0 / 1000 + 300 };
    const top = await new StatisticsReads(mixed).top(SCOPE, range, 'url', 'requests', 10_000);
    expect(top.length).toBeGreaterThan(k);
    for (const row of top) expect(Math.abs(row.requests - (truth.get(row.key) ?? 0))).toBeLessThanOrEqual(floor);
    const listed = new Set(top.map((r) => r.key));
    const heavy = [...truth].filter(([, n]) => n > floor);
    expect(heavy.length).toBeGreaterThan(0);
    for (const [value] of heavy) expect(listed.has(value), value).toBe(true);
  }, 120_000);

  it('estimates many distinct addresses from the sketches, with their standard error', async () => {
    const base = generateTraffic({ seed: 9, start: T0, seconds: 60, rps: 100, domains: 2, addresses: 50 });
    // 6,000 requests from 6,000 addresses: past a sketch's exact range.
    const events = base.map((e, i) => ({ ...e, ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }));
    await ingestAggregates(mixed, aggregateBatches(events, 'h'));
    const got = await sketchesOf(mixed).distinctAddresses(SCOPE, { start: T0 / 1000 - 60, end: T0 / 1000 + 120 });
    expect(got?.standardError).toBe(HLL_STANDARD_ERROR);
    expect(Math.abs((got?.count ?? 0) - events.length)).toBeLessThan(4 * HLL_STANDARD_ERROR * events.length);
  }, 60_000);

  it("shows a one-node flood's busiest second, not a minute's mean", async () => {
    // 3,000 requests in 3 seconds: 1,000 a second at least in one of them.
    const [template] = generateTraffic({ seed: 3, start: T0, seconds: 1, rps: 1, domains: 1 });
    if (!template) throw new Error('no event');
    const minute = T0 - (T0 % 60_000) + 60_000;
    const events = Array.from({ length: 3000 }, (_, i) => ({
      ...template,
      id: `f-${i}`,
      domainId: 1,
      time: minute + 10_000 + Math.floor(i / 1000) * 1000 + (i % 1000),
    }));
    await ingestAggregates(mixed, aggregateBatches(events, 'f'));
    const range = { start: minute / 1000, end: minute / 1000 + 60 };
    const peaks = await sketchesOf(mixed).peaks(SCOPE, range, 60);
    expect(peaks?.requests).toBeGreaterThanOrEqual(1000);
    expect(peaks?.bytes).toBeGreaterThanOrEqual(1000 * template.bytesOut);
    // The rollup's mean of that minute: what the card showed before.
    const totals = await new StatisticsReads(mixed).totals(SCOPE, range);
    expect(totals.peak_requests / totals.peak_seconds).toBe(50);
  }, 60_000);

  it("reads a node's busiest second from a minute shipped in several records (partials, close, correction)", async () => {
    const [template] = generateTraffic({ seed: 4, start: T0, seconds: 1, rps: 1, domains: 1 });
    if (!template) throw new Error('no event');
    const minute = T0 - (T0 % 60_000) + 120_000;
    let serial = 0;
    const burst = (second: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        ...template,
        id: `p-${serial++}`,
        domainId: 1,
        time: minute + second * 1000 + i,
      }));
    const a = new MinuteAggregator({ locate, partialMs: 15_000 });
    const batches: AggregateBatch[] = [];
    const take = (partial: boolean) => {
      const { minutes } = a.take(partial);
      batches.push({ batchId: `p-${batches.length}`, dropped: 0, closedThrough: 0, minutes, collapsed: [] });
    };
    // Second 14: 100 requests before the first partial and 50 after it (nginx's buffers); second 20:
    // 80; second 50: 30 before the close; then 10 more of second 14 after it (a correction). The
    // busiest second is 14 with 160 — the records' own busiest seconds would sum to 220, their max 100.
    for (const e of burst(14, 100)) a.add(e);
    take(true);
    for (const e of [...burst(14, 50), ...burst(20, 80)]) a.add(e);
    take(true);
    for (const e of burst(50, 30)) a.add(e);
    a.advance(minute + 60_000 + 5000);
    take(false);
    for (const e of burst(14, 10)) a.add(e);
    take(false);
    expect(batches.map((b) => b.minutes.map((m) => [m.late, m.counters[0]]))).toEqual([
      [[false, 100]],
      [[false, 130]],
      [[false, 30]],
      [[true, 10]],
    ]);
    await ingestAggregates(mixed, batches);
    const range = { start: minute / 1000, end: minute / 1000 + 60 };
    const peaks = await sketchesOf(mixed).peaks(SCOPE, range, 60);
    expect(peaks).toEqual({ requests: 160, bytes: 160 * template.bytesOut });
  }, 60_000);
});
