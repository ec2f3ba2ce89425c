import type { AnyRoute, RouteInput } from '@rampart/contract';
import {
  changeSitesProduct,
  createDomains,
  createProduct,
  createSite,
  deleteSites,
  getUserSite,
  listClientSites,
  metaSites,
  refreshSitesProduct,
  setSitesExpiry,
  setSitesForceBackup,
  setSitesLimitations,
  setSitesStatus,
  setSitesTags,
  setSitesUser,
  siteTags,
  updateProduct,
  updateSite,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawInput, sendAs, type Token } from './helpers/call.js';
import { operatorCalls } from './helpers/operators.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

// The operator's calls on its customers' sites (spec part 2 §7 "Operator sites").
let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let web: number;
let webBackup: number;
let cdn: number;
let pro: number;
let l4: number;
let tcp: number;
let rivalProduct: number;
let alice: number;
let bob: number;
let stranger: number;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  const make = operatorCalls(t.app, client);
  const zoneId = await make.zone('Asia');
  web = await make.group(zoneId, 'web', 7, false);
  webBackup = await make.group(zoneId, 'web-backup', 7, true);
  tcp = await make.group(zoneId, 'tcp', 4, false);
  cdn = await make.product('CDN', 7, [web], [webBackup]);
  pro = await make.product('Pro', 7, [web], []);
  l4 = await make.product('L4', 4, [tcp], []);

  const clientRoot = await rootId(t.app, 'client');
  alice = await rootId(t.app, 'user');
  const account = (tier: 'user' | 'client', name: string, parentId?: number) => addAccount(t.app, tier, name, parentId);
  bob = await account('user', 'bob', clientRoot);
  stranger = await account('user', 'stranger');
  // A second operator with its own zone, group and product.
  await account('client', 'rival');
  rival = await signIn(t.app, 'client', 'rival', TEST_PASSWORD);
  const theirs = operatorCalls(t.app, rival);
  rivalProduct = await theirs.product('R', 7, [await theirs.group(await theirs.zone('Rival'), 'r', 7)]);
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
async function newSite(siteName: string, extra: Partial<RouteInput<typeof createSite>['body']> = {}): Promise<number> {
  const res = await call(createSite, { body: { siteName, userID: alice, productID: cdn, ...extra } });
  expect(res.statusCode).toBe(200);
  return res.json().data.siteID;
}
async function siteRow(id: number) {
  return (await call(listClientSites, { query: { siteID: id } })).json().data[0];
}
async function addDomain(siteId: number, name: string, owner = 'user') {
  const user = await signIn(t.app, 'user', owner, TEST_PASSWORD);
  return call(
    createDomains,
    { params: { siteId }, body: { domains: [{ name, upstreams: [{ ip: '127.0.0.1', port: 80 }] }] } },
    user,
  );
}
const ids = (res: { json(): { data: { siteID: number }[] } }) => res.json().data.map((s) => s.siteID);

