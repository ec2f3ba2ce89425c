import type { RouteInput } from '@rampart/contract';
import {
  addLineNodes,
  addLineVirtualNodes,
  createGroup,
  createVirtualNode,
  createZone,
  DNS_LINES,
  GROUP_PLACEMENT_LIMIT,
  lineNodeCandidates,
  lineNodeNums,
  lineVirtualNodeCandidates,
  listDnsLines,
  listGroups,
  listLineNodes,
  listLineVirtualNodes,
  moveLineNodes,
  moveLineVirtualNodes,
  removeLineNodes,
  removeLineVirtualNodes,
  setNodePortType,
} from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { nodes } from '../src/platform/db/schema.js';
import { rootId } from './helpers/accounts.js';
import { bearer } from './helpers/auth.js';
import { rawInput, send } from './helpers/call.js';
import { initializedNode, twoZonesFile } from './helpers/operators.js';

const z = twoZonesFile();
const { call } = z;

/** The path of a line of group `groupID` in the zone `Asia`: its `default` line unless another is named. */
const lineOf = (groupID: number, lineID: RouteInput<typeof listLineNodes>['params']['lineID'] = 'default') => ({
  zoneID: z.zoneId,
  groupID,
  lineID,
});
async function group(name: string, portType: 7 | 4, zone = z.zoneId): Promise<number> {
  return (await call(createGroup, { params: { zoneID: zone }, body: { name, portType } })).json().data.id;
}
async function virtualNode(name: string, portType: 7 | 4, zone = z.zoneId): Promise<number> {
  return (await call(createVirtualNode, { params: { zoneID: zone }, body: { name, portType } })).json().data.id;
}
const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((row) => row.id);

describe('DNS lines', () => {
  it('lists the catalogue in the language of the language header, else Accept-Language, else zh_TW', async () => {
    const get = (headers: Record<string, string>) =>
      send(z.t.app, listDnsLines, undefined, { headers: { ...bearer(z.client), ...headers } });
    const fallback = (await get({})).json().data;
    expect(fallback.map((l: { id: string }) => l.id)).toEqual(DNS_LINES.map((l) => l.id));
    expect(fallback.slice(0, 2)).toEqual([
      { id: 'default', name: '預設' },
      { id: 'telecom', name: '電信' },
    ]);
    expect((await get({ language: 'en_US' })).json().data[1]).toEqual({ id: 'telecom', name: 'China Telecom' });
    expect((await get({ 'accept-language': 'zh-CN,zh;q=0.9' })).json().data[1].name).toBe('电信');
    expect((await get({ language: 'zh_TW', 'accept-language': 'en' })).json().data[1].name).toBe('電信');
  });

  it('refuses a line id outside the catalogue with 101003 on lineID or toLine', async () => {
    const g = await group('lines-bad', 7);
    const res = await call(listLineNodes, rawInput({ params: { zoneID: z.zoneId, groupID: g, lineID: 'mars' } }));
    expect(res.json()).toMatchObject({ code: 101003, extra: { fields: [{ in: 'params', field: 'lineID' }] } });
    const a = await initializedNode(z.t, z.client, z.zoneId, 'bad-line-a');
    await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: [a] } });
    const move = await call(moveLineNodes, rawInput({ params: lineOf(g), body: { nodeIDs: [a], toLine: 'mars' } }));
    expect(move.json()).toMatchObject({ code: 101003, extra: { fields: [{ in: 'body', field: 'toLine' }] } });
    const empty = await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: [] } });
    expect(empty.json().extra.fields[0]).toMatchObject({ field: 'nodeIDs', key: 'required' });
  });
});

