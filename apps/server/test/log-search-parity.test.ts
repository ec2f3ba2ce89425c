import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsStore, CollapsedRow, EventRow, Row } from '../src/modules/analytics/analytics-store.js';
import { DuckDbStore } from '../src/modules/analytics/duckdb-store.js';
import {
  countLogRows,
  type LogSearchParts,
  logRowsAfter,
  logRowsFrom,
  positionOf,
  searchLogRows,
} from '../src/modules/analytics/log-search-store.js';
import { LOG_COLUMNS } from '../src/modules/analytics/logs.service.js';
import { ROLLUP_COUNTERS } from '../src/modules/analytics/rollups.js';
import { makeEvents } from './helpers/analytics-events.js';
import { createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';

// The log search (log-search-store.ts) answers alike on DuckDB and ClickHouse: the same events and
// collapsed records — groups of one to three records (a node's partial minutes, tallies, a record
// past the node's cap of addresses), events they cover and events they do not — in both stores,
// every search asked of both (pages, filters, a count, an export's and a push's chunks) and the
// rows compared column by column.

const T = Date.UTC(2026, 10, 29, 9, 0, 0) / 1000;
const MINUTE = T - (T % 60);
const MINUTES = 4;
const ADDRESSES = ['203.0.113.7', '203.0.113.8', '198.51.100.9', '2001:db8::7'];

/** An event of site 2 in minute `m` from `ip`, refused by the blacklist or not (`kind` ''). */
function event(i: number, m: number, ip: string, kind: string): EventRow {
  const [e] = makeEvents('events', 1, MINUTE + 60 * m, 60, 7 + i) as [EventRow];
  return {
    ...e,
    nodeId: 1 + (i % 2),
    siteId: 2,
    zoneId: 10,
    domainId: 201,
    requestId: `req-${i}`,
    ip,
    fwKind: kind,
    fwRule: kind ? 4 : 0,
    fwAction: kind ? 'deny' : '',
    blocked: kind ? 1 : 0,
    blacklisted: kind ? 1 : 0,
    waf: 0,
  };
}

const events = Array.from({ length: 160 }, (_, i) =>
  event(i, i % MINUTES, ADDRESSES[i % ADDRESSES.length] as string, i % 3 === 0 ? '' : 'blacklist'),
);

/** The records of group (minute m, address, node): `parts` partial records, a tally first when `tally`. */
function records(m: number, ip: string, node: number, parts: number, tally: boolean): CollapsedRow[] {
  return Array.from({ length: parts }, (_, p) => {
    const base = event(1000 + m * 97 + p + node * 13 + ip.length, m, ip, 'blacklist');
    const first = (MINUTE + 60 * m) * 1000 + 1000 * (p + 1) + node;
    const isTally = tally && p === 0;
    return {
      ...base,
      nodeId: node,
      requestId: isTally ? 'tally' : `${base.requestId}-${node}-${p}`,
      minute: MINUTE + 60 * m,
      count: 5 + p * 7 + m,
      firstMs: first - (isTally ? 500 : 0),
      // A record past the node's cap lasts into the next minute: its merged time is not its minute's.
      lastMs: first + 20_000 - 3000 * p + 7 * m + (ip === '' && p === 0 ? 75_000 : 0),
    };
  });
}

const collapsed: CollapsedRow[] = [];
for (let m = 0; m < MINUTES; m++) {
  ADDRESSES.forEach((ip, a) => {
    collapsed.push(...records(m, ip, 1 + (a % 2), 1 + ((m + a) % 3), (m + a) % 2 === 0));
  });
  // Past node 2's cap of addresses: a record for any address of its minute.
  collapsed.push(...records(m, '', 2, 2, m % 2 === 1));
}

const SEARCHES: Record<string, Omit<LogSearchParts, 'limit' | 'offset'>> = {
  everything: parts(''),
  'an address': { ...parts(` AND ip = '203.0.113.8'`), byAddress: true },
  'a decision': parts(` AND fw_kind = 'blacklist'`),
  'a request id': parts(` AND request_id = 'tally'`),
  'a status': parts(` AND status = ${events[5]?.status ?? 200}`),
  'a narrower range': {
    ...parts(''),
    where: `site_id IN (2) AND ts >= ${MINUTE + 70} AND ts < ${MINUTE + 150}`,
  },
};

function parts(also: string): Omit<LogSearchParts, 'limit' | 'offset'> {
  const end = MINUTE + 60 * (MINUTES + 1);
  return {
    columns: LOG_COLUMNS,
    where: `site_id IN (2) AND ts >= ${MINUTE} AND ts < ${end}${also}`,
    collapsedMinutes: `site_id IN (2) AND minute >= ${MINUTE - 60} AND minute < ${end}`,
    byAddress: false,
  };
}

/** A row as plain values (the stores answer numbers as numbers or strings). */
const plain = (rows: readonly Row[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v])));

