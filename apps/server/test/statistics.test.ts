import type { AnyRoute } from '@rampart/contract';
import {
  clientStatisticsInfo,
  clientStatisticsTop,
  clientStatisticsUpstreamTimes,
  createDomains,
  getClientDashboard,
  getDefaultDashboard,
  getResourceInfo,
  getUserDashboard,
  putUserDashboard,
  userStatisticsExport,
  userStatisticsInfo,
  userStatisticsList,
  userStatisticsTimeSeries,
  userStatisticsTop,
  userStatisticsUpstreamTimes,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent, shipBatch } from './helpers/events.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Traffic analytics end to end on the control plane: nodes ship event batches (routes/analytics-events.ts),
// customers and operators read statistics (routes/statistics.ts) of their own sites only.

// A fixed hour, so buckets are predictable: 2026-11-10T10:00:00Z.
const HOUR = Date.UTC(2026, 10, 10, 10, 0, 0);
const clock = manualClock(HOUR + 3600_000);
let t: TestApp;
let client: Token;
let rival: Token;
let user: Token;
let neighbour: Token;
let zoneSub: Token;
let siteId: number;
let domainId: number;
let neighbourDomainId: number;
let rivalDomainId: number;
let a: JoinedNode;
let b: JoinedNode;
let rivalNode: JoinedNode;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const range = { startTime: new Date(HOUR).toISOString(), endTime: new Date(HOUR + 3600_000).toISOString() };
const at = (minutes: number, seconds = 0) => HOUR + minutes * 60_000 + seconds * 1000;

async function ship(node: JoinedNode, batchId: string, events: ReturnType<typeof edgeEvent>[], dropped = 0) {
  const res = await shipBatch(t.app, node, { batchId, dropped, events }, { nowMs: clock.now() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { stored: number; duplicate: boolean };
}

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  ({ client, rival, user, neighbour, zoneSub, siteId, domainId, neighbourDomainId, rivalDomainId, a, b, rivalNode } =
    await analyticsTenants(t, {
      shop: 'www.shop.example',
      neighbour: 'www.next.example',
      rival: 'www.elsewhere.example',
    }));

  // The shop: 6 requests through node a (one cached, one blacklisted, one 404 from another
  // country's address), 2 through node b; the neighbour 3; the rival's domain named by a's node.
  expect(
    await ship(a, 'spool-1', [
      edgeEvent({ time: at(1), domainId, bytesOut: 5000, path: '/a.png?x=1' }),
      edgeEvent({ time: at(1, 30), domainId, bytesOut: 3000, cacheStatus: 'HIT', path: '/a.png' }),
      edgeEvent({ time: at(2), domainId, status: 404, bytesOut: 200, path: '/missing' }),
      edgeEvent({
        time: at(7),
        domainId,
        ip: '203.0.113.9',
        status: 403,
        bytesOut: 100,
        fwKind: 'blacklist',
        fwRule: 7,
        fwAction: 'deny',
        upstreamMs: -1,
        upstreamStatus: 0,
      }),
      edgeEvent({ time: at(8), domainId, method: 'PROPFIND', upstreamStatus: 502, status: 502 }),
      edgeEvent({ time: at(59, 59), domainId, referer: 'https://ref.example/' }),
      edgeEvent({ time: at(3), domainId: neighbourDomainId, bytesOut: 777 }),
      edgeEvent({ time: at(3), domainId: neighbourDomainId, bytesOut: 777 }),
      edgeEvent({ time: at(3), domainId: neighbourDomainId, bytesOut: 777 }),
      edgeEvent({ time: at(4), domainId: rivalDomainId, bytesOut: 99_999 }),
    ]),
  ).toEqual({ stored: 10, duplicate: false });
  await ship(
    b,
    'spool-1',
    [edgeEvent({ time: at(10), domainId, bytesOut: 10 }), edgeEvent({ time: at(11), domainId, bytesOut: 10 })],
    5,
  );
});
afterAll(async () => t.close());

