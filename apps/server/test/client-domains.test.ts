import type { AnyRoute } from '@rampart/contract';
import {
  clientDomainIds,
  clientDomainTags,
  createDomains,
  listClientDomains,
  metaClientDomains,
  setClientDomainTags,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawInput, sendAs, type Token } from './helpers/call.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

// The operator's view of its customers' domains (spec part 2 §7 "Operator sites, domains").
let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let shop: number;
let blog: number;
let rivalSite: number;
const domainIds: Record<string, number> = {};
/** The id of domain `name` on site `siteId`, as created in beforeAll. */
function domainId(siteId: number, name: string): number {
  const id = domainIds[`${siteId}:${name}`];
  if (id === undefined) throw new Error(`no domain ${name} on site ${siteId}`);
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  const user = await signIn(t.app, 'user');
  const userID = await rootId(t.app, 'user');
  const { productId } = await webProduct(t.app, client);
  const { site } = operatorCalls(t.app, client);
  shop = await site('shop', userID, productId);
  blog = await site('blog', userID, productId);
  const add = async (siteId: number, list: { name: string; status?: 0 | 1; tags?: string[] }[]) => {
    const upstreams = [{ ip: '127.0.0.1', port: 80 }];
    const res = await call(
      createDomains,
      { params: { siteId }, body: { domains: list.map((d) => ({ ...d, upstreams })) } },
      user,
    );
    for (const d of res.json().data) domainIds[`${siteId}:${d.name}`] = d.id;
  };
  await add(shop, [
    { name: 'www.shop.example', tags: ['web'] },
    { name: 'api.shop.example', tags: ['api'], status: 0 },
  ]);
  await add(blog, [{ name: 'www.blog.example' }, { name: 'api.shop.example', status: 0 }]);

  // A second operator with a customer, a site and a domain of its own.
  const account = (tier: 'user' | 'client', name: string, parentId?: number) => addAccount(t.app, tier, name, parentId);
  const rivalId = await account('client', 'rival');
  const rivalUser = await account('user', 'rival-user', rivalId);
  rival = await signIn(t.app, 'client', 'rival', TEST_PASSWORD);
  rivalSite = await operatorCalls(t.app, rival).site('r', rivalUser, (await webProduct(t.app, rival)).productId);
  const rivalToken = await signIn(t.app, 'user', 'rival-user', TEST_PASSWORD);
  await call(
    createDomains,
    {
      params: { siteId: rivalSite },
      body: { domains: [{ name: 'www.rival.example', upstreams: [{ ip: '127.0.0.1', port: 80 }], tags: ['web'] }] },
    },
    rivalToken,
  );
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
const names = (res: { json(): { data: { name: string }[] } }) =>
  res
    .json()
    .data.map((d) => d.name)
    .sort();

describe("operator's domains", () => {
  it('lists the domains of its sites, filtered by site, name, tags and status, paged', async () => {
    const all = (await call(listClientDomains)).json();
    expect(all.total).toBe(4);
    expect(all.data.find((d: { name: string }) => d.name === 'www.shop.example')).toMatchObject({
      siteID: shop,
      siteName: 'shop',
      userAccount: 'user',
      status: 1,
      tags: ['web'],
    });
    expect(names(await call(listClientDomains, { query: { siteID: blog } }))).toEqual([
      'api.shop.example',
      'www.blog.example',
    ]);
    expect(names(await call(listClientDomains, { query: { name: 'SHOP' } }))).toEqual([
      'api.shop.example',
      'api.shop.example',
      'www.shop.example',
    ]);
    expect(names(await call(listClientDomains, { query: { tags: ['web', 'api'] } }))).toEqual([
      'api.shop.example',
      'www.shop.example',
    ]);
    expect(names(await call(listClientDomains, { query: { status: 1 } }))).toEqual([
      'www.blog.example',
      'www.shop.example',
    ]);
    const paged = (await call(listClientDomains, { query: { pageSize: 3, page: 2 } })).json();
    expect(paged).toMatchObject({ total: 4 });
    expect(paged.data).toHaveLength(1);
    expect((await call(listClientDomains, { query: { status: 7 } })).json().extra.fields[0]).toMatchObject({
      in: 'query',
      field: 'status',
    });
    // Another operator's site as a filter simply matches nothing.
    expect((await call(listClientDomains, { query: { siteID: rivalSite } })).json().total).toBe(0);
  });

  it('answers the domains of given sites as meta, and the ids of a name', async () => {
    const meta = (await call(metaClientDomains, { body: { siteIDs: [shop] } })).json().data;
    expect(meta).toEqual([
      { id: domainId(shop, 'api.shop.example'), name: 'api.shop.example', siteID: shop },
      { id: domainId(shop, 'www.shop.example'), name: 'www.shop.example', siteID: shop },
    ]);
    expect((await call(metaClientDomains, { body: { name: 'blog' } })).json().data).toHaveLength(1);
    expect((await call(metaClientDomains, rawInput({ body: { siteIDs: ['x'] } }))).json().code).toBe(101003);

    const both = (await call(clientDomainIds, { query: { name: 'API.shop.example' } })).json().data;
    expect(both.sort()).toEqual([domainId(shop, 'api.shop.example'), domainId(blog, 'api.shop.example')].sort());
    expect(
      (await call(clientDomainIds, { query: { name: 'api.shop.example', siteName: 'blog' } })).json().data,
    ).toEqual([domainId(blog, 'api.shop.example')]);
    expect((await call(clientDomainIds, { query: { name: 'api.shop.example', siteID: shop } })).json().data).toEqual([
      domainId(shop, 'api.shop.example'),
    ]);
    expect((await call(clientDomainIds, { query: { name: 'www.rival.example' } })).json().data).toEqual([]);
    expect((await call(clientDomainIds, { query: { name: 'not a name' } })).json().extra.fields[0].field).toBe('name');
  });

  it('replaces the tags of domains all or none, and lists the tags in use', async () => {
    const www = domainId(shop, 'www.shop.example');
    const blogWww = domainId(blog, 'www.blog.example');
    expect(
      (await call(setClientDomainTags, { body: { ids: [www, blogWww], tags: ['gold', 'gold'] } })).statusCode,
    ).toBe(200);
    expect((await call(listClientDomains, { query: { siteID: blog, tags: 'gold' } })).json().data[0].tags).toEqual([
      'gold',
    ]);
    expect((await call(clientDomainTags)).json().data).toEqual(['api', 'gold']);
    const rivalDomain = (await call(listClientDomains, undefined, rival)).json().data[0].id;
    expect((await call(setClientDomainTags, { body: { ids: [www, rivalDomain], tags: [] } })).json().code).toBe(101018);
    expect((await call(listClientDomains, { query: { siteID: shop, tags: 'gold' } })).json().total).toBe(1);
    expect(
      (await call(setClientDomainTags, { body: { ids: [www], tags: ['a b'] } })).json().extra.fields[0].field,
    ).toBe('tags.0');
  });

  it('shows a second operator none of the first one’s domains, and refuses it their ids (101018)', async () => {
    const seen = (await call(listClientDomains, undefined, rival)).json();
    expect(seen.data.map((d: { name: string }) => d.name)).toEqual(['www.rival.example']);
    expect((await call(metaClientDomains, { body: { siteIDs: [shop] } }, rival)).json().data).toEqual([]);
    expect((await call(clientDomainTags, undefined, rival)).json().data).toEqual(['web']);
    expect((await call(clientDomainIds, { query: { name: 'www.shop.example' } }, rival)).json().data).toEqual([]);
    const www = domainId(shop, 'www.shop.example');
    expect((await call(setClientDomainTags, { body: { ids: [www], tags: [] } }, rival)).json().code).toBe(101018);
  });
});