describe.runIf(TEST_ANALYTICS_KIND === 'clickhouse')('the log search answers alike on DuckDB and ClickHouse', () => {
  let duck: AnalyticsStore;
  let click: AnalyticsStore;

  beforeAll(async () => {
    duck = new DuckDbStore(null);
    await duck.open();
    click = await createTestAnalyticsStore();
    for (const store of [duck, click]) {
      await store.ingest({ batchId: 'events', nodeId: 1, receivedAt: T + 600, dropped: 0, events });
      await store.ingestAggregates({
        batchId: 'agg-1',
        nodeId: 1,
        receivedAt: T + 600,
        dropped: 0,
        counters: Array.from({ length: MINUTES }, (_, m) => ({
          minute: MINUTE + 60 * m,
          siteId: 2,
          domainId: 201,
          zoneId: 10,
          counters: ROLLUP_COUNTERS.map(() => 0),
        })),
        lowDims: [],
        highDims: [],
        sketches: [],
        collapsed,
      });
    }
  }, 120_000);

  afterAll(async () => {
    await duck?.close();
    await click?.close();
  });

  it('the same pages, totals, counts and chunks of every search', async () => {
    for (const [name, search] of Object.entries(SEARCHES)) {
      for (const [limit, offset] of [
        [10, 0],
        [7, 9],
        [500, 0],
      ] as const) {
        const d = await searchLogRows(duck, { ...search, limit, offset });
        const c = await searchLogRows(click, { ...search, limit, offset });
        expect(plain(c.rows), `${name}, ${limit} from ${offset}`).toEqual(plain(d.rows));
        expect(c.total, name).toBe(d.total);
      }
      expect(await countLogRows(click, search), name).toBe(await countLogRows(duck, search));
      expect(plain(await logRowsAfter(click, search, null, 13)), name).toEqual(
        plain(await logRowsAfter(duck, search, null, 13)),
      );
      expect(plain(await logRowsFrom(click, search, null, 13)), name).toEqual(
        plain(await logRowsFrom(duck, search, null, 13)),
      );
    }
    // Not an empty agreement: merged records of several records, and the events they leave.
    const all = await searchLogRows(duck, { ...SEARCHES.everything, limit: 500, offset: 0 } as LogSearchParts);
    const merged = all.rows.filter((r) => Number(r.last_ms) > 0);
    expect(merged.length).toBeGreaterThan(10);
    expect(merged.some((r) => String(r.request_id) === 'tally')).toBe(true);
    expect(merged.some((r) => Number(r.requests) > 20)).toBe(true);
    expect(all.rows.length - merged.length).toBeGreaterThan(10);
  });

  // Hundreds of searches (every search, four pages, two keyset walks in chunks of 7, each minute a
  // window), on both stores: ~24 s on a loaded machine, past the suite's 30 s with both cores busy.
  it('the same answers walking minute by minute as in one statement, on both stores', {
    timeout: 180_000,
  }, async () => {
    for (const store of [duck, click]) {
      for (const [name, search] of Object.entries(SEARCHES)) {
        // windowRecords 1: every minute of collapsed records a window of its own.
        const walked = { ...search, windowRecords: 1 };
        for (const [limit, offset] of [
          [10, 0],
          [7, 9],
          [13, 20],
          [500, 0],
        ] as const) {
          const one = await searchLogRows(store, { ...search, limit, offset });
          const w = await searchLogRows(store, { ...walked, limit, offset });
          expect(plain(w.rows), `${name}, ${limit} from ${offset}`).toEqual(plain(one.rows));
          expect(w.total, name).toBe(one.total);
        }
        expect(await countLogRows(store, walked), name).toBe(await countLogRows(store, search));
        const everything = await logRowsAfter(store, search, null, 1000);
        const newest: Row[] = [];
        for (let chunk = await logRowsAfter(store, walked, null, 7); chunk.length > 0; ) {
          newest.push(...chunk);
          chunk = await logRowsAfter(store, walked, chunk[chunk.length - 1] ?? null, 7);
        }
        expect(plain(newest), name).toEqual(plain(everything));
        const oldest: Row[] = [];
        for (let chunk = await logRowsFrom(store, walked, null, 7); chunk.length > 0; ) {
          oldest.push(...chunk);
          const last = chunk[chunk.length - 1];
          chunk = last ? await logRowsFrom(store, walked, positionOf(last), 7) : [];
        }
        expect(plain(oldest), name).toEqual(plain([...everything].reverse()));
      }
    }
  });
});
