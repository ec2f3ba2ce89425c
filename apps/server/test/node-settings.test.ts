import type { RouteInput } from '@rampart/contract';
import {
  createDomains,
  getNodeSnapshot,
  getNodeSystem,
  initializeNodes,
  listInitializedNodes,
  listUninitializedNodes,
  listZoneNodes,
  metaZoneNodes,
  removeZoneNode,
  renameZoneNode,
  reportNodeStatus,
  setNodeLogRotateTime,
  setNodeMemo,
  setNodeMonitor,
  setNodePortType,
  setNodeStatus,
} from '@rampart/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, rawInput, send } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { operatorCalls, twoZonesFile } from './helpers/operators.js';

// Per-node settings (on/off, memo, monitor, port type, log rotation time), system information and
// a zone's node list.

const z = twoZonesFile();
const { call } = z;
let web: number;
let grouped: JoinedNode;
let loose: JoinedNode;
let waiting: JoinedNode;

beforeAll(async () => {
  const make = operatorCalls(z.t.app, z.client);
  web = await make.group(z.zoneId, 'web');
  const siteId = await make.site('shop', await rootId(z.t.app, 'user'), await make.product('CDN', 7, [web]));
  const user = await signIn(z.t.app, 'user');
  await send(
    z.t.app,
    createDomains,
    {
      params: { siteId },
      body: {
        domains: [{ name: 'www.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }],
      },
    },
    { token: user },
  );
  [grouped, loose, waiting] = [
    await joinNode(z.t.app, z.client, 'edge-grouped'),
    await joinNode(z.t.app, z.client, 'edge-loose'),
    await joinNode(z.t.app, z.client, 'edge-waiting'),
  ];
  await call(initializeNodes, { body: { ids: [grouped.nodeId], zoneID: z.zoneId, groupID: web } });
  await call(initializeNodes, { body: { ids: [loose.nodeId], zoneID: z.zoneId } });
});

async function listed(query: RouteInput<typeof listInitializedNodes>['query'] = {}) {
  const res = await call(listInitializedNodes, { query: { page: 1, pageSize: 50, ...query } });
  expect(res.statusCode).toBe(200);
  return res.json();
}
async function row(id: number) {
  return (await listed()).data.find((n: { id: number }) => n.id === id);
}
async function snapshot(n: JoinedNode) {
  return (await nodeSend(z.t.app, n, getNodeSnapshot, undefined)).json().data;
}
const fieldsOf = (res: Parameters<typeof fieldNames>[0]) => fieldNames(res).sort();

describe('node settings', () => {
  it('switches a node off: it keeps its place but its snapshot serves no site, until it is on again', async () => {
    expect((await snapshot(grouped)).dataPlane.domains.map((d: { name: string }) => d.name)).toEqual([
      'www.shop.example',
    ]);
    expect(await row(grouped.nodeId)).toMatchObject({ status: 'on' });
    expect((await call(setNodeStatus, { body: { ids: [grouped.nodeId], status: 'off' } })).statusCode).toBe(200);
    const off = await snapshot(grouped);
    expect(off).toMatchObject({ initialized: true, dataPlane: { domains: [], certificates: [] } });
    expect(await row(grouped.nodeId)).toMatchObject({ status: 'off', groups: [{ id: web }] });
    expect((await listed({ status: 'off' })).data.map((n: { id: number }) => n.id)).toEqual([grouped.nodeId]);
    expect((await listed({ status: 'on' })).data.map((n: { id: number }) => n.id)).toEqual([loose.nodeId]);
    await call(setNodeStatus, { body: { ids: [grouped.nodeId], status: 'on' } });
    expect((await snapshot(grouped)).dataPlane.domains).toHaveLength(1);
  });

  it('sets memo and monitor flag on several nodes at once', async () => {
    const ids = [grouped.nodeId, loose.nodeId];
    expect((await call(setNodeMemo, { body: { ids, memo: 'rack 4' } })).statusCode).toBe(200);
    expect((await call(setNodeMonitor, { body: { ids, monitor: true } })).statusCode).toBe(200);
    for (const id of ids) expect(await row(id)).toMatchObject({ memo: 'rack 4', monitor: true });
    await call(setNodeMonitor, { body: { ids: [loose.nodeId], monitor: false } });
    expect(await row(loose.nodeId)).toMatchObject({ monitor: false });
    expect(await row(grouped.nodeId)).toMatchObject({ monitor: true });
  });

  it("carries the daily log rotation time to the node's snapshot, and clears it", async () => {
    expect((await snapshot(loose)).logRotateTime).toBeNull();
    await call(setNodeLogRotateTime, { body: { ids: [loose.nodeId], time: '03:30' } });
    expect(await row(loose.nodeId)).toMatchObject({ logRotateTime: '03:30' });
    expect((await snapshot(loose)).logRotateTime).toBe('03:30');
    await call(setNodeLogRotateTime, { body: { ids: [loose.nodeId], time: null } });
    expect((await snapshot(loose)).logRotateTime).toBeNull();
  });

  it('changes the port type of a node in no group, and refuses one in a group of the other type (202005)', async () => {
    const refused = await call(setNodePortType, { body: { ids: [loose.nodeId, grouped.nodeId], portType: 4 } });
    expect(refused.json()).toMatchObject({ code: 202005, extra: { nodeIDs: [grouped.nodeId] } });
    expect(await row(loose.nodeId)).toMatchObject({ portType: 7 });
    // Its own group's type is no conflict.
    expect((await call(setNodePortType, { body: { ids: [grouped.nodeId], portType: 7 } })).statusCode).toBe(200);
    expect((await call(setNodePortType, { body: { ids: [loose.nodeId], portType: 4 } })).statusCode).toBe(200);
    expect((await listed({ portType: 4 })).data.map((n: { id: number }) => n.id)).toEqual([loose.nodeId]);
    await call(setNodePortType, { body: { ids: [loose.nodeId], portType: 7 } });
  });

  it('changes all or none: an uninitialised or unknown node refuses the whole call', async () => {
    for (const ids of [
      [loose.nodeId, waiting.nodeId],
      [loose.nodeId, 987_654],
    ]) {
      expect((await call(setNodeMemo, { body: { ids, memo: 'nope' } })).json().code).toBe(101018);
      expect((await call(setNodeStatus, { body: { ids, status: 'off' } })).json().code).toBe(101018);
      expect((await call(setNodeMonitor, { body: { ids, monitor: true } })).json().code).toBe(101018);
      expect((await call(setNodePortType, { body: { ids, portType: 4 } })).json().code).toBe(101018);
      expect((await call(setNodeLogRotateTime, { body: { ids, time: '01:00' } })).json().code).toBe(101018);
    }
    expect(await row(loose.nodeId)).toMatchObject({ memo: 'rack 4', status: 'on', portType: 7, logRotateTime: null });
  });

  it('refuses bad values with 101003 naming each field', async () => {
    const ids = [loose.nodeId];
    expect(fieldsOf(await call(setNodeMemo, { body: { ids, memo: 'x'.repeat(257) } }))).toEqual(['memo']);
    expect(fieldsOf(await call(setNodeStatus, rawInput({ body: { ids: [], status: 'maybe' } })))).toEqual([
      'ids',
      'status',
    ]);
    expect(fieldsOf(await call(setNodeMonitor, rawInput({ body: { ids, monitor: 'yes' } })))).toEqual(['monitor']);
    expect(fieldsOf(await call(setNodePortType, rawInput({ body: { ids, portType: 5 } })))).toEqual(['portType']);
    expect(fieldsOf(await call(setNodeLogRotateTime, rawInput({ body: { ids, time: 330 } })))).toEqual(['time']);
    // A string that is no time of day is the catalogue's Invalid Node Time.
    for (const time of ['24:00', '3:30', '03:30:00']) {
      expect((await call(setNodeLogRotateTime, { body: { ids, time } })).json().code).toBe(202006);
    }
    expect(fieldsOf(await call(listInitializedNodes, rawInput({ query: { status: 'paused', portType: 9 } })))).toEqual([
      'portType',
      'status',
    ]);
  });

  it("keeps settings to their operator: another operator's calls on these nodes are 101018", async () => {
    const ids = [loose.nodeId];
    expect((await call(setNodeMemo, { body: { ids, memo: 'mine' } }, z.rival)).json().code).toBe(101018);
    expect((await call(setNodeStatus, { body: { ids, status: 'off' } }, z.rival)).json().code).toBe(101018);
    expect((await call(setNodeMonitor, { body: { ids, monitor: true } }, z.rival)).json().code).toBe(101018);
    expect((await call(setNodePortType, { body: { ids, portType: 4 } }, z.rival)).json().code).toBe(101018);
    expect((await call(setNodeLogRotateTime, { body: { ids, time: '01:00' } }, z.rival)).json().code).toBe(101018);
    expect((await call(listInitializedNodes, undefined, z.rival)).json()).toEqual({ data: [], total: 0 });
  });
});

const system = {
  cpuCount: 4,
  cpuUsage: 12.5,
  memoryTotalBytes: 8_000_000_000,
  memoryUsedBytes: 2_000_000_000,
  diskTotalBytes: 100_000_000_000,
  diskUsedBytes: 40_000_000_000,
  loadAverage: [0.5, 0.4, 0.3] as [number, number, number],
  uptimeSeconds: 3600,
  nginxVersion: '1.22.1',
  agentVersion: '0.1.0',
};
const status = { version: '0.1.0', appliedVersion: '', lastError: '' };

describe('system information', () => {
  it('answers null before the first report and then what the agent reported last', async () => {
    expect((await call(getNodeSystem, { params: { zoneID: z.zoneId, id: loose.nodeId } })).json()).toEqual({
      data: null,
    });
    expect((await nodeSend(z.t.app, loose, reportNodeStatus, { body: { ...status, system } })).statusCode).toBe(200);
    expect((await call(getNodeSystem, { params: { zoneID: z.zoneId, id: loose.nodeId } })).json().data).toEqual({
      ...system,
      reportedAt: expect.any(String),
    });
    // A report without system information keeps the last one.
    await nodeSend(z.t.app, loose, reportNodeStatus, { body: status });
    expect((await call(getNodeSystem, { params: { zoneID: z.zoneId, id: loose.nodeId } })).json().data.cpuCount).toBe(
      4,
    );
  });

  it('refuses system information out of bounds, naming the field', async () => {
    const res = await nodeSend(
      z.t.app,
      loose,
      reportNodeStatus,
      rawInput({
        body: {
          ...status,
          system: { ...system, cpuUsage: 150, nginxVersion: 'nginx; rm -rf /', extra: 1 },
        },
      }),
    );
    expect(fieldsOf(res)).toEqual(['system', 'system.cpuUsage', 'system.nginxVersion']);
  });

  it('is 101018 for a node of another zone or another operator', async () => {
    expect((await call(getNodeSystem, { params: { zoneID: z.otherZoneId, id: loose.nodeId } })).json().code).toBe(
      101018,
    );
    expect((await call(getNodeSystem, { params: { zoneID: z.zoneId, id: waiting.nodeId } })).json().code).toBe(101018);
    const foreign = await call(getNodeSystem, { params: { zoneID: z.zoneId, id: loose.nodeId } }, z.rival);
    expect(foreign.json().code).toBe(101018);
  });
});

describe("a zone's nodes", () => {
  it('lists the nodes of one zone, paged, and their names for pickers', async () => {
    const page = (await call(listZoneNodes, { params: { zoneID: z.zoneId }, query: { page: 1, pageSize: 1 } })).json();
    expect(page.total).toBe(2);
    expect(page.data).toHaveLength(1);
    expect((await call(listZoneNodes, { params: { zoneID: z.otherZoneId } })).json()).toEqual({ data: [], total: 0 });
    expect((await call(metaZoneNodes, { params: { zoneID: z.zoneId } })).json().data).toEqual([
      { id: grouped.nodeId, name: 'edge-grouped' },
      { id: loose.nodeId, name: 'edge-loose' },
    ]);
    for (const route of [listZoneNodes, metaZoneNodes]) {
      expect((await call(route, { params: { zoneID: z.zoneId } }, z.rival)).json().code).toBe(101018);
    }
  });

  it('renames a node of the zone', async () => {
    const res = await call(renameZoneNode, {
      params: { zoneID: z.zoneId },
      body: { id: loose.nodeId, name: 'Tokyo 1' },
    });
    expect(res.statusCode).toBe(200);
    expect(await row(loose.nodeId)).toMatchObject({ name: 'Tokyo 1' });
    expect(
      fieldsOf(await call(renameZoneNode, { params: { zoneID: z.zoneId }, body: { id: loose.nodeId, name: '  ' } })),
    ).toEqual(['name']);
    const elsewhere = await call(renameZoneNode, {
      params: { zoneID: z.otherZoneId },
      body: { id: loose.nodeId, name: 'x' },
    });
    expect(elsewhere.json().code).toBe(101018);
    const foreign = await call(
      renameZoneNode,
      { params: { zoneID: z.zoneId }, body: { id: loose.nodeId, name: 'x' } },
      z.rival,
    );
    expect(foreign.json().code).toBe(101018);
  });

  it('takes a node in no group out of the zone (uninitialised again), and refuses one in a group (202003)', async () => {
    const inGroup = await call(removeZoneNode, { params: { zoneID: z.zoneId }, body: { id: grouped.nodeId } });
    expect(inGroup.json()).toMatchObject({ code: 202003, extra: { nodeIDs: [grouped.nodeId] } });
    expect(
      (await call(removeZoneNode, { params: { zoneID: z.zoneId }, body: { id: loose.nodeId } }, z.rival)).json().code,
    ).toBe(101018);
    expect(
      (await call(removeZoneNode, { params: { zoneID: z.otherZoneId }, body: { id: loose.nodeId } })).json().code,
    ).toBe(101018);
    expect((await call(removeZoneNode, { params: { zoneID: z.zoneId }, body: { id: loose.nodeId } })).statusCode).toBe(
      200,
    );
    expect(await row(loose.nodeId)).toBeUndefined();
    const waitingList = (await call(listUninitializedNodes)).json().data.map((n: { id: number }) => n.id);
    expect(waitingList).toContain(loose.nodeId);
    expect((await snapshot(loose)).initialized).toBe(false);
  });

  it('filters the operator-wide list by agent version', async () => {
    await nodeSend(z.t.app, grouped, reportNodeStatus, { body: { ...status, version: '0.2.0' } });
    expect((await listed({ version: '0.2.0' })).data.map((n: { id: number }) => n.id)).toEqual([grouped.nodeId]);
    expect((await listed({ version: '9.9.9' })).total).toBe(0);
  });
});
