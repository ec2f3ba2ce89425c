import type { RouteInput } from '@rampart/contract';
import {
  addLineNodes,
  addVirtualNodeNodeRecords,
  createGroup,
  createSubNodes,
  createVirtualNode,
  createZone,
  deleteSubNodes,
  deleteVirtualNodeRecords,
  deleteZone,
  getZoneResource,
  listInitializedNodes,
  listSubNodes,
  listVirtualNodeRecords,
  listZones,
  moveNodesToZone,
  removeZoneNode,
  SUB_NODE_LIMIT,
  setNodeStatus,
  updateSubNodeIp,
} from '@rampart/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts } from '../src/platform/db/schema.js';
import { addAccount } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { rawInput, refusedFields } from './helpers/call.js';
import { initializedNode, twoZonesFile } from './helpers/operators.js';

const clock = manualClock();
const z = twoZonesFile({ clock: clock.now });
const { call } = z;

/** The refusal's fields, sorted (their order is not what these tests are about). */
const fields = (res: Parameters<typeof refusedFields>[0]) => refusedFields(res).sort();

describe('sub-nodes', () => {
  it('adds, lists, re-addresses and removes the sub-nodes of a node', async () => {
    const node = await initializedNode(z.t, z.client, z.zoneId, 'subs-a', ['203.0.113.1']);
    const created = await call(createSubNodes, {
      params: { zoneID: z.zoneId, id: node },
      body: { ips: ['203.0.113.20', '2001:DB8:0:0::20'], memo: ' second nic ' },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().data.map((s: { ip: string; memo: string }) => [s.ip, s.memo])).toEqual([
      ['203.0.113.20', 'second nic'],
      ['2001:db8::20', 'second nic'],
    ]);
    const listed = (await call(listSubNodes, { params: { zoneID: z.zoneId, id: node } })).json().data;
    expect(listed.map((s: { ip: string; nodeId: number }) => [s.nodeId, s.ip])).toEqual([
      [node, '2001:db8::20'],
      [node, '203.0.113.20'],
    ]);
    const v4 = listed.find((s: { ip: string }) => s.ip === '203.0.113.20');
    const moved = await call(updateSubNodeIp, {
      params: { zoneID: z.zoneId, id: node },
      body: { id: v4!.id, ip: '203.0.113.21' },
    });
    expect(moved.json().data).toMatchObject({ id: v4!.id, ip: '203.0.113.21', memo: 'second nic' });
    // The same address again (with a new memo) is no conflict with itself.
    const same = await call(updateSubNodeIp, {
      params: { zoneID: z.zoneId, id: node },
      body: {
        id: v4!.id,
        ip: '203.0.113.21',
        memo: 'nat',
      },
    });
    expect(same.json().data).toMatchObject({ ip: '203.0.113.21', memo: 'nat' });
    const node2 = (await call(listInitializedNodes, { query: { value: 'subs-a' } })).json().data[0];
    expect(node2).toMatchObject({ id: node, subNodeCount: 2 });
    expect(
      (
        await call(deleteSubNodes, {
          params: { zoneID: z.zoneId, id: node },
          body: { ids: listed.map((s: { id: number }) => s.id) },
        })
      ).json(),
    ).toEqual({
      data: true,
    });
    expect((await call(listSubNodes, { params: { zoneID: z.zoneId, id: node } })).json().data).toEqual([]);
  });

  it("refuses an address in use (101025): a sub-node's, a reported one or twice in the call; nothing is written", async () => {
    const a = await initializedNode(z.t, z.client, z.zoneId, 'subs-b', ['203.0.113.2']);
    const b = await initializedNode(z.t, z.client, z.otherZoneId, 'subs-c', ['203.0.113.3']);
    expect(
      (await call(createSubNodes, { params: { zoneID: z.zoneId, id: a }, body: { ips: ['203.0.113.30'] } })).statusCode,
    ).toBe(200);
    const taken = await call(createSubNodes, {
      params: { zoneID: z.otherZoneId, id: b },
      body: { ips: ['203.0.113.31', '203.0.113.30', '203.0.113.2'] },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 101025, extra: { ips: ['203.0.113.2', '203.0.113.30'] } });
    const twice = await call(createSubNodes, {
      params: { zoneID: z.otherZoneId, id: b },
      body: { ips: ['2001:db8::31', '2001:db8:0::31'] },
    });
    expect(twice.json()).toMatchObject({ code: 101025, extra: { ips: ['2001:db8::31'] } });
    expect((await call(listSubNodes, { params: { zoneID: z.otherZoneId, id: b } })).json().data).toEqual([]);
    const mine = (
      await call(createSubNodes, { params: { zoneID: z.otherZoneId, id: b }, body: { ips: ['203.0.113.32'] } })
    ).json().data[0];
    const clash = await call(updateSubNodeIp, {
      params: { zoneID: z.otherZoneId, id: b },
      body: { id: mine.id, ip: '203.0.113.3' },
    });
    expect(clash.json()).toMatchObject({ code: 101025, extra: { ips: ['203.0.113.3'] } });
    expect((await call(listSubNodes, { params: { zoneID: z.otherZoneId, id: b } })).json().data[0].ip).toBe(
      '203.0.113.32',
    );
  });

  it(`refuses more than ${SUB_NODE_LIMIT} sub-nodes on a node (202002)`, async () => {
    const node = await initializedNode(z.t, z.client, z.zoneId, 'subs-d', ['203.0.113.4']);
    const ips = (n: number, from: number) => Array.from({ length: n }, (_, i) => `198.18.0.${from + i}`);
    expect(
      (
        await call(createSubNodes, {
          params: { zoneID: z.zoneId, id: node },
          body: { ips: ips(SUB_NODE_LIMIT - 1, 1) },
        })
      ).statusCode,
    ).toBe(200);
    const over = await call(createSubNodes, { params: { zoneID: z.zoneId, id: node }, body: { ips: ips(2, 100) } });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ code: 202002, extra: { limit: SUB_NODE_LIMIT } });
    expect(
      (await call(createSubNodes, { params: { zoneID: z.zoneId, id: node }, body: { ips: ips(1, 100) } })).statusCode,
    ).toBe(200);
    expect((await call(listSubNodes, { params: { zoneID: z.zoneId, id: node } })).json().data).toHaveLength(
      SUB_NODE_LIMIT,
    );
  });

  it('validates its fields (101003) and answers 101018 for a node or sub-node not in the path', async () => {
    const node = await initializedNode(z.t, z.client, z.zoneId, 'subs-e', ['203.0.113.5']);
    expect(
      fields(
        await call(createSubNodes, {
          params: { zoneID: z.zoneId, id: node },
          body: { ips: ['300.1.1.1'], memo: 'x'.repeat(257) },
        }),
      ),
    ).toEqual(['ips.0:wrongFormat', 'memo:tooLong']);
    expect(fields(await call(createSubNodes, { params: { zoneID: z.zoneId, id: node }, body: { ips: [] } }))).toEqual([
      'ips:required',
    ]);
    const bad = await call(updateSubNodeIp, {
      params: { zoneID: z.zoneId, id: node },
      body: { id: 1, ip: 'example.com' },
    });
    expect(fields(bad)).toEqual(['ip:wrongFormat']);
    expect((await call(listSubNodes, { params: { zoneID: z.otherZoneId, id: node } })).json().code).toBe(101018);
    expect(
      (await call(createSubNodes, { params: { zoneID: z.zoneId, id: 999999 }, body: { ips: ['203.0.113.50'] } })).json()
        .code,
    ).toBe(101018);
    const other = await initializedNode(z.t, z.client, z.zoneId, 'subs-f', ['203.0.113.6']);
    const theirs = (
      await call(createSubNodes, { params: { zoneID: z.zoneId, id: other }, body: { ips: ['203.0.113.60'] } })
    ).json().data[0];
    const mine = (
      await call(createSubNodes, { params: { zoneID: z.zoneId, id: node }, body: { ips: ['203.0.113.51'] } })
    ).json().data[0];
    // A sub-node of another node is not this node's: nothing is deleted, all or none.
    expect(
      (
        await call(deleteSubNodes, { params: { zoneID: z.zoneId, id: node }, body: { ids: [mine.id, theirs.id] } })
      ).json().code,
    ).toBe(101018);
    expect((await call(listSubNodes, { params: { zoneID: z.zoneId, id: node } })).json().data).toHaveLength(1);
    const put = await call(updateSubNodeIp, {
      params: { zoneID: z.zoneId, id: node },
      body: { id: theirs.id, ip: '203.0.113.61' },
    });
    expect(put.json().code).toBe(101018);
    expect((await call(listSubNodes, { params: { zoneID: z.zoneId, id: other } })).json().data[0].ip).toBe(
      '203.0.113.60',
    );
  });

  it("keeps another operator away from the operator's sub-nodes, and lets it use the same addresses", async () => {
    const node = await initializedNode(z.t, z.client, z.zoneId, 'subs-g', ['203.0.113.7']);
    const sub = (
      await call(createSubNodes, { params: { zoneID: z.zoneId, id: node }, body: { ips: ['203.0.113.70'] } })
    ).json().data[0];
    expect((await call(listSubNodes, { params: { zoneID: z.zoneId, id: node } }, z.rival)).json().code).toBe(101018);
    expect(
      (
        await call(createSubNodes, { params: { zoneID: z.zoneId, id: node }, body: { ips: ['203.0.113.71'] } }, z.rival)
      ).json().code,
    ).toBe(101018);
    expect(
      (await call(deleteSubNodes, { params: { zoneID: z.zoneId, id: node }, body: { ids: [sub.id] } }, z.rival)).json()
        .code,
    ).toBe(101018);
    const put = await call(
      updateSubNodeIp,
      { params: { zoneID: z.zoneId, id: node }, body: { id: sub.id, ip: '203.0.113.72' } },
      z.rival,
    );
    expect(put.json().code).toBe(101018);
    expect((await call(listSubNodes, { params: { zoneID: z.zoneId, id: node } })).json().data).toMatchObject([
      { id: sub.id, ip: '203.0.113.70' },
    ]);
    const rivalZone = (await call(createZone, { body: { name: 'Rival' } }, z.rival)).json().data.id;
    const rivalNode = await initializedNode(z.t, z.rival, rivalZone, 'rival-1', ['203.0.113.8']);
    const same = await call(
      createSubNodes,
      { params: { zoneID: rivalZone, id: rivalNode }, body: { ips: ['203.0.113.70'] } },
      z.rival,
    );
    expect(same.statusCode).toBe(200);
  });
});

