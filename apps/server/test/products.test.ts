import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, type Method, signIn } from './helpers/auth.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let zoneId: number;
let web: number;
let webBackup: number;
let tcp: number;
beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  zoneId = (await call('POST', 'client/zone', { name: 'Asia' })).json().data.id;
  const group = async (name: string, portType: number, isBackup = false) =>
    (await call('POST', `client/zone/${zoneId}/group`, { name, portType, isBackup })).json().data.id as number;
  web = await group('web', 7);
  webBackup = await group('web-backup', 7, true);
  tcp = await group('tcp', 4);
});
afterAll(async () => t.close());

function call(method: Method, url: string, payload?: Record<string, unknown>) {
  return callApi(t.app, client, method, url, payload);
}

describe('products', () => {
  it('creates a product with main and backup groups and lists it', async () => {
    const res = await call('POST', 'client/product', {
      name: 'CDN Pro',
      portType: 7,
      mainGroupIDs: [web],
      backupGroupIDs: [webBackup],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'CDN Pro',
      portType: 7,
      mainGroups: [{ id: web, name: 'web', zoneId }],
      backupGroups: [{ id: webBackup, name: 'web-backup', zoneId }],
    });
    expect((await call('GET', 'client/products')).json().total).toBe(1);
    expect((await call('GET', 'client/metaProducts')).json().data).toEqual([
      { id: res.json().data.id, name: 'CDN Pro', portType: 7 },
    ]);
  });

  it('refuses groups of another port type, the same group as main and backup, and unknown groups', async () => {
    const mixed = await call('POST', 'client/product', { name: 'Mixed', portType: 7, mainGroupIDs: [web, tcp] });
    expect(mixed.json().extra.fields[0]).toMatchObject({ field: 'mainGroupIDs', key: 'invalidValue' });
    const both = await call('POST', 'client/product', {
      name: 'Both',
      portType: 7,
      mainGroupIDs: [web],
      backupGroupIDs: [web],
    });
    expect(both.json().extra.fields[0].field).toBe('backupGroupIDs');
    expect(
      (await call('POST', 'client/product', { name: 'Ghost', portType: 7, mainGroupIDs: [999_999] })).json().code,
    ).toBe(101018);
    expect((await call('POST', 'client/product', { name: 'None', portType: 7, mainGroupIDs: [] })).json().code).toBe(
      101003,
    );
    expect((await call('GET', 'client/products')).json().total).toBe(1);
  });

  it('updates the groups, refuses a taken name, and deletes', async () => {
    const id = (await call('POST', 'client/product', { name: 'Basic', portType: 7, mainGroupIDs: [web] })).json().data
      .id;
    const updated = await call('PUT', 'client/product', {
      id,
      name: 'Basic',
      portType: 7,
      mainGroupIDs: [web],
      backupGroupIDs: [webBackup],
    });
    expect(updated.json().data.backupGroups).toEqual([{ id: webBackup, name: 'web-backup', zoneId }]);
    expect(
      (await call('PUT', 'client/product', { id, name: 'CDN Pro', portType: 7, mainGroupIDs: [web] })).json().code,
    ).toBe(101025);
    expect((await call('DELETE', 'client/product', { id })).statusCode).toBe(200);
    expect((await call('DELETE', 'client/product', { id })).json().code).toBe(101018);
  });

  it('keeps a group that a product uses: deleting it, or its zone, answers 203001', async () => {
    const del = await call('DELETE', `client/zone/${zoneId}/group`, { id: web });
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe(203001);
    expect((await call('DELETE', 'client/zone', { id: zoneId })).json().code).toBe(203001);
    expect((await call('DELETE', `client/zone/${zoneId}/group`, { id: tcp })).statusCode).toBe(200);
  });
});
