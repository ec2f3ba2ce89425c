import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsStore, CollapsedRow, EventRow, Row } from '../src/modules/analytics/analytics-store.js';
import { logRowsAfter, logRowsFrom, positionOf } from '../src/modules/analytics/log-search-store.js';
import { LOG_COLUMNS } from '../src/modules/analytics/logs.service.js';
import { ROLLUP_COUNTERS } from '../src/modules/analytics/rollups.js';
import { LogPushReads, type PushScope } from '../src/modules/analytics/store/log-push-reads.js';
import type { LogPushRepository } from '../src/modules/log-push/log-push.repository.js';
import { LogPushSource } from '../src/modules/log-push/log-push.source.js';
import { makeEvents } from './helpers/analytics-events.js';
import { createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';

// The keyset paging of the log rows (log-search-store.ts logRowsAfter / logRowsFrom: a log
// export's chunks, a manual push's batches) on both analytics stores: many rows share one time and
// request id — a node's collapsed records whose sample is a tally (request id 'tally'), and events
// of one request id in several batches — and a small page cuts through them. Every row is read
// once, in the order of one unpaged read, whichever the direction and the page size.

const T = Date.UTC(2026, 10, 29, 9, 0, 0) / 1000;
const MINUTE = T - (T % 60);
const TS = MINUTE + 42;
const MS = 517;
const RECORDS = 7;
const EVENTS = 5;

let store: AnalyticsStore;

/** An event of the site at the shared time: each its own address, the request id shared. */
function event(batchId: string, i: number, over: Partial<EventRow> = {}): EventRow {
  const [e] = makeEvents(batchId, 1, TS, 1, i + 1) as [EventRow];
  return {
    ...e,
    ts: TS,
    ms: MS,
    nodeId: 1,
    siteId: 2,
    zoneId: 10,
    domainId: 201,
    requestId: 'shared-request',
    batchId,
    ip: `192.0.2.${i + 1}`,
    fwKind: '',
    fwRule: 0,
    fwAction: '',
    blocked: 0,
    blacklisted: 0,
    waf: 0,
    ...over,
  };
}

/** A collapsed record whose sample is a tally: all at the shared time, each of its own address. */
function tally(i: number): CollapsedRow {
  return {
    ...event('agg-1', i),
    requestId: 'tally',
    ip: `203.0.113.${i + 1}`,
    fwKind: 'blacklist',
    fwRule: 7,
    fwAction: 'deny',
    blocked: 1,
    blacklisted: 1,
    minute: MINUTE,
    count: 10 + i,
    firstMs: MINUTE * 1000 + i,
    lastMs: TS * 1000 + MS,
  };
}

const parts = {
  columns: LOG_COLUMNS,
  where: `site_id IN (2) AND ts >= ${MINUTE} AND ts < ${MINUTE + 120}`,
  collapsedMinutes: `site_id IN (2) AND minute >= ${MINUTE - 60} AND minute < ${MINUTE + 120}`,
  byAddress: false,
};

const addresses = (rows: readonly Row[]) => rows.map((r) => String(r.ip));

beforeAll(async () => {
  store = await createTestAnalyticsStore();
  for (let i = 0; i < EVENTS; i++) {
    const batchId = `events-${i}`;
    await store.ingest({ batchId, nodeId: 1, receivedAt: TS + 5, dropped: 0, events: [event(batchId, i)] });
  }
  await store.ingestAggregates({
    batchId: 'agg-1',
    nodeId: 1,
    receivedAt: TS + 5,
    dropped: 0,
    // The minute's record (a ClickHouse store takes collapsed records of the batch's minutes only).
    counters: [{ minute: MINUTE, siteId: 2, domainId: 201, zoneId: 10, counters: ROLLUP_COUNTERS.map(() => 0) }],
    lowDims: [],
    highDims: [],
    sketches: [],
    collapsed: Array.from({ length: RECORDS }, (_, i) => tally(i)),
  });
});

afterAll(async () => {
  await store?.close();
});

describe(`the keyset paging of the log rows reads every row once (${TEST_ANALYTICS_KIND})`, () => {
  it('newest first (a log export), oldest first (a manual push), with pages cutting through one time and request id', async () => {
    const all = addresses(await logRowsAfter(store, parts, null, 100));
    expect(all).toHaveLength(RECORDS + EVENTS);
    expect(new Set(all).size).toBe(RECORDS + EVENTS);
    const oldest = addresses(await logRowsFrom(store, parts, null, 100));
    expect(oldest).toEqual([...all].reverse());
    for (const size of [1, 2, 3, 5]) {
      const back: string[] = [];
      let last: Row | null = null;
      for (let page = 0; page < 50; page++) {
        const rows = await logRowsAfter(store, parts, last, size);
        back.push(...addresses(rows));
        if (rows.length < size) break;
        last = rows[rows.length - 1] ?? null;
      }
      expect(back, `export pages of ${size}`).toEqual(all);
      const forth: string[] = [];
      let at: ReturnType<typeof positionOf> | null = null;
      for (let page = 0; page < 50; page++) {
        const rows = await logRowsFrom(store, parts, at, size);
        forth.push(...addresses(rows));
        if (rows.length < size) break;
        at = positionOf(rows[rows.length - 1] as Row);
      }
      expect(forth, `push pages of ${size}`).toEqual(oldest);
    }
  });

  it("a manual push's batches, its cursor stored as the job stores it", async () => {
    const source = new LogPushSource(new LogPushReads(store), {} as LogPushRepository);
    const scope: PushScope = {
      type: 'access',
      siteIds: [2],
      zoneIds: null,
      filters: { statusClasses: [], methods: [], domains: [] },
    };
    const range = { startTs: MINUTE, endTs: MINUTE + 120 };
    const sent: string[] = [];
    let cursor = { ts: -1, ms: 0, request: '' };
    for (let batch = 0; batch < 50; batch++) {
      const found = await source.nextInRange(scope, range, cursor, { maxRecords: 3, maxBytes: 1_000_000 });
      if (!found) break;
      sent.push(...found.items.map((x) => String(x.record.ip)));
      // Through JSON, as the repository's row keeps it.
      cursor = JSON.parse(JSON.stringify(found.next));
    }
    expect(sent).toEqual(addresses(await logRowsFrom(store, parts, null, 100)));
  });
});
