import type { TokenSet } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, giveRole, signInOtherOperator } from './helpers/accounts.js';
import { callApi, type Method, signIn } from './helpers/auth.js';
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
  const zoneId = (await call('POST', 'client/zone', { name: 'Asia' })).json().data.id;
  const web = (await call('POST', `client/zone/${zoneId}/group`, { name: 'web', portType: 7 })).json().data.id;
  cdn = (await call('POST', 'client/product', { name: 'CDN', portType: 7, mainGroupIDs: [web] })).json().data.id;
  waf = (await call('POST', 'client/product', { name: 'WAF', portType: 7, mainGroupIDs: [web] })).json().data.id;
  aliceId = (await t.app.rampart.accounts.findRoot('user'))?.id ?? 0;
  const clientRoot = (await t.app.rampart.accounts.findRoot('client'))?.id ?? 0;
  bobId = await addAccount(t.app, 'user', 'bob', clientRoot);
  aliceSubId = await addAccount(t.app, 'user', 'alice-sub', aliceId);
  bobSubId = await addAccount(t.app, 'user', 'bob-sub', bobId);
  const site = async (siteName: string, userID: number, productID: number, tags: string[] = []) =>
    (await call('POST', 'client/site', { siteName, userID, productID, tags })).json().data.siteID as number;
  shop = await site('shop', aliceId, cdn, ['web', 'prod']);
  blog = await site('blog', aliceId, waf);
  bobSite = await site('bob-site', bobId, cdn, ['bob-only']);
  alice = await signIn(t.app, 'user');
  bob = await signIn(t.app, 'user', 'bob');
  // The sub-accounts hold every key of their tier; which sites they reach is what these tests check.
  await giveRole(t.app, alice, 'user', aliceSubId);
  aliceSub = await signIn(t.app, 'user', 'alice-sub');
});
afterAll(async () => t.close());

function call(method: Method, url: string, payload?: Record<string, unknown>, token: TokenSet = client) {
  return callApi(t.app, token, method, url, payload);
}
const as = (token: TokenSet) => (method: Method, url: string, payload?: Record<string, unknown>) =>
  call(method, url, payload, token);

describe('user/metaSites and site tags', () => {
  it("answers only the caller's sites as id and name, sorted by name", async () => {
    expect((await as(alice)('GET', 'user/metaSites')).json().data).toEqual([
      { id: blog, name: 'blog' },
      { id: shop, name: 'shop' },
    ]);
    expect((await as(bob)('GET', 'user/metaSites')).json().data).toEqual([{ id: bobSite, name: 'bob-site' }]);
    expect((await as(aliceSub)('GET', 'user/metaSites')).json().data).toEqual([]);
    expect((await call('GET', 'user/metaSites')).statusCode).toBe(403);
  });

  it('lists, replaces and filters by tags; a site that is not the caller’s changes nothing (101018)', async () => {
    const a = as(alice);
    expect((await a('GET', 'user/site/tags')).json().data).toEqual(['prod', 'web']);

    const refused = await a('PUT', 'user/site/tags', { ids: [shop, bobSite], tags: ['x'] });
    expect(refused.json().code).toBe(101018);
    expect((await a('GET', `user/site/${shop}`)).json().data.tags).toEqual(['web', 'prod']);
    expect((await as(bob)('GET', `user/site/${bobSite}`)).json().data.tags).toEqual(['bob-only']);
    expect((await a('PUT', 'user/site/tags', { ids: [999_999], tags: ['x'] })).json().code).toBe(101018);

    const ok = await a('PUT', 'user/site/tags', { ids: [shop, blog, shop], tags: ['live', 'live', 'eu'] });
    expect(ok.json()).toEqual({ data: true });
    expect((await a('GET', 'user/site/tags')).json().data).toEqual(['eu', 'live']);

    const one = await a('PUT', `user/site/${blog}/tags`, { tags: ['news'] });
    expect(one.json().data).toMatchObject({ siteID: blog, tags: ['news'] });
    expect((await a('PUT', `user/site/${bobSite}/tags`, { tags: ['mine'] })).json().code).toBe(101018);

    const list = (await a('GET', 'user/sites?tags=news&tags=nothing')).json();
    expect(list).toMatchObject({ total: 1, data: [{ siteID: blog }] });
    expect((await a('GET', 'user/sites?tags=bob-only')).json().total).toBe(0);

    const bad = await a('PUT', `user/site/${blog}/tags`, { tags: ['has space', 'ok', 'a,b'] });
    expect(bad.json().code).toBe(101003);
    expect(bad.json().extra.fields.map((f: { field: string }) => f.field)).toEqual(['tags.0', 'tags.2']);
    const tooMany = await a('PUT', 'user/site/tags', { ids: [], tags: Array.from({ length: 21 }, (_, i) => `t${i}`) });
    expect(tooMany.json().extra.fields.map((f: { field: string }) => f.field)).toEqual(['ids', 'tags']);
    // Operator tags and the customer's are the same list: the operator sees what the customer set.
    expect((await call('GET', `client/sites?siteID=${blog}`)).json().data[0].tags).toEqual(['news']);
  });
});

