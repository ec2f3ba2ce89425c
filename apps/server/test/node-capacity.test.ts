import type { AnyRoute } from '@rampart/contract';
import {
  addLineNodes,
  addLineVirtualNodes,
  addVirtualNodeNodeRecords,
  changeSitesProduct,
  copyDomainsToSite,
  createDomains,
  createDomainsFrom,
  createGroup,
  createProduct,
  createSimpleDomains,
  createSite,
  createVirtualNode,
  deleteDomainsByNames,
  initializeNodes,
  listClientSites,
  listDomains,
  listUninitializedNodes,
  listVirtualNodeRecords,
  productGroups,
  updateProduct,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { send, sendAs, type Token } from './helpers/call.js';
import { joinNode } from './helpers/edge-node.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * A node carries at most `nodeDomainLimit` domains (the data plane's limit, set low here): every
 * route that adds domains to a node or moves sites onto one refuses to go over with 401002, and
 * writes nothing. Sites: `shop` (the customer) and `next door` (the neighbour) on product CDN,
 * group web, node edge-1; `spare` is a second group with no node, product Spare on it.
 */
const LIMIT = 5;
let t: TestApp;
let f: SiteFixture;
let spareGroup: number;
let spareProduct: number;
let spareSite: number;
let shopTwin: number;

beforeAll(async () => {
  t = await createTestApp({ config: { nodeDomainLimit: LIMIT } });
  f = await siteFixture(t);
  spareGroup = (
    await f.call(createGroup, { params: { zoneID: f.zoneId }, body: { name: 'spare', portType: 7 } })
  ).json().data.id;
  spareProduct = (
    await f.call(createProduct, { body: { name: 'Spare', portType: 7, mainGroupIDs: [spareGroup] } })
  ).json().data.id;
  const userID = await rootId(t.app, 'user');
  spareSite = (await f.call(createSite, { body: { siteName: 'spare', userID, productID: spareProduct } })).json().data
    .siteID;
  // A second site of the customer on the node's product (target of copies).
  shopTwin = (await f.call(createSite, { body: { siteName: 'twin', userID, productID: f.productId } })).json().data
    .siteID;
});
afterAll(async () => t.close());

const upstreams = [{ ip: '127.0.0.1', port: 8080 }];
const userCall = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);

async function domainCount(siteId: number): Promise<number> {
  const res = (await t.db.database.db.execute(
    sql`SELECT count(*)::int AS n FROM domains WHERE site_id = ${siteId}`,
  )) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0]?.n);
}

function expectNodeLimit(res: { statusCode: number; json(): { code: number; extra?: unknown } }) {
  expect(res.statusCode).toBe(422);
  expect(res.json().code).toBe(401002);
  expect(res.json().extra).toMatchObject({ scope: 'node', limit: LIMIT });
}