describe('operator site list', () => {
  it('filters by name, id, product, customer, tags, expiry and force-backup in the database, paged', async () => {
    const shop = await newSite('f-shop', { tags: ['vip', 'eu'] });
    const blog = await newSite('f-blog', { tags: ['eu'], expiredAt: '2020-01-01T00:00:00Z', productID: pro });
    const wiki = await newSite('f-wiki', { userID: bob });
    await call(setSitesForceBackup, { body: { ids: [wiki], forceBackup: true } });

    const list = (query: RouteInput<typeof listClientSites>['query']) =>
      call(listClientSites, { query: { siteName: 'f-', ...query } });
    expect((await list({})).json().total).toBe(3);
    expect(ids(await list({ siteID: blog }))).toEqual([blog]);
    expect(ids(await list({ productID: pro }))).toEqual([blog]);
    expect(ids(await list({ userID: bob }))).toEqual([wiki]);
    expect(ids(await list({ tags: 'vip' }))).toEqual([shop]);
    expect(ids(await list({ tags: ['vip', 'eu'] })).sort()).toEqual([shop, blog].sort());
    expect(ids(await list({ expired: 'true' }))).toEqual([blog]);
    expect(ids(await list({ expired: 'false' })).sort()).toEqual([shop, wiki].sort());
    expect(ids(await list({ forceBackup: 'true' }))).toEqual([wiki]);
    const paged = (await list({ pageSize: 2, page: 2 })).json();
    expect(paged.total).toBe(3);
    expect(paged.data).toHaveLength(1);
    expect(await siteRow(shop)).toMatchObject({
      memo: '',
      limitations: { maxDomains: 0, maxPorts: 0 },
      domainCount: 0,
      tags: ['vip', 'eu'],
    });

    const bad = (await call(listClientSites, rawInput({ query: { siteName: 'f-', expired: 'maybe' } }))).json();
    expect(bad.code).toBe(101003);
    expect(bad.extra.fields[0]).toMatchObject({ in: 'query', field: 'expired' });
  });

  it('answers the meta list and the tags of the operator, and a second operator sees none of them', async () => {
    const id = await newSite('meta-site', { userID: bob, tags: ['meta-tag'] });
    const meta = (await call(metaSites)).json().data;
    expect(meta).toContainEqual({ id, name: 'meta-site' });
    expect((await call(metaSites, { query: { userID: bob } })).json().data.map((s: { id: number }) => s.id)).toContain(
      id,
    );
    expect((await call(metaSites, { query: { userID: alice } })).json().data).not.toContainEqual({
      id,
      name: 'meta-site',
    });
    expect((await call(siteTags)).json().data).toContain('meta-tag');
    expect((await call(metaSites, { query: { userID: 'bob' } })).json().extra.fields[0].field).toBe('userID');

    expect((await call(listClientSites, undefined, rival)).json()).toEqual({ data: [], total: 0 });
    expect((await call(metaSites, undefined, rival)).json().data).toEqual([]);
    expect((await call(siteTags, undefined, rival)).json().data).toEqual([]);
  });
});