describe('initialised-node list: subNodeType and dnsStatus', () => {
  it('filters by sub-nodes and by whether a group line names the node, in the database', async () => {
    const zone = (await call(createZone, { body: { name: 'Filters' } })).json().data.id;
    const plain = await initializedNode(z.t, z.client, zone, 'flt-plain', ['198.51.100.91']);
    const withSubs = await initializedNode(z.t, z.client, zone, 'flt-subs', ['198.51.100.92']);
    await call(createSubNodes, { params: { zoneID: zone, id: withSubs }, body: { ips: ['198.51.100.93'] } });
    const group = (await call(createGroup, { params: { zoneID: zone }, body: { name: 'web', portType: 7 } })).json()
      .data.id;
    const placed = await call(addLineNodes, {
      params: { zoneID: zone, groupID: group, lineID: 'default' },
      body: { nodeIDs: [plain] },
    });
    expect(placed.statusCode).toBe(200);
    const list = async (q: RouteInput<typeof listInitializedNodes>['query']) => {
      const res = (await call(listInitializedNodes, { query: { zoneIDs: zone, ...q } })).json();
      return { total: res.total, ids: res.data.map((n: { id: number }) => n.id) };
    };
    expect(await list({ subNodeType: 'withSubs' })).toEqual({ total: 1, ids: [withSubs] });
    expect(await list({ subNodeType: 'withoutSubs' })).toEqual({ total: 1, ids: [plain] });
    expect(await list({ dnsStatus: 'recorded' })).toEqual({ total: 1, ids: [plain] });
    expect(await list({ dnsStatus: 'none' })).toEqual({ total: 1, ids: [withSubs] });
    expect(await list({ dnsStatus: 'none', subNodeType: 'withoutSubs' })).toEqual({ total: 0, ids: [] });
    const all = (await call(listInitializedNodes, { query: { zoneIDs: zone } })).json().data;
    expect(
      all.map((n: { id: number; dnsStatus: string; subNodeCount: number }) => [n.id, n.dnsStatus, n.subNodeCount]),
    ).toEqual(
      expect.arrayContaining([
        [plain, 'recorded', 0],
        [withSubs, 'none', 1],
      ]),
    );
    const bad = await call(listInitializedNodes, rawInput({ query: { dnsStatus: 'maybe', subNodeType: 'some' } }));
    expect(fields(bad)).toEqual(['dnsStatus:invalidValue', 'subNodeType:invalidValue']);
    expect((await call(listInitializedNodes, { query: { subNodeType: 'withSubs' } }, z.rival)).json().data).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ id: withSubs })]),
    );
  });
});