describe('user/site/users', () => {
  it("gives the caller's sub-accounts access to its sites, who then reach them, and takes it back", async () => {
    const a = as(alice);
    expect((await a('GET', `user/site/users/${shop}`)).json().data).toEqual([
      { id: aliceSubId, account: 'alice-sub', name: 'alice-sub', email: '', granted: false },
    ]);
    expect((await as(aliceSub)('GET', `user/site/${shop}`)).json().code).toBe(101018);

    expect((await a('PATCH', 'user/site/users', { siteIDs: [shop], userIDs: [aliceSubId] })).json()).toEqual({
      data: true,
    });
    // Granting twice is harmless.
    expect((await a('PATCH', 'user/site/users', { siteIDs: [shop], userIDs: [aliceSubId] })).statusCode).toBe(200);
    expect((await a('GET', `user/site/users/${shop}`)).json().data[0].granted).toBe(true);
    expect((await a('GET', `user/site/users/${blog}`)).json().data[0].granted).toBe(false);

    const sub = as(aliceSub);
    expect((await sub('GET', 'user/sites')).json()).toMatchObject({ total: 1, data: [{ siteID: shop }] });
    expect((await sub('GET', `user/site/${shop}`)).json().data.siteName).toBe('shop');
    expect((await sub('GET', `user/site/${shop}/certificates`)).statusCode).toBe(200);
    expect((await sub('GET', 'user/metaSites')).json().data).toEqual([{ id: shop, name: 'shop' }]);
    expect((await sub('GET', `user/site/${blog}`)).json().code).toBe(101018);
    // Only the holder manages who may use the site and its tags.
    expect((await sub('GET', `user/site/users/${shop}`)).json().code).toBe(101018);
    expect((await sub('PUT', `user/site/${shop}/tags`, { tags: ['sub'] })).json().code).toBe(101018);

    expect((await a('DELETE', 'user/site/users', { siteIDs: [shop], userIDs: [aliceSubId] })).json()).toEqual({
      data: true,
    });
    expect((await sub('GET', `user/site/${shop}`)).json().code).toBe(101018);
    expect((await sub('GET', 'user/sites')).json().total).toBe(0);
  });

  it('refuses sites and accounts that are not the caller’s, all or none (101018), and checks the body (101003)', async () => {
    const a = as(alice);
    for (const body of [
      { siteIDs: [shop, bobSite], userIDs: [aliceSubId] },
      { siteIDs: [shop], userIDs: [aliceSubId, bobSubId] },
      { siteIDs: [shop], userIDs: [bobId] },
      { siteIDs: [shop], userIDs: [aliceId] },
    ]) {
      expect((await a('PATCH', 'user/site/users', body)).json().code).toBe(101018);
      expect((await a('DELETE', 'user/site/users', body)).json().code).toBe(101018);
    }
    expect((await a('GET', `user/site/users/${shop}`)).json().data[0].granted).toBe(false);
    expect((await a('GET', `user/site/users/${bobSite}`)).json().code).toBe(101018);
    expect((await as(bob)('PATCH', 'user/site/users', { siteIDs: [shop], userIDs: [bobSubId] })).json().code).toBe(
      101018,
    );

    const bad = await a('PATCH', 'user/site/users', { siteIDs: [], userIDs: [0] });
    expect(bad.json().code).toBe(101003);
    expect(bad.json().extra.fields.map((f: { field: string }) => f.field)).toEqual(['siteIDs', 'userIDs.0']);
  });

  it('forgets the access when the operator gives the site to another customer', async () => {
    await as(alice)('PATCH', 'user/site/users', { siteIDs: [blog], userIDs: [aliceSubId] });
    expect((await as(aliceSub)('GET', `user/site/${blog}`)).statusCode).toBe(200);
    expect((await call('PATCH', 'client/site/users', { ids: [blog], userID: bobId })).statusCode).toBe(200);
    expect((await as(aliceSub)('GET', `user/site/${blog}`)).json().code).toBe(101018);
    expect((await as(bob)('GET', `user/site/users/${blog}`)).json().data).toEqual([
      { id: bobSubId, account: 'bob-sub', name: 'bob-sub', email: '', granted: false },
    ]);
    expect((await call('PATCH', 'client/site/users', { ids: [blog], userID: aliceId })).statusCode).toBe(200);
  });
});

