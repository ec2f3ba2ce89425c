import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isForeignKeyViolation } from '../src/platform/db/errors.js';
import { nodes } from '../src/platform/db/schema.js';
import { signInOtherOperator } from './helpers/accounts.js';
import { callApi, type Method, signIn } from './helpers/auth.js';
import { initializedNode } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let zoneId: number;
let otherZoneId: number;
beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app);
  zoneId = (await call('POST', 'client/zone', { name: 'Asia' })).json().data.id;
  otherZoneId = (await call('POST', 'client/zone', { name: 'Europe' })).json().data.id;
});
afterAll(async () => t.close());

function call(method: Method, url: string, payload?: Record<string, unknown>, token = client) {
  return callApi(t.app, token, method, url, payload);
}
const base = (zone = zoneId) => `client/zone/${zone}`;
async function create(name: string, portType: 7 | 4 = 7, zone = zoneId): Promise<number> {
  const res = await call('POST', `${base(zone)}/virtualNode`, { name, portType });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().data.id;
}

describe('virtual nodes', () => {
  it('creates, lists (paged, searched), renames and deletes virtual nodes', async () => {
    const created = await call('POST', `${base()}/virtualNode`, { name: 'cdn-cn', portType: 7, memo: 'mainland' });
    expect(created.json().data).toMatchObject({
      zoneId,
      name: 'cdn-cn',
      portType: 7,
      memo: 'mainland',
      recordCount: 0,
      lineCount: 0,
    });
    const id = created.json().data.id;
    const other = await create('cdn-eu', 4);
    expect((await call('GET', `${base()}/virtualNodes?value=cdn-&pageSize=1`)).json()).toMatchObject({
      total: 2,
      data: [{ id: other, name: 'cdn-eu' }],
    });
    expect((await call('GET', `${base()}/virtualNodes?value=eu`)).json().total).toBe(1);
    const renamed = await call('PUT', `${base()}/virtualNode`, { id, name: 'cdn-mainland', memo: '' });
    expect(renamed.json().data).toMatchObject({ id, name: 'cdn-mainland', memo: '', portType: 7 });
    expect((await call('DELETE', `${base()}/virtualNode`, { ids: [id, other] })).json()).toEqual({ data: true });
    expect((await call('GET', `${base()}/virtualNodes?value=cdn-`)).json().total).toBe(0);
  });

  it('refuses a taken name (101025), bad fields (101003) and unknown ids (101018), all or none', async () => {
    const id = await create('taken');
    expect((await call('POST', `${base()}/virtualNode`, { name: 'taken', portType: 7 })).json().code).toBe(101025);
    await create('taken', 7, otherZoneId); // names are per zone
    const bad = await call('POST', `${base()}/virtualNode`, { name: '', portType: 5 });
    expect(
      bad
        .json()
        .extra.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['name', 'portType']);
    expect((await call('PUT', `${base()}/virtualNode`, { id: 999_999, name: 'x' })).json().code).toBe(101018);
    expect((await call('DELETE', `${base()}/virtualNode`, { ids: [id, 999_999] })).json().code).toBe(101018);
    expect((await call('GET', `${base()}/virtualNodes?value=taken`)).json().total).toBe(1);
    expect((await call('GET', `${base(999_999)}/virtualNodes`)).json().code).toBe(101018);
  });

  it('refuses to delete a virtual node still on a line (206001), then deletes it once taken off', async () => {
    const id = await create('placed');
    const g = (await call('POST', `${base()}/group`, { name: 'vn-group', portType: 7 })).json().data.id;
    const line = `${base()}/group/${g}/line/telecom/virtualNodes`;
    await call('POST', line, { virtualNodeIDs: [id] });
    expect((await call('GET', `${base()}/virtualNodes?value=placed`)).json().data[0].lineCount).toBe(1);
    expect((await call('DELETE', `${base()}/virtualNode`, { ids: [id] })).json().code).toBe(206001);
    await call('DELETE', line, { virtualNodeIDs: [id] });
    expect((await call('DELETE', `${base()}/virtualNode`, { ids: [id] })).statusCode).toBe(200);
  });

  it('deletes an empty zone with its groups and virtual nodes, even one placed on a line', async () => {
    const zone = (await call('POST', 'client/zone', { name: 'Short-lived' })).json().data.id;
    const v = await create('gone', 7, zone);
    const g = (await call('POST', `${base(zone)}/group`, { name: 'g', portType: 7 })).json().data.id;
    await call('POST', `${base(zone)}/group/${g}/line/default/virtualNodes`, { virtualNodeIDs: [v] });
    expect((await call('DELETE', 'client/zone', { id: zone })).statusCode).toBe(200);
    expect((await call('GET', `${base(zone)}/virtualNodes`)).json().code).toBe(101018);
  });
});

