import {
  addLineNodes,
  addLineVirtualNodes,
  addVirtualNodeCname,
  addVirtualNodeNodeRecords,
  createGroup,
  createVirtualNode,
  createZone,
  deleteVirtualNodeRecords,
  deleteVirtualNodes,
  deleteZone,
  listVirtualNodeRecords,
  listVirtualNodes,
  removeLineVirtualNodes,
  setNodePortType,
  updateVirtualNode,
} from '@rampart/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isForeignKeyViolation } from '../src/platform/db/errors.js';
import { nodes } from '../src/platform/db/schema.js';
import { fieldNames, rawInput, rawRequest } from './helpers/call.js';
import { initializedNode, twoZonesFile } from './helpers/operators.js';

const z = twoZonesFile();
const { call } = z;

async function create(name: string, portType: 7 | 4 = 7, zone = z.zoneId): Promise<number> {
  const res = await call(createVirtualNode, { params: { zoneID: zone }, body: { name, portType } });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().data.id;
}

describe('virtual nodes', () => {
  it('creates, lists (paged, searched), renames and deletes virtual nodes', async () => {
    const created = await call(createVirtualNode, {
      params: { zoneID: z.zoneId },
      body: { name: 'cdn-cn', portType: 7, memo: 'mainland' },
    });
    expect(created.json().data).toMatchObject({
      zoneId: z.zoneId,
      name: 'cdn-cn',
      portType: 7,
      memo: 'mainland',
      recordCount: 0,
      lineCount: 0,
    });
    const id = created.json().data.id;
    const other = await create('cdn-eu', 4);
    expect(
      (await call(listVirtualNodes, { params: { zoneID: z.zoneId }, query: { value: 'cdn-', pageSize: 1 } })).json(),
    ).toMatchObject({
      total: 2,
      data: [{ id: other, name: 'cdn-eu' }],
    });
    expect((await call(listVirtualNodes, { params: { zoneID: z.zoneId }, query: { value: 'eu' } })).json().total).toBe(
      1,
    );
    const renamed = await call(updateVirtualNode, {
      params: { zoneID: z.zoneId },
      body: { id, name: 'cdn-mainland', memo: '' },
    });
    expect(renamed.json().data).toMatchObject({ id, name: 'cdn-mainland', memo: '', portType: 7 });
    expect(
      (await call(deleteVirtualNodes, { params: { zoneID: z.zoneId }, body: { ids: [id, other] } })).json(),
    ).toEqual({ data: true });
    expect(
      (await call(listVirtualNodes, { params: { zoneID: z.zoneId }, query: { value: 'cdn-' } })).json().total,
    ).toBe(0);
  });

  it('refuses a taken name (101025), bad fields (101003) and unknown ids (101018), all or none', async () => {
    const id = await create('taken');
    expect(
      (await call(createVirtualNode, { params: { zoneID: z.zoneId }, body: { name: 'taken', portType: 7 } })).json()
        .code,
    ).toBe(101025);
    await create('taken', 7, z.otherZoneId); // names are per zone
    const bad = await call(
      createVirtualNode,
      rawInput({ params: { zoneID: z.zoneId }, body: { name: '', portType: 5 } }),
    );
    expect(fieldNames(bad).sort()).toEqual(['name', 'portType']);
    expect(
      (await call(updateVirtualNode, { params: { zoneID: z.zoneId }, body: { id: 999_999, name: 'x' } })).json().code,
    ).toBe(101018);
    expect(
      (await call(deleteVirtualNodes, { params: { zoneID: z.zoneId }, body: { ids: [id, 999_999] } })).json().code,
    ).toBe(101018);
    expect(
      (await call(listVirtualNodes, { params: { zoneID: z.zoneId }, query: { value: 'taken' } })).json().total,
    ).toBe(1);
    expect((await call(listVirtualNodes, { params: { zoneID: 999999 } })).json().code).toBe(101018);
  });

  it('refuses to delete a virtual node still on a line (206001), then deletes it once taken off', async () => {
    const id = await create('placed');
    const g = (
      await call(createGroup, { params: { zoneID: z.zoneId }, body: { name: 'vn-group', portType: 7 } })
    ).json().data.id;
    await call(addLineVirtualNodes, {
      params: { zoneID: z.zoneId, groupID: g, lineID: 'telecom' },
      body: { virtualNodeIDs: [id] },
    });
    expect(
      (await call(listVirtualNodes, { params: { zoneID: z.zoneId }, query: { value: 'placed' } })).json().data[0]
        .lineCount,
    ).toBe(1);
    expect((await call(deleteVirtualNodes, { params: { zoneID: z.zoneId }, body: { ids: [id] } })).json().code).toBe(
      206001,
    );
    await call(removeLineVirtualNodes, {
      params: { zoneID: z.zoneId, groupID: g, lineID: 'telecom' },
      body: { virtualNodeIDs: [id] },
    });
    expect((await call(deleteVirtualNodes, { params: { zoneID: z.zoneId }, body: { ids: [id] } })).statusCode).toBe(
      200,
    );
  });

  it('deletes an empty zone with its groups and virtual nodes, even one placed on a line', async () => {
    const zone = (await call(createZone, { body: { name: 'Short-lived' } })).json().data.id;
    const v = await create('gone', 7, zone);
    const g = (await call(createGroup, { params: { zoneID: zone }, body: { name: 'g', portType: 7 } })).json().data.id;
    await call(addLineVirtualNodes, {
      params: { zoneID: zone, groupID: g, lineID: 'default' },
      body: { virtualNodeIDs: [v] },
    });
    expect((await call(deleteZone, { body: { id: zone } })).statusCode).toBe(200);
    expect((await call(listVirtualNodes, { params: { zoneID: zone } })).json().code).toBe(101018);
  });
});

