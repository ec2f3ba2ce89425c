import {
  type AnyRoute,
  clientAccessLogs,
  type EdgeEvent,
  type LogRecord,
  type LogSampled,
  userAccessLogs,
  userStatisticsInfo,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTenants, analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import { edgeEvent, shipAggregated, shipBatch } from './helpers/events.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Log sampling beyond the log store's capacity (log-sampler.ts; docs/decisions.md "Log sampling"):
// with a capacity of 10 log records a second (100 a 10-second window), a flooded site's passed
// requests are kept 1 in N, N from its own rate over its max-min fair share, while a quiet site of
// another customer beside it keeps every request; each sampled minute's rate is recorded and shown
// by the log search as spans; the statistics, from the nodes' aggregates, count every request.

const HOUR = Date.UTC(2026, 10, 12, 14, 0, 0);
const M = HOUR + 2 * 60_000;
const clock = manualClock(HOUR + 3600_000);
const range = { startTime: new Date(HOUR).toISOString(), endTime: new Date(HOUR + 3600_000).toISOString() };
let t: TestApp;
let ten: AnalyticsTenants;
const shopEvents: EdgeEvent[] = [];

async function search(who: Token, route: AnyRoute = userAccessLogs, body: Record<string, unknown> = {}) {
  const res = await sendAs(t.app, who, route as typeof userAccessLogs, {
    body: { ...range, pageSize: 100, ...body } as never,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: LogRecord[]; total: number; sampled: LogSampled[] };
}

const passed = (tag: string, domainId: number, minute: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    edgeEvent({ id: `${tag}-${i}`, time: minute + (i % 60_000), domainId, path: `/${tag}/${i}` }),
  );

async function ship(batchId: string, events: EdgeEvent[]) {
  const res = await shipBatch(t.app, ten.a, { batchId, dropped: 0, events, statistics: false }, { nowMs: clock.now() });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now, config: { logCapacity: 10 } });
  ten = await analyticsTenants(t, {
    shop: 'shop.sample.test',
    neighbour: 'door.sample.test',
    rival: 'far.sample.test',
  });
  // Window 1: the shop 800 passed requests in minute M and one refused; the neighbour 20. The fair
  // share of 100 is 80 (the neighbour's 20 leave 80 for the shop): the shop keeps 1 in 10.
  const refused = edgeEvent({
    id: 'refused-1',
    time: M + 30_000,
    domainId: ten.domainId,
    ip: '203.0.113.9',
    status: 403,
    fwKind: 'blacklist',
    fwRule: 4,
    fwAction: 'deny',
  });
  const first = [...passed('a', ten.domainId, M, 800), refused, ...passed('n1', ten.neighbourDomainId, M, 20)];
  await ship('log-1', first);
  // Window 2 (10 s later): the shop 400 in minute M+1 (its rate is still the last window's 800),
  // the neighbour 20 more: 1 in 10 again.
  clock.advance(10_000);
  const second = [...passed('b', ten.domainId, M + 60_000, 400), ...passed('n2', ten.neighbourDomainId, M, 20)];
  await ship('log-2', second);
  // Window 3: the shop 200 in minute M+3; its rate the last window's 400, the share 80: 1 in 5.
  clock.advance(10_000);
  await ship('log-3', passed('c', ten.domainId, M + 180_000, 200));
  // The second batch again (its acknowledgement lost), sampled 1 in 5 this time (the last window's
  // 200 and these 400): stored once, its sampled minute counted once.
  clock.advance(10_000);
  await ship('log-2', second);
  shopEvents.push(
    ...first.filter((e) => e.domainId === ten.domainId),
    ...passed('b', ten.domainId, M + 60_000, 400),
    ...passed('c', ten.domainId, M + 180_000, 200),
  );
  // Node b ships raw events that are the statistics (no aggregates): 300 for the neighbour, beyond
  // capacity, never sampled.
  clock.advance(10_000);
  const counted = passed('d', ten.neighbourDomainId, M + 600_000, 300);
  const raw = await shipBatch(t.app, ten.b, { batchId: 'raw-1', dropped: 0, events: counted }, { nowMs: clock.now() });
  expect(raw.statusCode, raw.body).toBe(200);
  // The shop's statistics, as the node counted them (its aggregates): every request.
  const agg = await shipAggregated(t.app, ten.a, 'agg-1', shopEvents, { nowMs: clock.now() });
  expect(agg.statusCode, agg.body).toBe(200);
});
afterAll(async () => t?.close());

const iso = (ms: number) => new Date(ms).toISOString();

describe('log sampling beyond capacity', () => {
  it("keeps 1 in N of a flooded site's passed requests and shows the rate per span of minutes", async () => {
    const page = await search(ten.user);
    // 80 of 800, 40 of 400, 40 of 200, and the refused request (never sampled).
    expect(page.total).toBe(161);
    expect(page.sampled).toEqual([
      { siteID: ten.siteId, rate: 10, start: iso(M), end: iso(M + 120_000) },
      { siteID: ten.siteId, rate: 5, start: iso(M + 180_000), end: iso(M + 240_000) },
    ]);
    const refused = await search(ten.user, userAccessLogs, { decision: 'blacklist' });
    expect(refused.data.map((r) => r.reqID)).toEqual(['refused-1']);
    // The kept requests are spread over the flood (every N-th), not its first ones.
    const minuteB = await search(ten.user, userAccessLogs, { url: '/b/' });
    expect(minuteB.total).toBe(40);
  });

  it("never samples a quiet site beside a flooded one, nor shows it another customer's rates", async () => {
    const page = await search(ten.neighbour, userAccessLogs, { endTime: iso(M + 300_000) });
    expect(page.total).toBe(40);
    expect(page.sampled).toEqual([]);
    expect((await search(ten.rivalCustomer)).sampled).toEqual([]);
  });

  it("shows the operator its sites' sampled spans, narrowed by the search's range and sites", async () => {
    const all = await search(ten.client, clientAccessLogs);
    expect(all.sampled.map((s) => [s.siteID, s.rate])).toEqual([
      [ten.siteId, 10],
      [ten.siteId, 5],
    ]);
    const neighbourOnly = await search(ten.client, clientAccessLogs, { siteIDs: [ten.neighbourSiteId] });
    expect(neighbourOnly.sampled).toEqual([]);
    const late = await search(ten.client, clientAccessLogs, { startTime: iso(M + 150_000) });
    expect(late.sampled.map((s) => s.rate)).toEqual([5]);
  });

  it("keeps a sampled site's statistics exact (they come from the node's aggregates)", async () => {
    const res = await sendAs(t.app, ten.user, userStatisticsInfo, {
      body: { ...range, type: 3, siteIDs: [ten.siteId] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.requests).toBe(shopEvents.length);
    expect(shopEvents.length).toBe(1401);
  });

  it("never samples the raw events that are a node's statistics", async () => {
    const res = await sendAs(t.app, ten.neighbour, userStatisticsInfo, { body: { ...range, type: 3 } });
    expect(res.json().data.requests).toBe(300);
    expect((await search(ten.neighbour, userAccessLogs, { url: '/d/' })).total).toBe(300);
  });
});
