import { gzipSync } from 'node:zlib';
import type { AnyRoute, LogRecord } from '@rampart/contract';
import { clientAccessLogs, clientWafLogs, userAccessLogs, userWafLogs } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent, shipBatch, shopHourEvents } from './helpers/events.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Access and WAF log search (routes/logs.ts) over the events nodes shipped: the caller's sites
// only, newest first, paged, each filter alone, strings that would break a statement found as
// plain text, and the operator's version by zone.

const HOUR = Date.UTC(2026, 10, 12, 8, 0, 0);
const clock = manualClock(HOUR + 3600_000);
let t: TestApp;
let client: Token;
let rival: Token;
let user: Token;
let neighbour: Token;
let zoneSub: Token;
let siteId: number;
let domainId: number;
let neighbourSiteId: number;
let neighbourDomainId: number;
let a: JoinedNode;
let b: JoinedNode;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const range = { startTime: new Date(HOUR).toISOString(), endTime: new Date(HOUR + 3600_000).toISOString() };
const at = (minutes: number, seconds = 0) => HOUR + minutes * 60_000 + seconds * 1000;

/** Odd URLs: quotes, a backslash, SQL's wildcards, an injection attempt, non-ASCII. */
const ODD_URLS = [
  "/q?name=o'brien",
  '/path\\with\\backslash',
  '/100%_done',
  "/x?id=1' OR '1'='1",
  '/数据/ünïcode?ok=✓',
] as const;

async function ship(node: JoinedNode, batchId: string, events: ReturnType<typeof edgeEvent>[]) {
  const res = await shipBatch(t.app, node, { batchId, dropped: 0, events }, { nowMs: clock.now() });
  expect(res.statusCode, res.body).toBe(200);
}

async function search(who: Token, route: AnyRoute, body: Record<string, unknown>) {
  const res = await sendAs(t.app, who, route as typeof userAccessLogs, { body: { ...range, ...body } as never });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: LogRecord[]; total: number };
}
const ids = (page: { data: LogRecord[] }) => page.data.map((r) => r.reqID);

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  ({ client, rival, user, neighbour, zoneSub, siteId, domainId, neighbourSiteId, neighbourDomainId, a, b } =
    await analyticsTenants(t, {
      shop: 'www.shop.example',
      neighbour: 'www.next.example',
      rival: 'www.elsewhere.example',
    }));

  const shop = shopHourEvents(HOUR, domainId);
  await ship(a, 'spool-1', [
    ...shop.firsts,
    edgeEvent({
      id: 'shop-waf-2',
      time: at(4),
      domainId,
      ip: '2001:db8::9',
      method: 'POST',
      path: '/comment',
      fwKind: 'waf',
      fwRule: 101_003,
      fwAction: 'detect',
      wafPart: 'body',
      wafExcerpt: '<script>alert(1)</script>',
    }),
    edgeEvent({ id: 'shop-bl', time: at(5), domainId, status: 403, fwKind: 'blacklist', fwRule: 7, fwAction: 'deny' }),
    ...ODD_URLS.map((path, i) => edgeEvent({ id: `shop-odd-${i}`, time: at(10 + i), domainId, path })),
    edgeEvent({ id: 'next-1', time: at(6), domainId: neighbourDomainId, path: '/index.html' }),
    edgeEvent({
      id: 'next-waf',
      time: at(7),
      domainId: neighbourDomainId,
      fwKind: 'waf',
      fwRule: 100_012,
      fwAction: 'deny',
      wafPart: 'cookie',
      wafExcerpt: 'x',
    }),
    // Outside the range: never found.
    shop.late,
  ]);
  await ship(b, 'spool-1', [edgeEvent({ id: 'shop-b', time: at(30), domainId, path: '/via-b' })]);
  // An agent from before the WAF: its events have neither WAF field.
  const old = edgeEvent({ id: 'shop-old', time: at(40), domainId, path: '/old-agent' }) as Partial<
    ReturnType<typeof edgeEvent>
  >;
  delete old.wafPart;
  delete old.wafExcerpt;
  delete old.wafName;
  const body = gzipSync(JSON.stringify({ batchId: 'spool-2', dropped: 0, events: [old] }));
  const res = await shipBatch(t.app, a, { batchId: 'spool-2', dropped: 0, events: [] }, { nowMs: clock.now(), body });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => t.close());

const SHOP_ALL = [
  'shop-old',
  'shop-b',
  'shop-odd-4',
  'shop-odd-3',
  'shop-odd-2',
  'shop-odd-1',
  'shop-odd-0',
  'shop-bl',
  'shop-waf-2',
  'shop-waf-1',
  'shop-2',
  'shop-1',
];