describe('operator site changes', () => {
  it('renames a site and sets its memo; 101003 for an empty name, 101018 for a site not the caller', async () => {
    const id = await newSite('edit-me');
    const res = await call(updateSite, { body: { id, siteName: 'edited', memo: 'pays yearly' } });
    expect(res.json().data).toMatchObject({ siteID: id, siteName: 'edited', memo: 'pays yearly' });
    const empty = (await call(updateSite, { body: { id, siteName: '' } })).json();
    expect(empty.code).toBe(101003);
    expect(empty.extra.fields[0].field).toBe('siteName');
    expect((await call(updateSite, { body: { id: 999_999, siteName: 'x' } })).json().code).toBe(101018);
    expect((await call(updateSite, { body: { id, siteName: 'stolen' } }, rival)).json().code).toBe(101018);
    expect((await siteRow(id)).siteName).toBe('edited');
  });

  it('refuses deleting a site that still has domains (205005) and deletes none of the batch', async () => {
    const withDomain = await newSite('has-domain');
    const empty = await newSite('no-domain');
    expect((await addDomain(withDomain, 'del.example.com')).statusCode).toBe(200);
    expect((await call(deleteSites, { body: { ids: [empty, withDomain] } })).json().code).toBe(205005);
    // Nor may its product turn layer 4 under the site's layer-7 domains.
    const toL4 = await call(updateProduct, { body: { id: cdn, name: 'CDN', portType: 4, mainGroupIDs: [tcp] } });
    expect(toL4.json().code).toBe(205005);
    expect(await siteRow(empty)).toBeDefined();
    expect((await call(deleteSites, { body: { ids: [empty] } }, rival)).json().code).toBe(101018);
    expect((await call(deleteSites, { body: { ids: [empty] } })).statusCode).toBe(200);
    expect(await siteRow(empty)).toBeUndefined();
    expect((await call(deleteSites, { body: { ids: [] } })).json().code).toBe(101003);
  });

  it('gives sites to another customer of the operator, all or none', async () => {
    const a = await newSite('move-a');
    const b = await newSite('move-b');
    expect((await call(setSitesUser, { body: { ids: [a, b], userID: bob } })).statusCode).toBe(200);
    expect(await siteRow(a)).toMatchObject({ userID: bob, userAccount: 'bob' });
    const bobToken = await signIn(t.app, 'user', 'bob', TEST_PASSWORD);
    expect((await call(getUserSite, { params: { siteId: a } }, bobToken)).statusCode).toBe(200);

    const clientRoot = await rootId(t.app, 'client');
    for (const userID of [stranger, clientRoot, 999_999]) {
      expect((await call(setSitesUser, { body: { ids: [a], userID } })).json().code).toBe(101018);
    }
    expect((await call(setSitesUser, { body: { ids: [a, 999_999], userID: alice } })).json().code).toBe(101018);
    expect((await call(setSitesUser, { body: { ids: [a], userID: alice } }, rival)).json().code).toBe(101018);
    expect((await siteRow(a)).userID).toBe(bob);
    expect((await call(setSitesUser, rawInput({ body: { ids: [a], userID: 'bob' } }))).json().code).toBe(101003);
  });

  it('moves sites to another product of the same port type, within its sites limit (204003)', async () => {
    const a = await newSite('prod-a');
    const b = await newSite('prod-b');
    expect((await call(changeSitesProduct, { body: { ids: [a], productID: pro } })).statusCode).toBe(200);
    expect((await siteRow(a)).productName).toBe('Pro');

    const wrongType = (await call(changeSitesProduct, { body: { ids: [b], productID: l4 } })).json();
    expect(wrongType.code).toBe(101003);
    expect(wrongType.extra.fields[0].field).toBe('productID');
    for (const productID of [rivalProduct, 999_999]) {
      expect((await call(changeSitesProduct, { body: { ids: [b], productID } })).json().code).toBe(101018);
    }
    expect((await call(changeSitesProduct, { body: { ids: [b], productID: pro } }, rival)).json().code).toBe(101018);

    // A product with room for one site: the one it has already.
    const solo = (
      await call(createProduct, { body: { name: 'Solo', portType: 7, mainGroupIDs: [web], siteLimit: 1 } })
    ).json().data.id;
    expect((await call(changeSitesProduct, { body: { ids: [a], productID: solo } })).statusCode).toBe(200);
    expect((await call(changeSitesProduct, { body: { ids: [b], productID: solo } })).json().code).toBe(204003);
    // Moving the one site it carries again keeps it at its limit.
    expect((await call(changeSitesProduct, { body: { ids: [a], productID: solo } })).statusCode).toBe(200);
    expect((await siteRow(b)).productName).toBe('CDN');
  });

  it('refreshes sites from their product and answers the groups serving each (backup ones when forced)', async () => {
    const a = await newSite('refresh-a');
    const b = await newSite('refresh-b');
    await call(setSitesForceBackup, { body: { ids: [b], forceBackup: true } });
    const res = await call(refreshSitesProduct, { body: { ids: [a, b] } });
    expect(res.json().data).toEqual(
      expect.arrayContaining([
        { siteID: a, groups: [{ id: web, name: 'web' }] },
        { siteID: b, groups: [{ id: webBackup, name: 'web-backup' }] },
      ]),
    );
    expect((await call(refreshSitesProduct, { body: { ids: [a] } }, rival)).json().code).toBe(101018);
    expect((await call(refreshSitesProduct, { body: { ids: [a, 999_999] } })).json().code).toBe(101018);
    expect((await call(refreshSitesProduct, rawInput({ body: { ids: 'all' } }))).json().extra.fields[0].field).toBe(
      'ids',
    );
  });

  it("sets status; 205002 for 'limit' and for 'normal' on an expired site, changing none of the batch", async () => {
    const live = await newSite('status-live');
    const old = await newSite('status-old', { expiredAt: '2020-01-01T00:00:00Z' });
    expect((await call(setSitesStatus, { body: { ids: [live, old], status: 'pause' } })).statusCode).toBe(200);
    expect((await call(setSitesStatus, { body: { ids: [live], status: 'limit' } })).json().code).toBe(205002);
    expect((await call(setSitesStatus, { body: { ids: [live, old], status: 'normal' } })).json().code).toBe(205002);
    expect((await siteRow(live)).status).toBe('pause');
    expect((await call(setSitesStatus, { body: { ids: [live], status: 'normal' } })).statusCode).toBe(200);
    expect((await call(setSitesStatus, rawInput({ body: { ids: [live], status: 'gone' } }))).json().code).toBe(101003);
    expect((await call(setSitesStatus, { body: { ids: [live], status: 'pause' } }, rival)).json().code).toBe(101018);
  });

  it('limits the domains of a site: enforced on domain create, refused below what a site has (401002)', async () => {
    const id = await newSite('limited');
    expect((await call(setSitesLimitations, { body: { ids: [id], limitations: { maxDomains: 1 } } })).statusCode).toBe(
      200,
    );
    expect((await siteRow(id)).limitations).toEqual({ maxDomains: 1, maxPorts: 0 });
    expect((await addDomain(id, 'one.limited.example')).statusCode).toBe(200);
    expect((await addDomain(id, 'two.limited.example')).json().code).toBe(401002);
    await call(setSitesLimitations, { body: { ids: [id], limitations: { maxDomains: 0 } } });
    expect((await addDomain(id, 'two.limited.example')).statusCode).toBe(200);
    expect((await call(setSitesLimitations, { body: { ids: [id], limitations: { maxDomains: 1 } } })).json().code).toBe(
      401002,
    );
    const negative = (await call(setSitesLimitations, { body: { ids: [id], limitations: { maxDomains: -1 } } })).json();
    expect(negative.extra.fields[0].field).toBe('limitations.maxDomains');
    expect(
      (await call(setSitesLimitations, { body: { ids: [id], limitations: { maxDomains: 5 } } }, rival)).json().code,
    ).toBe(101018);
  });

  it('sets the expiry and the force-backup flag of sites', async () => {
    const id = await newSite('dates');
    expect((await call(setSitesExpiry, { body: { ids: [id], expiredAt: '2030-05-01T00:00:00Z' } })).statusCode).toBe(
      200,
    );
    expect((await siteRow(id)).expiredAt).toBe('2030-05-01T00:00:00.000Z');
    await call(setSitesExpiry, { body: { ids: [id], expiredAt: null } });
    expect((await siteRow(id)).expiredAt).toBeNull();
    expect((await call(setSitesExpiry, { body: { ids: [id], expiredAt: 'soon' } })).json().code).toBe(101003);
    expect((await call(setSitesExpiry, { body: { ids: [id], expiredAt: null } }, rival)).json().code).toBe(101018);

    await call(setSitesForceBackup, { body: { ids: [id], forceBackup: true } });
    expect((await siteRow(id)).forceBackup).toBe(true);
    expect((await call(setSitesForceBackup, rawInput({ body: { ids: [id], forceBackup: 'yes' } }))).json().code).toBe(
      101003,
    );
    expect((await call(setSitesForceBackup, { body: { ids: [id], forceBackup: false } }, rival)).json().code).toBe(
      101018,
    );
  });

  it('replaces the tags of sites, all or none', async () => {
    const a = await newSite('tags-a', { tags: ['old'] });
    const b = await newSite('tags-b');
    expect((await call(setSitesTags, { body: { ids: [a, b], tags: ['gold', 'gold', 'asia'] } })).statusCode).toBe(200);
    expect((await siteRow(b)).tags).toEqual(['gold', 'asia']);
    expect((await call(setSitesTags, { body: { ids: [a, 999_999], tags: [] } })).json().code).toBe(101018);
    expect((await siteRow(a)).tags).toEqual(['gold', 'asia']);
    const spaced = (await call(setSitesTags, { body: { ids: [a], tags: ['two words'] } })).json();
    expect(spaced.extra.fields[0].field).toBe('tags.0');
    expect((await call(setSitesTags, { body: { ids: [a], tags: [] } }, rival)).json().code).toBe(101018);
  });

  it('keeps a product within its sites limit on site create (204003)', async () => {
    const tiny = (
      await call(createProduct, { body: { name: 'Tiny', portType: 7, mainGroupIDs: [web], siteLimit: 1 } })
    ).json().data.id;
    expect((await call(createSite, { body: { siteName: 't1', userID: alice, productID: tiny } })).statusCode).toBe(200);
    expect((await call(createSite, { body: { siteName: 't2', userID: alice, productID: tiny } })).json().code).toBe(
      204003,
    );
  });
});
