import {
  type AnyRoute,
  changeSitesProduct,
  createTrafficPlan,
  deleteTrafficPlans,
  getNodeSnapshot,
  liftTrafficRestriction,
  listClientMonthlyUsages,
  listClientSites,
  listClientTrafficPlans,
  listProducts,
  listUserMonthlyUsages,
  listUserTrafficPlans,
  setSitesStatus,
  updateProduct,
  updateTrafficPlan,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts } from '../src/platform/db/schema.js';
import { type AnalyticsTenants, analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import { fieldNames, nodeSend, sendAs, type Token } from './helpers/call.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent, shipBatch } from './helpers/events.js';
import { operatorCalls } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Traffic packages: the month's bytes per site from the analytics store against the product's
// allowance plus extra plans; the check restricts a site over it (paused: its domains answered as
// disabled; throttled: a bandwidth rule in its edge settings), raises the alert, and 205006 guards
// re-enabling and moving it until the operator lifts it; a plan that brings it under lifts it.
const NOW = Date.UTC(2026, 10, 10, 10, 30, 0);
const LAST_MONTH = Date.UTC(2026, 9, 20, 12, 0, 0);
const clock = manualClock(NOW);
let t: TestApp;
let ten: AnalyticsTenants;
let productId: number;
let meteredId: number;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
let serial = 0;
async function ship(node: JoinedNode, domainId: number, times: number[], bytesOut: number) {
  serial += 1;
  const events = times.map((time) => edgeEvent({ time, domainId, bytesOut }));
  const res = await shipBatch(t.app, node, { batchId: `traffic-${serial}`, dropped: 0, events }, { nowMs: NOW });
  expect(res.statusCode, res.body).toBe(200);
}
async function snapshotDomain(name: string) {
  const res = await nodeSend(t.app, ten.a, getNodeSnapshot, undefined, { nowMs: NOW });
  expect(res.statusCode).toBe(200);
  const plane = res.json().data.dataPlane;
  const domain = plane.domains.find((d: { name: string }) => d.name === name);
  const settings = plane.settings.find((s: { id: number }) => s.id === domain?.settingsId);
  return { enabled: domain?.enabled, rates: settings?.rates ?? [] };
}
async function usageOf(who: Token, siteId: number, query: Record<string, number> = {}) {
  const route = who === ten.user || who === ten.neighbour ? listUserMonthlyUsages : listClientMonthlyUsages;
  const res = await as(who, route as typeof listClientMonthlyUsages, { query: { page: 1, pageSize: 100, ...query } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.find((row) => row.siteID === siteId);
}
async function siteStatus(siteId: number) {
  const res = await as(ten.client, listClientSites, { query: { page: 1, pageSize: 100 } });
  return res.json().data.find((s) => s.siteID === siteId)?.status;
}
const product = (id: number, name: string, over: 'pause' | 'throttle', monthlyTraffic: number, groupId: number) => ({
  body: {
    id,
    name,
    portType: 7 as const,
    memo: '',
    mainGroupIDs: [groupId],
    backupGroupIDs: [],
    siteLimit: 0,
    monthlyTraffic,
    overTraffic: over,
    throttleKbps: 64,
  },
});

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  ten = await analyticsTenants(t, {
    shop: 'shop.traffic.test',
    neighbour: 'door.traffic.test',
    rival: 'far.traffic.test',
  });
  const products = (await as(ten.client, listProducts, { query: { page: 1, pageSize: 10 } })).json().data;
  const cdn = products[0];
  if (!cdn) throw new Error('no product');
  productId = cdn.id;
  const groupId = cdn.mainGroups[0]?.id ?? 0;
  const res = await as(ten.client, updateProduct, product(productId, 'CDN', 'pause', 5000, groupId));
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data).toMatchObject({ monthlyTraffic: 5000, overTraffic: 'pause', throttleKbps: 64 });
  meteredId = await operatorCalls(t.app, ten.client).product('Metered', 7, [groupId]);
  expect(
    (await as(ten.client, updateProduct, product(meteredId, 'Metered', 'throttle', 1500, groupId))).statusCode,
  ).toBe(200);
  expect(
    (await as(ten.client, changeSitesProduct, { body: { ids: [ten.neighbourSiteId], productID: meteredId } }))
      .statusCode,
  ).toBe(200);
  // This month: the shop 6000 bytes (over 5000), next door 2000 (over 1500), the rival's 9000 (unlimited).
  await ship(ten.a, ten.domainId, [NOW - 3_600_000, NOW - 1_800_000, NOW - 600_000], 2000);
  await ship(ten.a, ten.neighbourDomainId, [NOW - 3_600_000], 2000);
  await ship(ten.rivalNode, ten.rivalDomainId, [NOW - 3_600_000], 9000);
  // Last month: counted in last month's report only.
  await ship(ten.a, ten.domainId, [LAST_MONTH], 10_000);
});
afterAll(async () => {
  await t?.close();
});