describe('virtual node records', () => {
  it('keeps one CNAME target alone: stored in ASCII, refused next to other records', async () => {
    const id = await create('alias');
    const cname = await call('POST', `${base()}/virtualNode/${id}/record/cname`, { value: 'Bücher.Example.com' });
    expect(cname.json().data).toMatchObject({
      type: 'cname',
      value: 'xn--bcher-kva.example.com',
      nodeId: null,
      nodeName: '',
      ips: [],
    });
    const again = await call('POST', `${base()}/virtualNode/${id}/record/cname`, { value: 'other.example.com' });
    expect(again.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'value', key: 'cnameAlone' }] } });
    const node = await initializedNode(t, client, zoneId, 'beside-cname');
    const nodes = await call('POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [node] });
    expect(nodes.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'nodeIDs', key: 'cnameAlone' }] } });
    const bad = await call('POST', `${base()}/virtualNode/${id}/record/cname`, { value: 'not a host' });
    expect(bad.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'value' }] } });
  });

  it("adds node records for the operator's nodes of any zone, lists them with their IPs, and deletes them", async () => {
    const id = await create('pool');
    const a = await initializedNode(t, client, zoneId, 'pool-a', ['198.51.100.1']);
    const b = await initializedNode(t, client, otherZoneId, 'pool-b', ['198.51.100.2', '2001:db8::2']);
    expect((await call('POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [a, b] })).json()).toEqual({
      data: true,
    });
    expect((await call('POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [a] })).statusCode).toBe(200);
    const records = (await call('GET', `${base()}/virtualNode/${id}/records`)).json();
    expect(records.total).toBe(2);
    expect(records.data.map((r: { nodeId: number; ips: string[]; type: string }) => [r.type, r.nodeId, r.ips])).toEqual(
      [
        ['node', a, ['198.51.100.1']],
        ['node', b, ['198.51.100.2', '2001:db8::2']],
      ],
    );
    const [first, second] = records.data.map((r: { id: number }) => r.id);
    expect((await call('DELETE', `${base()}/virtualNode/${id}/record`, { ids: [first, 999_999] })).json().code).toBe(
      101018,
    );
    expect((await call('DELETE', `${base()}/virtualNode/${id}/record`, { ids: [first] })).statusCode).toBe(200);
    expect(
      (await call('GET', `${base()}/virtualNode/${id}/records`)).json().data.map((r: { id: number }) => r.id),
    ).toEqual([second]);
    expect((await call('GET', `${base()}/virtualNodes?value=pool`)).json().data[0].recordCount).toBe(1);
  });

  it('refuses node records all or none for a missing node (101018) or one serving the other port type (101003)', async () => {
    const id = await create('strict-pool', 4);
    const a = await initializedNode(t, client, zoneId, 'strict-a');
    const web = (await call('POST', `${base()}/group`, { name: 'strict-web', portType: 7 })).json().data.id;
    await call('POST', `${base()}/group/${web}/line/default/nodes`, { nodeIDs: [a] });
    const b = await initializedNode(t, client, zoneId, 'strict-b');
    expect((await call('POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [b, 999_999] })).json().code).toBe(
      101018,
    );
    const mismatch = await call('POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [a, b] });
    expect(mismatch.json()).toMatchObject({
      code: 101003,
      extra: { fields: [{ field: 'nodeIDs', key: 'portTypeMismatch' }] },
    });
    expect((await call('GET', `${base()}/virtualNode/${id}/records`)).json().total).toBe(0);
    // b is a layer-7 node until the operator makes it a layer-4 one; then the record takes it.
    expect(
      (await call('POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [b] })).json().extra.fields[0].key,
    ).toBe('portTypeMismatch');
    await call('PUT', 'client/nodes/portType', { ids: [b], portType: 4 });
    expect((await call('POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [b] })).statusCode).toBe(200);
    const place = await call('POST', `${base()}/group/${web}/line/default/nodes`, { nodeIDs: [b] });
    expect(place.json().extra.fields[0].key).toBe('portTypeMismatch');
  });
});

describe('nodes named by records', () => {
  it('keeps a node a record names from being deleted (the foreign key behind 202004)', async () => {
    const id = await create('keeps-node');
    const node = await initializedNode(t, client, zoneId, 'kept');
    await call('POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [node] });
    // No call deletes nodes yet: the node calls will map this violation to 202004.
    const attempt = t.db.database.db.delete(nodes).where(eq(nodes.id, node));
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
    const node = await initializedNode(t, client, zoneId, 'private-node');
    await call('POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [node] });
    const rivalZone = (await call('POST', 'client/zone', { name: 'Rival' }, rival)).json().data.id;
    const rivalVn = (await call('POST', `${base(rivalZone)}/virtualNode`, { name: 'r', portType: 7 }, rival)).json()
      .data.id;
    for (const [method, url, body] of [
      ['GET', `${base()}/virtualNodes`, undefined],
      ['POST', `${base()}/virtualNode`, { name: 'intruder', portType: 7 }],
      ['PUT', `${base()}/virtualNode`, { id, name: 'stolen' }],
      ['DELETE', `${base()}/virtualNode`, { ids: [id] }],
      ['GET', `${base()}/virtualNode/${id}/records`, undefined],
      ['POST', `${base()}/virtualNode/${id}/record/cname`, { value: 'evil.example.com' }],
      ['POST', `${base()}/virtualNode/${id}/record/node`, { nodeIDs: [node] }],
      ['DELETE', `${base()}/virtualNode/${id}/record`, { ids: [1] }],
      ['GET', `${base(rivalZone)}/virtualNode/${id}/records`, undefined],
      ['POST', `${base(rivalZone)}/virtualNode/${rivalVn}/record/node`, { nodeIDs: [node] }],
    ] as const) {
      const res = await call(method, url, body, rival);
      expect([method, url, res.json().code]).toEqual([method, url, 101018]);
    }
    expect((await call('GET', `${base(rivalZone)}/virtualNodes`, undefined, rival)).json().total).toBe(1);
    expect((await call('GET', `${base()}/virtualNodes?value=private`)).json().data[0]).toMatchObject({
      name: 'private',
      recordCount: 1,
    });
  });
});