describe('shipping', () => {
  it('counts a batch sent again once', async () => {
    const again = await ship(b, 'spool-1', [edgeEvent({ time: at(10), domainId, bytesOut: 10 })]);
    expect(again).toEqual({ stored: 0, duplicate: true });
    const card = (await as(user, userStatisticsInfo, { body: { ...range, type: 3 } })).json().data;
    expect(card.requests).toBe(8);
  });

  it("leaves out what another operator's node says about a site it does not serve", async () => {
    expect(await ship(rivalNode, 'spool-9', [edgeEvent({ time: at(20), domainId, bytesOut: 123_456 })])).toEqual({
      stored: 1,
      duplicate: false,
    });
    const card = (await as(user, userStatisticsInfo, { body: { ...range, type: 3 } })).json().data;
    expect(card).toMatchObject({ requests: 8, bytesOut: 10_320 });
  });

  it('refuses an unsigned batch and a body that is not gzip', async () => {
    const wrongSecret = await shipBatch(
      t.app,
      { ...a, secret: 'x'.repeat(64) },
      { batchId: 'x-1', dropped: 0, events: [] },
    );
    expect(wrongSecret.json().code).toBe(101013);
    const notGzip = await shipBatch(
      t.app,
      a,
      { batchId: 'x-2', dropped: 0, events: [] },
      {
        nowMs: clock.now(),
        body: Buffer.from('{"batchId":"x-2"}'),
      },
    );
    expect(notGzip.statusCode).toBe(400);
  });

  it('refuses an event the contract refuses (no partial batch)', async () => {
    const bad = await shipBatch(
      t.app,
      a,
      { batchId: 'x-3', dropped: 0, events: [{ ...edgeEvent({ time: at(5), domainId }), status: 1000 }] },
      { nowMs: clock.now() },
    );
    expect(bad.json().code).toBe(101003);
    const card = (await as(user, userStatisticsInfo, { body: { ...range, type: 3 } })).json().data;
    expect(card.requests).toBe(8);
  });
});

describe("a customer's statistics", () => {
  it('request card: its own sites only', async () => {
    const card = (await as(user, userStatisticsInfo, { body: { ...range, type: 3 } })).json().data;
    expect(card).toMatchObject({
      requests: 8,
      bytesOut: 5000 + 3000 + 200 + 100 + 1000 + 1000 + 20,
      hitRequests: 1,
      hitBytes: 3000,
      blocked: 1,
      blacklisted: 1,
      upstreamRequests: 7,
      upstreamErrors: 1,
      s2xx: 5,
      s4xx: 2,
      s5xx: 1,
      droppedEvents: 0,
    });
    // The neighbour sees its three requests, not the shop's; the rival's domain counted for nobody.
    const theirs = (await as(neighbour, userStatisticsInfo, { body: { ...range, type: 3 } })).json().data;
    expect(theirs).toMatchObject({ requests: 3, bytesOut: 3 * 777 });
  });

  it("naming another customer's site or domain narrows to nothing", async () => {
    const card = (
      await as(neighbour, userStatisticsInfo, { body: { ...range, type: 3, siteIDs: [siteId], domainIDs: [domainId] } })
    ).json().data;
    expect(card.requests).toBe(0);
  });

  it("the origin's response time percentiles: its own sites' requests that reached the origin", async () => {
    const times = (await as(user, userStatisticsUpstreamTimes, { body: range })).json().data;
    // Seven of the shop's eight requests reached the origin (the blacklisted one did not), each in 3 ms.
    const seven = { count: 7, p50: 3, p95: 3, p99: 3 };
    expect(times).toEqual({ total: seven, sites: [{ siteID: siteId, ...seven }], relativeError: 1 / 64 });
    const theirs = (await as(neighbour, userStatisticsUpstreamTimes, { body: range })).json().data;
    expect(theirs.total).toEqual({ count: 3, p50: 3, p95: 3, p99: 3 });
    const narrowed = (
      await as(neighbour, userStatisticsUpstreamTimes, { body: { ...range, siteIDs: [siteId] } })
    ).json().data;
    expect(narrowed).toEqual({
      total: { count: 0, p50: null, p95: null, p99: null },
      sites: [],
      relativeError: 1 / 64,
    });
    const operator = (await as(client, clientStatisticsUpstreamTimes, { body: range })).json().data;
    expect(operator.total.count).toBe(10);
    const reversed = await as(user, userStatisticsUpstreamTimes, {
      body: { startTime: range.endTime, endTime: range.startTime },
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().code).toBe(101003);
  });

  it('IP and status cards', async () => {
    const ip = (await as(user, userStatisticsInfo, { body: { ...range, type: 4 } })).json().data;
    expect(ip.uniqueIPs).toBe(2);
    const status = (await as(user, userStatisticsInfo, { body: { ...range, type: 5 } })).json().data;
    expect(status.statusCodes).toEqual({ '200': 5, '403': 1, '404': 1, '502': 1 });
  });

  it('top lists: URLs without their query, methods bucketed, blacklisted addresses', async () => {
    const top = async (type: number) =>
      (await as(user, userStatisticsTop, { body: { ...range, type, top: 10 } })).json().data as {
        key: string;
        requests: number;
      }[];
    expect((await top(19)).slice(0, 2)).toMatchObject([
      { key: '/index.html', requests: 5 },
      { key: '/a.png', requests: 2 },
    ]);
    expect(await top(31)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'GET', requests: 7 }),
        expect.objectContaining({ key: 'OTHER', requests: 1 }),
      ]),
    );
    expect((await top(18)).map((r) => r.key)).toEqual(['203.0.113.9']);
    expect((await top(14)).map((r) => r.key)).toEqual(['https://ref.example/']);
    expect((await top(36))[0]).toMatchObject({ key: String(domainId), name: 'www.shop.example', requests: 8 });
  });

  it('time series: one point per step, empty steps 0', async () => {
    const res = await as(user, userStatisticsTimeSeries, { body: { ...range, type: 4, minutesStep: 5 } });
    expect(res.statusCode, res.body).toBe(200);
    const { points, keys } = res.json().data;
    expect(keys).toEqual(['requests']);
    expect(points).toHaveLength(12);
    expect(points.map((p: { values: number[] }) => p.values[0])).toEqual([3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    const passDrop = (await as(user, userStatisticsTimeSeries, { body: { ...range, type: 2, minutesStep: 60 } })).json()
      .data;
    expect(passDrop.points).toEqual([{ time: range.startTime.replace('.000Z', '.000Z'), values: [7, 1] }]);
  });

  it('refuses a reversed or too fine range', async () => {
    const reversed = await as(user, userStatisticsInfo, {
      body: { startTime: range.endTime, endTime: range.startTime, type: 3 },
    });
    expect(reversed.json().code).toBe(101003);
    const tooFine = await as(user, userStatisticsTimeSeries, {
      body: {
        startTime: new Date(HOUR - 30 * 86_400_000).toISOString(),
        endTime: range.endTime,
        type: 4,
        minutesStep: 1,
      },
    });
    expect(tooFine.json().code).toBe(101003);
  });

  it('per-domain list and its CSV', async () => {
    const list = (await as(user, userStatisticsList, { body: { ...range } })).json();
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({ domainID: domainId, domain: 'www.shop.example', siteID: siteId, requests: 8 });
    const csv = await as(user, userStatisticsExport, { body: { ...range } });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[1]).toBe('www.shop.example,shop,8,10320,800,1,1,2,1');
  });

  it("fills the resource summary's traffic of this month", async () => {
    const info = (await as(user, getResourceInfo)).json().data;
    expect(info.currentMonthTraffic).toBe(10_320);
    expect(info.lastMonthTraffic).toBe(0);
  });
});