describe('domains a node can carry', () => {
  it('counts every site on the node: the neighbour cannot add past what the customer left', async () => {
    await f.addDomains(['a.shop.example', 'b.shop.example', 'c.shop.example']);
    await f.addDomains(['a.next.example'], 'other');
    const refused = await f.call(
      createDomains,
      {
        params: { siteId: f.otherSiteId },
        body: {
          domains: [
            { name: 'b.next.example', upstreams },
            { name: 'c.next.example', upstreams },
          ],
        },
      },
      f.other,
    );
    expectNodeLimit(refused);
    // The customer is not told which node (an operator's object).
    expect(refused.json().extra).not.toHaveProperty('nodeID');
    expect(await domainCount(f.otherSiteId)).toBe(1);
    // The last place is still free.
    await f.addDomains(['b.next.example'], 'other');
    expect(await domainCount(f.otherSiteId)).toBe(2);
  });

  it('refuses the simple create, the copy to another site and the create-from of a full node', async () => {
    // The node carries 5 of 5.
    expectNodeLimit(
      await userCall(createSimpleDomains, {
        params: { siteId: f.siteId },
        body: { names: ['d.shop.example'], upstreams },
      }),
    );
    const [first] = (
      await userCall(listDomains, { params: { siteId: f.siteId }, query: { page: 1, pageSize: 1 } })
    ).json().data;
    expectNodeLimit(
      await userCall(copyDomainsToSite, {
        params: { siteId: f.siteId },
        body: { domainIDs: [first.id], siteID: shopTwin },
      }),
    );
    expectNodeLimit(
      await userCall(createDomainsFrom, {
        params: { siteId: f.siteId },
        body: {
          domainID: first.id,
          names: ['e.shop.example'],
        },
      }),
    );
    expect(await domainCount(f.siteId)).toBe(3);
    expect(await domainCount(shopTwin)).toBe(0);
    // A site on a group without nodes is not limited by any node.
    const spare = await userCall(createSimpleDomains, {
      params: { siteId: spareSite },
      body: {
        names: [
          'a.spare.example',
          'b.spare.example',
          'c.spare.example',
          'd.spare.example',
          'e.spare.example',
          'f.spare.example',
        ],
        upstreams,
      },
    });
    expect(spare.statusCode).toBe(200);
  });

  it("refuses moving a site onto the node's product, the product onto the node's group, and the node into the site's group", async () => {
    // spare carries 6 domains and no node serves it yet.
    expectNodeLimit(await f.call(changeSitesProduct, { body: { ids: [spareSite], productID: f.productId } }));
    const site = (await f.call(listClientSites, { query: { page: 1, pageSize: 50 } }))
      .json()
      .data.find((s: { siteID: number }) => s.siteID === spareSite);
    expect(site!.productID).toBe(spareProduct);

    const update = await f.call(updateProduct, {
      body: {
        id: spareProduct,
        name: 'Spare',
        portType: 7,
        mainGroupIDs: [spareGroup, f.groupId],
      },
    });
    expectNodeLimit(update);
    expect(update.json().extra).toMatchObject({ nodeID: f.node.nodeId });
    const groups = (await f.call(productGroups, { params: { id: spareProduct } })).json().data;
    expect(JSON.stringify(groups)).not.toContain(`"id":${f.groupId}`);

    expectNodeLimit(
      await f.call(addLineNodes, {
        params: { zoneID: f.zoneId, groupID: spareGroup, lineID: 'default' },
        body: {
          nodeIDs: [f.node.nodeId],
        },
      }),
    );
    const vn = (
      await f.call(createVirtualNode, { params: { zoneID: f.zoneId }, body: { name: 'pool', portType: 7 } })
    ).json().data.id;
    await f.call(addLineVirtualNodes, {
      params: { zoneID: f.zoneId, groupID: spareGroup, lineID: 'default' },
      body: {
        virtualNodeIDs: [vn],
      },
    });
    expectNodeLimit(
      await f.call(addVirtualNodeNodeRecords, {
        params: { zoneID: f.zoneId, id: vn },
        body: { nodeIDs: [f.node.nodeId] },
      }),
    );
    const records = (
      await f.call(listVirtualNodeRecords, { params: { zoneID: f.zoneId, id: vn }, query: { page: 1, pageSize: 10 } })
    ).json();
    expect(records.total).toBe(0);

    const fresh = await joinNode(t.app, f.client, 'edge-2');
    expectNodeLimit(
      await f.call(initializeNodes, { body: { ids: [fresh.nodeId], zoneID: f.zoneId, groupID: spareGroup } }),
    );
    const waiting = (await f.call(listUninitializedNodes, { query: { page: 1, pageSize: 10 } })).json().data;
    expect(waiting.map((n: { id: number }) => n.id)).toContain(fresh.nodeId);
  });

  it('lets two concurrent creates take the last places one after the other, never both', async () => {
    const customer = await addAccount(t.app, 'user', 'racer', await rootId(t.app, 'client'));
    const racer = await signIn(t.app, 'user', 'racer');
    const product = (
      await f.call(createProduct, { body: { name: 'Race', portType: 7, mainGroupIDs: [f.groupId] } })
    ).json().data.id;
    // The node is full: make room for exactly 3 by deleting the customer's domains.
    await userCall(deleteDomainsByNames, {
      params: { siteId: f.siteId },
      body: {
        names: ['a.shop.example', 'b.shop.example', 'c.shop.example'],
      },
    });
    expect(await domainCount(f.siteId)).toBe(0);
    const sites = await Promise.all(
      ['r1', 'r2'].map(
        async (name) =>
          (await f.call(createSite, { body: { siteName: name, userID: customer, productID: product } })).json().data
            .siteID as number,
      ),
    );
    const results = await Promise.all(
      sites.map((siteId, i) =>
        send(
          t.app,
          createDomains,
          {
            params: { siteId },
            body: {
              domains: ['x', 'y'].map((label) => ({ name: `${label}.r${i}.example`, upstreams })),
            },
          },
          { token: racer },
        ),
      ),
    );
    const codes = results.map((r) => (r.statusCode === 200 ? 200 : r.json().code)).sort();
    expect(codes).toEqual([200, 401002]);
    const total = (await domainCount(sites[0] ?? 0)) + (await domainCount(sites[1] ?? 0));
    expect(total).toBe(2);
  });
});
