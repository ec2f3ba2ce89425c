import type { AnyRoute } from '@rampart/contract';
import {
  createProduct,
  createSite,
  deleteGroup,
  deleteProduct,
  deleteZone,
  listProducts,
  metaProducts,
  productGroups,
  updateProduct,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawInput, sendAs, type Token } from './helpers/call.js';
import { operatorCalls } from './helpers/operators.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let zoneId: number;
let web: number;
let webBackup: number;
let tcp: number;
beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  const make = operatorCalls(t.app, client);
  zoneId = await make.zone('Asia');
  web = await make.group(zoneId, 'web', 7, false);
  webBackup = await make.group(zoneId, 'web-backup', 7, true);
  tcp = await make.group(zoneId, 'tcp', 4, false);
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}

describe('products', () => {
  it('creates a product with main and backup groups and lists it', async () => {
    const res = await call(createProduct, {
      body: {
        name: 'CDN Pro',
        portType: 7,
        mainGroupIDs: [web],
        backupGroupIDs: [webBackup],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'CDN Pro',
      portType: 7,
      mainGroups: [{ id: web, name: 'web', zoneId }],
      backupGroups: [{ id: webBackup, name: 'web-backup', zoneId }],
    });
    expect((await call(listProducts)).json().total).toBe(1);
    expect((await call(metaProducts)).json().data).toEqual([{ id: res.json().data.id, name: 'CDN Pro', portType: 7 }]);
  });

  it('refuses groups of another port type, the same group as main and backup, and unknown groups', async () => {
    const mixed = await call(createProduct, { body: { name: 'Mixed', portType: 7, mainGroupIDs: [web, tcp] } });
    expect(mixed.json().extra.fields[0]).toMatchObject({ field: 'mainGroupIDs', key: 'invalidValue' });
    const both = await call(createProduct, {
      body: {
        name: 'Both',
        portType: 7,
        mainGroupIDs: [web],
        backupGroupIDs: [web],
      },
    });
    expect(both.json().extra.fields[0].field).toBe('backupGroupIDs');
    expect(
      (await call(createProduct, { body: { name: 'Ghost', portType: 7, mainGroupIDs: [999_999] } })).json().code,
    ).toBe(101018);
    expect((await call(createProduct, { body: { name: 'None', portType: 7, mainGroupIDs: [] } })).json().code).toBe(
      101003,
    );
    expect((await call(listProducts)).json().total).toBe(1);
  });

  it('updates the groups, refuses a taken name, and deletes', async () => {
    const id = (await call(createProduct, { body: { name: 'Basic', portType: 7, mainGroupIDs: [web] } })).json().data
      .id;
    const updated = await call(updateProduct, {
      body: {
        id,
        name: 'Basic',
        portType: 7,
        mainGroupIDs: [web],
        backupGroupIDs: [webBackup],
      },
    });
    expect(updated.json().data.backupGroups).toEqual([{ id: webBackup, name: 'web-backup', zoneId }]);
    expect(
      (await call(updateProduct, { body: { id, name: 'CDN Pro', portType: 7, mainGroupIDs: [web] } })).json().code,
    ).toBe(101025);
    expect((await call(deleteProduct, { body: { id } })).statusCode).toBe(200);
    expect((await call(deleteProduct, { body: { id } })).json().code).toBe(101018);
  });

  it('keeps a group that a product uses: deleting it, or its zone, answers 203001', async () => {
    const del = await call(deleteGroup, { params: { zoneID: zoneId }, body: { id: web } });
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe(203001);
    expect((await call(deleteZone, { body: { id: zoneId } })).json().code).toBe(203001);
    expect((await call(deleteGroup, { params: { zoneID: zoneId }, body: { id: tcp } })).statusCode).toBe(200);
  });

  it("answers a product's main or backup groups with their zones; 101018 for a product not the caller's", async () => {
    const id = (
      await call(createProduct, {
        body: {
          name: 'Grouped',
          portType: 7,
          mainGroupIDs: [web],
          backupGroupIDs: [webBackup],
        },
      })
    ).json().data.id;
    expect((await call(productGroups, { params: { id } })).json().data).toEqual([
      { id: web, name: 'web', zoneID: zoneId, zoneName: 'Asia', nodeCount: 0 },
    ]);
    expect((await call(productGroups, { params: { id }, query: { isBackup: 'true' } })).json().data).toEqual([
      { id: webBackup, name: 'web-backup', zoneID: zoneId, zoneName: 'Asia', nodeCount: 0 },
    ]);
    expect(
      (await call(productGroups, rawInput({ params: { id }, query: { isBackup: 'maybe' } }))).json().extra.fields[0]
        .field,
    ).toBe('isBackup');
    expect((await call(productGroups, { params: { id: 999999 } })).json().code).toBe(101018);

    await addAccount(t.app, 'client', 'rival');
    const rival = await signIn(t.app, 'client', 'rival', TEST_PASSWORD);
    expect((await call(productGroups, { params: { id } }, rival)).json().code).toBe(101018);
    expect((await call(listProducts, undefined, rival)).json()).toEqual({ data: [], total: 0 });
    expect((await call(metaProducts, undefined, rival)).json().data).toEqual([]);
  });

  it('keeps a sites limit: shown with the count, never set below the sites a product carries (204003)', async () => {
    const body = { name: 'Limited', portType: 7 as const, mainGroupIDs: [web], siteLimit: 2 };
    const id = (await call(createProduct, { body })).json().data.id;
    const userID = await rootId(t.app, 'user');
    for (const siteName of ['l1', 'l2']) await call(createSite, { body: { siteName, userID, productID: id } });
    const listed = (await call(listProducts)).json().data.find((p: { id: number }) => p.id === id);
    expect(listed).toMatchObject({ siteLimit: 2, siteCount: 2 });
    expect((await call(updateProduct, { body: { ...body, id, siteLimit: 1 } })).json().code).toBe(204003);
    expect((await call(updateProduct, { body: { ...body, id, siteLimit: 0 } })).json().data.siteLimit).toBe(0);
    expect(
      (await call(createProduct, { body: { ...body, name: 'Neg', siteLimit: -1 } })).json().extra.fields[0].field,
    ).toBe('siteLimit');
  });
});