describe("an operator's statistics", () => {
  it('its sites, with the dropped events of its nodes', async () => {
    const card = (await as(client, clientStatisticsInfo, { body: { ...range, type: 3 } })).json().data;
    expect(card).toMatchObject({ requests: 11, droppedEvents: 5 });
    const rivals = (await as(rival, clientStatisticsInfo, { body: { ...range, type: 3 } })).json().data;
    expect(rivals).toMatchObject({ requests: 0, droppedEvents: 0 });
  });

  it('a zone-restricted sub-account counts the nodes of its zones only', async () => {
    const card = (await as(zoneSub, clientStatisticsInfo, { body: { ...range, type: 3 } })).json().data;
    expect(card.requests).toBe(2);
    const top = (await as(zoneSub, clientStatisticsTop, { body: { ...range, type: 36, top: 5 } })).json().data;
    expect(top).toMatchObject([{ requests: 2 }]);
  });
});

describe('dashboards', () => {
  it('a new account gets the default, saves its own, and another account is not affected', async () => {
    const initial = (await as(user, getUserDashboard)).json().data;
    expect(initial.saved).toBe(false);
    const widgets = [{ kind: 'card', type: 3, x: 0, y: 0, w: 12, h: 2 }] as const;
    expect((await as(user, putUserDashboard, { body: { widgets: [...widgets] } })).statusCode).toBe(200);
    expect((await as(user, getUserDashboard)).json().data).toEqual({ widgets, saved: true });
    expect((await as(neighbour, getUserDashboard)).json().data.saved).toBe(false);
    expect((await as(client, getClientDashboard)).json().data.saved).toBe(false);
    const defaults = (await as(user, getDefaultDashboard)).json().data;
    expect((await as(client, getDefaultDashboard)).json().data).toEqual(defaults);
    expect(defaults.widgets.length).toBeGreaterThan(0);
  });

  it('refuses a widget of an unknown type or outside the grid', async () => {
    const res = await as(user, putUserDashboard, {
      body: { widgets: [{ kind: 'top', type: 99, x: 20, y: 0, w: 8, h: 2 }] },
    });
    expect(res.json().code).toBe(101003);
  });
});

