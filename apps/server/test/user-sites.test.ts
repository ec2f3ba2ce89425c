import type { AnyRoute, TokenSet } from '@rampart/contract';
import {
  createAnnouncement,
  createDomains,
  deleteAnnouncement,
  deleteAnnouncements,
  deleteDomains,
  getResourceInfo,
  getUserSite,
  grantSiteUsers,
  listCertificates,
  listClientAnnouncements,
  listClientSites,
  listGeoIps,
  listSiteUsers,
  listUserAnnouncements,
  listUserProducts,
  listUserSites,
  metaUserSites,
  revokeSiteUsers,
  setSitesUser,
  setUserSitesTags,
  setUserSiteTags,
  updateAnnouncement,
  userSiteTags,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, giveRole, rootId, signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The customer's own site calls (spec part 1 §7 "User console: sites, products, misc"): pickers,
 * tags, sub-accounts given access, totals, products, the geo list, and the operator's announcements.
 */

let t: TestApp;
let client: TokenSet;
let alice: TokenSet;
let bob: TokenSet;
let aliceSub: TokenSet;
let aliceId: number;
let bobId: number;
let aliceSubId: number;
let bobSubId: number;
let cdn: number;
let waf: number;
let shop: number;
let blog: number;
let bobSite: number;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  const make = operatorCalls(t.app, client);
  const { groupId: web, productId } = await webProduct(t.app, client);
  cdn = productId;
  waf = await make.product('WAF', 7, [web]);
  aliceId = await rootId(t.app, 'user');
  const clientRoot = await rootId(t.app, 'client');
  bobId = await addAccount(t.app, 'user', 'bob', clientRoot);
  aliceSubId = await addAccount(t.app, 'user', 'alice-sub', aliceId);
  bobSubId = await addAccount(t.app, 'user', 'bob-sub', bobId);
  shop = await make.site('shop', aliceId, cdn, ['web', 'prod']);
  blog = await make.site('blog', aliceId, waf, []);
  bobSite = await make.site('bob-site', bobId, cdn, ['bob-only']);
  alice = await signIn(t.app, 'user');
  bob = await signIn(t.app, 'user', 'bob');
  // The sub-accounts hold every key of their tier; which sites they reach is what these tests check.
  await giveRole(t.app, alice, 'user', aliceSubId);
  aliceSub = await signIn(t.app, 'user', 'alice-sub');
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
const as =
  (token: TokenSet) =>
  <R extends AnyRoute>(route: R, ...args: CallArgs<R>) =>
    sendAs(t.app, token, route, ...args);

describe('user/metaSites and site tags', () => {
  it("answers only the caller's sites as id and name, sorted by name", async () => {
    expect((await as(alice)(metaUserSites)).json().data).toEqual([
      { id: blog, name: 'blog' },
      { id: shop, name: 'shop' },
    ]);
    expect((await as(bob)(metaUserSites)).json().data).toEqual([{ id: bobSite, name: 'bob-site' }]);
    expect((await as(aliceSub)(metaUserSites)).json().data).toEqual([]);
    expect((await call(metaUserSites)).statusCode).toBe(403);
  });

  it('lists, replaces and filters by tags; a site that is not the caller’s changes nothing (101018)', async () => {
    const a = as(alice);
    expect((await a(userSiteTags)).json().data).toEqual(['prod', 'web']);

    const refused = await a(setUserSitesTags, { body: { ids: [shop, bobSite], tags: ['x'] } });
    expect(refused.json().code).toBe(101018);
    expect((await a(getUserSite, { params: { siteId: shop } })).json().data.tags).toEqual(['web', 'prod']);
    expect((await as(bob)(getUserSite, { params: { siteId: bobSite } })).json().data.tags).toEqual(['bob-only']);
    expect((await a(setUserSitesTags, { body: { ids: [999_999], tags: ['x'] } })).json().code).toBe(101018);

    const ok = await a(setUserSitesTags, { body: { ids: [shop, blog, shop], tags: ['live', 'live', 'eu'] } });
    expect(ok.json()).toEqual({ data: true });
    expect((await a(userSiteTags)).json().data).toEqual(['eu', 'live']);

    const one = await a(setUserSiteTags, { params: { siteId: blog }, body: { tags: ['news'] } });
    expect(one.json().data).toMatchObject({ siteID: blog, tags: ['news'] });
    expect((await a(setUserSiteTags, { params: { siteId: bobSite }, body: { tags: ['mine'] } })).json().code).toBe(
      101018,
    );

    const list = (await a(listUserSites, { query: { tags: ['news', 'nothing'] } })).json();
    expect(list).toMatchObject({ total: 1, data: [{ siteID: blog }] });
    expect((await a(listUserSites, { query: { tags: 'bob-only' } })).json().total).toBe(0);

    const bad = await a(setUserSiteTags, { params: { siteId: blog }, body: { tags: ['has space', 'ok', 'a,b'] } });
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['tags.0', 'tags.2']);
    const tooMany = await a(setUserSitesTags, {
      body: { ids: [], tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
    });
    expect(fieldNames(tooMany)).toEqual(['ids', 'tags']);
    // Operator tags and the customer's are the same list: the operator sees what the customer set.
    expect((await call(listClientSites, { query: { siteID: blog } })).json().data[0].tags).toEqual(['news']);
  });
});

describe('user/site/users', () => {
  it("gives the caller's sub-accounts access to its sites, who then reach them, and takes it back", async () => {
    const a = as(alice);
    expect((await a(listSiteUsers, { params: { siteId: shop } })).json().data).toEqual([
      { id: aliceSubId, account: 'alice-sub', name: 'alice-sub', email: '', granted: false },
    ]);
    expect((await as(aliceSub)(getUserSite, { params: { siteId: shop } })).json().code).toBe(101018);

    expect((await a(grantSiteUsers, { body: { siteIDs: [shop], userIDs: [aliceSubId] } })).json()).toEqual({
      data: true,
    });
    // Granting twice is harmless.
    expect((await a(grantSiteUsers, { body: { siteIDs: [shop], userIDs: [aliceSubId] } })).statusCode).toBe(200);
    expect((await a(listSiteUsers, { params: { siteId: shop } })).json().data[0].granted).toBe(true);
    expect((await a(listSiteUsers, { params: { siteId: blog } })).json().data[0].granted).toBe(false);

    const sub = as(aliceSub);
    expect((await sub(listUserSites)).json()).toMatchObject({ total: 1, data: [{ siteID: shop }] });
    expect((await sub(getUserSite, { params: { siteId: shop } })).json().data.siteName).toBe('shop');
    expect((await sub(listCertificates, { params: { siteId: shop } })).statusCode).toBe(200);
    expect((await sub(metaUserSites)).json().data).toEqual([{ id: shop, name: 'shop' }]);
    expect((await sub(getUserSite, { params: { siteId: blog } })).json().code).toBe(101018);
    // Only the holder manages who may use the site and its tags.
    expect((await sub(listSiteUsers, { params: { siteId: shop } })).json().code).toBe(101018);
    expect((await sub(setUserSiteTags, { params: { siteId: shop }, body: { tags: ['sub'] } })).json().code).toBe(
      101018,
    );

    expect((await a(revokeSiteUsers, { body: { siteIDs: [shop], userIDs: [aliceSubId] } })).json()).toEqual({
      data: true,
    });
    expect((await sub(getUserSite, { params: { siteId: shop } })).json().code).toBe(101018);
    expect((await sub(listUserSites)).json().total).toBe(0);
  });

  it('refuses sites and accounts that are not the caller’s, all or none (101018), and checks the body (101003)', async () => {
    const a = as(alice);
    for (const body of [
      { siteIDs: [shop, bobSite], userIDs: [aliceSubId] },
      { siteIDs: [shop], userIDs: [aliceSubId, bobSubId] },
      { siteIDs: [shop], userIDs: [bobId] },
      { siteIDs: [shop], userIDs: [aliceId] },
    ]) {
      expect((await a(grantSiteUsers, { body })).json().code).toBe(101018);
      expect((await a(revokeSiteUsers, { body })).json().code).toBe(101018);
    }
    expect((await a(listSiteUsers, { params: { siteId: shop } })).json().data[0].granted).toBe(false);
    expect((await a(listSiteUsers, { params: { siteId: bobSite } })).json().code).toBe(101018);
    expect((await as(bob)(grantSiteUsers, { body: { siteIDs: [shop], userIDs: [bobSubId] } })).json().code).toBe(
      101018,
    );

    const bad = await a(grantSiteUsers, { body: { siteIDs: [], userIDs: [0] } });
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['siteIDs', 'userIDs.0']);
  });

  it('forgets the access when the operator gives the site to another customer', async () => {
    await as(alice)(grantSiteUsers, { body: { siteIDs: [blog], userIDs: [aliceSubId] } });
    expect((await as(aliceSub)(getUserSite, { params: { siteId: blog } })).statusCode).toBe(200);
    expect((await call(setSitesUser, { body: { ids: [blog], userID: bobId } })).statusCode).toBe(200);
    expect((await as(aliceSub)(getUserSite, { params: { siteId: blog } })).json().code).toBe(101018);
    expect((await as(bob)(listSiteUsers, { params: { siteId: blog } })).json().data).toEqual([
      { id: bobSubId, account: 'bob-sub', name: 'bob-sub', email: '', granted: false },
    ]);
    expect((await call(setSitesUser, { body: { ids: [blog], userID: aliceId } })).statusCode).toBe(200);
  });
});

