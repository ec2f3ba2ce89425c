import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { callApi, type Method, signIn } from './helpers/auth.js';
import { type JoinedNode, joinNode, nodeRequest } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Per-node settings (on/off, memo, monitor, port type, log rotation time), system information and
// a zone's node list.

let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let zoneId: number;
let otherZoneId: number;
let web: number;
let grouped: JoinedNode;
let loose: JoinedNode;
let waiting: JoinedNode;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app);
  zoneId = (await call('POST', 'client/zone', { name: 'Asia' })).json().data.id;
  otherZoneId = (await call('POST', 'client/zone', { name: 'Europe' })).json().data.id;
  web = (await call('POST', `client/zone/${zoneId}/group`, { name: 'web', portType: 7 })).json().data.id;
  const productID = (await call('POST', 'client/product', { name: 'CDN', portType: 7, mainGroupIDs: [web] })).json()
    .data.id;
  const userID = (await t.app.rampart.accounts.findRoot('user'))?.id;
  const siteId = (await call('POST', 'client/site', { siteName: 'shop', userID, productID })).json().data.siteID;
  const user = await signIn(t.app, 'user');
  await callApi(t.app, user, 'POST', `user/site/${siteId}/domains`, {
    domains: [{ name: 'www.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }],
  });
  [grouped, loose, waiting] = [
    await joinNode(t.app, client, 'edge-grouped'),
    await joinNode(t.app, client, 'edge-loose'),
    await joinNode(t.app, client, 'edge-waiting'),
  ];
  await call('POST', 'client/nodes/initialize', { ids: [grouped.nodeId], zoneID: zoneId, groupID: web });
  await call('POST', 'client/nodes/initialize', { ids: [loose.nodeId], zoneID: zoneId });
});
afterAll(async () => t.close());

