import { SUB_NODE_LIMIT } from '@rampart/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../src/platform/db/schema.js';
import { addAccount, signInOtherOperator } from './helpers/accounts.js';
import { callApi, type Method, manualClock, signIn } from './helpers/auth.js';
import { initializedNode } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

const clock = manualClock();
let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let zoneId: number;
let otherZoneId: number;
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app);
  zoneId = (await call('POST', 'client/zone', { name: 'Asia' })).json().data.id;
  otherZoneId = (await call('POST', 'client/zone', { name: 'Europe' })).json().data.id;
});
afterAll(async () => t.close());

function call(method: Method, url: string, payload?: Record<string, unknown>, token = client) {
  return callApi(t.app, token, method, url, payload);
}
const subs = (node: number, zone = zoneId) => `client/zone/${zone}/node/${node}/subs`;
const fields = (res: { json(): { extra: { fields: { field: string; key: string }[] } } }) =>
  res
    .json()
    .extra.fields.map((f) => `${f.field}:${f.key}`)
    .sort();

describe('sub-nodes', () => {
  it('adds, lists, re-addresses and removes the sub-nodes of a node', async () => {
    const node = await initializedNode(t, client, zoneId, 'subs-a', ['203.0.113.1']);
    const created = await call('POST', subs(node), { ips: ['203.0.113.20', '2001:DB8:0:0::20'], memo: ' second nic ' });
    expect(created.statusCode).toBe(200);
    expect(created.json().data.map((s: { ip: string; memo: string }) => [s.ip, s.memo])).toEqual([
      ['203.0.113.20', 'second nic'],
      ['2001:db8::20', 'second nic'],
    ]);
    const listed = (await call('GET', subs(node))).json().data;
    expect(listed.map((s: { ip: string; nodeId: number }) => [s.nodeId, s.ip])).toEqual([
      [node, '2001:db8::20'],
      [node, '203.0.113.20'],
    ]);
    const v4 = listed.find((s: { ip: string }) => s.ip === '203.0.113.20');
    const moved = await call('PUT', `client/zone/${zoneId}/node/${node}/sub/ip`, { id: v4.id, ip: '203.0.113.21' });
    expect(moved.json().data).toMatchObject({ id: v4.id, ip: '203.0.113.21', memo: 'second nic' });
    // The same address again (with a new memo) is no conflict with itself.
    const same = await call('PUT', `client/zone/${zoneId}/node/${node}/sub/ip`, {
      id: v4.id,
      ip: '203.0.113.21',
      memo: 'nat',
    });
    expect(same.json().data).toMatchObject({ ip: '203.0.113.21', memo: 'nat' });
    const node2 = (await call('GET', `client/nodes/initialized?value=subs-a`)).json().data[0];
    expect(node2).toMatchObject({ id: node, subNodeCount: 2 });
    expect((await call('DELETE', subs(node), { ids: listed.map((s: { id: number }) => s.id) })).json()).toEqual({
      data: true,
    });
    expect((await call('GET', subs(node))).json().data).toEqual([]);
  });

  it("refuses an address in use (101025): a sub-node's, a reported one or twice in the call; nothing is written", async () => {
    const a = await initializedNode(t, client, zoneId, 'subs-b', ['203.0.113.2']);
    const b = await initializedNode(t, client, otherZoneId, 'subs-c', ['203.0.113.3']);
    expect((await call('POST', subs(a), { ips: ['203.0.113.30'] })).statusCode).toBe(200);
    const taken = await call('POST', subs(b, otherZoneId), { ips: ['203.0.113.31', '203.0.113.30', '203.0.113.2'] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 101025, extra: { ips: ['203.0.113.2', '203.0.113.30'] } });
    const twice = await call('POST', subs(b, otherZoneId), { ips: ['2001:db8::31', '2001:db8:0::31'] });
    expect(twice.json()).toMatchObject({ code: 101025, extra: { ips: ['2001:db8::31'] } });
    expect((await call('GET', subs(b, otherZoneId))).json().data).toEqual([]);
    const mine = (await call('POST', subs(b, otherZoneId), { ips: ['203.0.113.32'] })).json().data[0];
    const clash = await call('PUT', `client/zone/${otherZoneId}/node/${b}/sub/ip`, { id: mine.id, ip: '203.0.113.3' });
    expect(clash.json()).toMatchObject({ code: 101025, extra: { ips: ['203.0.113.3'] } });
    expect((await call('GET', subs(b, otherZoneId))).json().data[0].ip).toBe('203.0.113.32');
  });

  it(`refuses more than ${SUB_NODE_LIMIT} sub-nodes on a node (202002)`, async () => {
    const node = await initializedNode(t, client, zoneId, 'subs-d', ['203.0.113.4']);
    const ips = (n: number, from: number) => Array.from({ length: n }, (_, i) => `198.18.0.${from + i}`);
    expect((await call('POST', subs(node), { ips: ips(SUB_NODE_LIMIT - 1, 1) })).statusCode).toBe(200);
    const over = await call('POST', subs(node), { ips: ips(2, 100) });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ code: 202002, extra: { limit: SUB_NODE_LIMIT } });
    expect((await call('POST', subs(node), { ips: ips(1, 100) })).statusCode).toBe(200);
    expect((await call('GET', subs(node))).json().data).toHaveLength(SUB_NODE_LIMIT);
  });

  it('validates its fields (101003) and answers 101018 for a node or sub-node not in the path', async () => {
    const node = await initializedNode(t, client, zoneId, 'subs-e', ['203.0.113.5']);
    expect(fields(await call('POST', subs(node), { ips: ['300.1.1.1'], memo: 'x'.repeat(257) }))).toEqual([
      'ips.0:wrongFormat',
      'memo:tooLong',
    ]);
    expect(fields(await call('POST', subs(node), { ips: [] }))).toEqual(['ips:required']);
    const bad = await call('PUT', `client/zone/${zoneId}/node/${node}/sub/ip`, { id: 1, ip: 'example.com' });
    expect(fields(bad)).toEqual(['ip:wrongFormat']);
    expect((await call('GET', subs(node, otherZoneId))).json().code).toBe(101018);
    expect((await call('POST', subs(999_999), { ips: ['203.0.113.50'] })).json().code).toBe(101018);
    const other = await initializedNode(t, client, zoneId, 'subs-f', ['203.0.113.6']);
    const theirs = (await call('POST', subs(other), { ips: ['203.0.113.60'] })).json().data[0];
    const mine = (await call('POST', subs(node), { ips: ['203.0.113.51'] })).json().data[0];
    // A sub-node of another node is not this node's: nothing is deleted, all or none.
    expect((await call('DELETE', subs(node), { ids: [mine.id, theirs.id] })).json().code).toBe(101018);
    expect((await call('GET', subs(node))).json().data).toHaveLength(1);
    const put = await call('PUT', `client/zone/${zoneId}/node/${node}/sub/ip`, { id: theirs.id, ip: '203.0.113.61' });
    expect(put.json().code).toBe(101018);
    expect((await call('GET', subs(other))).json().data[0].ip).toBe('203.0.113.60');
  });

  it("keeps another operator away from the operator's sub-nodes, and lets it use the same addresses", async () => {
    const node = await initializedNode(t, client, zoneId, 'subs-g', ['203.0.113.7']);
    const sub = (await call('POST', subs(node), { ips: ['203.0.113.70'] })).json().data[0];
    expect((await call('GET', subs(node), undefined, rival)).json().code).toBe(101018);
    expect((await call('POST', subs(node), { ips: ['203.0.113.71'] }, rival)).json().code).toBe(101018);
    expect((await call('DELETE', subs(node), { ids: [sub.id] }, rival)).json().code).toBe(101018);
    const put = await call(
      'PUT',
      `client/zone/${zoneId}/node/${node}/sub/ip`,
      { id: sub.id, ip: '203.0.113.72' },
      rival,
    );
    expect(put.json().code).toBe(101018);
    expect((await call('GET', subs(node))).json().data).toMatchObject([{ id: sub.id, ip: '203.0.113.70' }]);
    const rivalZone = (await call('POST', 'client/zone', { name: 'Rival' }, rival)).json().data.id;
    const rivalNode = await initializedNode(t, rival, rivalZone, 'rival-1', ['203.0.113.8']);
    const same = await call('POST', subs(rivalNode, rivalZone), { ips: ['203.0.113.70'] }, rival);
    expect(same.statusCode).toBe(200);
  });
});