describe('nodes on lines', () => {
  it('places nodes of the zone on several lines, lists each line, and counts them per line and per group', async () => {
    const g = await group('web', 7);
    const a = await initializedNode(z.t, z.client, z.zoneId, 'edge-a');
    const b = await initializedNode(z.t, z.client, z.zoneId, 'edge-b');
    expect((await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: [a, b] } })).json()).toEqual({ data: true });
    expect((await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: [a] } })).statusCode).toBe(200); // already there
    expect((await call(addLineNodes, { params: lineOf(g, 'telecom'), body: { nodeIDs: [a] } })).statusCode).toBe(200);
    const list = await call(listLineNodes, {
      params: lineOf(g),
      query: { page: 2, pageSize: 1 },
    });
    expect(list.json()).toEqual({ total: 2, data: [{ id: b, name: 'edge-b', ips: ['192.0.2.30'] }] });
    expect(ids(await call(listLineNodes, { params: lineOf(g, 'telecom') }))).toEqual([a]);

    const nums = (await call(lineNodeNums, { params: { zoneID: z.zoneId, groupID: g } })).json().data;
    expect(nums).toHaveLength(DNS_LINES.length);
    expect(nums.filter((n: { nodeNum: number }) => n.nodeNum > 0)).toEqual([
      { line: 'default', nodeNum: 2, virtualNodeNum: 0 },
      { line: 'telecom', nodeNum: 1, virtualNodeNum: 0 },
    ]);
    const listed = (await call(listGroups, { params: { zoneID: z.zoneId }, query: { pageSize: 100 } })).json().data;
    expect(listed.find((row: { id: number }) => row.id === g)).toMatchObject({ nodeCount: 2, virtualNodeCount: 0 });
  });

  it('places all or none: a node of another zone or an uninitialised one is 101018 and nothing is placed', async () => {
    const g = await group('strict', 7);
    const a = await initializedNode(z.t, z.client, z.zoneId, 'strict-a');
    const far = await initializedNode(z.t, z.client, z.otherZoneId, 'strict-eu');
    expect((await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: [a, far] } })).json().code).toBe(101018);
    expect((await call(listLineNodes, { params: lineOf(g) })).json().total).toBe(0);
    expect((await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: [a, 999_999] } })).json().code).toBe(101018);
  });

  it('keeps a node to its one port type (101003 portTypeMismatch) and offers only fitting candidates', async () => {
    const web = await group('pt-web', 7);
    const tcp = await group('pt-tcp', 4);
    const a = await initializedNode(z.t, z.client, z.zoneId, 'pt-a');
    const b = await initializedNode(z.t, z.client, z.zoneId, 'pt-b');
    await call(addLineNodes, { params: lineOf(web), body: { nodeIDs: [a] } });
    // Nodes are of port type 7 until the operator sets them to 4.
    const refused = await call(addLineNodes, { params: lineOf(tcp), body: { nodeIDs: [a, b] } });
    expect(refused.json()).toMatchObject({
      code: 101003,
      extra: { fields: [{ field: 'nodeIDs', key: 'portTypeMismatch' }] },
    });
    expect(refused.json().extra.fields[0].message).toContain(`${a}, ${b}`);
    expect(
      ids(
        await call(lineNodeCandidates, {
          params: lineOf(tcp),
          query: { value: 'pt-', pageSize: 500 },
        }),
      ),
    ).toEqual([]);

    // A node in a group of port type 7 cannot become 4 (202005); one in no group can.
    expect((await call(setNodePortType, { body: { ids: [a, b], portType: 4 } })).json().code).toBe(202005);
    expect((await call(setNodePortType, { body: { ids: [b], portType: 4 } })).statusCode).toBe(200);
    const tcpCandidates = ids(
      await call(lineNodeCandidates, {
        params: lineOf(tcp),
        query: { value: 'pt-', pageSize: 500 },
      }),
    );
    expect(tcpCandidates).toEqual([b]);
    expect((await call(addLineNodes, { params: lineOf(web, 'telecom'), body: { nodeIDs: [b] } })).json().code).toBe(
      101003,
    );
    expect((await call(addLineNodes, { params: lineOf(tcp), body: { nodeIDs: [b] } })).statusCode).toBe(200);
    expect(
      ids(
        await call(lineNodeCandidates, {
          params: lineOf(web),
          query: { value: 'pt-', pageSize: 500 },
        }),
      ),
    ).toEqual([]);
    expect(
      ids(
        await call(lineNodeCandidates, {
          params: lineOf(web, 'telecom'),
          query: { value: 'pt-' },
        }),
      ),
    ).toEqual([a]);
  });

  it('removes nodes all or none: one not on the line is 101018 and nothing is removed', async () => {
    const g = await group('remove', 7);
    const a = await initializedNode(z.t, z.client, z.zoneId, 'rm-a');
    const b = await initializedNode(z.t, z.client, z.zoneId, 'rm-b');
    await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: [a] } });
    expect((await call(removeLineNodes, { params: lineOf(g), body: { nodeIDs: [a, b] } })).json().code).toBe(101018);
    expect((await call(listLineNodes, { params: lineOf(g) })).json().total).toBe(1);
    expect((await call(removeLineNodes, { params: lineOf(g), body: { nodeIDs: [a] } })).json()).toEqual({ data: true });
    expect((await call(listLineNodes, { params: lineOf(g) })).json().total).toBe(0);
  });

  it('moves nodes to another line of the group; one already there just leaves the old line', async () => {
    const g = await group('move', 7);
    const a = await initializedNode(z.t, z.client, z.zoneId, 'mv-a');
    const b = await initializedNode(z.t, z.client, z.zoneId, 'mv-b');
    await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: [a, b] } });
    await call(addLineNodes, { params: lineOf(g, 'unicom'), body: { nodeIDs: [b] } });
    expect(
      (await call(moveLineNodes, { params: lineOf(g, 'unicom'), body: { nodeIDs: [a], toLine: 'mobile' } })).json()
        .code,
    ).toBe(101018);
    expect(
      (await call(moveLineNodes, { params: lineOf(g), body: { nodeIDs: [a, b], toLine: 'unicom' } })).json(),
    ).toEqual({
      data: true,
    });
    expect((await call(listLineNodes, { params: lineOf(g) })).json().total).toBe(0);
    expect(ids(await call(listLineNodes, { params: lineOf(g, 'unicom') }))).toEqual([a, b]);
  });

  it(`refuses to place beyond ${GROUP_PLACEMENT_LIMIT} places in a group (203003)`, async () => {
    const g = await group('full', 7);
    const ownerId = await rootId(z.t.app, 'client');
    // Nodes straight into the table: registering a thousand through the API would take minutes.
    const rows = await z.t.db.database.db
      .insert(nodes)
      .values(
        Array.from({ length: GROUP_PLACEMENT_LIMIT }, (_, i) => ({
          ownerId,
          name: `bulk-${i}`,
          ips: ['192.0.2.40'],
          version: '0.1.0',
          status: 'initialized' as const,
          zoneId: z.zoneId,
          secretSealed: 'unused',
        })),
      )
      .returning({ id: nodes.id });
    const bulk = rows.map((r) => r.id);
    for (let i = 0; i < bulk.length; i += 500) {
      expect(
        (await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: bulk.slice(i, i + 500) } })).statusCode,
      ).toBe(200);
    }
    expect((await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: bulk.slice(0, 3) } })).statusCode).toBe(200);
    const one = await initializedNode(z.t, z.client, z.zoneId, 'one-too-many');
    expect((await call(addLineNodes, { params: lineOf(g, 'telecom'), body: { nodeIDs: [one] } })).json().code).toBe(
      203003,
    );
    expect(
      (await call(moveLineNodes, { params: lineOf(g), body: { nodeIDs: bulk.slice(0, 1), toLine: 'telecom' } }))
        .statusCode,
    ).toBe(200);
  });
});

