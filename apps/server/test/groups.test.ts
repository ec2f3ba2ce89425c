import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { callApi, type Method, signIn } from './helpers/auth.js';
import { initializedNode } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let zoneId: number;
let otherZoneId: number;
beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  zoneId = (await call('POST', 'client/zone', { name: 'Asia' })).json().data.id;
  otherZoneId = (await call('POST', 'client/zone', { name: 'Europe' })).json().data.id;
});
afterAll(async () => t.close());

function call(method: Method, url: string, payload?: Record<string, unknown>) {
  return callApi(t.app, client, method, url, payload);
}

const nodeIn = (zone: number, hostname: string) => initializedNode(t, client, zone, hostname);

describe('groups', () => {
  it('creates groups per port type, filters them, and updates one', async () => {
    const web = (await call('POST', `client/zone/${zoneId}/group`, { name: 'web', portType: 7 })).json().data;
    expect(web).toMatchObject({ zoneId, name: 'web', portType: 7, isBackup: false, nodeCount: 0 });
    await call('POST', `client/zone/${zoneId}/group`, { name: 'web-backup', portType: 7, isBackup: true });
    await call('POST', `client/zone/${zoneId}/group`, { name: 'tcp', portType: 4 });
    expect((await call('GET', `client/zone/${zoneId}/groups`)).json().total).toBe(3);
    const meta = await call('GET', `client/zone/${zoneId}/metaGroups?portType=7&isBackup=false`);
    expect(meta.json().data).toEqual([{ id: web.id, name: 'web' }]);
    const patched = await call('PATCH', `client/zone/${zoneId}/group`, {
      id: web.id,
      name: 'web-main',
      isBackup: false,
      memo: 'main',
    });
    expect(patched.json().data).toMatchObject({ name: 'web-main', memo: 'main', portType: 7 });
    expect((await call('POST', `client/zone/${zoneId}/group`, { name: 'tcp', portType: 4 })).json().code).toBe(101025);
    expect(
      (await call('POST', `client/zone/${zoneId}/group`, { name: 'x', portType: 5 })).json().extra.fields[0].field,
    ).toBe('portType');
  });

  it('puts nodes of the zone in a group on a line, and refuses nodes of another zone', async () => {
    const group = (await call('POST', `client/zone/${zoneId}/group`, { name: 'edge', portType: 7 })).json().data;
    const a = await nodeIn(zoneId, 'edge-a');
    const b = await nodeIn(zoneId, 'edge-b');
    const elsewhere = await nodeIn(otherZoneId, 'edge-eu');
    const base = `client/zone/${zoneId}/group/${group.id}/line/default/nodes`;
    expect((await call('POST', base, { nodeIDs: [a, b] })).statusCode).toBe(200);
    expect((await call('POST', base, { nodeIDs: [a] })).statusCode).toBe(200); // idempotent
    expect((await call('GET', base)).json()).toMatchObject({
      total: 2,
      data: [
        { id: a, name: 'edge-a' },
        { id: b, name: 'edge-b' },
      ],
    });
    expect((await call('POST', base, { nodeIDs: [elsewhere] })).json().code).toBe(101018);
    expect((await call('DELETE', base, { nodeIDs: [a] })).statusCode).toBe(200);
    expect((await call('GET', base)).json().total).toBe(1);
    const listed = (await call('GET', `client/zone/${zoneId}/groups`))
      .json()
      .data.find((g: { id: number }) => g.id === group.id);
    expect(listed.nodeCount).toBe(1);
    expect(
      (await call('POST', `client/zone/${zoneId}/group/${group.id}/line/bad line/nodes`, { nodeIDs: [a] })).statusCode,
    ).toBe(400);
  });

  it("does not reach a group through another zone's path", async () => {
    const group = (await call('POST', `client/zone/${zoneId}/group`, { name: 'scoped', portType: 7 })).json().data;
    expect(
      (
        await call('PATCH', `client/zone/${otherZoneId}/group`, { id: group.id, name: 'stolen', isBackup: false })
      ).json().code,
    ).toBe(101018);
    expect((await call('DELETE', `client/zone/${otherZoneId}/group`, { id: group.id })).json().code).toBe(101018);
    expect((await call('GET', `client/zone/${otherZoneId}/group/${group.id}/line/default/nodes`)).json().code).toBe(
      101018,
    );
    expect((await call('DELETE', `client/zone/${zoneId}/group`, { id: group.id })).statusCode).toBe(200);
  });

  it('filters metaGroups by port type and backup flag, and refuses a bad filter with 101003', async () => {
    const zone = (await call('POST', 'client/zone', { name: 'Meta' })).json().data.id;
    const make = async (name: string, portType: number, isBackup: boolean) =>
      (await call('POST', `client/zone/${zone}/group`, { name, portType, isBackup })).json().data.id;
    const main7 = await make('a-main', 7, false);
    const backup7 = await make('b-backup', 7, true);
    const backup4 = await make('c-backup-l4', 4, true);
    const meta = async (query: string) =>
      (await call('GET', `client/zone/${zone}/metaGroups${query}`)).json().data.map((g: { id: number }) => g.id);
    expect(await meta('')).toEqual([main7, backup7, backup4]);
    expect(await meta('?isBackup=true')).toEqual([backup7, backup4]);
    expect(await meta('?portType=4')).toEqual([backup4]);
    expect(await meta('?portType=7&isBackup=true')).toEqual([backup7]);
    const bad = await call('GET', `client/zone/${zone}/metaGroups?portType=5&isBackup=maybe`);
    expect(
      bad
        .json()
        .extra.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['isBackup', 'portType']);
  });

  it("answers another operator 101018 for the zone's groups, metaGroups and a new group in it", async () => {
    const rival = await signInOtherOperator(t.app);
    const as = (method: Method, url: string, payload?: Record<string, unknown>) =>
      callApi(t.app, rival, method, url, payload);
    expect((await as('GET', `client/zone/${zoneId}/groups`)).json().code).toBe(101018);
    expect((await as('GET', `client/zone/${zoneId}/metaGroups`)).json().code).toBe(101018);
    expect((await as('POST', `client/zone/${zoneId}/group`, { name: 'intruder', portType: 7 })).json().code).toBe(
      101018,
    );
  });

  it('deletes an empty zone together with its groups', async () => {
    const zone = (await call('POST', 'client/zone', { name: 'Empty' })).json().data;
    await call('POST', `client/zone/${zone.id}/group`, { name: 'g', portType: 7 });
    expect((await call('DELETE', 'client/zone', { id: zone.id })).statusCode).toBe(200);
  });
});