describe('user/resourceInfo and user/products', () => {
  it("counts the caller's sites and domains; traffic is 0 until it is recorded", async () => {
    const made = await as(alice)(createDomains, {
      params: { siteId: shop },
      body: {
        domains: [
          { name: 'a.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] },
          { name: 'b.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] },
        ],
      },
    });
    expect(made.statusCode).toBe(200);
    expect((await as(alice)(getResourceInfo)).json().data).toEqual({
      siteCount: 2,
      domainCount: 2,
      currentMonthTraffic: 0,
      lastMonthTraffic: 0,
    });
    expect((await as(bob)(getResourceInfo)).json().data).toMatchObject({ siteCount: 1, domainCount: 0 });
    expect((await as(aliceSub)(getResourceInfo)).json().data).toMatchObject({ siteCount: 0 });
    const ids = made.json().data.map((d: { id: number }) => d.id);
    expect((await as(alice)(deleteDomains, { params: { siteId: shop }, body: { ids } })).statusCode).toBe(200);
  });

  it("lists the products the caller's sites are on, paged and filtered by productIDs", async () => {
    const a = as(alice);
    expect((await a(listUserProducts)).json()).toEqual({
      total: 2,
      data: [
        { id: cdn, name: 'CDN', portType: 7, siteCount: 1 },
        { id: waf, name: 'WAF', portType: 7, siteCount: 1 },
      ],
    });
    expect((await a(listUserProducts, { query: { page: 2, pageSize: 1 } })).json()).toMatchObject({
      total: 2,
      data: [{ id: waf }],
    });
    expect((await a(listUserProducts, { query: { productIDs: waf } })).json()).toMatchObject({
      total: 1,
      data: [{ id: waf }],
    });
    expect((await as(bob)(listUserProducts)).json()).toEqual({
      total: 1,
      data: [{ id: cdn, name: 'CDN', portType: 7, siteCount: 1 }],
    });
    const bad = await a(listUserProducts, { query: { productIDs: 'x' } });
    expect(bad.json().code).toBe(101003);
    expect(bad.json().extra.fields[0].field).toBe('productIDs');
  });
});

describe('user/geoips', () => {
  it('answers the ISO 3166-1 countries and regions as the region tree (no cities without a City database)', async () => {
    const list = (await as(alice)(listGeoIps)).json().data;
    expect(list.length).toBe(250);
    expect(new Set(list.map((r) => r.alpha2)).size).toBe(250);
    expect(list.find((r) => r.alpha2 === 'TW')).toEqual({
      id: 'TW',
      code: 'TW',
      alpha2: 'TW',
      countryName: 'Taiwan',
      cityName: '',
      continentCode: 'AS',
      children: [],
    });
    expect(list.every((r) => r.continentCode !== '')).toBe(true);
    expect(list.some((r) => r.alpha2 === 'EU' || r.alpha2 === 'ZZ')).toBe(false);
    expect((await call(listGeoIps)).statusCode).toBe(403);
  });
});

describe('announcements', () => {
  it('the operator writes them, its customers and their sub-accounts read them newest first', async () => {
    const first = await call(createAnnouncement, {
      body: {
        title: ' Maintenance ',
        content: 'Sunday 02:00',
      },
    });
    expect(first.json().data).toMatchObject({ title: 'Maintenance', content: 'Sunday 02:00', running: false });
    const second = (
      await call(createAnnouncement, { body: { title: 'New PoP', content: 'Frankfurt', running: true } })
    ).json().data;
    const list = (await call(listClientAnnouncements)).json();
    expect(list.total).toBe(2);
    expect(list.data.map((a: { title: string }) => a.title)).toEqual(['New PoP', 'Maintenance']);

    for (const reader of [alice, aliceSub, bob]) {
      expect((await as(reader)(listUserAnnouncements, { query: { pageSize: 1 } })).json()).toMatchObject({
        total: 2,
        data: [{ id: second.id, title: 'New PoP', running: true }],
      });
    }

    const edited = await call(updateAnnouncement, {
      body: {
        id: second.id,
        title: 'New PoP',
        content: 'Frankfurt and Paris',
        running: false,
      },
    });
    expect(edited.json().data).toMatchObject({ content: 'Frankfurt and Paris', running: false });
    expect((await call(deleteAnnouncement, { body: { id: first.json().data.id } })).statusCode).toBe(200);
    expect((await as(alice)(listUserAnnouncements)).json().total).toBe(1);
  });

  it("keeps each operator's announcements to itself (101018) and checks the body (101003)", async () => {
    const rival = await signInOtherOperator(t.app);
    const own = (await call(listClientAnnouncements)).json().data[0];
    const r = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, rival, route, ...args);
    expect((await r(listClientAnnouncements)).json()).toEqual({ data: [], total: 0 });
    expect((await r(updateAnnouncement, { body: { id: own.id, title: 'x', content: 'y' } })).json().code).toBe(101018);
    expect((await r(deleteAnnouncement, { body: { id: own.id } })).json().code).toBe(101018);
    const mine = (await r(createAnnouncement, { body: { title: 'rival news', content: '' } })).json().data;
    // All or none: one id of another operator deletes nothing.
    expect((await r(deleteAnnouncements, { body: { ids: [mine.id, own.id] } })).json().code).toBe(101018);
    expect((await r(listClientAnnouncements)).json().total).toBe(1);
    expect((await as(alice)(listUserAnnouncements)).json().data.map((a: { id: number }) => a.id)).toEqual([own.id]);

    // A customer outside every operator's tree has none.
    await addAccount(t.app, 'user', 'loner');
    expect((await as(await signIn(t.app, 'user', 'loner'))(listUserAnnouncements)).json()).toEqual({
      data: [],
      total: 0,
    });

    const bad = await call(createAnnouncement, { body: { title: '', content: 'x'.repeat(5001) } });
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['title', 'content']);
    expect((await as(alice)(createAnnouncement, { body: { title: 'x', content: '' } })).statusCode).toBe(403);
    expect((await r(deleteAnnouncements, { body: { ids: [mine.id] } })).json()).toEqual({ data: true });
  });

  it('lists only the running (or only the stopped) announcements when asked, in the database', async () => {
    const running = (
      await call(createAnnouncement, { body: { title: 'Running now', content: 'x', running: true } })
    ).json().data;
    const stopped = (await call(listClientAnnouncements, { query: { running: 'false' } })).json();
    expect(stopped.total).toBeGreaterThan(0);
    expect(stopped.data.every((a: { running: boolean }) => !a.running)).toBe(true);
    expect((await call(listClientAnnouncements, { query: { running: 'true' } })).json()).toMatchObject({
      total: 1,
      data: [{ id: running.id }],
    });
    for (const reader of [alice, aliceSub]) {
      expect(
        (await as(reader)(listUserAnnouncements, { query: { running: 'true', pageSize: 5 } })).json(),
      ).toMatchObject({
        total: 1,
        data: [{ id: running.id, title: 'Running now', running: true }],
      });
    }
    // Another operator's running announcement never reaches this operator's customers.
    const rival = await signInOtherOperator(t.app, 'rival-running');
    await call(createAnnouncement, { body: { title: 'rival', content: '', running: true } }, rival);
    expect((await as(alice)(listUserAnnouncements, { query: { running: 'true' } })).json().total).toBe(1);

    const bad = await as(alice)(listUserAnnouncements, rawInput({ query: { running: 'yes' } }));
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['running']);
    expect((await call(deleteAnnouncement, { body: { id: running.id } })).statusCode).toBe(200);
  });
});