describe('virtual node records', () => {
  it('keeps one CNAME target alone: stored in ASCII, refused next to other records', async () => {
    const id = await create('alias');
    const cname = await call(addVirtualNodeCname, {
      params: { zoneID: z.zoneId, id },
      body: { value: 'Bücher.Example.com' },
    });
    expect(cname.json().data).toMatchObject({
      type: 'cname',
      value: 'xn--bcher-kva.example.com',
      nodeId: null,
      nodeName: '',
      ips: [],
    });
    const again = await call(addVirtualNodeCname, {
      params: { zoneID: z.zoneId, id },
      body: { value: 'other.example.com' },
    });
    expect(again.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'value', key: 'cnameAlone' }] } });
    const node = await initializedNode(z.t, z.client, z.zoneId, 'beside-cname');
    const nodes = await call(addVirtualNodeNodeRecords, {
      params: { zoneID: z.zoneId, id },
      body: { nodeIDs: [node] },
    });
    expect(nodes.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'nodeIDs', key: 'cnameAlone' }] } });
    const bad = await call(addVirtualNodeCname, { params: { zoneID: z.zoneId, id }, body: { value: 'not a host' } });
    expect(bad.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'value' }] } });
  });

  it("adds node records for the operator's nodes of any zone, lists them with their IPs, and deletes them", async () => {
    const id = await create('pool');
    const a = await initializedNode(z.t, z.client, z.zoneId, 'pool-a', ['198.51.100.1']);
    const b = await initializedNode(z.t, z.client, z.otherZoneId, 'pool-b', ['198.51.100.2', '2001:db8::2']);
    expect(
      (await call(addVirtualNodeNodeRecords, { params: { zoneID: z.zoneId, id }, body: { nodeIDs: [a, b] } })).json(),
    ).toEqual({
      data: true,
    });
    expect(
      (await call(addVirtualNodeNodeRecords, { params: { zoneID: z.zoneId, id }, body: { nodeIDs: [a] } })).statusCode,
    ).toBe(200);
    const records = (await call(listVirtualNodeRecords, { params: { zoneID: z.zoneId, id } })).json();
    expect(records.total).toBe(2);
    expect(records.data.map((r: { nodeId: number; ips: string[]; type: string }) => [r.type, r.nodeId, r.ips])).toEqual(
      [
        ['node', a, ['198.51.100.1']],
        ['node', b, ['198.51.100.2', '2001:db8::2']],
      ],
    );
    const first = records.data[0].id;
    const second = records.data[1].id;
    expect(
      (
        await call(deleteVirtualNodeRecords, { params: { zoneID: z.zoneId, id }, body: { ids: [first, 999_999] } })
      ).json().code,
    ).toBe(101018);
    expect(
      (await call(deleteVirtualNodeRecords, { params: { zoneID: z.zoneId, id }, body: { ids: [first] } })).statusCode,
    ).toBe(200);
    expect(
      (await call(listVirtualNodeRecords, { params: { zoneID: z.zoneId, id } }))
        .json()
        .data.map((r: { id: number }) => r.id),
    ).toEqual([second]);
    expect(
      (await call(listVirtualNodes, { params: { zoneID: z.zoneId }, query: { value: 'pool' } })).json().data[0]
        .recordCount,
    ).toBe(1);
  });

  it('refuses node records all or none for a missing node (101018) or one serving the other port type (101003)', async () => {
    const id = await create('strict-pool', 4);
    const a = await initializedNode(z.t, z.client, z.zoneId, 'strict-a');
    const web = (
      await call(createGroup, { params: { zoneID: z.zoneId }, body: { name: 'strict-web', portType: 7 } })
    ).json().data.id;
    await call(addLineNodes, { params: { zoneID: z.zoneId, groupID: web, lineID: 'default' }, body: { nodeIDs: [a] } });
    const b = await initializedNode(z.t, z.client, z.zoneId, 'strict-b');
    expect(
      (
        await call(addVirtualNodeNodeRecords, { params: { zoneID: z.zoneId, id }, body: { nodeIDs: [b, 999_999] } })
      ).json().code,
    ).toBe(101018);
    const mismatch = await call(addVirtualNodeNodeRecords, {
      params: { zoneID: z.zoneId, id },
      body: { nodeIDs: [a, b] },
    });
    expect(mismatch.json()).toMatchObject({
      code: 101003,
      extra: { fields: [{ field: 'nodeIDs', key: 'portTypeMismatch' }] },
    });
    expect((await call(listVirtualNodeRecords, { params: { zoneID: z.zoneId, id } })).json().total).toBe(0);
    // b is a layer-7 node until the operator makes it a layer-4 one; then the record takes it.
    expect(
      (await call(addVirtualNodeNodeRecords, { params: { zoneID: z.zoneId, id }, body: { nodeIDs: [b] } })).json().extra
        .fields[0].key,
    ).toBe('portTypeMismatch');
    await call(setNodePortType, { body: { ids: [b], portType: 4 } });
    expect(
      (await call(addVirtualNodeNodeRecords, { params: { zoneID: z.zoneId, id }, body: { nodeIDs: [b] } })).statusCode,
    ).toBe(200);
    const place = await call(addLineNodes, {
      params: { zoneID: z.zoneId, groupID: web, lineID: 'default' },
      body: { nodeIDs: [b] },
    });
    expect(place.json().extra.fields[0].key).toBe('portTypeMismatch');
  });
});