describe('nodes named by a virtual node (202004)', () => {
  it('cannot be taken out of the zone or moved until the record is deleted', async () => {
    const node = await initializedNode(z.t, z.client, z.zoneId, 'vn-named', ['198.51.100.95']);
    const vn = (
      await call(createVirtualNode, { params: { zoneID: z.zoneId }, body: { name: 'named-pool', portType: 7 } })
    ).json().data.id;
    await call(addVirtualNodeNodeRecords, { params: { zoneID: z.zoneId, id: vn }, body: { nodeIDs: [node] } });
    const removed = await call(removeZoneNode, { params: { zoneID: z.zoneId }, body: { id: node } });
    expect(removed.statusCode).toBe(409);
    expect(removed.json()).toMatchObject({ code: 202004, extra: { nodeIDs: [node] } });
    const other = await initializedNode(z.t, z.client, z.zoneId, 'vn-free', ['198.51.100.96']);
    const moved = await call(moveNodesToZone, { body: { nodeIDs: [other, node], zoneID: z.otherZoneId } });
    expect(moved.json()).toMatchObject({ code: 202004, extra: { nodeIDs: [node] } });
    // All or none: the free node stayed too.
    const inZone = (await call(listInitializedNodes, { query: { zoneIDs: z.zoneId, value: 'vn-' } })).json().data;
    expect(inZone.map((n: { id: number }) => n.id).sort()).toEqual([node, other].sort((a, b) => a - b));
    const records = (await call(listVirtualNodeRecords, { params: { zoneID: z.zoneId, id: vn } })).json().data;
    await call(deleteVirtualNodeRecords, { params: { zoneID: z.zoneId, id: vn }, body: { ids: [records[0].id] } });
    expect((await call(moveNodesToZone, { body: { nodeIDs: [node], zoneID: z.otherZoneId } })).statusCode).toBe(200);
    expect((await call(removeZoneNode, { params: { zoneID: z.otherZoneId }, body: { id: node } })).statusCode).toBe(
      200,
    );
  });
});