describe('user/resourceInfo and user/products', () => {
  it("counts the caller's sites and domains; traffic is 0 until it is recorded", async () => {
    const made = await as(alice)('POST', `user/site/${shop}/domains`, {
      domains: [
        { name: 'a.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] },
        { name: 'b.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] },
      ],
    });
    expect(made.statusCode).toBe(200);
    expect((await as(alice)('GET', 'user/resourceInfo')).json().data).toEqual({
      siteCount: 2,
      domainCount: 2,
      currentMonthTraffic: 0,
      lastMonthTraffic: 0,
    });
    expect((await as(bob)('GET', 'user/resourceInfo')).json().data).toMatchObject({ siteCount: 1, domainCount: 0 });
    expect((await as(aliceSub)('GET', 'user/resourceInfo')).json().data).toMatchObject({ siteCount: 0 });
    const ids = made.json().data.map((d: { id: number }) => d.id);
    expect((await as(alice)('DELETE', `user/site/${shop}/domains`, { ids })).statusCode).toBe(200);
  });

  it("lists the products the caller's sites are on, paged and filtered by productIDs", async () => {
    const a = as(alice);
    expect((await a('GET', 'user/products')).json()).toEqual({
      total: 2,
      data: [
        { id: cdn, name: 'CDN', portType: 7, siteCount: 1 },
        { id: waf, name: 'WAF', portType: 7, siteCount: 1 },
      ],
    });
    expect((await a('GET', 'user/products?page=2&pageSize=1')).json()).toMatchObject({ total: 2, data: [{ id: waf }] });
    expect((await a('GET', `user/products?productIDs=${waf}`)).json()).toMatchObject({ total: 1, data: [{ id: waf }] });
    expect((await as(bob)('GET', 'user/products')).json()).toEqual({
      total: 1,
      data: [{ id: cdn, name: 'CDN', portType: 7, siteCount: 1 }],
    });
    const bad = await a('GET', 'user/products?productIDs=x');
    expect(bad.json().code).toBe(101003);
    expect(bad.json().extra.fields[0].field).toBe('productIDs');
  });
});

describe('user/geoips', () => {
  it('answers the ISO 3166-1 countries and regions with names in the three languages', async () => {
    const list = (await as(alice)('GET', 'user/geoips')).json().data as { alpha2: string }[];
    expect(list.length).toBe(250);
    expect(new Set(list.map((r) => r.alpha2)).size).toBe(250);
    expect(list.find((r) => r.alpha2 === 'TW')).toEqual({
      alpha2: 'TW',
      names: { en_US: 'Taiwan', zh_CN: '台湾', zh_TW: '台灣' },
    });
    expect(list.some((r) => r.alpha2 === 'EU' || r.alpha2 === 'ZZ')).toBe(false);
    expect((await call('GET', 'user/geoips')).statusCode).toBe(403);
  });
});

describe('announcements', () => {
  it('the operator writes them, its customers and their sub-accounts read them newest first', async () => {
    const first = await call('POST', 'client/setting/announcement', {
      title: ' Maintenance ',
      content: 'Sunday 02:00',
    });
    expect(first.json().data).toMatchObject({ title: 'Maintenance', content: 'Sunday 02:00', running: false });
    const second = (
      await call('POST', 'client/setting/announcement', { title: 'New PoP', content: 'Frankfurt', running: true })
    ).json().data;
    const list = (await call('GET', 'client/setting/announcements')).json();
    expect(list.total).toBe(2);
    expect(list.data.map((a: { title: string }) => a.title)).toEqual(['New PoP', 'Maintenance']);

    for (const reader of [alice, aliceSub, bob]) {
      expect((await as(reader)('GET', 'user/announcements?pageSize=1')).json()).toMatchObject({
        total: 2,
        data: [{ id: second.id, title: 'New PoP', running: true }],
      });
    }

    const edited = await call('PUT', 'client/setting/announcement', {
      id: second.id,
      title: 'New PoP',
      content: 'Frankfurt and Paris',
      running: false,
    });
    expect(edited.json().data).toMatchObject({ content: 'Frankfurt and Paris', running: false });
    expect((await call('DELETE', 'client/setting/announcement', { id: first.json().data.id })).statusCode).toBe(200);
    expect((await as(alice)('GET', 'user/announcements')).json().total).toBe(1);
  });

  it("keeps each operator's announcements to itself (101018) and checks the body (101003)", async () => {
    const rival = await signInOtherOperator(t.app);
    const own = (await call('GET', 'client/setting/announcements')).json().data[0];
    const r = (method: Method, url: string, body?: Record<string, unknown>) => call(method, url, body, rival);
    expect((await r('GET', 'client/setting/announcements')).json()).toEqual({ data: [], total: 0 });
    expect((await r('PUT', 'client/setting/announcement', { id: own.id, title: 'x', content: 'y' })).json().code).toBe(
      101018,
    );
    expect((await r('DELETE', 'client/setting/announcement', { id: own.id })).json().code).toBe(101018);
    const mine = (await r('POST', 'client/setting/announcement', { title: 'rival news', content: '' })).json().data;
    // All or none: one id of another operator deletes nothing.
    expect((await r('DELETE', 'client/setting/announcements', { ids: [mine.id, own.id] })).json().code).toBe(101018);
    expect((await r('GET', 'client/setting/announcements')).json().total).toBe(1);
    expect((await as(alice)('GET', 'user/announcements')).json().data.map((a: { id: number }) => a.id)).toEqual([
      own.id,
    ]);

    // A customer outside every operator's tree has none.
    await addAccount(t.app, 'user', 'loner');
    expect((await as(await signIn(t.app, 'user', 'loner'))('GET', 'user/announcements')).json()).toEqual({
      data: [],
      total: 0,
    });

    const bad = await call('POST', 'client/setting/announcement', { title: '', content: 'x'.repeat(5001) });
    expect(bad.json().code).toBe(101003);
    expect(bad.json().extra.fields.map((f: { field: string }) => f.field)).toEqual(['title', 'content']);
    expect((await as(alice)('POST', 'client/setting/announcement', { title: 'x', content: '' })).statusCode).toBe(403);
    expect((await r('DELETE', 'client/setting/announcements', { ids: [mine.id] })).json()).toEqual({ data: true });
  });

  it('lists only the running (or only the stopped) announcements when asked, in the database', async () => {
    const running = (
      await call('POST', 'client/setting/announcement', { title: 'Running now', content: 'x', running: true })
    ).json().data;
    const stopped = (await call('GET', 'client/setting/announcements?running=false')).json();
    expect(stopped.total).toBeGreaterThan(0);
    expect(stopped.data.every((a: { running: boolean }) => !a.running)).toBe(true);
    expect((await call('GET', 'client/setting/announcements?running=true')).json()).toMatchObject({
      total: 1,
      data: [{ id: running.id }],
    });
    for (const reader of [alice, aliceSub]) {
      expect((await as(reader)('GET', 'user/announcements?running=true&pageSize=5')).json()).toMatchObject({
        total: 1,
        data: [{ id: running.id, title: 'Running now', running: true }],
      });
    }
    // Another operator's running announcement never reaches this operator's customers.
    const rival = await signInOtherOperator(t.app, 'rival-running');
    await call('POST', 'client/setting/announcement', { title: 'rival', content: '', running: true }, rival);
    expect((await as(alice)('GET', 'user/announcements?running=true')).json().total).toBe(1);

    const bad = await as(alice)('GET', 'user/announcements?running=yes');
    expect(bad.json().code).toBe(101003);
    expect(bad.json().extra.fields.map((f: { field: string }) => f.field)).toEqual(['running']);
    expect((await call('DELETE', 'client/setting/announcement', { id: running.id })).statusCode).toBe(200);
  });
});