describe('access logs', () => {
  it("answers the customer's own requests in the range, newest first, paged", async () => {
    const all = await search(user, userAccessLogs, { pageSize: 100 });
    expect(ids(all)).toEqual(SHOP_ALL);
    expect(all.total).toBe(SHOP_ALL.length);
    const second = await search(user, userAccessLogs, { page: 2, pageSize: 5 });
    expect(ids(second)).toEqual(SHOP_ALL.slice(5, 10));
    expect(second.total).toBe(SHOP_ALL.length);
    expect(ids(await search(user, userAccessLogs, { page: 4, pageSize: 5 }))).toEqual([]);
  });

  it('opens a record to the whole event, and an old agent’s event with empty WAF fields', async () => {
    const [waf] = (await search(user, userAccessLogs, { reqID: 'shop-waf-1' })).data;
    expect(waf).toMatchObject({
      reqID: 'shop-waf-1',
      time: new Date(at(3)).toISOString(),
      nodeID: a.nodeId,
      siteID: siteId,
      domainID: domainId,
      ip: '203.0.113.9',
      status: 403,
      url: "/search?q=1' union select password from users--",
      fwKind: 'waf',
      fwRule: 100_012,
      fwAction: 'deny',
      wafPart: 'query',
      wafExcerpt: "1' union select password from users--",
      wafName: 'q',
    });
    const [old] = (await search(user, userAccessLogs, { reqID: 'shop-old' })).data;
    expect(old).toMatchObject({ url: '/old-agent', wafPart: '', wafExcerpt: '', wafName: '' });
  });

  it('filters by address, status, method and request id, each alone', async () => {
    expect(ids(await search(user, userAccessLogs, { ip: '203.0.113.9' }))).toEqual(['shop-waf-1']);
    expect(ids(await search(user, userAccessLogs, { ip: '2001:DB8::9' }))).toEqual(['shop-waf-2']);
    expect(ids(await search(user, userAccessLogs, { status: 404 }))).toEqual(['shop-2']);
    expect(ids(await search(user, userAccessLogs, { method: 'POST' }))).toEqual(['shop-waf-2']);
    expect(ids(await search(user, userAccessLogs, { reqID: 'next-1' }))).toEqual([]);
  });

  it('finds URLs by prefix or by what they contain, odd characters as plain text', async () => {
    for (const [i, url] of ODD_URLS.entries()) {
      expect(ids(await search(user, userAccessLogs, { url })), url).toEqual([`shop-odd-${i}`]);
      expect(ids(await search(user, userAccessLogs, { url, urlMatch: 'prefix' })), url).toEqual([`shop-odd-${i}`]);
    }
    // "%" and "_" are no wildcards; a quote does not end the value.
    expect(ids(await search(user, userAccessLogs, { url: '%' }))).toEqual(['shop-odd-2']);
    expect(ids(await search(user, userAccessLogs, { url: '_' }))).toEqual(['shop-odd-2']);
    expect(ids(await search(user, userAccessLogs, { url: "' OR '1'='1" }))).toEqual(['shop-odd-3']);
    expect(ids(await search(user, userAccessLogs, { url: "' OR 1=1 --" }))).toEqual([]);
    expect(ids(await search(user, userAccessLogs, { url: 'select', urlMatch: 'prefix' }))).toEqual([]);
    expect(ids(await search(user, userAccessLogs, { url: '/search?q=1', urlMatch: 'prefix' }))).toEqual(['shop-waf-1']);
  });

  it("never answers another customer's or operator's requests, whatever the filter names", async () => {
    expect(ids(await search(neighbour, userAccessLogs, {}))).toEqual(['next-waf', 'next-1']);
    expect(ids(await search(user, userAccessLogs, { siteIDs: [neighbourSiteId] }))).toEqual([]);
    expect(ids(await search(user, userAccessLogs, { domainIDs: [neighbourDomainId] }))).toEqual([]);
    expect(ids(await search(neighbour, userAccessLogs, { reqID: 'shop-1' }))).toEqual([]);
    expect((await search(rival, clientAccessLogs, {})).total).toBe(0);
    expect((await search(rival, clientAccessLogs, { siteIDs: [siteId] })).total).toBe(0);
  });

  it("gives the operator its customers' requests, by zone, and a zone-restricted sub-account its zones' only", async () => {
    expect((await search(client, clientAccessLogs, { pageSize: 100 })).total).toBe(SHOP_ALL.length + 2);
    expect(ids(await search(client, clientAccessLogs, { siteIDs: [neighbourSiteId] }))).toEqual(['next-waf', 'next-1']);
    expect(ids(await search(zoneSub, clientAccessLogs, {}))).toEqual(['shop-b']);
  });

  it('refuses a reversed or too long range and malformed filters', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const res = await as(user, userAccessLogs, { body: { ...range, ...body } as never });
      expect(res.json().code, JSON.stringify(body)).toBe(101003);
    };
    await refused({ startTime: range.endTime, endTime: range.startTime });
    await refused({ startTime: new Date(HOUR - 32 * 86_400_000).toISOString() });
    await refused({ ip: '203.0.113.300' });
    await refused({ ip: 'fe80::1%eth0' });
    await refused({ method: 'get' });
    await refused({ url: 'a\nb' });
    await refused({ url: '' });
    await refused({ reqID: "x' OR 1" });
    await refused({ status: 1000 });
    await refused({ pageSize: 101 });
    await refused({ urlMatch: 'regex' });
  });
});

describe('WAF logs', () => {
  it("answers the WAF's decisions only, with the rule, the part and the excerpt", async () => {
    const page = await search(user, userWafLogs, {});
    expect(ids(page)).toEqual(['shop-waf-2', 'shop-waf-1']);
    expect(page.data[0]).toMatchObject({ fwRule: 101_003, fwAction: 'detect', wafPart: 'body' });
  });

  it('filters by rule and by action', async () => {
    expect(ids(await search(user, userWafLogs, { ruleId: 100_012 }))).toEqual(['shop-waf-1']);
    expect(ids(await search(user, userWafLogs, { action: 'detect' }))).toEqual(['shop-waf-2']);
    expect(ids(await search(user, userWafLogs, { action: 'deny', ip: '2001:db8::9' }))).toEqual([]);
  });

  it("keeps to the caller's sites, as the access log", async () => {
    expect(ids(await search(neighbour, userWafLogs, {}))).toEqual(['next-waf']);
    expect(ids(await search(client, clientWafLogs, { ruleId: 100_012 }))).toEqual(['next-waf', 'shop-waf-1']);
    expect((await search(rival, clientWafLogs, {})).total).toBe(0);
    expect((await search(zoneSub, clientWafLogs, {})).total).toBe(0);
  });
});