describe('virtual nodes on lines', () => {
  it('places, lists, counts, moves and removes virtual nodes like nodes', async () => {
    const g = await group('vn-web', 7);
    const v1 = await virtualNode('vn-1', 7);
    const v2 = await virtualNode('vn-2', 7);
    expect(
      ids(
        await call(lineVirtualNodeCandidates, {
          params: lineOf(g),
          query: { value: 'vn-' },
        }),
      ),
    ).toEqual([v1, v2]);
    expect((await call(addLineVirtualNodes, { params: lineOf(g), body: { virtualNodeIDs: [v1, v2] } })).json()).toEqual(
      { data: true },
    );
    expect((await call(listLineVirtualNodes, { params: lineOf(g) })).json()).toEqual({
      total: 2,
      data: [
        { id: v1, name: 'vn-1', portType: 7, recordCount: 0 },
        { id: v2, name: 'vn-2', portType: 7, recordCount: 0 },
      ],
    });
    expect(
      (
        await call(lineVirtualNodeCandidates, {
          params: lineOf(g),
          query: { value: 'vn-' },
        })
      ).json().total,
    ).toBe(0);
    expect(
      (await call(moveLineVirtualNodes, { params: lineOf(g), body: { virtualNodeIDs: [v2], toLine: 'overseas' } }))
        .statusCode,
    ).toBe(200);
    const nums = (await call(lineNodeNums, { params: { zoneID: z.zoneId, groupID: g } })).json().data;
    expect(nums.filter((n: { virtualNodeNum: number }) => n.virtualNodeNum > 0)).toEqual([
      { line: 'default', nodeNum: 0, virtualNodeNum: 1 },
      { line: 'overseas', nodeNum: 0, virtualNodeNum: 1 },
    ]);
    const listed = (await call(listGroups, { params: { zoneID: z.zoneId }, query: { pageSize: 100 } })).json().data;
    expect(listed.find((row: { id: number }) => row.id === g)).toMatchObject({ virtualNodeCount: 2 });
    expect(
      (await call(removeLineVirtualNodes, { params: lineOf(g), body: { virtualNodeIDs: [v1, v2] } })).json().code,
    ).toBe(101018);
    expect((await call(removeLineVirtualNodes, { params: lineOf(g), body: { virtualNodeIDs: [v1] } })).statusCode).toBe(
      200,
    );
    expect((await call(listLineVirtualNodes, { params: lineOf(g) })).json().total).toBe(0);
  });

  it('refuses a virtual node of another port type (101003) or of another zone (101018)', async () => {
    const g = await group('vn-strict', 7);
    const tcp = await virtualNode('vn-tcp', 4);
    const far = await virtualNode('vn-far', 7, z.otherZoneId);
    expect(
      (await call(addLineVirtualNodes, { params: lineOf(g), body: { virtualNodeIDs: [tcp] } })).json(),
    ).toMatchObject({
      code: 101003,
      extra: { fields: [{ field: 'virtualNodeIDs', key: 'portTypeMismatch' }] },
    });
    expect((await call(addLineVirtualNodes, { params: lineOf(g), body: { virtualNodeIDs: [far] } })).json().code).toBe(
      101018,
    );
    expect(
      ids(
        await call(lineVirtualNodeCandidates, {
          params: lineOf(g),
          query: { value: 'vn-tcp' },
        }),
      ),
    ).toEqual([]);
  });
});