describe('the domain-tag filter', () => {
  const earlier = {
    startTime: new Date(HOUR - 3 * 3600_000).toISOString(),
    endTime: new Date(HOUR - 2 * 3600_000).toISOString(),
  };
  const requests = async (
    who: Token,
    route: typeof userStatisticsInfo | typeof clientStatisticsInfo,
    filter: object,
  ) => {
    const res = await as(who, route as typeof userStatisticsInfo, { body: { ...earlier, type: 3, ...filter } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.requests as number;
  };

  it('counts the domains carrying any of the tags, within the other filters', async () => {
    const created = await as(user, createDomains, {
      params: { siteId },
      body: {
        domains: [{ name: 'promo.shop.example', tags: ['promo'], upstreams: [{ ip: '127.0.0.1', port: 8080 }] }],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const promo = created.json().data[0]?.id as number;
    const start = HOUR - 3 * 3600_000;
    await ship(a, 'tagged-1', [
      edgeEvent({ time: start + 60_000, domainId: promo }),
      edgeEvent({ time: start + 120_000, domainId: promo }),
      edgeEvent({ time: start + 180_000, domainId }),
    ]);
    expect(await requests(user, userStatisticsInfo, {})).toBe(3);
    expect(await requests(user, userStatisticsInfo, { domainTags: ['promo'] })).toBe(2);
    expect(await requests(user, userStatisticsInfo, { domainTags: ['promo', 'other'] })).toBe(2);
    expect(await requests(user, userStatisticsInfo, { domainTags: ['other'] })).toBe(0);
    expect(await requests(user, userStatisticsInfo, { domainTags: ['promo'], domainIDs: [domainId] })).toBe(0);
    expect(await requests(user, userStatisticsInfo, { domainTags: ['promo'], domainIDs: [promo] })).toBe(2);
    expect(await requests(client, clientStatisticsInfo, { domainTags: ['promo'] })).toBe(2);
    // Another customer's and another operator's tags of the same name count nothing of the shop.
    expect(await requests(neighbour, userStatisticsInfo, { domainTags: ['promo'] })).toBe(0);
    expect(await requests(rival, clientStatisticsInfo, { domainTags: ['promo'] })).toBe(0);
  });

  it('refuses a tag the contract refuses', async () => {
    const res = await as(user, userStatisticsInfo, {
      body: { ...earlier, type: 3, domainTags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
    });
    expect(res.json().code).toBe(101003);
  });
});

describe("the dashboard's live figures", () => {
  // Six hours before the others: a 5-minute bucket, as the dashboard asks for "now".
  const bucket = {
    startTime: new Date(HOUR - 6 * 3600_000).toISOString(),
    endTime: new Date(HOUR - 6 * 3600_000 + 5 * 60_000).toISOString(),
  };
  const waf = (time: number, id: number) =>
    edgeEvent({ time, domainId: id, status: 403, fwKind: 'waf', fwRule: 3, fwAction: 'deny' });

  it('a customer counts requests, blocked requests and the most attacked domains of its own sites only', async () => {
    const start = HOUR - 6 * 3600_000;
    await ship(a, 'spool-9', [
      waf(start + 60_000, domainId),
      waf(start + 61_000, domainId),
      edgeEvent({ time: start + 62_000, domainId }),
      waf(start + 63_000, neighbourDomainId),
      waf(start + 64_000, rivalDomainId),
    ]);
    const now = (await as(user, userStatisticsInfo, { body: { ...bucket, type: 3 } })).json().data;
    expect(now).toMatchObject({ requests: 3, blocked: 2 });
    const theirs = (await as(neighbour, userStatisticsInfo, { body: { ...bucket, type: 3 } })).json().data;
    expect(theirs).toMatchObject({ requests: 1, blocked: 1 });

    const attacked = async (who: Token, route: typeof userStatisticsTop) =>
      (
        (await as(who, route, { body: { ...bucket, type: 24, top: 5 } })).json().data as {
          name: string;
          blocked: number;
        }[]
      ).map((row) => `${row.name} ${row.blocked}`);
    expect(await attacked(user, userStatisticsTop)).toEqual(['www.shop.example 2']);
    expect(await attacked(neighbour, userStatisticsTop)).toEqual(['www.next.example 1']);
    // The operator sees both of its customers' domains; another operator none (its own domain's
    // event came through a node that does not serve it).
    expect(await attacked(client, clientStatisticsTop as typeof userStatisticsTop)).toEqual([
      'www.shop.example 2',
      'www.next.example 1',
    ]);
    expect(await attacked(rival, clientStatisticsTop as typeof userStatisticsTop)).toEqual([]);
  });
});
