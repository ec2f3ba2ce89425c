import type { AnyRoute } from '@rampart/contract';
import {
  createGroup,
  createProduct,
  createSite,
  createZone,
  deleteProduct,
  deleteSites,
  getUserSite,
  listClientSites,
  listUserSites,
  setSitesStatus,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/crypto/passwords.js';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import { webProduct } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let productId: number;
let userId: number;
let otherUserId: number;
beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  ({ productId } = await webProduct(t.app, client));
  userId = await rootId(t.app, 'user');
  // A customer account outside this operator's tree (no parent): not the operator's to serve.
  otherUserId = (
    await t.app.rampart.accounts.insert({
      tier: 'user',
      account: 'stranger',
      name: 'stranger',
      passwordHash: await hashPassword('stranger pass 1'),
    })
  ).id;
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}

describe('sites', () => {
  it('creates a site for a customer on a product; the customer sees it, the operator lists it', async () => {
    const res = await call(createSite, {
      body: {
        siteName: 'shop',
        userID: userId,
        productID: productId,
        tags: ['web', 'web', 'prod'],
        expiredAt: '2027-01-01T00:00:00Z',
      },
    });
    expect(res.statusCode).toBe(200);
    const site = res.json().data;
    expect(site).toMatchObject({
      siteName: 'shop',
      status: 'normal',
      tags: ['web', 'prod'],
      productID: productId,
      productName: 'CDN',
      userID: userId,
      userAccount: 'user',
      expiredAt: '2027-01-01T00:00:00.000Z',
      forceBackup: false,
    });
    expect((await call(listClientSites, { query: { siteName: 'sh' } })).json()).toMatchObject({
      total: 1,
      data: [{ siteID: site.siteID }],
    });
    expect((await call(listClientSites, { query: { siteName: '%' } })).json().total).toBe(0);

    const user = await signIn(t.app, 'user');
    expect((await call(listUserSites, undefined, user)).json()).toMatchObject({
      total: 1,
      data: [{ siteName: 'shop' }],
    });
    expect((await call(getUserSite, { params: { siteId: site.siteID } }, user)).json().data.siteID).toBe(site.siteID);
  });

  it("refuses a customer outside the operator's tree, an unknown product, and a client account as the customer", async () => {
    const clientRoot = await rootId(t.app, 'client');
    for (const body of [
      { siteName: 'x', userID: otherUserId, productID: productId },
      { siteName: 'x', userID: userId, productID: 999_999 },
      { siteName: 'x', userID: clientRoot, productID: productId },
    ]) {
      expect((await call(createSite, { body })).json().code).toBe(101018);
    }
  });

  it("tells the customer its site's product port type (7 for domains, 4 for layer-4 ports)", async () => {
    const zoneId = (await call(createZone, { body: { name: 'Ports zone' } })).json().data.id;
    const tcp = (await call(createGroup, { params: { zoneID: zoneId }, body: { name: 'tcp', portType: 4 } })).json()
      .data.id;
    const l4 = (await call(createProduct, { body: { name: 'L4', portType: 4, mainGroupIDs: [tcp] } })).json().data.id;
    const web = (await call(createSite, { body: { siteName: 'web7', userID: userId, productID: productId } })).json()
      .data.siteID;
    const ports = (await call(createSite, { body: { siteName: 'ports4', userID: userId, productID: l4 } })).json().data
      .siteID;
    const user = await signIn(t.app, 'user');
    expect((await call(getUserSite, { params: { siteId: web } }, user)).json().data).toMatchObject({
      siteID: web,
      portType: 7,
    });
    expect((await call(getUserSite, { params: { siteId: ports } }, user)).json().data).toMatchObject({
      siteID: ports,
      productID: l4,
      portType: 4,
    });
    expect((await call(deleteSites, { body: { ids: [web, ports] } })).statusCode).toBe(200);
  });

  it('sets status and deletes all or none', async () => {
    const a = (await call(createSite, { body: { siteName: 'a', userID: userId, productID: productId } })).json().data
      .siteID;
    const b = (await call(createSite, { body: { siteName: 'b', userID: userId, productID: productId } })).json().data
      .siteID;
    expect((await call(setSitesStatus, { body: { ids: [a, b], status: 'pause' } })).statusCode).toBe(200);
    expect((await call(listClientSites, { query: { status: 'pause' } })).json().total).toBe(2);
    expect((await call(setSitesStatus, { body: { ids: [a, 999_999], status: 'normal' } })).json().code).toBe(101018);
    expect((await call(listClientSites, { query: { status: 'pause' } })).json().total).toBe(2);
    expect((await call(deleteSites, { body: { ids: [a, 999_999] } })).json().code).toBe(101018);
    expect((await call(deleteSites, { body: { ids: [a, b] } })).statusCode).toBe(200);
    expect((await call(listClientSites, { query: { status: 'pause' } })).json().total).toBe(0);
  });

  it('keeps a product a site uses (204002), and keeps sites from other customers', async () => {
    const site = (await call(createSite, { body: { siteName: 'kept', userID: userId, productID: productId } })).json()
      .data;
    expect((await call(deleteProduct, { body: { id: productId } })).json().code).toBe(204002);
    const stranger = await signIn(t.app, 'user', 'stranger', 'stranger pass 1');
    expect((await call(listUserSites, undefined, stranger)).json()).toEqual({ data: [], total: 0 });
    expect((await call(getUserSite, { params: { siteId: site.siteID } }, stranger)).json().code).toBe(101018);
  });
});
