import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsStore, L4CounterRow } from '../src/modules/analytics/analytics-store.js';
import { DuckDbStore } from '../src/modules/analytics/duckdb-store.js';
import type { Dim } from '../src/modules/analytics/rollups.js';
import { L4Reads, type L4Rows } from '../src/modules/analytics/store/l4-reads.js';
import { StatisticsReads } from '../src/modules/analytics/store/statistics-reads.js';
import type { Range, Scope, TopOrder } from '../src/modules/analytics/store/statistics-sql.js';
import { makeEvents } from './helpers/analytics-events.js';
import { createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';

/**
 * The analytics store's typed reads (store/: StatisticsReads, L4Reads) answer alike on both
 * engines: the same events and layer-4 counters stored in DuckDB and in ClickHouse, every read
 * asked of both over short and long ranges, whole sites and narrowed scopes, and the answers
 * compared. Each engine takes its own ways (DuckDB its per-site address table and integer
 * addresses, ClickHouse its hashes, the dialects' spellings): only the answers must agree. Runs
 * where the project has a ClickHouse server (server-postgres).
 */

const DAY = 86_400;
/** A UTC midnight inside the events' three days. */
const T0 = Date.UTC(2024, 0, 10) / 1000;
const FROM = T0 - DAY - 3 * 3600;
const SPAN = 3 * DAY;

const WHOLE: Scope = { siteIds: [1, 2, 3], zoneIds: null, domainIds: null };
const SCOPES: Record<string, Scope> = {
  'whole sites': WHOLE,
  'one site': { siteIds: [2], zoneIds: null, domainIds: null },
  'a zone and domains': { siteIds: [2, 3], zoneIds: [10], domainIds: [201, 302] },
  'no site': { siteIds: [], zoneIds: null, domainIds: null },
};
const RANGES: Record<string, Range> = {
  'two hours': { start: T0 - 3600 + 17, end: T0 + 3600 - 5 },
  'a day and a half': { start: T0 - DAY + 1234, end: T0 + DAY / 2 + 77 },
  'three days': { start: FROM, end: FROM + SPAN },
};
const DIMS: readonly Dim[] = ['ip', 'country', 'city', 'url', 'userAgent', 'referer', 'status', 'method', 'fileType'];
const ORDERS: readonly TopOrder[] = ['requests', 'blocked', 'blacklisted', 'waf'];

const l4Row = (i: number): L4CounterRow => ({
  bucket: T0 + (i % 90) * 60,
  nodeId: 1 + (i % 2),
  siteId: 1 + (i % 3),
  portId: 9,
  outcome: Math.floor(i / 3) % 2 === 0 ? 'pass' : 'drop',
  dim: (['protocol', 'tcpFlags', 'source', 'country', 'asn'] as const)[i % 5] ?? 'protocol',
  value: ['tcp', 'udp', '192.0.2.9', 'DE', '64500', ''][Math.floor(i / 5) % 6] ?? 'tcp',
  packets: 1 + (i % 13),
  bytes: 60 * (1 + (i % 17)),
});

describe.runIf(TEST_ANALYTICS_KIND === 'clickhouse')('the analytics reads agree on DuckDB and ClickHouse', () => {
  let duck: AnalyticsStore;
  let click: AnalyticsStore;
  let reads: { duck: StatisticsReads; click: StatisticsReads };

  beforeAll(async () => {
    duck = new DuckDbStore(null);
    await duck.open();
    click = await createTestAnalyticsStore();
    for (const store of [duck, click]) {
      for (let b = 0; b < 3; b++) {
        const events = makeEvents(`parity-${b}`, 1500, FROM + b * DAY, DAY, 40 + b);
        const last = events.reduce((m, e) => Math.max(m, e.ts), FROM);
        await store.ingest({ batchId: `parity-${b}`, nodeId: 1 + (b % 2), receivedAt: last + 5, dropped: b, events });
      }
      await store.ingestL4({
        batchId: 'parity-l4',
        nodeId: 1,
        receivedAt: T0,
        rows: Array.from({ length: 400 }, (_, i) => l4Row(i)),
      });
      // DuckDB builds its dimension tables and per-site addresses of the ended hours here.
      await store.compact(FROM - DAY, FROM + SPAN - 2 * 3600);
    }
    reads = { duck: new StatisticsReads(duck), click: new StatisticsReads(click) };
  }, 120_000);

  afterAll(async () => {
    await duck?.close();
    await click?.close();
  });

  /** The same read of both stores. */
  const both = async <T>(read: (r: StatisticsReads) => Promise<T>): Promise<{ duck: T; click: T }> => ({
    duck: await read(reads.duck),
    click: await read(reads.click),
  });

  it('reads the same totals, distinct counts, series and per-domain lists', async () => {
    let nonZero = 0;
    for (const [scopeName, scope] of Object.entries(SCOPES)) {
      for (const [rangeName, range] of Object.entries(RANGES)) {
        const at = `${scopeName}, ${rangeName}`;
        const totals = await both((r) => r.totals(scope, range));
        expect(totals.click, at).toEqual(totals.duck);
        if (totals.duck.requests > 0) nonZero++;
        for (const dim of ['ip', 'country'] as const) {
          for (const having of [undefined, 'blocked', 'blacklisted'] as const) {
            const n = await both((r) => r.distinct(scope, range, dim, having));
            expect(n.click, `${at}: distinct ${dim} ${having ?? ''}`).toBe(n.duck);
          }
        }
        // Requests, statuses, bandwidth and cache, per five minutes, hours and days.
        for (const [type, step] of [
          [4, 5],
          [7, 60],
          [3, 1440],
          [5, 60],
        ] as const) {
          const points = await both((r) => r.series(scope, range, type, step));
          expect(points.click, `${at}: series ${type}/${step}`).toEqual(points.duck);
        }
        for (const by of ['requests', 'bytes_out', 'blocked'] as const) {
          for (const page of [null, { offset: 1, limit: 2 }]) {
            const list = await both((r) => r.perDomain(scope, range, { by, desc: by !== 'blocked' }, page));
            expect(list.click, `${at}: per domain by ${by}`).toEqual(list.duck);
          }
        }
      }
    }
    // The comparison is of answers with traffic in them, not of empty ones.
    expect(nonZero).toBeGreaterThanOrEqual(9);
  });

  it('reads the same top lists of every dimension and order', async () => {
    let rows = 0;
    // Every order with a long list, and a short one by requests (where ties meet the list's end).
    const cases = DIMS.flatMap((dim) => [
      ...ORDERS.map((by) => ({ dim, by, limit: 50 })),
      { dim, by: 'requests' as const, limit: 2 },
    ]);
    for (const [scopeName, scope] of Object.entries(SCOPES)) {
      if (scope.siteIds.length === 0) continue;
      for (const [rangeName, range] of Object.entries(RANGES)) {
        for (const { dim, by, limit } of cases) {
          const top = await both((r) => r.top(scope, range, dim, by, limit));
          expect(top.click, `${scopeName}, ${rangeName}: top ${dim} by ${by}, ${limit}`).toEqual(top.duck);
          rows += top.duck.length;
        }
      }
    }
    expect(
      await reads.click.top(SCOPES['no site'] as Scope, RANGES['three days'] as Range, 'ip', 'requests', 5),
    ).toEqual([]);
    expect(rows).toBeGreaterThan(500);
  }, 120_000);

  it('reads the same dropped events, bytes served, blocked requests per site and minute and origin times', async () => {
    // Up to an hour past the events: the last batch was taken after its last event.
    const all = { start: FROM, end: FROM + SPAN + 3600 };
    const dropped = await both((r) => r.droppedEvents([1, 2], all));
    expect(dropped.click).toBe(dropped.duck);
    expect(dropped.duck).toBe(3);
    const bytes = await both((r) => r.bytesOutBySite([1, 2, 3, 4], all));
    expect([...bytes.click].sort()).toEqual([...bytes.duck].sort());
    expect(bytes.duck.size).toBe(3);
    const sum = await both((r) => r.bytesOut([2, 3], RANGES['a day and a half'] as Range));
    expect(sum.click).toBe(sum.duck);
    const order = (list: { siteId: number; minute: number }[]) =>
      [...list].sort((a, b) => a.siteId - b.siteId || a.minute - b.minute);
    const blocked = await both((r) => r.blockedPerSiteMinute(T0 - 6 * 3600, T0 + 6 * 3600));
    expect(order(blocked.click)).toEqual(order(blocked.duck));
    expect(blocked.duck.length).toBeGreaterThan(50);
    for (const [name, scope] of Object.entries(SCOPES)) {
      const times = await both((r) => r.upstreamTimes(scope, RANGES['a day and a half'] as Range));
      expect(times.click, name).toEqual(times.duck);
      if (scope.siteIds.length > 0) expect(times.duck.total.count, name).toBeGreaterThan(0);
    }
    await expect(reads.duck.ping()).resolves.toBeUndefined();
    await expect(reads.click.ping()).resolves.toBeUndefined();
  });

  it('reads the same layer-4 sums by outcome, by value and by step', async () => {
    const l4 = { duck: new L4Reads(duck), click: new L4Reads(click) };
    const sorted = <T>(list: T[]) => [...list].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    let found = 0;
    for (const dim of ['protocol', 'tcpFlags', 'source', 'country', 'asn'] as const) {
      for (const siteIds of [[1, 2, 3], [2], []]) {
        const rows: L4Rows = { siteIds, dim, start: T0 - 60, end: T0 + 45 * 60 };
        const outcomes = { duck: await l4.duck.outcomes(rows), click: await l4.click.outcomes(rows) };
        expect(sorted(outcomes.click)).toEqual(sorted(outcomes.duck));
        const values = { duck: await l4.duck.valueOutcomes(rows), click: await l4.click.valueOutcomes(rows) };
        expect(sorted(values.click)).toEqual(sorted(values.duck));
        found += values.duck.length;
        for (const [by, outcome] of [['outcome'], ['value'], ['value', 'drop']] as const) {
          const steps = {
            duck: await l4.duck.steps(rows, 600, by, outcome),
            click: await l4.click.steps(rows, 600, by, outcome),
          };
          expect(sorted(steps.click)).toEqual(sorted(steps.duck));
        }
      }
    }
    expect(found).toBeGreaterThan(10);
  });
});
