import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, callApi, type Method, signIn } from './helpers/auth.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
});
afterAll(async () => t.close());

const call = (method: Method, url: string, payload?: Record<string, unknown>) =>
  callApi(t.app, client, method, url, payload);

async function registeredNode(hostname: string): Promise<number> {
  const info = await call('GET', 'client/node-info');
  const token = /join_token=(\S+)/.exec(info.body)?.[1];
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/edge/v1/register',
    payload: { joinToken: token, hostname, ips: ['192.0.2.20'], version: '0.1.0' },
  });
  return res.json().data.nodeId;
}

describe('zones', () => {
  it('creates, lists, renames and deletes a zone', async () => {
    const created = await call('POST', 'client/zone', { name: 'Asia East', memo: 'Tokyo and Taipei' });
    expect(created.statusCode).toBe(200);
    const zone = created.json().data;
    expect(zone).toMatchObject({ name: 'Asia East', memo: 'Tokyo and Taipei', nodeCount: 0 });
    await call('POST', 'client/zone', { name: 'Europe' });

    const list = await call('GET', 'client/zones?page=1&pageSize=10&sortBy=name&orderBy=asc');
    expect(list.json().total).toBe(2);
    expect(list.json().data.map((z: { name: string }) => z.name)).toEqual(['Asia East', 'Europe']);
    expect((await call('GET', 'client/zones?page=2&pageSize=1&sortBy=name&orderBy=asc')).json().data[0].name).toBe(
      'Europe',
    );
    expect((await call('GET', 'client/metaZones')).json().data).toEqual([
      { id: zone.id, name: 'Asia East' },
      { id: expect.any(Number), name: 'Europe' },
    ]);

    const renamed = await call('PUT', 'client/zone', { id: zone.id, name: 'Asia', memo: '' });
    expect(renamed.json().data).toMatchObject({ id: zone.id, name: 'Asia', memo: '' });
    expect((await call('DELETE', 'client/zone', { id: zone.id })).statusCode).toBe(200);
    expect((await call('GET', 'client/zones')).json().total).toBe(1);
  });

  it('refuses a duplicate name with 201002 and a bad one with 101003', async () => {
    await call('POST', 'client/zone', { name: 'Americas' });
    const dup = await call('POST', 'client/zone', { name: 'Americas' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe(201002);
    const bad = await call('POST', 'client/zone', { name: '   ', memo: 'x'.repeat(257) });
    expect(
      bad
        .json()
        .extra.fields.map((f: { field: string; key: string }) => `${f.field}:${f.key}`)
        .sort(),
    ).toEqual(['memo:tooLong', 'name:required']);
  });

  it('places registered nodes in a zone, and then refuses to delete that zone with 201001', async () => {
    const zone = (await call('POST', 'client/zone', { name: 'Oceania' })).json().data;
    const a = await registeredNode('edge-a');
    const b = await registeredNode('edge-b');
    expect((await call('POST', 'client/nodes/initialize', { ids: [a, b], zoneID: zone.id })).statusCode).toBe(200);
    expect((await call('GET', 'client/nodes')).json().data.map((n: { id: number }) => n.id)).not.toContain(a);
    const withNodes = (await call('GET', 'client/zones?sortBy=name&orderBy=asc'))
      .json()
      .data.find((z: { id: number }) => z.id === zone.id);
    expect(withNodes.nodeCount).toBe(2);
    const del = await call('DELETE', 'client/zone', { id: zone.id });
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe(201001);
  });

  it('initialises all or none: one unknown node id leaves every node uninitialised', async () => {
    const zone = (await call('POST', 'client/zone', { name: 'Africa' })).json().data;
    const c = await registeredNode('edge-c');
    const res = await call('POST', 'client/nodes/initialize', { ids: [c, 987_654], zoneID: zone.id });
    expect(res.json().code).toBe(101018);
    expect((await call('GET', 'client/nodes')).json().data.map((n: { id: number }) => n.id)).toContain(c);
  });

  it("initialises into a group under the group lines' rule: a layer-7 node is refused by a layer-4 group, all or none", async () => {
    const zone = (await call('POST', 'client/zone', { name: 'Placement' })).json().data;
    const tcp = (await call('POST', `client/zone/${zone.id}/group`, { name: 'tcp', portType: 4 })).json().data.id;
    const web = (await call('POST', `client/zone/${zone.id}/group`, { name: 'web', portType: 7 })).json().data.id;
    const [a, b] = [await registeredNode('place-a'), await registeredNode('place-b')];
    const refused = await call('POST', 'client/nodes/initialize', { ids: [a, b], zoneID: zone.id, groupID: tcp });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 101003,
      extra: { fields: [{ field: 'ids', key: 'portTypeMismatch' }] },
    });
    // Nothing moved: both still wait, and the group is empty.
    const waiting = (await call('GET', 'client/nodes?page=1&pageSize=100'))
      .json()
      .data.map((n: { id: number }) => n.id);
    expect(waiting).toEqual(expect.arrayContaining([a, b]));
    const lineOf = (g: number) =>
      call('GET', `client/zone/${zone.id}/group/${g}/line/default/nodes?page=1&pageSize=100`);
    expect((await lineOf(tcp)).json().total).toBe(0);

    expect(
      (await call('POST', 'client/nodes/initialize', { ids: [a, b], zoneID: zone.id, groupID: web })).statusCode,
    ).toBe(200);
    expect(
      (await lineOf(web))
        .json()
        .data.map((n: { id: number }) => n.id)
        .sort(),
    ).toEqual([a, b].sort());
  });

  it("keeps zones to their operator: a user's token and a foreign id get nothing", async () => {
    const user = await signIn(t.app, 'user');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/client/zones', headers: bearer(user) });
    expect(res.json().code).toBe(101018);
    expect((await call('PUT', 'client/zone', { id: 999_999, name: 'Nope' })).json().code).toBe(101018);
    expect((await call('DELETE', 'client/zone', { id: 999_999 })).json().code).toBe(101018);
  });
});

