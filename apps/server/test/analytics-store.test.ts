import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { logPartOf, STATISTICS_SERIES } from '@rampart/contract';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { AnalyticsStore, EventRow, Row, StoredBatch } from '../src/modules/analytics/analytics-store.js';
import { batchKey, ClickHouseStore } from '../src/modules/analytics/clickhouse-store.js';
import { DuckDbStore } from '../src/modules/analytics/duckdb-store.js';
import { EVENT_COLUMNS } from '../src/modules/analytics/event-columns.js';
import {
  DIM_COUNTERS,
  type DimRow,
  ROLLUP_COUNTERS,
  type RollupRow,
  rollupsOf,
} from '../src/modules/analytics/rollups.js';
import { StatisticsReads } from '../src/modules/analytics/store/statistics-reads.js';
import { CRASH_BATCH_EVENTS, crashBatch, makeEvents } from './helpers/analytics-events.js';
import { random } from './helpers/random.js';
import {
  clickhouseRequest,
  createReopenableAnalyticsStore,
  createTestAnalyticsStore,
  TEST_ANALYTICS_KIND,
  TEST_CLICKHOUSE_CLUSTER,
  testClickHouseOptions,
} from './helpers/test-analytics.js';

/**
 * The analytics store, on DuckDB (server-pglite) and on ClickHouse (server-postgres): what the
 * rollup tables hold is what rollupsOf computes for the same events (on ClickHouse, the
 * materialized views'), batches count once, pruning drops old days and compaction keeps sums.
 */

const DAY = 86_400;
/** A process ingesting into a store on disk until it is killed. */
const CHILD = fileURLToPath(new URL('./helpers/analytics-ingest-child.ts', import.meta.url));
/** A UTC midnight: the events straddle it. */
const T0 = Date.UTC(2024, 0, 10) / 1000;

function batchOf(batchId: string, events: EventRow[], dropped = 0): StoredBatch {
  const last = events.reduce((m, e) => Math.max(m, e.ts), T0);
  return { batchId, nodeId: 1, receivedAt: last + 5, dropped, events };
}

const KEY = 'bucket, site_id, domain_id, zone_id';
const keyOf = (r: { bucket: number; siteId: number; domainId: number; zoneId: number }) =>
  `${r.bucket}|${r.siteId}|${r.domainId}|${r.zoneId}`;
const rowKey = (r: Row) => `${r.bucket}|${r.site_id}|${r.domain_id}|${r.zone_id}`;

/** Rollup table → key → summed counters, as the store sums them. */
async function storedRollups(store: AnalyticsStore, table: string): Promise<Map<string, Record<string, number>>> {
  const rows = await store.query(
    `SELECT ${KEY}, ${ROLLUP_COUNTERS.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM ${table} GROUP BY ${KEY}`,
  );
  return new Map(rows.map((r) => [rowKey(r), Object.fromEntries(ROLLUP_COUNTERS.map((c) => [c, r[c] as number]))]));
}

async function storedDims(store: AnalyticsStore, table: string): Promise<Map<string, Record<string, number>>> {
  const rows = await store.query(
    `SELECT ${KEY}, dim, value, ${DIM_COUNTERS.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM ${table} GROUP BY ${KEY}, dim, value`,
  );
  return new Map(
    rows.map((r) => [
      `${rowKey(r)}|${r.dim}|${r.value}`,
      Object.fromEntries(DIM_COUNTERS.map((c) => [c, r[c] as number])),
    ]),
  );
}

const expectedRollups = (rows: RollupRow[]) => new Map(rows.map((r) => [keyOf(r), { ...r.values }]));
const expectedDims = (rows: DimRow[]) => new Map(rows.map((r) => [`${keyOf(r)}|${r.dim}|${r.value}`, { ...r.values }]));

/**
 * Every rollup table holds, summed per key, exactly what rollupsOf computes for `events`; the
 * dimension tables for the hours (and whole days) before the store's dimsRolledTo, nothing after.
 */
async function expectRollupsOf(store: AnalyticsStore, events: EventRow[]): Promise<void> {
  const want = rollupsOf(events);
  expect(await storedRollups(store, 'rollup_1m')).toEqual(expectedRollups(want.r1m));
  expect(await storedRollups(store, 'rollup_5m')).toEqual(expectedRollups(want.r5m));
  expect(await storedRollups(store, 'rollup_1h')).toEqual(expectedRollups(want.r1h));
  expect(await storedRollups(store, 'rollup_1d')).toEqual(expectedRollups(want.r1d));
  expect(await storedRollups(store, 'siterollup_5m')).toEqual(expectedRollups(want.s5m));
  const hours = store.dimsRolledTo;
  const days = hours - (hours % DAY);
  expect(await storedDims(store, 'lowdims_1h')).toEqual(expectedDims(want.l1h.filter((r) => r.bucket < hours)));
  expect(await storedDims(store, 'dims_1h')).toEqual(expectedDims(want.d1h.filter((r) => r.bucket < hours)));
  expect(await storedDims(store, 'dims_1d')).toEqual(expectedDims(want.d1d.filter((r) => r.bucket < days)));
  expect(await storedDims(store, 'sitedims_1d')).toEqual(expectedDims(want.s1d.filter((r) => r.bucket < days)));
}

async function count(store: AnalyticsStore, sql: string): Promise<number> {
  const [row] = await store.query(sql);
  return Number(row?.n ?? 0);
}

/** The request ids in `events`, sorted (one per stored row). */
async function storedRequestIds(store: AnalyticsStore): Promise<string[]> {
  const rows = await store.query('SELECT request_id FROM events');
  return rows.map((r) => String(r.request_id)).sort();
}

