import {
  AGGREGATE_BATCH_MINUTES_MAX,
  type AggregateBatch,
  type EdgeEvent,
  EVENT_BATCH_MAX,
  MinuteAggregator,
  ROLLUP_COUNTERS,
} from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AggregateIngestService } from '../src/modules/analytics/aggregate-ingest.service.js';
import type { AnalyticsRepository, DomainPlace } from '../src/modules/analytics/analytics.repository.js';
import type { AnalyticsStore, Row, StoredAggregateBatch } from '../src/modules/analytics/analytics-store.js';
import { batchKey } from '../src/modules/analytics/clickhouse-store.js';
import { IngestService } from '../src/modules/analytics/ingest.service.js';
import { DIM_COUNTERS } from '../src/modules/analytics/rollups.js';
import { StatisticsReads } from '../src/modules/analytics/store/statistics-reads.js';
import { clickhouseRequest, createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';

/**
 * The nodes' aggregates merged into the rollups (aggregate-ingest.service.ts, the stores'
 * ingestAggregates), on DuckDB (server-pglite) and ClickHouse (server-postgres): the same
 * generated traffic taken in as raw events by one store and as the edge's minute aggregates by
 * another gives the same time rollups; a batch sent again counts once; a domain of another
 * operator's site counts for no site.
 */

const NODE = { nodeId: 5, zoneId: 3, ownerId: 10 };
/** Domain d's site; every 13th domain belongs to another operator's site (counted for no site). */
const placeOf = (domainId: number): DomainPlace => ({
  domainId,
  siteId: 100 + (domainId % 7),
  ownerId: domainId % 13 === 5 ? 99 : NODE.ownerId,
});
const locate = (ip: string) => ({ country: ip.endsWith('7') ? 'DE' : 'US', city: 0 });
const repo = {
  nodePlace: async () => ({ zoneId: NODE.zoneId, ownerId: NODE.ownerId }),
  domainPlaces: async (ids: readonly number[]) => ids.map(placeOf),
} as unknown as AnalyticsRepository;
const clock = () => Date.UTC(2026, 10, 28, 1, 0, 0);
const T0 = Date.UTC(2026, 10, 27, 23, 58, 10);
/** Many domains (one of another operator: 5, 18, …), a flood across midnight. */
const traffic = () =>
  generateTraffic({
    seed: 62,
    start: T0,
    seconds: 240,
    rps: 40,
    domains: 20,
    jitterMs: 400,
    flood: { domains: [2, 5], addresses: 20, rps: 60 },
  });

/** Fewer minute records a batch than the agent's most (AGGREGATE_BATCH_MINUTES_MAX): several batches. */
const MINUTES_PER_BATCH = Math.min(40, AGGREGATE_BATCH_MINUTES_MAX);
const ROLLUP_TABLES = ['rollup_1m', 'rollup_5m', 'rollup_1h', 'rollup_1d', 'siterollup_5m'] as const;
const KEY = 'bucket, site_id, domain_id, zone_id';
/** A rollup table summed per key, as the statistics read it. */
async function summed(store: AnalyticsStore, table: string): Promise<Map<string, number[]>> {
  const rows: Row[] = await store.query(
    `SELECT ${KEY}, ${ROLLUP_COUNTERS.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM ${table} GROUP BY ${KEY}`,
  );
  return new Map(
    rows
      .map(
        (r) =>
          [`${r.bucket}|${r.site_id}|${r.domain_id}|${r.zone_id}`, ROLLUP_COUNTERS.map((c) => Number(r[c]))] as const,
      )
      .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  );
}

const DAY = 86_400;
/** The upkeep's range: past every hour of the traffic (DuckDB builds their dimensions). */
const UPKEEP = { from: T0 / 1000 - DAY, to: T0 / 1000 + DAY };
const SITES = [0, 100, 101, 102, 103, 104, 105, 106];
/** lowdims_1h summed per key. */
async function summedDims(store: AnalyticsStore): Promise<Map<string, number[]>> {
  const rows = await store.query(
    `SELECT ${KEY}, dim, value, ${DIM_COUNTERS.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM lowdims_1h GROUP BY ${KEY}, dim, value`,
  );
  return new Map(
    rows
      .map(
        (r) =>
          [
            `${r.bucket}|${r.site_id}|${r.domain_id}|${r.zone_id}|${r.dim}|${r.value}`,
            DIM_COUNTERS.map((c) => Number(r[c])),
          ] as const,
      )
      .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  );
}

/** The edge's aggregates of `events`, cut into batches as the agent ships them. */
function aggregateBatches(events: readonly EdgeEvent[], prefix: string): AggregateBatch[] {
  const a = new MinuteAggregator({ locate });
  for (const e of events) a.add(e);
  a.closeAll();
  const { minutes } = a.take();
  const batches: AggregateBatch[] = [];
  for (let i = 0, seq = 1; i < minutes.length; i += MINUTES_PER_BATCH, seq++) {
    batches.push({
      batchId: `${prefix}-${seq}`,
      dropped: 0,
      closedThrough: 0,
      minutes: minutes.slice(i, i + MINUTES_PER_BATCH),
      collapsed: [],
    });
  }
  return batches;
}

describe(`aggregates merged into the rollups (${TEST_ANALYTICS_KIND})`, () => {
  let fromEvents: AnalyticsStore;
  let fromAggregates: AnalyticsStore;
  beforeEach(async () => {
    fromEvents = await createTestAnalyticsStore();
    fromAggregates = await createTestAnalyticsStore();
  });
  afterEach(async () => {
    await fromEvents.close();
    await fromAggregates.close();
  });

  it('give the rollups of the same traffic taken in as events, each batch counted once', async () => {
    const events = traffic();
    const eventIngest = new IngestService(fromEvents, repo, async () => locate, clock);
    for (let i = 0, seq = 1; i < events.length; i += EVENT_BATCH_MAX, seq++) {
      await eventIngest.ingest(NODE.nodeId, {
        batchId: `e-${seq}`,
        dropped: 0,
        events: events.slice(i, i + EVENT_BATCH_MAX),
      });
    }
    const places = new IngestService(fromAggregates, repo, async () => locate, clock);
    const ingest = new AggregateIngestService(fromAggregates, repo, places, clock);
    const batches = aggregateBatches(events, 'a');
    expect(batches.length).toBeGreaterThan(1);
    let stored = 0;
    for (const [i, b] of batches.entries()) {
      const result = await ingest.ingest(NODE.nodeId, b);
      expect(result.duplicate).toBe(false);
      stored += result.stored;
      // Halfway, DuckDB builds the hours' dimensions: the rest come late for built hours.
      if (i === Math.floor(batches.length / 2)) await fromAggregates.compact(UPKEEP.from, UPKEEP.to);
    }
    await fromEvents.compact(UPKEEP.from, UPKEEP.to);
    expect(stored).toBe(batches.reduce((n, b) => n + b.minutes.length, 0));
    // A batch sent again (its answer lost) is a duplicate and adds nothing.
    for (const b of batches.slice(0, 2))
      expect(await ingest.ingest(NODE.nodeId, b)).toEqual({ stored: 0, duplicate: true });

    for (const table of ROLLUP_TABLES) {
      const want = await summed(fromEvents, table);
      expect(want.size).toBeGreaterThan(0);
      expect(await summed(fromAggregates, table)).toEqual(want);
    }
    // The low dimensions by the hour, and read with the raw events over a short range (whole minutes).
    await fromAggregates.compact(UPKEEP.from, UPKEEP.to);
    const lowDims = await summedDims(fromEvents);
    expect(lowDims.size).toBeGreaterThan(100);
    expect(await summedDims(fromAggregates)).toEqual(lowDims);
    const range = { start: T0 / 1000 + 110, end: T0 / 1000 + 230 };
    for (const dim of ['status', 'country', 'method', 'fileType'] as const) {
      const top = (store: AnalyticsStore) =>
        new StatisticsReads(store).top({ siteIds: SITES, zoneIds: null, domainIds: null }, range, dim, 'requests', 100);
      const want = await top(fromEvents);
      expect(want.length).toBeGreaterThan(1);
      expect(await top(fromAggregates)).toEqual(want);
    }
    // The other operator's domains (5, 18) count for no site (as requests of no domain), never for the site they name.
    const r1h = await summed(fromAggregates, 'rollup_1h');
    const foreign = events.filter((e) => e.domainId !== 0 && placeOf(e.domainId).ownerId !== NODE.ownerId).length;
    const unmatched = events.filter((e) => e.domainId === 0).length;
    expect(foreign).toBeGreaterThan(1000);
    const noSite = [...r1h].filter(([k]) => k.split('|')[1] === '0').reduce((n, [, v]) => n + (v[0] ?? 0), 0);
    expect(noSite).toBe(foreign + unmatched);
    expect([...r1h.keys()].some((k) => k.split('|')[2] === '5' || k.split('|')[2] === '18')).toBe(false);
  }, 180_000);

  it('counts the events of an agent that ships aggregates (statistics: false) in the logs only', async () => {
    const events = traffic();
    const plain = new IngestService(fromEvents, repo, async () => locate, clock);
    const logsOnly = new IngestService(fromAggregates, repo, async () => locate, clock);
    for (let i = 0, seq = 1; i < events.length; i += EVENT_BATCH_MAX, seq++) {
      const slice = events.slice(i, i + EVENT_BATCH_MAX);
      await plain.ingest(NODE.nodeId, { batchId: `e-${seq}`, dropped: 0, events: slice });
      await logsOnly.ingest(NODE.nodeId, { batchId: `e-${seq}`, dropped: 0, events: slice, statistics: false });
    }
    const ingest = new AggregateIngestService(fromAggregates, repo, logsOnly, clock);
    for (const b of aggregateBatches(events, 'a')) await ingest.ingest(NODE.nodeId, b);
    // Every request once in the rollups (from the aggregates), every event in the logs.
    for (const table of ROLLUP_TABLES)
      expect(await summed(fromAggregates, table)).toEqual(await summed(fromEvents, table));
    const [logged] = await fromAggregates.query('SELECT count(*) AS n FROM events WHERE counted = 0');
    expect(Number(logged?.n)).toBe(events.length);
  }, 180_000);

  /**
   * A batch's first attempt cut after the INSERT of the counters `left` picks (of some sites: all
   * of them on one server, on a cluster a shard's block, a site's rows on one shard; or of some
   * days: a part per day), then retried. `events`: the traffic's first 3,000 (before midnight).
   */
  const cutThenRetried = async (
    left: (row: { siteId: number; minute: number }, sites: number[]) => boolean,
    events = traffic().slice(0, 3000),
  ) => {
    const [batch] = aggregateBatches(events, 'cut');
    if (!batch) throw new Error('no batch');
    const stored: StoredAggregateBatch[] = [];
    const capture = {
      ingestAggregates: async (b: StoredAggregateBatch) => {
        stored.push(b);
        return { stored: 0, duplicate: false };
      },
    };
    await new AggregateIngestService(
      capture,
      repo,
      new IngestService(fromEvents, repo, async () => locate, clock),
      clock,
    ).ingest(NODE.nodeId, batch);
    const placed = stored[0];
    if (!placed) throw new Error('not placed');
    const sites = [...new Set(placed.counters.map((r) => r.siteId))].sort((a, b) => a - b);
    expect(sites.length).toBeGreaterThan(1);
    const there = placed.counters.filter((r) => left(r, sites));
    const db = (fromAggregates as unknown as { databaseName: string }).databaseName;
    await clickhouseRequest('INSERT INTO agg_counters FORMAT JSONEachRow', {
      database: db,
      data: there
        .map((r) =>
          JSON.stringify({
            minute: r.minute,
            site_id: r.siteId,
            domain_id: r.domainId,
            zone_id: r.zoneId,
            ...Object.fromEntries(ROLLUP_COUNTERS.map((c, i) => [c, r.counters[i]])),
            batch_key: batchKey(placed.batchId),
          }),
        )
        .join('\n'),
    });
    // The retry: the counters found there kept, the others, the low dimensions and the ledger row added.
    expect(await fromAggregates.ingestAggregates(placed)).toEqual({
      stored: placed.counters.length - there.length,
      duplicate: false,
    });
    expect(await fromAggregates.ingestAggregates(placed)).toEqual({ stored: 0, duplicate: true });
    const requests = [...(await summed(fromAggregates, 'rollup_1d')).values()].reduce((n, v) => n + (v[0] ?? 0), 0);
    expect(requests).toBe(batch.minutes.reduce((n, m) => n + m.counters[0], 0));
    const [low] = await fromAggregates.query("SELECT sum(requests) AS n FROM lowdims_1h WHERE dim = 'status'");
    expect(Number(low?.n)).toBe(requests);
  };

  it.runIf(TEST_ANALYTICS_KIND === 'clickhouse')(
    'completes a batch whose first attempt was cut after its counters went in: each counted once',
    () => cutThenRetried(() => true),
  );

  it.runIf(TEST_ANALYTICS_KIND === 'clickhouse')(
    "completes a batch whose first attempt left some sites' counters and not the others': each counted once",
    () => cutThenRetried((r, sites) => r.siteId === sites[0]),
  );

  it.runIf(TEST_ANALYTICS_KIND === 'clickhouse')(
    "completes a batch across midnight whose first attempt left the first day's counters and not the next day's",
    () => {
      const midnight = Date.UTC(2026, 10, 28) / 1000;
      // A minute each side of midnight: each site's rows of two days, two parts of agg_counters.
      const events = traffic().filter((e) => e.time >= (midnight - 60) * 1000 && e.time < (midnight + 60) * 1000);
      return cutThenRetried((r, sites) => {
        expect(sites.length).toBeGreaterThan(1);
        return r.minute < midnight;
      }, events);
    },
  );

  it('takes batches arriving together (a group on DuckDB), one sent twice at once, as the same batches one by one', async () => {
    const events = traffic();
    const batches = aggregateBatches(events, 'g');
    expect(batches.length).toBeGreaterThan(2);
    // One by one into one store (fromEvents here), all at once into the other, the first twice.
    const oneByOne = new AggregateIngestService(
      fromEvents,
      repo,
      new IngestService(fromEvents, repo, async () => locate, clock),
      clock,
    );
    for (const b of batches) await oneByOne.ingest(NODE.nodeId, b);
    const together = new AggregateIngestService(
      fromAggregates,
      repo,
      new IngestService(fromAggregates, repo, async () => locate, clock),
      clock,
    );
    const results = await Promise.all(
      [...batches, batches[0] as AggregateBatch].map((b) => together.ingest(NODE.nodeId, b)),
    );
    expect(results.filter((r) => r.duplicate)).toEqual([{ stored: 0, duplicate: true }]);
    expect(results.reduce((n, r) => n + r.stored, 0)).toBe(batches.reduce((n, b) => n + b.minutes.length, 0));
    for (const table of ROLLUP_TABLES) {
      const want = await summed(fromEvents, table);
      expect(want.size).toBeGreaterThan(0);
      expect(await summed(fromAggregates, table)).toEqual(want);
    }
    // The heavy hitters and low dimensions per minute, as the reads sum them.
    for (const table of ['agg_highdims', 'agg_lowdims']) {
      const sums = `SELECT minute, site_id, domain_id, zone_id, dim, value, ${DIM_COUNTERS.map((c) => `sum(${c}) AS ${c}`).join(', ')}
        FROM ${table} GROUP BY minute, site_id, domain_id, zone_id, dim, value ORDER BY minute, site_id, domain_id, zone_id, dim, value`;
      const want = await fromEvents.query(sums);
      expect(want.length).toBeGreaterThan(100);
      expect(await fromAggregates.query(sums)).toEqual(want);
    }
  }, 180_000);

  it('keeps the batch ids of two nodes apart: the same id from another node is another batch', async () => {
    const events = traffic().slice(0, 2000);
    const places = new IngestService(fromAggregates, repo, async () => locate, clock);
    const ingest = new AggregateIngestService(fromAggregates, repo, places, clock);
    const [batch] = aggregateBatches(events, 'same');
    if (!batch) throw new Error('no batch');
    expect((await ingest.ingest(1, batch)).duplicate).toBe(false);
    expect((await ingest.ingest(2, batch)).duplicate).toBe(false);
    expect(await ingest.ingest(1, batch)).toEqual({ stored: 0, duplicate: true });
    const total = [...(await summed(fromAggregates, 'rollup_1d')).values()].reduce((n, v) => n + (v[0] ?? 0), 0);
    expect(total).toBe(2 * batch.minutes.reduce((n, m) => n + m.counters[0], 0));
  });
});