describe('zone resource', () => {
  it('counts what the zone carries from the database, and only for its operator', async () => {
    const zone = (await call(createZone, { body: { name: 'Counted' } })).json().data.id;
    const empty = (await call(getZoneResource, { params: { zoneID: zone } })).json().data;
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
    const a = await initializedNode(z.t, z.client, zone, 'res-a', ['198.51.100.97']);
    const b = await initializedNode(z.t, z.client, zone, 'res-b', ['198.51.100.98']);
    await call(createSubNodes, { params: { zoneID: zone, id: a }, body: { ips: ['198.51.100.99', '198.51.100.100'] } });
    await call(setNodeStatus, { body: { ids: [b], status: 'off' } });
    await call(createGroup, { params: { zoneID: zone }, body: { name: 'res-web', portType: 7 } });
    await call(createVirtualNode, { params: { zoneID: zone }, body: { name: 'res-vn', portType: 7 } });
    const now = (await call(getZoneResource, { params: { zoneID: zone } })).json().data;
    // Both nodes registered just now: online until the window passes.
    expect(now).toMatchObject({ nodes: 2, onlineNodes: 2, enabledNodes: 1, subNodes: 2, groups: 1, virtualNodes: 1 });
    clock.advance(61_000);
    expect((await call(getZoneResource, { params: { zoneID: zone } })).json().data.onlineNodes).toBe(0);
    expect((await call(getZoneResource, { params: { zoneID: zone } }, z.rival)).json().code).toBe(101018);
    expect((await call(getZoneResource, { params: { zoneID: 999999 } })).json().code).toBe(101018);
  });
});

describe('zone limit (201003)', () => {
  it("refuses a zone beyond the operator account's zone limit, and 0 means no limit", async () => {
    const owner = await addAccount(z.t.app, 'client', 'limited');
    await z.t.db.database.db.update(accounts).set({ zoneLimit: 2 }).where(eq(accounts.id, owner));
    const limited = await signIn(z.t.app, 'client', 'limited');
    expect((await call(createZone, { body: { name: 'one' } }, limited)).statusCode).toBe(200);
    expect((await call(createZone, { body: { name: 'two' } }, limited)).statusCode).toBe(200);
    const third = await call(createZone, { body: { name: 'three' } }, limited);
    expect(third.statusCode).toBe(422);
    expect(third.json()).toMatchObject({ code: 201003, extra: { limit: 2 } });
    expect((await call(listZones, undefined, limited)).json().total).toBe(2);
    // Another operator's limit is its own: the seeded operator (limit 0) still creates zones.
    expect((await call(createZone, { body: { name: 'unlimited' } })).statusCode).toBe(200);
    const first = (await call(listZones, { query: { sortBy: 'name', orderBy: 'asc' } }, limited)).json().data[0].id;
    expect((await call(deleteZone, { body: { id: first } }, limited)).statusCode).toBe(200);
    expect((await call(createZone, { body: { name: 'three' } }, limited)).statusCode).toBe(200);
  });
});