describe('isolation', () => {
  it("answers another operator 101018 for the first one's group lines, and lets neither place the other's nodes", async () => {
    const g = await group('private', 7);
    const mine = await initializedNode(z.t, z.client, z.zoneId, 'mine');
    const rivalZone = (await call(createZone, { body: { name: 'Rival zone' } }, z.rival)).json().data.id;
    const rivalGroup = (
      await call(createGroup, { params: { zoneID: rivalZone }, body: { name: 'g', portType: 7 } }, z.rival)
    ).json().data.id;
    const theirs = await initializedNode(z.t, z.rival, rivalZone, 'theirs');
    const v = await virtualNode('private-vn', 7);

    const line = { zoneID: z.zoneId, groupID: g, lineID: 'default' as const };
    const rivalLine = { zoneID: rivalZone, groupID: rivalGroup, lineID: 'default' as const };
    for (const [url, attempt] of [
      ['list nodes', () => call(listLineNodes, { params: line }, z.rival)],
      ['node candidates', () => call(lineNodeCandidates, { params: line }, z.rival)],
      ['node numbers', () => call(lineNodeNums, { params: { zoneID: z.zoneId, groupID: g } }, z.rival)],
      ['add nodes', () => call(addLineNodes, { params: line, body: { nodeIDs: [theirs] } }, z.rival)],
      ['remove nodes', () => call(removeLineNodes, { params: line, body: { nodeIDs: [mine] } }, z.rival)],
      [
        'move nodes',
        () => call(moveLineNodes, { params: line, body: { nodeIDs: [mine], toLine: 'telecom' } }, z.rival),
      ],
      ['list virtual nodes', () => call(listLineVirtualNodes, { params: line }, z.rival)],
      [
        'add my virtual node',
        () => call(addLineVirtualNodes, { params: rivalLine, body: { virtualNodeIDs: [v] } }, z.rival),
      ],
      ['add my node', () => call(addLineNodes, { params: rivalLine, body: { nodeIDs: [mine] } }, z.rival)],
    ] as const) {
      const res = await attempt();
      expect([url, res.json().code]).toEqual([url, 101018]);
    }
    expect((await call(addLineNodes, { params: lineOf(g), body: { nodeIDs: [theirs] } })).json().code).toBe(101018);
    expect(
      (await call(createGroup, { params: { zoneID: rivalZone }, body: { name: 'intruder', portType: 7 } })).json().code,
    ).toBe(101018);
  });
});