describe('initialised-node list: subNodeType and dnsStatus', () => {
  it('filters by sub-nodes and by whether a group line names the node, in the database', async () => {
    const zone = (await call('POST', 'client/zone', { name: 'Filters' })).json().data.id;
    const plain = await initializedNode(t, client, zone, 'flt-plain', ['198.51.100.91']);
    const withSubs = await initializedNode(t, client, zone, 'flt-subs', ['198.51.100.92']);
    await call('POST', subs(withSubs, zone), { ips: ['198.51.100.93'] });
    const group = (await call('POST', `client/zone/${zone}/group`, { name: 'web', portType: 7 })).json().data.id;
    const placed = await call('POST', `client/zone/${zone}/group/${group}/line/default/nodes`, { nodeIDs: [plain] });
    expect(placed.statusCode).toBe(200);
    const list = async (q: string) => {
      const res = (await call('GET', `client/nodes/initialized?zoneIDs=${zone}&${q}`)).json();
      return { total: res.total, ids: res.data.map((n: { id: number }) => n.id) };
    };
    expect(await list('subNodeType=withSubs')).toEqual({ total: 1, ids: [withSubs] });
    expect(await list('subNodeType=withoutSubs')).toEqual({ total: 1, ids: [plain] });
    expect(await list('dnsStatus=recorded')).toEqual({ total: 1, ids: [plain] });
    expect(await list('dnsStatus=none')).toEqual({ total: 1, ids: [withSubs] });
    expect(await list('dnsStatus=none&subNodeType=withoutSubs')).toEqual({ total: 0, ids: [] });
    const all = (await call('GET', `client/nodes/initialized?zoneIDs=${zone}`)).json().data;
    expect(
      all.map((n: { id: number; dnsStatus: string; subNodeCount: number }) => [n.id, n.dnsStatus, n.subNodeCount]),
    ).toEqual(
      expect.arrayContaining([
        [plain, 'recorded', 0],
        [withSubs, 'none', 1],
      ]),
    );
    const bad = await call('GET', 'client/nodes/initialized?dnsStatus=maybe&subNodeType=some');
    expect(fields(bad)).toEqual(['dnsStatus:invalidValue', 'subNodeType:invalidValue']);
    expect((await call('GET', `client/nodes/initialized?subNodeType=withSubs`, undefined, rival)).json().data).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ id: withSubs })]),
    );
  });
});