function call(method: Method, url: string, payload?: Record<string, unknown>, token = client) {
  return callApi(t.app, token, method, url, payload);
}
async function listed(query = '') {
  const res = await call('GET', `client/nodes/initialized?page=1&pageSize=50${query}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}
async function row(id: number) {
  return (await listed()).data.find((n: { id: number }) => n.id === id);
}
async function snapshot(n: JoinedNode) {
  return (await nodeRequest(t.app, n, 'GET', '/snapshot')).json().data;
}
const fieldsOf = (res: { json(): { extra: { fields: { field: string }[] } } }) =>
  res
    .json()
    .extra.fields.map((f) => f.field)
    .sort();

describe('node settings', () => {
  it('switches a node off: it keeps its place but its snapshot serves no site, until it is on again', async () => {
    expect((await snapshot(grouped)).dataPlane.domains.map((d: { name: string }) => d.name)).toEqual([
      'www.shop.example',
    ]);
    expect(await row(grouped.nodeId)).toMatchObject({ status: 'on' });
    expect((await call('PATCH', 'client/node/status', { ids: [grouped.nodeId], status: 'off' })).statusCode).toBe(200);
    const off = await snapshot(grouped);
    expect(off).toMatchObject({ initialized: true, dataPlane: { domains: [], certificates: [] } });
    expect(await row(grouped.nodeId)).toMatchObject({ status: 'off', groups: [{ id: web }] });
    expect((await listed('&status=off')).data.map((n: { id: number }) => n.id)).toEqual([grouped.nodeId]);
    expect((await listed('&status=on')).data.map((n: { id: number }) => n.id)).toEqual([loose.nodeId]);
    await call('PATCH', 'client/node/status', { ids: [grouped.nodeId], status: 'on' });
    expect((await snapshot(grouped)).dataPlane.domains).toHaveLength(1);
  });

  it('sets memo and monitor flag on several nodes at once', async () => {
    const ids = [grouped.nodeId, loose.nodeId];
    expect((await call('PUT', 'client/nodes/memo', { ids, memo: 'rack 4' })).statusCode).toBe(200);
    expect((await call('PATCH', 'client/node/monitor', { ids, monitor: true })).statusCode).toBe(200);
    for (const id of ids) expect(await row(id)).toMatchObject({ memo: 'rack 4', monitor: true });
    await call('PATCH', 'client/node/monitor', { ids: [loose.nodeId], monitor: false });
    expect(await row(loose.nodeId)).toMatchObject({ monitor: false });
    expect(await row(grouped.nodeId)).toMatchObject({ monitor: true });
  });

  it("carries the daily log rotation time to the node's snapshot, and clears it", async () => {
    expect((await snapshot(loose)).logRotateTime).toBeNull();
    await call('PUT', 'client/nodes/logRotateTime', { ids: [loose.nodeId], time: '03:30' });
    expect(await row(loose.nodeId)).toMatchObject({ logRotateTime: '03:30' });
    expect((await snapshot(loose)).logRotateTime).toBe('03:30');
    await call('PUT', 'client/nodes/logRotateTime', { ids: [loose.nodeId], time: null });
    expect((await snapshot(loose)).logRotateTime).toBeNull();
  });

  it('changes the port type of a node in no group, and refuses one in a group of the other type (202005)', async () => {
    const refused = await call('PUT', 'client/nodes/portType', { ids: [loose.nodeId, grouped.nodeId], portType: 4 });
    expect(refused.json()).toMatchObject({ code: 202005, extra: { nodeIDs: [grouped.nodeId] } });
    expect(await row(loose.nodeId)).toMatchObject({ portType: 7 });
    // Its own group's type is no conflict.
    expect((await call('PUT', 'client/nodes/portType', { ids: [grouped.nodeId], portType: 7 })).statusCode).toBe(200);
    expect((await call('PUT', 'client/nodes/portType', { ids: [loose.nodeId], portType: 4 })).statusCode).toBe(200);
    expect((await listed('&portType=4')).data.map((n: { id: number }) => n.id)).toEqual([loose.nodeId]);
    await call('PUT', 'client/nodes/portType', { ids: [loose.nodeId], portType: 7 });
  });

  it('changes all or none: an uninitialised or unknown node refuses the whole call', async () => {
    for (const ids of [
      [loose.nodeId, waiting.nodeId],
      [loose.nodeId, 987_654],
    ]) {
      expect((await call('PUT', 'client/nodes/memo', { ids, memo: 'nope' })).json().code).toBe(101018);
      expect((await call('PATCH', 'client/node/status', { ids, status: 'off' })).json().code).toBe(101018);
      expect((await call('PATCH', 'client/node/monitor', { ids, monitor: true })).json().code).toBe(101018);
      expect((await call('PUT', 'client/nodes/portType', { ids, portType: 4 })).json().code).toBe(101018);
      expect((await call('PUT', 'client/nodes/logRotateTime', { ids, time: '01:00' })).json().code).toBe(101018);
    }
    expect(await row(loose.nodeId)).toMatchObject({ memo: 'rack 4', status: 'on', portType: 7, logRotateTime: null });
  });

  it('refuses bad values with 101003 naming each field', async () => {
    const ids = [loose.nodeId];
    expect(fieldsOf(await call('PUT', 'client/nodes/memo', { ids, memo: 'x'.repeat(257) }))).toEqual(['memo']);
    expect(fieldsOf(await call('PATCH', 'client/node/status', { ids: [], status: 'maybe' }))).toEqual([
      'ids',
      'status',
    ]);
    expect(fieldsOf(await call('PATCH', 'client/node/monitor', { ids, monitor: 'yes' }))).toEqual(['monitor']);
    expect(fieldsOf(await call('PUT', 'client/nodes/portType', { ids, portType: 5 }))).toEqual(['portType']);
    expect(fieldsOf(await call('PUT', 'client/nodes/logRotateTime', { ids, time: 330 }))).toEqual(['time']);
    // A string that is no time of day is the catalogue's Invalid Node Time.
    for (const time of ['24:00', '3:30', '03:30:00']) {
      expect((await call('PUT', 'client/nodes/logRotateTime', { ids, time })).json().code).toBe(202006);
    }
    expect(fieldsOf(await call('GET', 'client/nodes/initialized?status=paused&portType=9'))).toEqual([
      'portType',
      'status',
    ]);
  });

  it("keeps settings to their operator: another operator's calls on these nodes are 101018", async () => {
    const ids = [loose.nodeId];
    expect((await call('PUT', 'client/nodes/memo', { ids, memo: 'mine' }, rival)).json().code).toBe(101018);
    expect((await call('PATCH', 'client/node/status', { ids, status: 'off' }, rival)).json().code).toBe(101018);
    expect((await call('PATCH', 'client/node/monitor', { ids, monitor: true }, rival)).json().code).toBe(101018);
    expect((await call('PUT', 'client/nodes/portType', { ids, portType: 4 }, rival)).json().code).toBe(101018);
    expect((await call('PUT', 'client/nodes/logRotateTime', { ids, time: '01:00' }, rival)).json().code).toBe(101018);
    expect((await call('GET', 'client/nodes/initialized', undefined, rival)).json()).toEqual({ data: [], total: 0 });
  });
});

const system = {
  cpuCount: 4,
  cpuUsage: 12.5,
  memoryTotalBytes: 8_000_000_000,
  memoryUsedBytes: 2_000_000_000,
  diskTotalBytes: 100_000_000_000,
  diskUsedBytes: 40_000_000_000,
  loadAverage: [0.5, 0.4, 0.3],
  uptimeSeconds: 3600,
  nginxVersion: '1.22.1',
  agentVersion: '0.1.0',
};
const status = { version: '0.1.0', appliedVersion: '', lastError: '' };

describe('system information', () => {
  it('answers null before the first report and then what the agent reported last', async () => {
    const url = `client/zone/${zoneId}/node/${loose.nodeId}/system`;
    expect((await call('GET', url)).json()).toEqual({ data: null });
    expect((await nodeRequest(t.app, loose, 'POST', '/status', { ...status, system })).statusCode).toBe(200);
    expect((await call('GET', url)).json().data).toEqual({ ...system, reportedAt: expect.any(String) });
    // A report without system information keeps the last one.
    await nodeRequest(t.app, loose, 'POST', '/status', status);
    expect((await call('GET', url)).json().data.cpuCount).toBe(4);
  });

  it('refuses system information out of bounds, naming the field', async () => {
    const res = await nodeRequest(t.app, loose, 'POST', '/status', {
      ...status,
      system: { ...system, cpuUsage: 150, nginxVersion: 'nginx; rm -rf /', extra: 1 },
    });
    expect(fieldsOf(res)).toEqual(['system', 'system.cpuUsage', 'system.nginxVersion']);
  });

  it('is 101018 for a node of another zone or another operator', async () => {
    expect((await call('GET', `client/zone/${otherZoneId}/node/${loose.nodeId}/system`)).json().code).toBe(101018);
    expect((await call('GET', `client/zone/${zoneId}/node/${waiting.nodeId}/system`)).json().code).toBe(101018);
    const foreign = await call('GET', `client/zone/${zoneId}/node/${loose.nodeId}/system`, undefined, rival);
    expect(foreign.json().code).toBe(101018);
  });
});

describe("a zone's nodes", () => {
  it('lists the nodes of one zone, paged, and their names for pickers', async () => {
    const page = (await call('GET', `client/zone/${zoneId}/nodes?page=1&pageSize=1`)).json();
    expect(page.total).toBe(2);
    expect(page.data).toHaveLength(1);
    expect((await call('GET', `client/zone/${otherZoneId}/nodes`)).json()).toEqual({ data: [], total: 0 });
    expect((await call('GET', `client/zone/${zoneId}/metaNodes`)).json().data).toEqual([
      { id: grouped.nodeId, name: 'edge-grouped' },
      { id: loose.nodeId, name: 'edge-loose' },
    ]);
    for (const url of [`client/zone/${zoneId}/nodes`, `client/zone/${zoneId}/metaNodes`]) {
      expect((await call('GET', url, undefined, rival)).json().code).toBe(101018);
    }
  });

  it('renames a node of the zone', async () => {
    const res = await call('PATCH', `client/zone/${zoneId}/node`, { id: loose.nodeId, name: 'Tokyo 1' });
    expect(res.statusCode).toBe(200);
    expect(await row(loose.nodeId)).toMatchObject({ name: 'Tokyo 1' });
    expect(fieldsOf(await call('PATCH', `client/zone/${zoneId}/node`, { id: loose.nodeId, name: '  ' }))).toEqual([
      'name',
    ]);
    const elsewhere = await call('PATCH', `client/zone/${otherZoneId}/node`, { id: loose.nodeId, name: 'x' });
    expect(elsewhere.json().code).toBe(101018);
    const foreign = await call('PATCH', `client/zone/${zoneId}/node`, { id: loose.nodeId, name: 'x' }, rival);
    expect(foreign.json().code).toBe(101018);
  });

  it('takes a node in no group out of the zone (uninitialised again), and refuses one in a group (202003)', async () => {
    const inGroup = await call('DELETE', `client/zone/${zoneId}/node`, { id: grouped.nodeId });
    expect(inGroup.json()).toMatchObject({ code: 202003, extra: { nodeIDs: [grouped.nodeId] } });
    expect((await call('DELETE', `client/zone/${zoneId}/node`, { id: loose.nodeId }, rival)).json().code).toBe(101018);
    expect((await call('DELETE', `client/zone/${otherZoneId}/node`, { id: loose.nodeId })).json().code).toBe(101018);
    expect((await call('DELETE', `client/zone/${zoneId}/node`, { id: loose.nodeId })).statusCode).toBe(200);
    expect(await row(loose.nodeId)).toBeUndefined();
    const waitingList = (await call('GET', 'client/nodes')).json().data.map((n: { id: number }) => n.id);
    expect(waitingList).toContain(loose.nodeId);
    expect((await snapshot(loose)).initialized).toBe(false);
  });

  it('filters the operator-wide list by agent version', async () => {
    await nodeRequest(t.app, grouped, 'POST', '/status', { ...status, version: '0.2.0' });
    expect((await listed('&version=0.2.0')).data.map((n: { id: number }) => n.id)).toEqual([grouped.nodeId]);
    expect((await listed('&version=9.9.9')).total).toBe(0);
  });
});
