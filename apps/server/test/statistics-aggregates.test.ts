import { type AnyRoute, HLL_STANDARD_ERROR, userStatisticsInfo, userStatisticsTop } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTenants, analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import { edgeEvent, shipAggregated, shipBatch } from './helpers/events.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The statistics calls over a node that ships minute aggregates (no raw event counted for its
// requests) beside one that ships raw events: the request card's peak is the busiest second the
// node counted, the IP card estimates from the address sketches with its standard error, the top
// lists come from the heavy hitters merged with the raw events'.

const HOUR = Date.UTC(2026, 10, 10, 10, 0, 0);
const clock = manualClock(HOUR + 3600_000);
const range = { startTime: new Date(HOUR).toISOString(), endTime: new Date(HOUR + 3600_000).toISOString() };
let t: TestApp;
let ten: AnalyticsTenants;
const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  ten = await analyticsTenants(t, { shop: 'shop.agg.test', neighbour: 'door.agg.test', rival: 'far.agg.test' });
  // Node a: a flood of 6,000 requests from 6,000 addresses in 3 seconds of minute 5 (2,000 a
  // second), as aggregates. Node b: 4 requests as raw events.
  const flood = Array.from({ length: 6000 }, (_, i) =>
    edgeEvent({
      time: HOUR + 5 * 60_000 + 20_000 + Math.floor(i / 2000) * 1000 + (i % 1000),
      domainId: ten.domainId,
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      path: i % 3 === 0 ? '/flood' : '/',
      bytesOut: 10,
    }),
  );
  const shipped = await shipAggregated(t.app, ten.a, 'agg-1', flood, { nowMs: clock.now() });
  expect(shipped.statusCode, shipped.body).toBe(200);
  const raw = [1, 2, 3, 4].map((m) =>
    edgeEvent({ time: HOUR + m * 60_000, domainId: ten.domainId, ip: '192.0.2.1', path: '/flood' }),
  );
  const res = await shipBatch(t.app, ten.b, { batchId: 'raw-1', dropped: 0, events: raw }, { nowMs: clock.now() });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('statistics over minute aggregates', () => {
  it("request card: every request once, the peak the node's busiest second", async () => {
    const card = (await as(ten.user, userStatisticsInfo, { body: { ...range, type: 3 } })).json().data;
    expect(card.requests).toBe(6004);
    // 2,000 requests in one second; a minute's mean would be 100.
    expect(card.peakQps).toBeGreaterThanOrEqual(2000);
    expect(card.peakBandwidth).toBeGreaterThanOrEqual(2000 * 10 * 8);
  });

  it('IP card: the sketches and the raw addresses, estimated with the standard error', async () => {
    const card = (await as(ten.user, userStatisticsInfo, { body: { ...range, type: 4 } })).json().data;
    expect(card.uniqueIPsError).toBe(HLL_STANDARD_ERROR);
    expect(Math.abs(card.uniqueIPs - 6001)).toBeLessThan(4 * HLL_STANDARD_ERROR * 6001);
  });

  it('top URLs: the heavy hitters merged with the raw events', async () => {
    const top = (await as(ten.user, userStatisticsTop, { body: { ...range, type: 19, top: 10 } })).json().data;
    expect(top.slice(0, 2)).toMatchObject([
      { key: '/', requests: 4000 },
      { key: '/flood', requests: 2004 },
    ]);
  });
});