describe('nodes named by records', () => {
  it('keeps a node a record names from being deleted (the foreign key behind 202004)', async () => {
    const id = await create('keeps-node');
    const node = await initializedNode(z.t, z.client, z.zoneId, 'kept');
    await call(addVirtualNodeNodeRecords, { params: { zoneID: z.zoneId, id }, body: { nodeIDs: [node] } });
    // No call deletes nodes yet: the node calls will map this violation to 202004.
    const attempt = z.t.db.database.db.delete(nodes).where(eq(nodes.id, node));
    const error = await attempt.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isForeignKeyViolation(error)).toBe(true);
  });
});

describe('isolation', () => {
  it("answers another operator 101018 for the first one's zone, virtual nodes, records and nodes", async () => {
    const id = await create('private');
    const node = await initializedNode(z.t, z.client, z.zoneId, 'private-node');
    await call(addVirtualNodeNodeRecords, { params: { zoneID: z.zoneId, id }, body: { nodeIDs: [node] } });
    const rivalZone = (await call(createZone, { body: { name: 'Rival' } }, z.rival)).json().data.id;
    const rivalVn = (
      await call(createVirtualNode, { params: { zoneID: rivalZone }, body: { name: 'r', portType: 7 } }, z.rival)
    ).json().data.id;
    for (const [route, input] of [
      [listVirtualNodes, { params: { zoneID: z.zoneId } }],
      [createVirtualNode, { params: { zoneID: z.zoneId }, body: { name: 'intruder', portType: 7 } }],
      [updateVirtualNode, { params: { zoneID: z.zoneId }, body: { id, name: 'stolen' } }],
      [deleteVirtualNodes, { params: { zoneID: z.zoneId }, body: { ids: [id] } }],
      [listVirtualNodeRecords, { params: { zoneID: z.zoneId, id } }],
      [addVirtualNodeCname, { params: { zoneID: z.zoneId, id }, body: { value: 'evil.example.com' } }],
      [addVirtualNodeNodeRecords, { params: { zoneID: z.zoneId, id }, body: { nodeIDs: [node] } }],
      [deleteVirtualNodeRecords, { params: { zoneID: z.zoneId, id }, body: { ids: [1] } }],
      [listVirtualNodeRecords, { params: { zoneID: rivalZone, id } }],
      [addVirtualNodeNodeRecords, { params: { zoneID: rivalZone, id: rivalVn }, body: { nodeIDs: [node] } }],
    ] as const) {
      const res = await rawRequest(z.t.app, route, input, { token: z.rival });
      expect([route.id, res.json().code]).toEqual([route.id, 101018]);
    }
    expect((await call(listVirtualNodes, { params: { zoneID: rivalZone } }, z.rival)).json().total).toBe(1);
    expect(
      (await call(listVirtualNodes, { params: { zoneID: z.zoneId }, query: { value: 'private' } })).json().data[0],
    ).toMatchObject({
      name: 'private',
      recordCount: 1,
    });
  });
});