describe('monthly usage', () => {
  it("answers each site's month against its allowance, to its operator and its customer only", async () => {
    const shop = {
      year: 2026,
      month: 11,
      siteID: ten.siteId,
      siteName: 'shop',
      productID: productId,
      productName: 'CDN',
      used: 6000,
      planBytes: 5000,
      extraBytes: 0,
      allowance: 5000,
      left: 0,
      restriction: null,
    };
    expect(await usageOf(ten.client, ten.siteId)).toMatchObject(shop);
    expect(await usageOf(ten.user, ten.siteId)).toMatchObject(shop);
    expect(await usageOf(ten.client, ten.siteId, { year: 2026, month: 10 })).toMatchObject({ month: 10, used: 10_000 });
    const all = (await as(ten.client, listClientMonthlyUsages, { query: { page: 1, pageSize: 25 } })).json();
    expect(all.total).toBe(2);
    expect(all.data.map((row) => row.siteID).sort()).toEqual([ten.siteId, ten.neighbourSiteId].sort());
    const mine = (await as(ten.user, listUserMonthlyUsages, { query: { page: 1, pageSize: 25 } })).json();
    expect(mine.data.map((row) => row.siteID)).toEqual([ten.siteId]);
    const rival = (await as(ten.rival, listClientMonthlyUsages, { query: { page: 1, pageSize: 25 } })).json();
    expect(rival.data).toEqual([
      expect.objectContaining({ siteID: ten.rivalSiteId, used: 9000, planBytes: 0, allowance: null, left: null }),
    ]);
    const paged = (await as(ten.client, listClientMonthlyUsages, { query: { page: 2, pageSize: 1 } })).json();
    expect(paged).toMatchObject({ total: 2 });
    expect(paged.data).toHaveLength(1);
    const bad = await as(ten.client, listClientMonthlyUsages, { query: { page: 1, pageSize: 25, month: 13 } });
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['month']);
  });
});

describe('restriction over the allowance', () => {
  it('pauses the site, alerts its operator, answers 205006 until lifted, and stays lifted this month', async () => {
    expect(await snapshotDomain('shop.traffic.test')).toMatchObject({ enabled: true });
    await t.app.rampart.trafficCheck.pass();
    expect(await usageOf(ten.client, ten.siteId)).toMatchObject({ restriction: 'pause' });
    expect(await siteStatus(ten.siteId)).toBe('limit');
    expect(await snapshotDomain('shop.traffic.test')).toMatchObject({ enabled: false });
    const raised = await t.db.database.db
      .select()
      .from(alerts)
      .where(eq(alerts.subject, `site:${ten.siteId}`));
    expect(raised).toEqual([
      expect.objectContaining({ kind: 'trafficOverPlan', dedupKey: `traffic:${ten.siteId}:2026-11` }),
    ]);
    expect(raised[0]?.params).toMatchObject({ site: 'shop' });
    // The rival's site has no allowance: left alone.
    expect(await usageOf(ten.rival, ten.rivalSiteId)).toMatchObject({ restriction: null });

    const enable = await as(ten.client, setSitesStatus, { body: { ids: [ten.siteId], status: 'normal' } });
    expect(enable.json().code).toBe(205006);
    const move = await as(ten.client, changeSitesProduct, { body: { ids: [ten.siteId], productID: meteredId } });
    expect(move.json().code).toBe(205006);
    expect((await as(ten.rival, liftTrafficRestriction, { body: { ids: [ten.siteId] } })).json().code).toBe(101018);
    expect(await siteStatus(ten.siteId)).toBe('limit');

    expect((await as(ten.client, liftTrafficRestriction, { body: { ids: [ten.siteId] } })).statusCode).toBe(200);
    expect(await siteStatus(ten.siteId)).toBe('normal');
    expect(await snapshotDomain('shop.traffic.test')).toMatchObject({ enabled: true });
    await t.app.rampart.trafficCheck.pass();
    expect(await usageOf(ten.client, ten.siteId)).toMatchObject({ restriction: null });
    expect((await as(ten.client, setSitesStatus, { body: { ids: [ten.siteId], status: 'normal' } })).statusCode).toBe(
      200,
    );
  });

  it('throttles at the edge as the product says, and an extra plan that brings it under lifts it', async () => {
    await t.app.rampart.trafficCheck.pass();
    expect(await usageOf(ten.neighbour, ten.neighbourSiteId)).toMatchObject({ restriction: 'throttle', left: 0 });
    expect(await siteStatus(ten.neighbourSiteId)).toBe('normal');
    expect(await snapshotDomain('door.traffic.test')).toEqual({ enabled: true, rates: [{ pattern: '*', kbps: 64 }] });

    const plan = await as(ten.client, createTrafficPlan, {
      body: { siteID: ten.neighbourSiteId, bytes: 1000, year: 2026, month: 11, memo: '' },
    });
    expect(plan.statusCode, plan.body).toBe(200);
    expect(await usageOf(ten.neighbour, ten.neighbourSiteId)).toMatchObject({
      extraBytes: 1000,
      allowance: 2500,
      left: 500,
      restriction: null,
    });
    expect(await snapshotDomain('door.traffic.test')).toEqual({ enabled: true, rates: [] });

    // Taking the plan back puts the site over again.
    await as(ten.client, deleteTrafficPlans, { body: { ids: [plan.json().data.id] } });
    expect(await usageOf(ten.client, ten.neighbourSiteId)).toMatchObject({ restriction: 'throttle' });
  });
});