describe('moving nodes between zones', () => {
  it('moves initialised nodes all or none, refusing one still in a group (202003)', async () => {
    const from = (await call('POST', 'client/zone', { name: 'Move from' })).json().data.id;
    const to = (await call('POST', 'client/zone', { name: 'Move to' })).json().data.id;
    const group = (await call('POST', `client/zone/${from}/group`, { name: 'web', portType: 7 })).json().data.id;
    const [loose, grouped, waiting] = [
      await registeredNode('move-loose'),
      await registeredNode('move-grouped'),
      await registeredNode('move-waiting'),
    ];
    await call('POST', 'client/nodes/initialize', { ids: [loose], zoneID: from });
    await call('POST', 'client/nodes/initialize', { ids: [grouped], zoneID: from, groupID: group });
    const zoneOf = async (id: number) =>
      (await call('GET', `client/nodes/initialized?page=1&pageSize=100&zoneIDs=${from}&zoneIDs=${to}`))
        .json()
        .data.find((n: { id: number }) => n.id === id)?.zoneId;

    const refused = await call('POST', 'client/node/moveToZone', { nodeIDs: [loose, grouped], zoneID: to });
    expect(refused.json()).toMatchObject({ code: 202003, extra: { nodeIDs: [grouped] } });
    expect(await zoneOf(loose)).toBe(from);

    for (const nodeIDs of [[waiting], [loose, 999_999]]) {
      expect((await call('POST', 'client/node/moveToZone', { nodeIDs, zoneID: to })).json().code).toBe(101018);
    }
    expect((await call('POST', 'client/node/moveToZone', { nodeIDs: [loose], zoneID: 999_999 })).json().code).toBe(
      101018,
    );
    expect(await zoneOf(loose)).toBe(from);

    expect((await call('POST', 'client/node/moveToZone', { nodeIDs: [loose], zoneID: to })).statusCode).toBe(200);
    expect(await zoneOf(loose)).toBe(to);
    const zones = (await call('GET', 'client/zones?page=1&pageSize=100')).json().data;
    const count = (id: number) => zones.find((z: { id: number }) => z.id === id)?.nodeCount;
    expect([count(from), count(to)]).toEqual([1, 1]);
  });
});

describe('zone settings', () => {
  it('starts with HTTP/2 on, HTTP/3 off and 301 redirects, and changes them', async () => {
    const zoneId = (await call('POST', 'client/zone', { name: 'Settings' })).json().data.id;
    const settings = (path = '') => call('GET', `client/zone/${zoneId}/setting${path}`);
    expect((await settings()).json().data).toEqual({
      http2: true,
      http3: false,
      forceSSLRedirectCode: 301,
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });

    const off = await call('PUT', `client/zone/${zoneId}/setting/http2`, { enable: false });
    expect(off.json().data).toEqual({
      http2: false,
      http3: false,
      forceSSLRedirectCode: 301,
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
    const code = await call('PUT', `client/zone/${zoneId}/setting/forceSSLRedirectCode`, { code: 308 });
    expect(code.json().data).toEqual({
      http2: false,
      http3: false,
      forceSSLRedirectCode: 308,
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
    expect((await settings()).json().data).toEqual({
      http2: false,
      http3: false,
      forceSSLRedirectCode: 308,
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
  });

  it("refuses HTTP/3 on with a field error, other redirect codes, and zones not the caller's", async () => {
    const zoneId = (await call('POST', 'client/zone', { name: 'No QUIC' })).json().data.id;
    const http3 = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/client/zone/${zoneId}/setting/http3`,
      headers: { ...bearer(client), 'accept-language': 'zh-TW' },
      payload: { enable: true },
    });
    expect(http3.json()).toMatchObject({
      code: 101003,
      extra: { fields: [{ field: 'enable', key: 'http3Unsupported', message: expect.stringContaining('QUIC') }] },
    });
    expect((await call('PUT', `client/zone/${zoneId}/setting/http3`, { enable: false })).json().data.http3).toBe(false);
    for (const bad of [300, 303, '301', null]) {
      const res = await call('PUT', `client/zone/${zoneId}/setting/forceSSLRedirectCode`, { code: bad });
      expect(res.json().code).toBe(101003);
    }
    expect((await call('GET', `client/zone/${zoneId}/setting`)).json().data.forceSSLRedirectCode).toBe(301);

    expect((await call('GET', 'client/zone/999999/setting')).json().code).toBe(101018);
    expect((await call('PUT', 'client/zone/999999/setting/http2', { enable: false })).json().code).toBe(101018);
    const user = await signIn(t.app, 'user');
    const asUser = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/client/zone/${zoneId}/setting/http2`,
      headers: bearer(user),
      payload: { enable: false },
    });
    expect(asUser.json().code).toBe(101018);
    expect((await call('GET', `client/zone/${zoneId}/setting`)).json().data.http2).toBe(true);
  });
});