describe('nodes named by a virtual node (202004)', () => {
  it('cannot be taken out of the zone or moved until the record is deleted', async () => {
    const node = await initializedNode(t, client, zoneId, 'vn-named', ['198.51.100.95']);
    const vn = (await call('POST', `client/zone/${zoneId}/virtualNode`, { name: 'named-pool', portType: 7 })).json()
      .data.id;
    await call('POST', `client/zone/${zoneId}/virtualNode/${vn}/record/node`, { nodeIDs: [node] });
    const removed = await call('DELETE', `client/zone/${zoneId}/node`, { id: node });
    expect(removed.statusCode).toBe(409);
    expect(removed.json()).toMatchObject({ code: 202004, extra: { nodeIDs: [node] } });
    const other = await initializedNode(t, client, zoneId, 'vn-free', ['198.51.100.96']);
    const moved = await call('POST', 'client/node/moveToZone', { nodeIDs: [other, node], zoneID: otherZoneId });
    expect(moved.json()).toMatchObject({ code: 202004, extra: { nodeIDs: [node] } });
    // All or none: the free node stayed too.
    const inZone = (await call('GET', `client/nodes/initialized?zoneIDs=${zoneId}&value=vn-`)).json().data;
    expect(inZone.map((n: { id: number }) => n.id).sort()).toEqual([node, other].sort((a, b) => a - b));
    const records = (await call('GET', `client/zone/${zoneId}/virtualNode/${vn}/records`)).json().data;
    await call('DELETE', `client/zone/${zoneId}/virtualNode/${vn}/record`, { ids: [records[0].id] });
    expect((await call('POST', 'client/node/moveToZone', { nodeIDs: [node], zoneID: otherZoneId })).statusCode).toBe(
      200,
    );
    expect((await call('DELETE', `client/zone/${otherZoneId}/node`, { id: node })).statusCode).toBe(200);
  });
});