describe('extra traffic plans', () => {
  it('are sold by the operator for its own customers’ sites and read by their customer only', async () => {
    const made = await as(ten.client, createTrafficPlan, {
      body: { siteID: ten.siteId, bytes: 100, year: 2026, month: 12, memo: 'December' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const plan = made.json().data;
    expect(plan).toMatchObject({ siteID: ten.siteId, siteName: 'shop', productName: 'CDN', bytes: 100, month: 12 });
    const changed = await as(ten.client, updateTrafficPlan, {
      body: { id: plan.id, siteID: ten.siteId, bytes: 200, year: 2026, month: 12, memo: 'more' },
    });
    expect(changed.json().data).toMatchObject({ id: plan.id, bytes: 200, memo: 'more' });

    const listed = await as(ten.user, listUserTrafficPlans, { query: { page: 1, pageSize: 25, productName: 'cd' } });
    expect(listed.json()).toMatchObject({ total: 1, data: [{ id: plan.id, bytes: 200 }] });
    expect((await as(ten.neighbour, listUserTrafficPlans, { query: { page: 1, pageSize: 25 } })).json().total).toBe(0);
    expect((await as(ten.rival, listClientTrafficPlans, { query: { page: 1, pageSize: 25 } })).json().total).toBe(0);
    const byUser = await as(ten.client, listClientTrafficPlans, {
      query: { page: 1, pageSize: 25, year: 2026, month: 12 },
    });
    expect(byUser.json().data.map((p) => p.id)).toEqual([plan.id]);

    // Another operator: its own site only, and never this plan (101018, like a missing id).
    const foreign = { siteID: ten.siteId, bytes: 1, year: 2026, month: 12, memo: '' };
    expect((await as(ten.rival, createTrafficPlan, { body: foreign })).json().code).toBe(101018);
    expect(
      (await as(ten.rival, updateTrafficPlan, { body: { ...foreign, id: plan.id, siteID: ten.rivalSiteId } })).json()
        .code,
    ).toBe(101018);
    expect((await as(ten.rival, deleteTrafficPlans, { body: { ids: [plan.id] } })).json().code).toBe(101018);
    expect(
      (await as(ten.client, updateTrafficPlan, { body: { ...foreign, id: plan.id, siteID: ten.rivalSiteId } })).json()
        .code,
    ).toBe(101018);

    const bad = await as(ten.client, createTrafficPlan, {
      body: { siteID: 0, bytes: 0, year: 1999, month: 13, memo: '' },
    });
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['siteID', 'bytes', 'year', 'month']);

    expect((await as(ten.client, deleteTrafficPlans, { body: { ids: [plan.id] } })).statusCode).toBe(200);
    expect((await as(ten.client, listClientTrafficPlans, { query: { page: 1, pageSize: 25 } })).json().total).toBe(0);
  });
});
