import type { AnyRoute } from '@rampart/contract';
import {
  createGroup,
  createZone,
  deleteZone,
  getZoneSettings,
  initializeNodes,
  listInitializedNodes,
  listLineNodes,
  listUninitializedNodes,
  listZones,
  metaZones,
  moveNodesToZone,
  setZoneForceSSLRedirectCode,
  setZoneHttp2,
  setZoneHttp3,
  updateZone,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn } from './helpers/auth.js';
import { rawInput, send, sendAs, type Token } from './helpers/call.js';
import { joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
});
afterAll(async () => t.close());

const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, client, route, ...args);

const registeredNode = async (hostname: string) => (await joinNode(t.app, client, hostname, ['192.0.2.20'])).nodeId;

describe('zones', () => {
  it('creates, lists, renames and deletes a zone', async () => {
    const created = await call(createZone, { body: { name: 'Asia East', memo: 'Tokyo and Taipei' } });
    expect(created.statusCode).toBe(200);
    const zone = created.json().data;
    expect(zone).toMatchObject({ name: 'Asia East', memo: 'Tokyo and Taipei', nodeCount: 0 });
    await call(createZone, { body: { name: 'Europe' } });

    const list = await call(listZones, { query: { page: 1, pageSize: 10, sortBy: 'name', orderBy: 'asc' } });
    expect(list.json().total).toBe(2);
    expect(list.json().data.map((z: { name: string }) => z.name)).toEqual(['Asia East', 'Europe']);
    expect(
      (await call(listZones, { query: { page: 2, pageSize: 1, sortBy: 'name', orderBy: 'asc' } })).json().data[0].name,
    ).toBe('Europe');
    expect((await call(metaZones)).json().data).toEqual([
      { id: zone.id, name: 'Asia East' },
      { id: expect.any(Number), name: 'Europe' },
    ]);

    const renamed = await call(updateZone, { body: { id: zone.id, name: 'Asia', memo: '' } });
    expect(renamed.json().data).toMatchObject({ id: zone.id, name: 'Asia', memo: '' });
    expect((await call(deleteZone, { body: { id: zone.id } })).statusCode).toBe(200);
    expect((await call(listZones)).json().total).toBe(1);
  });

  it('refuses a duplicate name with 201002 and a bad one with 101003', async () => {
    await call(createZone, { body: { name: 'Americas' } });
    const dup = await call(createZone, { body: { name: 'Americas' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe(201002);
    const bad = await call(createZone, { body: { name: '   ', memo: 'x'.repeat(257) } });
    expect(
      bad
        .json()
        .extra.fields.map((f: { field: string; key: string }) => `${f.field}:${f.key}`)
        .sort(),
    ).toEqual(['memo:tooLong', 'name:required']);
  });

  it('places registered nodes in a zone, and then refuses to delete that zone with 201001', async () => {
    const zone = (await call(createZone, { body: { name: 'Oceania' } })).json().data;
    const a = await registeredNode('edge-a');
    const b = await registeredNode('edge-b');
    expect((await call(initializeNodes, { body: { ids: [a, b], zoneID: zone.id } })).statusCode).toBe(200);
    expect((await call(listUninitializedNodes)).json().data.map((n: { id: number }) => n.id)).not.toContain(a);
    const withNodes = (await call(listZones, { query: { sortBy: 'name', orderBy: 'asc' } }))
      .json()
      .data.find((z: { id: number }) => z.id === zone.id);
    expect(withNodes!.nodeCount).toBe(2);
    const del = await call(deleteZone, { body: { id: zone.id } });
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe(201001);
  });

  it('initialises all or none: one unknown node id leaves every node uninitialised', async () => {
    const zone = (await call(createZone, { body: { name: 'Africa' } })).json().data;
    const c = await registeredNode('edge-c');
    const res = await call(initializeNodes, { body: { ids: [c, 987_654], zoneID: zone.id } });
    expect(res.json().code).toBe(101018);
    expect((await call(listUninitializedNodes)).json().data.map((n: { id: number }) => n.id)).toContain(c);
  });

  it("initialises into a group under the group lines' rule: a layer-7 node is refused by a layer-4 group, all or none", async () => {
    const zone = (await call(createZone, { body: { name: 'Placement' } })).json().data;
    const tcp = (await call(createGroup, { params: { zoneID: zone.id }, body: { name: 'tcp', portType: 4 } })).json()
      .data.id;
    const web = (await call(createGroup, { params: { zoneID: zone.id }, body: { name: 'web', portType: 7 } })).json()
      .data.id;
    const [a, b] = [await registeredNode('place-a'), await registeredNode('place-b')];
    const refused = await call(initializeNodes, { body: { ids: [a, b], zoneID: zone.id, groupID: tcp } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 101003,
      extra: { fields: [{ field: 'ids', key: 'portTypeMismatch' }] },
    });
    // Nothing moved: both still wait, and the group is empty.
    const waiting = (await call(listUninitializedNodes, { query: { page: 1, pageSize: 100 } }))
      .json()
      .data.map((n: { id: number }) => n.id);
    expect(waiting).toEqual(expect.arrayContaining([a, b]));
    const lineOf = (g: number) =>
      call(listLineNodes, {
        params: { zoneID: zone.id, groupID: g, lineID: 'default' },
        query: { page: 1, pageSize: 100 },
      });
    expect((await lineOf(tcp)).json().total).toBe(0);

    expect((await call(initializeNodes, { body: { ids: [a, b], zoneID: zone.id, groupID: web } })).statusCode).toBe(
      200,
    );
    expect(
      (await lineOf(web))
        .json()
        .data.map((n: { id: number }) => n.id)
        .sort(),
    ).toEqual([a, b].sort());
  });

  it("keeps zones to their operator: a user's token and a foreign id get nothing", async () => {
    const user = await signIn(t.app, 'user');
    const res = await send(t.app, listZones, undefined, { headers: bearer(user) });
    expect(res.json().code).toBe(101018);
    expect((await call(updateZone, { body: { id: 999_999, name: 'Nope' } })).json().code).toBe(101018);
    expect((await call(deleteZone, { body: { id: 999_999 } })).json().code).toBe(101018);
  });
});

describe('moving nodes between zones', () => {
  it('moves initialised nodes all or none, refusing one still in a group (202003)', async () => {
    const from = (await call(createZone, { body: { name: 'Move from' } })).json().data.id;
    const to = (await call(createZone, { body: { name: 'Move to' } })).json().data.id;
    const group = (await call(createGroup, { params: { zoneID: from }, body: { name: 'web', portType: 7 } })).json()
      .data.id;
    const [loose, grouped, waiting] = [
      await registeredNode('move-loose'),
      await registeredNode('move-grouped'),
      await registeredNode('move-waiting'),
    ];
    await call(initializeNodes, { body: { ids: [loose], zoneID: from } });
    await call(initializeNodes, { body: { ids: [grouped], zoneID: from, groupID: group } });
    const zoneOf = async (id: number) =>
      (await call(listInitializedNodes, { query: { page: 1, pageSize: 100, zoneIDs: [from, to] } }))
        .json()
        .data.find((n: { id: number }) => n.id === id)?.zoneId;

    const refused = await call(moveNodesToZone, { body: { nodeIDs: [loose, grouped], zoneID: to } });
    expect(refused.json()).toMatchObject({ code: 202003, extra: { nodeIDs: [grouped] } });
    expect(await zoneOf(loose)).toBe(from);

    for (const nodeIDs of [[waiting], [loose, 999_999]]) {
      expect((await call(moveNodesToZone, { body: { nodeIDs, zoneID: to } })).json().code).toBe(101018);
    }
    expect((await call(moveNodesToZone, { body: { nodeIDs: [loose], zoneID: 999_999 } })).json().code).toBe(101018);
    expect(await zoneOf(loose)).toBe(from);

    expect((await call(moveNodesToZone, { body: { nodeIDs: [loose], zoneID: to } })).statusCode).toBe(200);
    expect(await zoneOf(loose)).toBe(to);
    const zones = (await call(listZones, { query: { page: 1, pageSize: 100 } })).json().data;
    const count = (id: number) => zones.find((z: { id: number }) => z.id === id)?.nodeCount;
    expect([count(from), count(to)]).toEqual([1, 1]);
  });
});

describe('zone settings', () => {
  it('starts with HTTP/2 on, HTTP/3 off and 301 redirects, and changes them', async () => {
    const zoneId = (await call(createZone, { body: { name: 'Settings' } })).json().data.id;
    const settings = () => call(getZoneSettings, { params: { zoneID: zoneId } });
    expect((await settings()).json().data).toEqual({
      http2: true,
      http3: false,
      forceSSLRedirectCode: 301,
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
      challengeWorkBits: 21,
    });

    const off = await call(setZoneHttp2, { params: { zoneID: zoneId }, body: { enable: false } });
    expect(off.json().data).toEqual({
      http2: false,
      http3: false,
      forceSSLRedirectCode: 301,
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
      challengeWorkBits: 21,
    });
    const code = await call(setZoneForceSSLRedirectCode, { params: { zoneID: zoneId }, body: { code: 308 } });
    expect(code.json().data).toEqual({
      http2: false,
      http3: false,
      forceSSLRedirectCode: 308,
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
      challengeWorkBits: 21,
    });
    expect((await settings()).json().data).toEqual({
      http2: false,
      http3: false,
      forceSSLRedirectCode: 308,
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
      challengeWorkBits: 21,
    });
  });

  it("refuses HTTP/3 on with a field error, other redirect codes, and zones not the caller's", async () => {
    const zoneId = (await call(createZone, { body: { name: 'No QUIC' } })).json().data.id;
    const http3 = await send(
      t.app,
      setZoneHttp3,
      { params: { zoneID: zoneId }, body: { enable: true } },
      { headers: { ...bearer(client), 'accept-language': 'zh-TW' } },
    );
    expect(http3.json()).toMatchObject({
      code: 101003,
      extra: { fields: [{ field: 'enable', key: 'http3Unsupported', message: expect.stringContaining('QUIC') }] },
    });
    expect((await call(setZoneHttp3, { params: { zoneID: zoneId }, body: { enable: false } })).json().data.http3).toBe(
      false,
    );
    for (const bad of [300, 303, '301', null]) {
      const res = await call(
        setZoneForceSSLRedirectCode,
        rawInput({ params: { zoneID: zoneId }, body: { code: bad } }),
      );
      expect(res.json().code).toBe(101003);
    }
    expect((await call(getZoneSettings, { params: { zoneID: zoneId } })).json().data.forceSSLRedirectCode).toBe(301);

    expect((await call(getZoneSettings, { params: { zoneID: 999999 } })).json().code).toBe(101018);
    expect((await call(setZoneHttp2, { params: { zoneID: 999999 }, body: { enable: false } })).json().code).toBe(
      101018,
    );
    const user = await signIn(t.app, 'user');
    const asUser = await send(
      t.app,
      setZoneHttp2,
      { params: { zoneID: zoneId }, body: { enable: false } },
      { headers: bearer(user) },
    );
    expect(asUser.json().code).toBe(101018);
    expect((await call(getZoneSettings, { params: { zoneID: zoneId } })).json().data.http2).toBe(true);
  });
});