/** Waits for what a ClickHouse mutation (ALTER ... DELETE) does in the background. */
async function eventually(check: () => Promise<void>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The store, with every statement the queries send through it kept in `sent`. */
function recording(store: AnalyticsStore): { spy: AnalyticsStore; sent: string[] } {
  const sent: string[] = [];
  const spy: AnalyticsStore = Object.create(store, {
    query: {
      value: (sql: string) => {
        sent.push(sql);
        return store.query(sql);
      },
    },
  });
  return { spy, sent };
}

describe(`analytics store (${TEST_ANALYTICS_KIND})`, () => {
  let store: AnalyticsStore;
  beforeEach(async () => {
    store = await createTestAnalyticsStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it('is the kind the project pairs with it', () => {
    expect(store.kind).toBe(TEST_ANALYTICS_KIND);
  });

  it('keeps rollups equal to rollupsOf of the events, across minutes, five minutes, hours and days', async () => {
    // Two hours either side of midnight, in three batches (the second overlapping the first's time).
    const a = makeEvents('node1-1', 400, T0 - 2 * 3600, 4 * 3600, 1);
    const b = makeEvents('node1-2', 300, T0 - 600, 1200, 2);
    const c = makeEvents('node2-1', 50, T0 + 299, 2, 3);
    for (const [batch, dropped] of [
      [a, 3],
      [b, 0],
      [c, 1],
    ] as const) {
      const id = batch[0]?.batchId ?? '';
      expect(await store.ingest(batchOf(id, batch, dropped))).toEqual({ stored: batch.length, duplicate: false });
    }
    const all = [...a, ...b, ...c];
    await expectRollupsOf(store, all);
    // DuckDB builds the dimensions of ended hours in its upkeep: all of them once it ran past them.
    await store.compact(T0 - DAY, T0 + DAY);
    expect(store.dimsRolledTo).toBeGreaterThanOrEqual(T0 + DAY);
    await expectRollupsOf(store, all);
    expect(await storedRequestIds(store)).toEqual(all.map((e) => e.requestId).sort());
    const [ledger] = await store.query(
      'SELECT count(*) AS n, sum(dropped) AS dropped, sum(events) AS events FROM batches',
    );
    expect(ledger).toEqual({ n: 3, dropped: 4, events: 750 });

    // The raw events come back as they went in (strings through JSON, 64-bit byte counts).
    const raw = await store.query(
      `SELECT ${EVENT_COLUMNS.map(([, name]) => name).join(', ')} FROM events ORDER BY request_id`,
    );
    const want = [...all].sort((x, y) => (x.requestId < y.requestId ? -1 : x.requestId > y.requestId ? 1 : 0));
    expect(raw).toEqual(want.map((e) => Object.fromEntries(EVENT_COLUMNS.map(([field, name]) => [name, e[field]]))));

    // The dialect's two functions, as the statistics use them.
    const hours = await store.query(
      `SELECT ${store.dialect.idiv('bucket', '3600')} AS hour, ${store.dialect.distinct('site_id')} AS sites, ` +
        `sum(requests) AS requests FROM rollup_5m GROUP BY hour ORDER BY hour`,
    );
    const perHour = new Map<number, { sites: Set<number>; requests: number }>();
    for (const e of all) {
      const h = Math.floor(e.ts / 3600);
      const entry = perHour.get(h) ?? { sites: new Set(), requests: 0 };
      entry.sites.add(e.siteId);
      entry.requests += 1;
      perHour.set(h, entry);
    }
    expect(hours).toEqual(
      [...perHour.entries()]
        .sort(([x], [y]) => x - y)
        .map(([hour, v]) => ({ hour, sites: v.sites.size, requests: v.requests })),
    );
  });

  it('keeps events kept for the logs only (counted 0: their node ships aggregates) out of every rollup, dimension and raw top', async () => {
    const counted = makeEvents('node7-1', 300, T0 - 2 * 3600, 4 * 3600, 81);
    const logsOnly = (id: string, from: number, seed: number) =>
      makeEvents(id, 200, from, 4 * 3600, seed).map((e) => ({ ...e, counted: 0 }));
    const early = logsOnly('node8-1', T0 - 2 * 3600, 82);
    await store.ingest(batchOf('node7-1', counted));
    await store.ingest(batchOf('node8-1', early));
    await store.compact(T0 - DAY, T0 + DAY);
    // Late ones too: into hours whose dimensions are built already.
    const late = logsOnly('node8-2', T0 - 3 * 3600, 83);
    await store.ingest(batchOf('node8-2', late));
    const all = [...counted, ...early, ...late];
    await expectRollupsOf(store, all);
    expect(rollupsOf(all).r1d.reduce((n, r) => n + r.values.requests, 0)).toBe(counted.length);
    // In the logs, every one of them.
    expect(await storedRequestIds(store)).toEqual(all.map((e) => e.requestId).sort());
    // A short range's top reads raw events: the counted ones only.
    const range = { start: T0 - 3600, end: T0 + 3600 };
    const got = await new StatisticsReads(store).top(
      { siteIds: [1, 2, 3], zoneIds: null, domainIds: null },
      range,
      'url',
      'requests',
      1000,
    );
    const want = new Map<string, number>();
    for (const e of counted) if (e.ts >= range.start && e.ts < range.end) want.set(e.path, (want.get(e.path) ?? 0) + 1);
    expect(new Map(got.map((r) => [r.key, r.requests]))).toEqual(want);
  });

  it('keeps each event as it came, the WAF part and excerpt included', async () => {
    const events = makeEvents('b-rows', 300, T0, 3600, 5);
    await store.ingest(batchOf('b-rows', events));
    const rows = await store.query(
      'SELECT request_id, fw_kind, fw_rule, fw_action, waf_part, waf_excerpt, user_agent FROM events',
    );
    const key = (r: {
      requestId: string;
      fwKind: string;
      fwRule: number;
      fwAction: string;
      wafPart: string;
      wafExcerpt: string;
      userAgent: string;
    }) => JSON.stringify([r.requestId, r.fwKind, r.fwRule, r.fwAction, r.wafPart, r.wafExcerpt, r.userAgent]);
    const stored = rows.map((r) =>
      key({
        requestId: String(r.request_id),
        fwKind: String(r.fw_kind),
        fwRule: Number(r.fw_rule),
        fwAction: String(r.fw_action),
        wafPart: String(r.waf_part),
        wafExcerpt: String(r.waf_excerpt),
        userAgent: String(r.user_agent),
      }),
    );
    expect(stored.sort()).toEqual(events.map(key).sort());
    expect(events.some((e) => e.wafPart !== '' && e.wafExcerpt.includes('\\'))).toBe(true);
  });

  it('keeps every character of the strings as it came: tabs, line ends, NUL, backslashes', async () => {
    // What ClickHouse's TabSeparated rows escape, and backslash sequences that must stay literal.
    const tricky = [
      'tab\there',
      'cr\rlf\n',
      'nul\u0000byte',
      'bs\bff\f',
      'back\\slash\\',
      'literal \\t and \\n and \\0',
      '\\',
      `quote' "dq"`,
      'Ünïcödé ✓ 😀',
      '\t\n',
    ];
    const events = makeEvents('b-chars', tricky.length, T0, 60, 11).map((e, i) => {
      const value = tricky[i] as string;
      return { ...e, uri: `/q?${value}`, userAgent: value, referer: value, wafExcerpt: value, country: value };
    });
    expect(await store.ingest(batchOf('b-chars', events))).toEqual({ stored: tricky.length, duplicate: false });
    const rows = await store.query('SELECT request_id, uri, user_agent, referer, waf_excerpt, country FROM events');
    const got = new Map(
      rows.map((r) => [String(r.request_id), [r.uri, r.user_agent, r.referer, r.waf_excerpt, r.country]]),
    );
    for (const e of events) {
      expect(got.get(e.requestId)).toEqual([e.uri, e.userAgent, e.referer, e.wafExcerpt, e.country]);
    }
    await expectRollupsOf(store, events);
  });

  // A store from before: there is no cluster layout from before (the three tests below).
  it.skipIf(TEST_CLICKHOUSE_CLUSTER)(
    'gives an events table from before the WAF its two columns on open, empty for the rows it held',
    async () => {
      const kept = await createReopenableAnalyticsStore();
      try {
        const old = makeEvents('b-old', 50, T0, 600, 6);
        await kept.store.ingest(batchOf('b-old', old));
        // The layout of the version before: no waf_part, no waf_excerpt (and none of the columns after them).
        if (TEST_ANALYTICS_KIND === 'duckdb') {
          await kept.store.query('ALTER TABLE events DROP COLUMN counted');
          await kept.store.query('ALTER TABLE events DROP COLUMN waf_name');
          await kept.store.query('ALTER TABLE events DROP COLUMN waf_excerpt');
          await kept.store.query('ALTER TABLE events DROP COLUMN waf_part');
        } else {
          const [db] = (await kept.store.query('SELECT currentDatabase() AS db')).map((r) => String(r.db));
          await clickhouseRequest('ALTER TABLE events DROP COLUMN counted', { database: db });
          await clickhouseRequest('ALTER TABLE events DROP COLUMN waf_name', { database: db });
          await clickhouseRequest('ALTER TABLE events DROP COLUMN waf_excerpt', { database: db });
          await clickhouseRequest('ALTER TABLE events DROP COLUMN waf_part', { database: db });
        }
        const reopened = await kept.reopen();
        const fresh = makeEvents('b-new', 50, T0 + 600, 600, 7);
        expect(await reopened.ingest(batchOf('b-new', fresh))).toEqual({ stored: 50, duplicate: false });
        const rows = await reopened.query(
          "SELECT batch_id, waf_part, waf_excerpt, counted FROM events WHERE waf_part <> '' OR batch_id = '1-b-old' OR batch_id = 'b-old'",
        );
        const oldRows = rows.filter((r) => String(r.batch_id).endsWith('b-old'));
        expect(oldRows).toHaveLength(50);
        // Their statistics came from them: counted.
        expect(oldRows.every((r) => r.waf_part === '' && r.waf_excerpt === '' && r.counted === 1)).toBe(true);
        expect(
          rows
            .filter((r) => String(r.batch_id).endsWith('b-new'))
            .map((r) => r.waf_part)
            .sort(),
        ).toEqual(
          fresh
            .filter((e) => e.wafPart !== '')
            .map((e) => e.wafPart)
            .sort(),
        );
      } finally {
        await kept.drop();
      }
    },
  );

  it.runIf(TEST_ANALYTICS_KIND === 'clickhouse' && !TEST_CLICKHOUSE_CLUSTER)(
    'drops the views of events from before counted on open: every event counted once by the new ones',
    async () => {
      const kept = await createReopenableAnalyticsStore();
      try {
        const db = (kept.store as unknown as { databaseName: string }).databaseName;
        // An older version's view beside the new one (what a store from before holds until open).
        for (const table of ['rollup_1m', 'dims_1h']) {
          const [view] = await kept.store.query(
            `SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = '${table}_ev'`,
          );
          const old = String(view?.q).replace(`${table}_ev`, `${table}_mv`).replace(' WHERE counted = 1', '');
          await clickhouseRequest(old, { database: db });
        }
        const reopened = await kept.reopen();
        const events = makeEvents('mv-1', 200, T0 - 600, 1200, 91);
        await reopened.ingest(batchOf('mv-1', events));
        await expectRollupsOf(reopened, events);
        const left = await reopened.query(
          "SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE '%\\_mv'",
        );
        expect(left).toEqual([]);
      } finally {
        await kept.drop();
      }
    },
  );

  it.skipIf(TEST_CLICKHOUSE_CLUSTER)(
    'gives a store from before the daily and the per-site rollups them, summed from the hourly and the five-minute ones on open',
    async () => {
      const kept = await createReopenableAnalyticsStore();
      try {
        const old = makeEvents('d-old', 300, T0 - 30 * 3600, 40 * 3600, 8);
        await kept.store.ingest(batchOf('d-old', old));
        // The layout of the version before: no daily rollup, no per-site one.
        for (const table of ['rollup_1d', 'siterollup_5m']) {
          if (TEST_ANALYTICS_KIND === 'duckdb') await kept.store.query(`DROP TABLE ${table}`);
          else {
            const [db] = (await kept.store.query('SELECT currentDatabase() AS db')).map((r) => String(r.db));
            // Its views: of events, and of the nodes' aggregates.
            for (const view of ['ev', 'agg']) await clickhouseRequest(`DROP TABLE ${table}_${view}`, { database: db });
            await clickhouseRequest(`DROP TABLE ${table}`, { database: db });
          }
        }
        const reopened = await kept.reopen();
        const fresh = makeEvents('d-new', 100, T0 + 3600, 7200, 9);
        await reopened.ingest(batchOf('d-new', fresh));
        await expectRollupsOf(reopened, [...old, ...fresh]);
        // Opened again, nothing is added twice.
        const again = await kept.reopen();
        await expectRollupsOf(again, [...old, ...fresh]);
      } finally {
        await kept.drop();
      }
    },
  );

  it('series over more than a week read the daily rollup for steps of days, whole sites the per-site one for five minutes, exactly', async () => {
    const events = makeEvents('series', 500, T0 - 9 * DAY + 5000, 10 * DAY, 12);
    await store.ingest(batchOf('series', events));
    const { spy, sent } = recording(store);
    const queries = new StatisticsReads(spy);
    const whole = { siteIds: [1, 2, 3], zoneIds: null, domainIds: null };
    const some = { siteIds: [2, 3], zoneIds: [10], domainIds: [201, 302] };
    const range = { start: T0 - 9 * DAY + 777, end: T0 + DAY - 100 };
    for (const [scope, minutes, table] of [
      [whole, 1440, 'rollup_1d'],
      [whole, 2880, 'rollup_1d'],
      [whole, 60, 'rollup_1h'],
      // Five minutes: whole sites from the per-site rollup, a zone's domains from the per-domain one.
      [whole, 5, 'siterollup_5m'],
      [some, 5, 'rollup_5m'],
      [some, 1440, 'rollup_1d'],
    ] as const) {
      sent.length = 0;
      const step = minutes * 60;
      const points = await queries.series(scope, range, STATISTICS_SERIES.requests, minutes);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toContain(`FROM ${table} WHERE`);
      // Each point counts the events of its step in the rollup's buckets that start before the
      // range's end (a day of the daily one, an hour of the hourly one).
      const unit = table === 'rollup_1d' ? DAY : table === 'rollup_1h' ? 3600 : 300;
      const want = points.map(
        (p) =>
          events.filter(
            (e) =>
              scope.siteIds.includes(e.siteId) &&
              (scope.zoneIds === null || scope.zoneIds.includes(e.zoneId)) &&
              (scope.domainIds === null || scope.domainIds.includes(e.domainId)) &&
              e.ts >= p.time &&
              e.ts < p.time + step &&
              e.ts - (e.ts % unit) < range.end,
          ).length,
      );
      expect(points.map((p) => p.values[0])).toEqual(want);
      expect(want.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    }
  });

  it.runIf(TEST_ANALYTICS_KIND === 'clickhouse')(
    "runs an INSERT's views in parallel, unless CLICKHOUSE_URL's settings say otherwise",
    async () => {
      const setting = async (on: AnalyticsStore) =>
        (await on.query("SELECT value FROM system.settings WHERE name = 'parallel_view_processing'")).map((r) =>
          String(r.value),
        );
      expect(await setting(store)).toEqual(['1']);
      const [db] = (await store.query('SELECT currentDatabase() AS db')).map((r) => String(r.db));
      const url = new URL(inject('clickhouseUrl'));
      url.pathname = `/${db}`;
      url.searchParams.set('parallel_view_processing', '0');
      const own = new ClickHouseStore(url.toString(), testClickHouseOptions());
      await own.open();
      try {
        expect(await setting(own)).toEqual(['0']);
      } finally {
        await own.close();
      }
    },
  );

  it('answers a batch sent again as a duplicate and changes nothing', async () => {
    const events = makeEvents('node1-7', 120, T0 - 300, 900, 4);
    expect(await store.ingest(batchOf('node1-7', events, 2))).toEqual({ stored: 120, duplicate: false });
    expect(await store.ingest(batchOf('node1-7', events, 2))).toEqual({ stored: 0, duplicate: true });
    // Even with other content: the batch id is what counts.
    expect(await store.ingest(batchOf('node1-7', events.slice(0, 5), 9))).toEqual({ stored: 0, duplicate: true });
    await expectRollupsOf(store, events);
    expect(await count(store, 'SELECT count(*) AS n FROM events')).toBe(120);
    expect(await store.query('SELECT count(*) AS n, sum(dropped) AS dropped FROM batches')).toEqual([
      { n: 1, dropped: 2 },
    ]);
    // A batch of no events still counts its dropped ones, once.
    expect(await store.ingest(batchOf('node1-8', [], 5))).toEqual({ stored: 0, duplicate: false });
    expect(await store.ingest(batchOf('node1-8', [], 5))).toEqual({ stored: 0, duplicate: true });
    expect(await store.query('SELECT count(*) AS n, sum(dropped) AS dropped FROM batches')).toEqual([
      { n: 2, dropped: 7 },
    ]);
  });

  it('stores nothing of a batch it refuses, and takes it when sent right', async () => {
    const events = makeEvents('node1-9', 40, T0, 600, 5);
    // ms is a SMALLINT: DuckDB's appender fails inside the transaction (rolled back); ClickHouse
    // would wrap it, so the store checks every value before it writes anything.
    const bad = events.map((e, i) => (i === 30 ? { ...e, ms: 40_000 } : e));
    await expect(store.ingest(batchOf('node1-9', bad))).rejects.toThrow();
    expect(await count(store, 'SELECT count(*) AS n FROM events')).toBe(0);
    for (const table of [
      'rollup_1m',
      'rollup_5m',
      'rollup_1h',
      'rollup_1d',
      'siterollup_5m',
      'lowdims_1h',
      'dims_1h',
      'dims_1d',
      'sitedims_1d',
      'batches',
    ]) {
      expect(await count(store, `SELECT count(*) AS n FROM ${table}`)).toBe(0);
    }
    expect(await store.ingest(batchOf('node1-9', events))).toEqual({ stored: 40, duplicate: false });
    await expectRollupsOf(store, events);
  });

  it('takes batches sent at once: each stored once, a refused one failing alone', async () => {
    // The DuckDB store writes the batches that wait together in one transaction (group commit).
    const batches = Array.from({ length: 12 }, (_, i) =>
      batchOf(`node2-${i}`, makeEvents(`node2-${i}`, 50, T0 - 900, 1800, 40 + i)),
    );
    const bad = batchOf(
      'node2-99',
      makeEvents('node2-99', 10, T0, 60, 99).map((e, i) => (i === 3 ? { ...e, ms: 40_000 } : e)),
    );
    const sent = [...batches, batches[4] as StoredBatch, bad, batches[7] as StoredBatch];
    const results = await Promise.allSettled(sent.map((b) => store.ingest(b)));
    const answers = results.map((r) => (r.status === 'fulfilled' ? r.value : 'refused'));
    expect(answers.filter((a) => a === 'refused')).toHaveLength(1);
    expect(answers[sent.indexOf(bad)]).toBe('refused');
    // Each batch id once stored and once a duplicate, whichever of the two went first.
    for (const i of [4, 7]) {
      const pair = answers.filter((_, j) => sent[j]?.batchId === `node2-${i}`);
      expect(pair).toEqual(
        expect.arrayContaining([
          { stored: 50, duplicate: false },
          { stored: 0, duplicate: true },
        ]),
      );
    }
    const all = batches.flatMap((b) => b.events);
    await expectRollupsOf(store, all);
    expect(await storedRequestIds(store)).toEqual(all.map((e) => e.requestId).sort());
    expect(await count(store, 'SELECT count(*) AS n FROM batches')).toBe(12);
  });

  it.runIf(TEST_ANALYTICS_KIND === 'duckdb')(
    'keeps every batch it answered across a kill -9 mid-ingest, nothing of one it did not, and counts each batch sent again once',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'rampart-duck-kill-'));
      const storeDir = path.join(dir, 'analytics');
      const total = 60;
      try {
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD, storeDir, String(total)], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        const answered: string[] = [];
        await new Promise<void>((resolve, reject) => {
          let pending = '';
          child.stdout.setEncoding('utf8');
          child.stdout.on('data', (chunk: string) => {
            const lines = (pending + chunk).split('\n');
            pending = lines.pop() ?? '';
            answered.push(...lines);
            if (answered.length >= 8) child.kill('SIGKILL');
          });
          child.on('exit', () => resolve());
          child.on('error', reject);
        });
        // Killed mid-ingest, some batches answered.
        expect(answered.length).toBeGreaterThanOrEqual(8);
        expect(answered.length).toBeLessThan(total);
        const store = new DuckDbStore(storeDir);
        // The kernel frees the dead process's lock as its helper sees the pipe close.
        await eventually(() => store.open(), 10_000);
        try {
          const ledger = (await store.query('SELECT batch_id FROM batches')).map((r) => String(r.batch_id)).sort();
          expect(ledger).toEqual(expect.arrayContaining(answered));
          // Each batch of the ledger whole, none other.
          expect(
            await store.query('SELECT batch_id, count(*) AS n FROM events GROUP BY batch_id ORDER BY batch_id'),
          ).toEqual(ledger.map((id) => ({ batch_id: id, n: CRASH_BATCH_EVENTS })));
          // The agents send again what was not answered (and here what was too): each counts once.
          const all = Array.from({ length: total }, (_, i) => crashBatch(i));
          const again = await Promise.all(all.map((x) => store.ingest(x)));
          expect(again.filter((r) => r.duplicate)).toHaveLength(ledger.length);
          expect(await count(store, 'SELECT count(*) AS n FROM batches')).toBe(total);
          expect(await count(store, 'SELECT sum(dropped) AS n FROM batches')).toBe(total / 2);
          await expectRollupsOf(
            store,
            all.flatMap((x) => x.events),
          );
        } finally {
          await store.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it('cards and the per-domain list count from the first minute, over a day reading whole days and hours from the daily and hourly rollups', async () => {
    const events = makeEvents('cards', 600, T0 - 30 * 3600, 66 * 3600, 71);
    await store.ingest(batchOf('cards', events));
    // Every statement the queries send, to see which buckets of the per-minute rollup they read.
    const { spy, sent } = recording(store);
    const queries = new StatisticsReads(spy);
    const scopes = [
      { siteIds: [1, 2, 3], zoneIds: null, domainIds: null },
      { siteIds: [2, 3], zoneIds: [10], domainIds: [201, 302] },
    ];
    for (const scope of scopes)
      for (const range of [
        { start: T0 - 29 * 3600 + 1234, end: T0 + DAY + 8 * 3600 - 17 },
        { start: T0 - 30 * 3600, end: T0 + DAY + 6 * 3600 },
        { start: T0 - 26 * 3600 + 61, end: T0 + 3600 + 59 },
        { start: T0 - 9 * 3600, end: T0 + 8 * 3600 },
        { start: T0 - 2 * 3600 + 61, end: T0 - 3600 + 59 },
        { start: T0 - 3 * 3600 + 5, end: T0 - 3 * 3600 + 50 },
      ]) {
        // A minute counts when it starts in [the start's minute, end).
        const from = range.start - (range.start % 60);
        const inRange = events.filter(
          (e) =>
            scope.siteIds.includes(e.siteId) &&
            (scope.zoneIds === null || scope.zoneIds.includes(e.zoneId)) &&
            (scope.domainIds === null || scope.domainIds.includes(e.domainId)) &&
            e.ts >= from &&
            e.ts - (e.ts % 60) < range.end,
        );
        sent.length = 0;
        const totals = await queries.totals(scope, range);
        expect(totals.requests).toBe(inRange.length);
        // The peaks: the busiest minute's up to a day, the busiest five minutes' beyond (buckets
        // from the start's, those that start before the end), whole sites' from the per-site rollup.
        const unit = range.end - range.start <= DAY ? 60 : 300;
        const buckets = new Map<number, { requests: number; bytes: number }>();
        for (const e of events) {
          const b = e.ts - (e.ts % unit);
          if (
            !scope.siteIds.includes(e.siteId) ||
            (scope.zoneIds !== null && !scope.zoneIds.includes(e.zoneId)) ||
            (scope.domainIds !== null && !scope.domainIds.includes(e.domainId)) ||
            b < range.start - (range.start % unit) ||
            b >= range.end
          )
            continue;
          const sum = buckets.get(b) ?? { requests: 0, bytes: 0 };
          sum.requests += 1;
          sum.bytes += e.bytesOut;
          buckets.set(b, sum);
        }
        expect(totals.peak_seconds).toBe(unit);
        expect(totals.peak_requests).toBe(Math.max(0, ...[...buckets.values()].map((x) => x.requests)));
        expect(totals.peak_bytes).toBe(Math.max(0, ...[...buckets.values()].map((x) => x.bytes)));
        const peakTable = unit === 60 ? 'rollup_1m' : scope.zoneIds === null ? 'siterollup_5m' : 'rollup_5m';
        expect(sent.filter((sql) => sql.includes('peak_')).map((sql) => sql.match(/FROM (\w+) WHERE/)?.[1])).toEqual([
          peakTable,
        ]);
        expect(totals.bytes_out).toBe(inRange.reduce((n, e) => n + e.bytesOut, 0));
        expect(totals.blacklisted).toBe(inRange.filter((e) => e.blacklisted).length);
        const perDomain = new Map<number, number>();
        for (const e of inRange) if (e.domainId > 0) perDomain.set(e.domainId, (perDomain.get(e.domainId) ?? 0) + 1);
        const { rows, total } = await queries.perDomain(scope, range, { by: 'requests', desc: true }, null);
        expect(new Map(rows.map((r) => [r.domain_id, r.requests]))).toEqual(perDomain);
        expect(total).toBe(perDomain.size);
        const statements = [...sent];
        // Pages of the list, each with the count of all (one past the last too).
        for (const page of [
          { offset: 0, limit: 1 },
          { offset: 1, limit: 2 },
          { offset: perDomain.size + 3, limit: 5 },
        ]) {
          const paged = await queries.perDomain(scope, range, { by: 'requests', desc: true }, page);
          expect(paged.total).toBe(perDomain.size);
          expect(paged.rows).toEqual(rows.slice(page.offset, page.offset + page.limit));
        }
        // The card's pieces: one statement on a store that runs them as one (SqlDialect.pieces), a
        // statement each on the other; the list: one statement with its count where the store has
        // windows, else two.
        const d = store.dialect;
        const listStatements = d.windows ? 1 : 2;
        // Over a day the sums read whole hours from the hourly rollup, whole five minutes around
        // them from the five-minute one and minutes at the ends; up to a day the minutes (the
        // peaks, of the busiest minute up to a day, read every minute).
        const sums = statements.filter((sql) => !sql.includes('peak_'));
        if (range.end - range.start <= DAY) {
          expect(sums).toHaveLength(1 + listStatements);
          for (const sql of sums) expect(sql).not.toMatch(/rollup_(5m|1h)/);
          continue;
        }
        // Whole days from the daily rollup when the range holds one, and no statement reads a day
        // or more of hours.
        if (d.pieces === 'union') expect(sums).toHaveLength(1 + listStatements);
        else expect(sums.length).toBeGreaterThanOrEqual(1 + listStatements);
        expect(sums.some((sql) => sql.includes('FROM rollup_1h WHERE'))).toBe(true);
        const wholeDay = Math.ceil((range.start - (range.start % 60)) / DAY) * DAY + DAY <= range.end;
        expect(sums.some((sql) => sql.includes('FROM rollup_1d WHERE'))).toBe(wholeDay);
        for (const sql of sums) {
          expect(sql).toMatch(/FROM rollup_(1m|5m|1h|1d) WHERE/);
          for (const [table, most] of [
            ['rollup_1m', 300],
            ['rollup_5m', 3600],
            ['rollup_1h', DAY],
          ] as const) {
            for (const m of sql.matchAll(
              new RegExp(`FROM ${table} WHERE .*?bucket >= (\\d+) AND bucket < (\\d+)`, 'g'),
            ))
              expect(Number(m[2]) - Number(m[1])).toBeLessThan(most);
          }
        }
      }
  });

  it('top lists and distinct counts are exact to the second over whole and partial hours and days', async () => {
    // Three days of events; ranges that start and end inside hours read whole days from the daily
    // rollup (the high-cardinality dimensions), whole hours from the hourly ones and the partial
    // hours from raw events.
    const events = [0, 1, 2].flatMap((i) => makeEvents(`node3-${i}`, 400, T0 - 30 * 3600, 66 * 3600, 60 + i));
    for (const [i, part] of [0, 1, 2].entries()) {
      await store.ingest(
        batchOf(
          `node3-${part}`,
          events.filter((e) => e.batchId === `node3-${i}`),
        ),
      );
    }
    const queries = new StatisticsReads(store);
    // Whole sites (their days from sitedims_1d) and some domains in one zone (from dims_1d).
    const scopes = [
      { siteIds: [2, 3], zoneIds: null, domainIds: null },
      { siteIds: [2, 3], zoneIds: [10], domainIds: [201, 302] },
    ];
    const inScope = (scope: (typeof scopes)[number], e: EventRow) =>
      scope.siteIds.includes(e.siteId) &&
      (scope.zoneIds === null || scope.zoneIds.includes(e.zoneId)) &&
      (scope.domainIds === null || scope.domainIds.includes(e.domainId));
    // Before DuckDB built any dimension (raw events alone), with them built up to a time inside
    // the ranges (the rest raw), and all built.
    for (const builtTo of [null, T0 + 5 * 3600 + 120, T0 + 3 * DAY]) {
      if (builtTo !== null) await store.compact(T0 - 2 * DAY, builtTo);
      for (const scope of scopes)
        for (const range of [
          { start: T0 - 29 * 3600 + 1234, end: T0 + DAY + 8 * 3600 - 17 },
          { start: T0 - 19 * 3600 + 1234, end: T0 + 8 * 3600 - 17 },
          { start: T0 - 9 * 3600 + 1234, end: T0 + 8 * 3600 - 17 },
          { start: T0 - 3 * 3600, end: T0 + 7 * 3600 },
          { start: T0 - 2 * 3600 + 1, end: T0 - 3600 + 59 },
        ]) {
          // A range of more than a day starts at its first whole hour (ROUND_START_AFTER_SECONDS).
          const from = range.end - range.start > DAY ? range.start - (range.start % 3600) : range.start;
          const inRange = events.filter((e) => inScope(scope, e) && e.ts >= from && e.ts < range.end);
          const expectTop = async (dim: 'status' | 'url' | 'ip' | 'country', value: (e: EventRow) => string) => {
            const want = new Map<string, number>();
            for (const e of inRange) {
              const v = value(e);
              if (dim === 'country' && v === '') continue;
              want.set(v, (want.get(v) ?? 0) + 1);
            }
            const got = await queries.top(scope, range, dim, 'requests', 1000);
            expect(new Map(got.map((r) => [r.key, r.requests]))).toEqual(want);
          };
          // Ordered by a decision: the values that had one, with all their requests.
          for (const by of ['blacklisted', 'waf'] as const) {
            const want = new Map<string, number>();
            const decided = new Set(inRange.filter((e) => e[by] > 0).map((e) => e.ip));
            for (const e of inRange) if (decided.has(e.ip)) want.set(e.ip, (want.get(e.ip) ?? 0) + 1);
            const got = await queries.top(scope, range, 'ip', by, 1000);
            expect(new Map(got.map((r) => [r.key, r.requests]))).toEqual(want);
          }
          await expectTop('status', (e) => String(e.status));
          await expectTop('url', (e) => e.path);
          await expectTop('ip', (e) => e.ip);
          await expectTop('country', (e) => e.country);
          expect(await queries.distinct(scope, range, 'ip')).toBe(new Set(inRange.map((e) => e.ip)).size);
          expect(await queries.distinct(scope, range, 'ip', 'blacklisted')).toBe(
            new Set(inRange.filter((e) => e.blacklisted).map((e) => e.ip)).size,
          );
        }
    }
  });

  it('ranks addresses of equal counts by their text, keeps each written form apart, late rows and merged ones too', async () => {
    // Requests per address (the blacklisted ones: the first `blacklisted` of them), spread over two
    // days, so that a month's range reads whole days, whole hours and raw events.
    const plan: [string, number, number][] = [
      ['9.0.0.1', 6, 2],
      ['10.0.0.1', 6, 2],
      ['2001:db8::2', 6, 2],
      ['010.0.0.1', 4, 1],
      ['0.0.0.0', 2, 0],
      ['255.255.255.255', 1, 1],
      // Thirty tied with the last: lists whose last place they reach rank past the rows fetched.
      ...Array.from({ length: 30 }, (_, i): [string, number, number] => [`192.0.2.${100 + i}`, 1, 0]),
    ];
    const eventsOf = (batchId: string, from: number, seed: number) => {
      const base = makeEvents(
        batchId,
        plan.reduce((n, [, r]) => n + r, 0),
        from,
        2 * DAY,
        seed,
      );
      let i = 0;
      for (const [ip, requests, blacklisted] of plan) {
        for (let k = 0; k < requests; k++, i++) {
          Object.assign(base[i] as EventRow, {
            ip,
            siteId: 2,
            domainId: 201,
            zoneId: 10,
            blacklisted: k < blacklisted ? 1 : 0,
            blocked: k < blacklisted ? 1 : 0,
            waf: 0,
          });
        }
      }
      return base;
    };
    const first = eventsOf('node6-1', T0 - DAY, 90);
    await store.ingest(batchOf('node6-1', first));
    await store.compact(T0 - 2 * DAY, T0 + DAY + 7200);
    // Late: hours and days built already (their dimensions added as partial rows).
    const late = eventsOf('node6-2', T0 - DAY, 91);
    await store.ingest(batchOf('node6-2', late));
    const queries = new StatisticsReads(store);
    const range = { start: T0 - 30 * DAY, end: T0 + DAY + 3 * 3600 + 17 };
    for (const scope of [
      { siteIds: [2], zoneIds: null, domainIds: null },
      { siteIds: [2], zoneIds: [10], domainIds: [201] },
    ]) {
      for (const merged of [false, true]) {
        if (merged) await store.compact(T0 - 2 * DAY, T0 + DAY + 7200);
        const keys = async (by: 'requests' | 'blacklisted', limit: number) =>
          (await queries.top(scope, range, 'ip', by, limit)).map((r) => [r.key, r.requests]);
        // Ties in the text's order ('10…' < '2001…' < '9…'), the last place's ties cut at the limit.
        expect(await keys('requests', 2)).toEqual([
          ['10.0.0.1', 12],
          ['2001:db8::2', 12],
        ]);
        expect(await keys('requests', 5)).toEqual([
          ['10.0.0.1', 12],
          ['2001:db8::2', 12],
          ['9.0.0.1', 12],
          ['010.0.0.1', 8],
          ['0.0.0.0', 4],
        ]);
        expect(await keys('requests', 8)).toEqual([
          ['10.0.0.1', 12],
          ['2001:db8::2', 12],
          ['9.0.0.1', 12],
          ['010.0.0.1', 8],
          ['0.0.0.0', 4],
          ['192.0.2.100', 2],
          ['192.0.2.101', 2],
          ['192.0.2.102', 2],
        ]);
        expect((await keys('requests', 100)).slice(-2)).toEqual([
          ['192.0.2.129', 2],
          ['255.255.255.255', 2],
        ]);
        expect(await keys('blacklisted', 4)).toEqual([
          ['10.0.0.1', 12],
          ['2001:db8::2', 12],
          ['9.0.0.1', 12],
          ['010.0.0.1', 8],
        ]);
        expect(await keys('blacklisted', 10)).toHaveLength(5);
        expect(await queries.distinct(scope, range, 'ip')).toBe(36);
        expect(await queries.distinct(scope, range, 'ip', 'blacklisted')).toBe(5);
      }
    }
  });

  it('ranks and counts addresses exactly over ranges that cut through days, late, merged, pruned and rebuilt', async () => {
    // Sites 5 and 6 over five days (T0 - 2 days to T0 + 3 days): each address a number of
    // requests per day; twenty of them busy on the first day alone and seen once on the fourth, so
    // that their sums over every day (siteips's bounds) lead while ranges without the first day
    // rank them last.
    const r = random(130);
    const days = [-2, -1, 0, 1, 2];
    const plan: { ip: string; site: number; day: number; requests: number; blacklisted: number }[] = [];
    for (let a = 0; a < 60; a++) {
      const ip = a % 13 === 5 ? `2001:db8::${a}` : `203.0.113.${a}`;
      for (const day of days) {
        const requests = Math.floor(r() * r() * 9);
        if (requests > 0) plan.push({ ip, site: a % 4 === 0 ? 6 : 5, day, requests, blacklisted: r() < 0.3 ? 1 : 0 });
      }
    }
    for (let a = 0; a < 20; a++) {
      plan.push({ ip: `198.51.100.${a}`, site: 5, day: -2, requests: 40, blacklisted: 3 });
      plan.push({ ip: `198.51.100.${a}`, site: 5, day: 1, requests: 1, blacklisted: 1 });
    }
    const eventsOf = (batchId: string, part: number, seed: number) => {
      const rows = plan.filter((_, i) => i % 2 === part);
      const base = makeEvents(
        batchId,
        rows.reduce((n, p) => n + p.requests, 0),
        T0,
        DAY,
        seed,
      );
      let i = 0;
      for (const p of rows) {
        for (let k = 0; k < p.requests; k++, i++) {
          const e = base[i] as EventRow;
          const black = k < p.blacklisted ? 1 : 0;
          Object.assign(e, {
            ip: p.ip,
            siteId: p.site,
            domainId: p.site * 100 + 1,
            ts: T0 + p.day * DAY + ((e.ts - T0 + k * 3607) % DAY),
            blacklisted: black,
            blocked: black,
            waf: 0,
          });
        }
      }
      return base;
    };
    const first = eventsOf('node8-1', 0, 131);
    const late = eventsOf('node8-2', 1, 132);
    await store.ingest(batchOf('node8-1', first));
    // Built to 05:00 of the last day: that day's bit holds its first five hours, later events are raw.
    const built = T0 + 2 * DAY + 5 * 3600;
    await store.compact(T0 - 3 * DAY, built);
    // Every statement kept: on ClickHouse, the tops rank hashes first (SqlDialect.hash64).
    const { spy, sent } = recording(store);
    const queries = new StatisticsReads(spy);
    const ranges = [
      { start: T0 - DAY + 5 * 3600 + 7, end: T0 + 3 * DAY },
      { start: T0, end: T0 + DAY },
      { start: T0 + 3600 + 5, end: T0 + 2 * DAY - 9 },
      { start: T0 - 2 * DAY, end: T0 + 2 * DAY + 3 * 3600 },
      { start: T0 - 30 * DAY, end: T0 + 3 * DAY },
    ];
    const check = async (events: EventRow[], label: string) => {
      for (const siteIds of [[5], [5, 6]]) {
        const scope = { siteIds, zoneIds: null, domainIds: null };
        for (const range of ranges) {
          const from = range.end - range.start > DAY ? range.start - (range.start % 3600) : range.start;
          const inRange = events.filter((e) => siteIds.includes(e.siteId) && e.ts >= from && e.ts < range.end);
          const sums = new Map<string, { requests: number; blacklisted: number }>();
          for (const e of inRange) {
            const s = sums.get(e.ip) ?? { requests: 0, blacklisted: 0 };
            s.requests += 1;
            s.blacklisted += e.blacklisted;
            sums.set(e.ip, s);
          }
          const want = (by: 'requests' | 'blacklisted', limit: number) =>
            [...sums]
              .filter(([, s]) => s[by] > 0)
              .sort(([ka, a], [kb, b]) => b[by] - a[by] || (ka < kb ? -1 : 1))
              .slice(0, limit)
              .map(([k, s]) => [k, s.requests]);
          const where = `${label}, sites ${siteIds}, ${range.start}–${range.end}`;
          for (const by of ['requests', 'blacklisted'] as const) {
            for (const limit of [3, 10, 1000]) {
              const got = (await queries.top(scope, range, 'ip', by, limit)).map((x) => [x.key, x.requests]);
              expect(got, `${where}: top ${limit} by ${by}`).toEqual(want(by, limit));
            }
          }
          expect(await queries.distinct(scope, range, 'ip'), where).toBe(sums.size);
          expect(await queries.distinct(scope, range, 'ip', 'blacklisted'), where).toBe(
            [...sums.values()].filter((s) => s.blacklisted > 0).length,
          );
        }
      }
    };
    await check(first, 'built');
    // Late events (days and hours built already): partial rows until the upkeep merges them.
    await store.ingest(batchOf('node8-2', late));
    const all = [...first, ...late];
    if (TEST_ANALYTICS_KIND === 'duckdb') expect(store.siteAddresses?.merged).toBe(false);
    await check(all, 'late');
    await store.compact(T0 - 3 * DAY, built);
    if (TEST_ANALYTICS_KIND === 'duckdb') {
      expect(store.siteAddresses?.merged).toBe(true);
      // One row per address and site.
      const pairs = new Set(all.filter((e) => e.ts < built).map((e) => `${e.siteId}|${e.ip}`));
      expect(await count(store, 'SELECT count(*) AS n FROM siteips')).toBe(pairs.size);
    }
    await check(all, 'merged');
    // Built three hours further: the table merges those at its next turn, the hours read meanwhile.
    await store.compact(T0 - 3 * DAY, built + 3 * 3600);
    if (TEST_ANALYTICS_KIND === 'duckdb') expect(store.siteAddresses?.to).toBe(built);
    await check(all, 'lagging');
    // Days pruned leave the masks (as their daily rows go).
    await store.prune(T0 - DAY, T0 - DAY);
    await eventually(() =>
      check(
        all.filter((e) => e.ts >= T0 - DAY),
        'pruned',
      ),
    );
    // On ClickHouse both ways of a hashed top ran above: lists the leading hashes settled (their
    // values counted exactly by hash), and lists whose ties reached past them (the strings grouped).
    const byHash = sent.filter((sql) => sql.includes('cityHash64(value) IN ('));
    const byText = sent.filter((sql) => /GROUP BY value ORDER BY ord DESC, value LIMIT/.test(sql));
    if (TEST_ANALYTICS_KIND === 'clickhouse') {
      expect(byHash.length).toBeGreaterThan(0);
      expect(byText.length).toBeGreaterThan(0);
      expect(byText.length).toBeLessThan(byHash.length);
    } else expect(sent.some((sql) => sql.includes('cityHash64'))).toBe(false);
  });

  it.runIf(TEST_ANALYTICS_KIND === 'duckdb')(
    "keeps each site's addresses together: merged in place through the day, rewritten in site order when a day starts",
    async () => {
      // An hour's batch at a time, new addresses every hour for each site, the upkeep after each
      // hour as the analytics job runs it (its range an hour back), across midnight.
      const rowsOfSites = async () =>
        (
          await store.query(
            'SELECT site_id, count(*) AS n, max(rowid) - min(rowid) + 1 AS span FROM siteips GROUP BY site_id ORDER BY site_id',
          )
        ).map((r) => ({ site: Number(r.site_id), n: Number(r.n), span: Number(r.span) }));
      const all: EventRow[] = [];
      for (let hour = -20; hour < 2; hour++) {
        const events = makeEvents(`hourly${hour + 20}`, 90, T0 + hour * 3600, 3600, 300 + hour).map((e, i) => ({
          ...e,
          ip: `10.${hour + 20}.${i % 30}.1`,
        }));
        all.push(...events);
        await store.ingest(batchOf(`hourly${hour + 20}`, events));
        const to = T0 + (hour + 1) * 3600;
        await store.compact(to - 7200, to);
        if (hour === -1) {
          // Before midnight, after merges in place: some site's rows are apart.
          expect((await rowsOfSites()).some((r) => r.span > r.n)).toBe(true);
        }
      }
      // The day that started rewrote the table: each site's rows one run.
      const sites = await rowsOfSites();
      expect(sites.map((r) => r.site)).toEqual([1, 2, 3]);
      for (const r of sites) expect(r.span).toBe(r.n);
      // And the counts are the events' (the last hour's, not built yet, from raw events).
      const queries = new StatisticsReads(store);
      const range = { start: T0 - 20 * 3600, end: T0 + 2 * 3600 };
      for (const site of [1, 2, 3]) {
        const ips = new Set(all.filter((e) => e.siteId === site).map((e) => e.ip));
        expect(await queries.distinct({ siteIds: [site], zoneIds: null, domainIds: null }, range, 'ip')).toBe(ips.size);
      }
    },
  );

  it('counts a day 128 days on apart from the one whose bit it takes over, built day by day', async () => {
    // Site 7: an address on day 0 alone, one on day 128 alone (the same bit of the masks), one on
    // both, and one on day 100; the upkeep builds each day as it ends.
    const only = (ip: string, day: number, n: number, seed: number) =>
      makeEvents(`node10-${seed}`, n, T0 + day * DAY, DAY, seed).map((e) => ({ ...e, ip, siteId: 7, domainId: 701 }));
    const batches = [
      only('203.0.113.1', 0, 5, 150),
      only('203.0.113.3', 0, 2, 151),
      only('203.0.113.4', 100, 3, 152),
      only('203.0.113.2', 128, 4, 153),
      only('203.0.113.3', 128, 1, 154),
    ];
    const queries = new StatisticsReads(store);
    const scope = { siteIds: [7], zoneIds: null, domainIds: null };
    const all: EventRow[] = [];
    for (const [i, events] of batches.entries()) {
      all.push(...events);
      await store.ingest(batchOf(`node10-${150 + i}`, events));
      const last = Math.max(...events.map((e) => e.ts));
      await store.compact(T0 - DAY, last - (last % DAY) + DAY);
    }
    for (const range of [
      { start: T0 + 99 * DAY, end: T0 + 129 * DAY },
      { start: T0 + 127 * DAY + 3600, end: T0 + 129 * DAY },
      { start: T0 - DAY, end: T0 + 2 * DAY },
      { start: T0 + 40 * DAY, end: T0 + 129 * DAY },
    ]) {
      const from = range.start - (range.start % 3600);
      const inRange = all.filter((e) => e.ts >= from && e.ts < range.end);
      const want = new Map<string, number>();
      for (const e of inRange) want.set(e.ip, (want.get(e.ip) ?? 0) + 1);
      expect(await queries.distinct(scope, range, 'ip'), `${range.start}`).toBe(want.size);
      const got = await queries.top(scope, range, 'ip', 'requests', 10);
      expect(new Map(got.map((r) => [r.key, r.requests])), `${range.start}`).toEqual(want);
    }
  });

  it.runIf(TEST_ANALYTICS_KIND === 'duckdb')(
    'builds the per-site address table of a store from before it on open, and again when parts are dropped',
    async () => {
      const kept = await createReopenableAnalyticsStore();
      try {
        const events = makeEvents('node9-1', 400, T0 - 2 * DAY, 3 * DAY, 140);
        await kept.store.ingest(batchOf('node9-1', events));
        const built = T0 + DAY / 2;
        await kept.store.compact(T0 - 3 * DAY, built);
        const rows = await kept.store.query('SELECT * FROM siteips ORDER BY site_id, value');
        expect(rows.length).toBe(new Set(events.filter((e) => e.ts < built).map((e) => `${e.siteId}|${e.ip}`)).size);
        await kept.store.query('DROP TABLE siteips');
        await kept.store.query(`DELETE FROM rolled WHERE name IN ('siteips', 'siteips_to')`);
        const reopened = await kept.reopen();
        expect(await reopened.query('SELECT * FROM siteips ORDER BY site_id, value')).toEqual(rows);
        // A day of sitedims_1d dropped by hand: the table again from what is left.
        await reopened.dropParts([{ table: 'sitedims_1d', part: logPartOf(T0 - DAY) }]);
        const queries = new StatisticsReads(reopened);
        const scope = { siteIds: [2], zoneIds: null, domainIds: null };
        const range = { start: T0 - 2 * DAY, end: built };
        const left = events.filter((e) => e.siteId === 2 && e.ts < built && (e.ts < T0 - DAY || e.ts >= T0));
        expect(await queries.distinct(scope, range, 'ip')).toBe(new Set(left.map((e) => e.ip)).size);
      } finally {
        await kept.drop();
      }
    },
  );

  it.runIf(TEST_ANALYTICS_KIND === 'duckdb')(
    'gives dimension tables from before the address integers their column on open, filled',
    async () => {
      const kept = await createReopenableAnalyticsStore();
      try {
        const events = makeEvents('node7-1', 300, T0 - DAY, 2 * DAY, 95);
        await kept.store.ingest(batchOf('node7-1', events));
        await kept.store.compact(T0 - 2 * DAY, T0 + 2 * DAY);
        for (const table of ['lowdims_1h', 'dims_1h', 'dims_1d', 'sitedims_1d']) {
          await kept.store.query(`ALTER TABLE ${table} DROP COLUMN ip4`);
        }
        const reopened = await kept.reopen();
        // Integers for the IPv4 rows alone (makeEvents's two), the IPv6 ones and other dimensions none.
        for (const table of ['dims_1h', 'dims_1d', 'sitedims_1d']) {
          const rows = await reopened.query(
            `SELECT DISTINCT value, CASE WHEN ip4 IS NULL THEN '-' ELSE ${reopened.dialect.ip4?.text('ip4')} END AS back FROM ${table} WHERE dim = 'ip' ORDER BY value`,
          );
          expect(rows.map((r) => [r.value, r.back])).toEqual([
            ['192.0.2.1', '192.0.2.1'],
            ['198.51.100.7', '198.51.100.7'],
            ['2001:db8::1', '-'],
          ]);
          expect(
            await count(reopened, `SELECT count(*) AS n FROM ${table} WHERE dim <> 'ip' AND ip4 IS NOT NULL`),
          ).toBe(0);
        }
        const queries = new StatisticsReads(reopened);
        const range = { start: T0 - 30 * DAY, end: T0 + 2 * DAY };
        expect(await queries.distinct({ siteIds: [1, 2, 3], zoneIds: null, domainIds: null }, range, 'ip')).toBe(3);
      } finally {
        await kept.drop();
      }
    },
  );

  it('adds the dimensions of events older than those built, and merges them in the upkeep', async () => {
    const first = makeEvents('node4-1', 300, T0 - 2 * 3600, 4 * 3600, 70);
    await store.ingest(batchOf('node4-1', first));
    await store.compact(T0 - DAY, T0 + DAY);
    // A node that was away: its events fall in hours and a day already built.
    const late = makeEvents('node4-2', 200, T0 - 3 * 3600, 5 * 3600, 71);
    const later = makeEvents('node4-3', 50, T0 + 1800, 600, 72);
    await store.ingest(batchOf('node4-2', late));
    await store.ingest(batchOf('node4-3', later));
    const all = [...first, ...late, ...later];
    await expectRollupsOf(store, all);
    const queries = new StatisticsReads(store);
    const range = { start: T0 - 2 * DAY, end: T0 + DAY };
    const got = await queries.top(
      { siteIds: [1, 2, 3], zoneIds: null, domainIds: null },
      range,
      'url',
      'requests',
      1000,
    );
    const want = new Map<string, number>();
    for (const e of all) if (e.ts >= range.start) want.set(e.path, (want.get(e.path) ?? 0) + 1);
    expect(new Map(got.map((r) => [r.key, r.requests]))).toEqual(want);
    // The upkeep merges the partial rows: one per key again.
    await store.compact(T0 - DAY, T0 + DAY);
    await expectRollupsOf(store, all);
    const sums = rollupsOf(all);
    expect(await count(store, 'SELECT count(*) AS n FROM dims_1h')).toBe(sums.d1h.length);
    expect(await count(store, 'SELECT count(*) AS n FROM lowdims_1h')).toBe(sums.l1h.length);
    expect(await count(store, 'SELECT count(*) AS n FROM dims_1d')).toBe(sums.d1d.length);
    expect(await count(store, 'SELECT count(*) AS n FROM sitedims_1d')).toBe(sums.s1d.length);
  });

  it.runIf(TEST_ANALYTICS_KIND === 'clickhouse')(
    'completes a batch whose first attempt was cut short: every event once, rollups exact',
    async () => {
      const db = (store as unknown as { databaseName: string }).databaseName;
      const begin = (batch: StoredBatch) =>
        clickhouseRequest('INSERT INTO batch_attempts FORMAT JSONEachRow', {
          database: db,
          data: `${JSON.stringify({ batch_key: batchKey(batch.batchId), batch_id: batch.batchId, node_id: batch.nodeId, received_at: batch.receivedAt })}\n`,
        });
      const insertEvents = (events: EventRow[]) =>
        clickhouseRequest('INSERT INTO events FORMAT JSONEachRow', {
          database: db,
          data: events
            .map((e) => JSON.stringify(Object.fromEntries(EVENT_COLUMNS.map(([field, name]) => [name, e[field]]))))
            .join('\n'),
        });

      // Cut after the events' INSERT (some of them: one INSERT per partition of the day before).
      const events = makeEvents('node1-20', 200, T0 - 1800, 3600, 6);
      // A request id twice in the batch, one copy stored: the other still goes in.
      const twice = { ...(events[0] as EventRow), ts: T0 + 5 };
      const batch = batchOf('node1-20', [...events, twice]);
      await begin(batch);
      await insertEvents(events.filter((e) => e.ts < T0));
      // Another batch's events in the same seconds and sites with the same request ids are not its own.
      const other = events.slice(0, 20).map((e) => ({ ...e, batchId: 'node1-21' }));
      expect(await store.ingest(batchOf('node1-21', other))).toEqual({ stored: 20, duplicate: false });

      const before = events.filter((e) => e.ts < T0).length;
      expect(before).toBeGreaterThan(0);
      expect(await store.ingest(batch)).toEqual({ stored: batch.events.length - before, duplicate: false });
      expect(await store.ingest(batch)).toEqual({ stored: 0, duplicate: true });
      const stored = await store.query(`SELECT request_id FROM events WHERE batch_id = 'node1-20'`);
      expect(stored.map((r) => String(r.request_id)).sort()).toEqual(batch.events.map((e) => e.requestId).sort());
      await expectRollupsOf(store, [...batch.events, ...other]);
      expect(await count(store, 'SELECT count(*) AS n FROM batches')).toBe(2);

      // Cut after the ledger's 'begun' row, before any event.
      const next = batchOf('node1-22', makeEvents('node1-22', 30, T0 + 600, 60, 7));
      await begin(next);
      expect(await store.ingest(next)).toEqual({ stored: 30, duplicate: false });
      await expectRollupsOf(store, [...batch.events, ...other, ...next.events]);
    },
  );

  it('prunes old days: raw events and rollups each by their own cut', async () => {
    const days = [-3, -2, -1, 0].map((d, i) => makeEvents(`node1-3${i}`, 60, T0 + d * DAY, DAY, 10 + i));
    for (const [i, events] of days.entries()) await store.ingest(batchOf(`node1-3${i}`, events));
    const all = days.flat();
    // The upkeep builds the dimensions before it prunes (analytics.job.ts).
    await store.compact(T0 - 4 * DAY, T0 + 2 * DAY);

    await store.prune(T0 - DAY, T0 - 2 * DAY);
    const rawKept = all.filter((e) => e.ts >= T0 - DAY);
    expect(await storedRequestIds(store)).toEqual(rawKept.map((e) => e.requestId).sort());
    const rollupKept = rollupsOf(all);
    expect(await storedRollups(store, 'rollup_1m')).toEqual(
      expectedRollups(rollupKept.r1m.filter((r) => r.bucket >= T0 - 2 * DAY)),
    );
    expect(await storedDims(store, 'dims_1h')).toEqual(
      expectedDims(rollupKept.d1h.filter((r) => r.bucket >= T0 - 2 * DAY)),
    );
    // The ledger goes with the earlier cut (its batches' events and rollups are gone).
    expect(await count(store, `SELECT count(*) AS n FROM batches WHERE received_at < ${T0 - 2 * DAY}`)).toBe(0);

    // A cut inside a day: the rows before it go too (on ClickHouse by a mutation, shortly after).
    const cut = T0 + 6 * 3600 + 17;
    await store.prune(cut, cut);
    await eventually(async () => {
      expect(await storedRequestIds(store)).toEqual(
        all
          .filter((e) => e.ts >= cut)
          .map((e) => e.requestId)
          .sort(),
      );
      expect(await count(store, `SELECT count(*) AS n FROM rollup_5m WHERE bucket < ${cut}`)).toBe(0);
    });
  });

  it('compacts partial rows into one per key, keeping the sums', async () => {
    const batches = [0, 1, 2, 3].map((i) => makeEvents(`node1-4${i}`, 80, T0 - 1800, 3600, 20 + i));
    for (const [i, events] of batches.entries()) await store.ingest(batchOf(`node1-4${i}`, events));
    const all = batches.flat();
    const want = rollupsOf(all);
    // A range that starts inside a day merges that day's daily rows too (the job's ranges start
    // an hour before its last run's end, inside the day).
    await store.compact(T0 - 600, T0 + 600);
    expect(await count(store, 'SELECT count(*) AS n FROM rollup_1d')).toBe(want.r1d.length);
    await store.compact(T0 - DAY, T0 + DAY);
    await expectRollupsOf(store, all);
    expect(await count(store, 'SELECT count(*) AS n FROM rollup_1m')).toBe(want.r1m.length);
    expect(await count(store, 'SELECT count(*) AS n FROM rollup_1d')).toBe(want.r1d.length);
    expect(await count(store, 'SELECT count(*) AS n FROM siterollup_5m')).toBe(want.s5m.length);
    expect(await count(store, 'SELECT count(*) AS n FROM lowdims_1h')).toBe(want.l1h.length);
    expect(await count(store, 'SELECT count(*) AS n FROM dims_1h')).toBe(want.d1h.length);
    expect(await count(store, 'SELECT count(*) AS n FROM dims_1d')).toBe(want.d1d.length);
    expect(await count(store, 'SELECT count(*) AS n FROM sitedims_1d')).toBe(want.s1d.length);
    // Compaction leaves the rows out of its range alone and stays correct when run again.
    await store.compact(T0 - 60, T0 + 60);
    await expectRollupsOf(store, all);
  });

  it.runIf(TEST_ANALYTICS_KIND === 'duckdb')(
    'takes a store from before the hourly build as built up to its last hour, and rebuilds that hour whole',
    async () => {
      const work = mkdtempSync(path.join(tmpdir(), 'rampart-analytics-'));
      // The store inside the temporary directory, so its lock file (beside it) goes with it.
      const dir = path.join(work, 'store');
      try {
        const events = makeEvents('node5-1', 300, T0 - 5 * 3600, 5 * 3600 - 10, 80);
        const old = new DuckDbStore(dir);
        await old.open();
        await old.ingest(batchOf('node5-1', events));
        // Built past every event, then the mark removed: the layout before the build by the hour
        // (every batch's dimensions written with it), with no mark.
        await old.compact(T0 - DAY, T0 + 3600);
        await old.close();
        const db = await (await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'))).connect();
        await db.run('DELETE FROM rolled');
        db.closeSync();

        const reopened = new DuckDbStore(dir);
        await reopened.open();
        try {
          const last = Math.max(...events.map((e) => e.ts));
          expect(reopened.dimsRolledTo).toBe(last - (last % 3600));
          const queries = new StatisticsReads(reopened);
          const range = { start: T0 - DAY, end: T0 + 3600 };
          const scope = { siteIds: [1, 2, 3], zoneIds: null, domainIds: null };
          const want = new Map<string, number>();
          for (const e of events) want.set(e.path, (want.get(e.path) ?? 0) + 1);
          const top = async () =>
            new Map((await queries.top(scope, range, 'url', 'requests', 1000)).map((r) => [r.key, r.requests]));
          expect(await top()).toEqual(want);
          // The next build replaces the last hour's rows rather than adding to them.
          await reopened.compact(T0 - DAY, T0 + 3600);
          await expectRollupsOf(reopened, events);
          expect(await top()).toEqual(want);
        } finally {
          await reopened.close();
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  );
});