describe('zone resource', () => {
  it('counts what the zone carries from the database, and only for its operator', async () => {
    const zone = (await call('POST', 'client/zone', { name: 'Counted' })).json().data.id;
    const empty = (await call('GET', `client/zone/${zone}/setting/resource`)).json().data;
    expect(empty).toEqual({
      nodes: 0,
      onlineNodes: 0,
      enabledNodes: 0,
      subNodes: 0,
      groups: 0,
      virtualNodes: 0,
      sites: 0,
      domains: 0,
      sitePorts: 0,
      listenPorts: 2,
    });
    const a = await initializedNode(t, client, zone, 'res-a', ['198.51.100.97']);
    const b = await initializedNode(t, client, zone, 'res-b', ['198.51.100.98']);
    await call('POST', subs(a, zone), { ips: ['198.51.100.99', '198.51.100.100'] });
    await call('PATCH', 'client/node/status', { ids: [b], status: 'off' });
    await call('POST', `client/zone/${zone}/group`, { name: 'res-web', portType: 7 });
    await call('POST', `client/zone/${zone}/virtualNode`, { name: 'res-vn', portType: 7 });
    const now = (await call('GET', `client/zone/${zone}/setting/resource`)).json().data;
    // Both nodes registered just now: online until the window passes.
    expect(now).toMatchObject({ nodes: 2, onlineNodes: 2, enabledNodes: 1, subNodes: 2, groups: 1, virtualNodes: 1 });
    clock.advance(61_000);
    expect((await call('GET', `client/zone/${zone}/setting/resource`)).json().data.onlineNodes).toBe(0);
    expect((await call('GET', `client/zone/${zone}/setting/resource`, undefined, rival)).json().code).toBe(101018);
    expect((await call('GET', 'client/zone/999999/setting/resource')).json().code).toBe(101018);
  });
});

describe('zone limit (201003)', () => {
  it("refuses a zone beyond the operator account's zone limit, and 0 means no limit", async () => {
    const owner = await addAccount(t.app, 'client', 'limited');
    await t.db.database.db.update(accounts).set({ zoneLimit: 2 }).where(eq(accounts.id, owner));
    const limited = await signIn(t.app, 'client', 'limited');
    expect((await call('POST', 'client/zone', { name: 'one' }, limited)).statusCode).toBe(200);
    expect((await call('POST', 'client/zone', { name: 'two' }, limited)).statusCode).toBe(200);
    const third = await call('POST', 'client/zone', { name: 'three' }, limited);
    expect(third.statusCode).toBe(422);
    expect(third.json()).toMatchObject({ code: 201003, extra: { limit: 2 } });
    expect((await call('GET', 'client/zones', undefined, limited)).json().total).toBe(2);
    // Another operator's limit is its own: the seeded operator (limit 0) still creates zones.
    expect((await call('POST', 'client/zone', { name: 'unlimited' })).statusCode).toBe(200);
    const first = (await call('GET', 'client/zones?sortBy=name&orderBy=asc', undefined, limited)).json().data[0].id;
    expect((await call('DELETE', 'client/zone', { id: first }, limited)).statusCode).toBe(200);
    expect((await call('POST', 'client/zone', { name: 'three' }, limited)).statusCode).toBe(200);
  });
});
