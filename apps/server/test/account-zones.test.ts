import type { AnyRoute } from '@rampart/contract';
import {
  createZone,
  deleteZone,
  getAccountZones,
  getZoneSettings,
  listGroups,
  listInitializedNodes,
  listNodeUpgradeLogs,
  listZones,
  metaZones,
  moveNodesToZone,
  setAccountZones,
  setNodeMemo,
  setNodeStatus,
  updateZone,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, giveRole, rootId, signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawInput, sendAs, type Token } from './helpers/call.js';
import { initializedNode } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/** `GET/PUT client/{clientId}/zones` and the zone scope the binder enforces for it. */
let t: TestApp;
let operator: { accessToken: string };
let operatorId: number;
let subId: number;
let sub: { accessToken: string };
let zoneA: number;
let zoneB: number;
let nodeA: number;
let nodeB: number;

beforeAll(async () => {
  t = await createTestApp();
  operator = await signIn(t.app, 'client');
  operatorId = await rootId(t.app, 'client');
  subId = await addAccount(t.app, 'client', 'zone-sub', operatorId);
  await giveRole(t.app, operator, 'client', subId);
  sub = await signIn(t.app, 'client', 'zone-sub');
  zoneA = (await call(createZone, { body: { name: 'scope-a' } })).json().data.id;
  zoneB = (await call(createZone, { body: { name: 'scope-b' } })).json().data.id;
  nodeA = await initializedNode(t, operator, zoneA, 'scope-node-a', ['192.0.2.61']);
  nodeB = await initializedNode(t, operator, zoneB, 'scope-node-b', ['192.0.2.62']);
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, operator, route, ...args);
}

async function assign(zoneIDs: number[], token = operator, id = subId) {
  return call(setAccountZones, { params: { clientId: id }, body: { zoneIDs } }, token);
}

describe('assigning zones', () => {
  it('starts unrestricted, stores a sorted assignment and lifts it with an empty list', async () => {
    expect((await call(getAccountZones, { params: { clientId: subId } })).json()).toEqual({
      data: { restricted: false, zoneIDs: [], zones: [] },
    });
    const set = await assign([zoneB, zoneA]);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({
      restricted: true,
      zoneIDs: [zoneA, zoneB],
      zones: [
        { id: zoneA, name: 'scope-a' },
        { id: zoneB, name: 'scope-b' },
      ],
    });
    expect((await assign([])).json().data).toEqual({ restricted: false, zoneIDs: [], zones: [] });
  });

  it('refuses bad bodies, foreign zones, non-sub-accounts and other tenants', async () => {
    const bad = await assign([zoneA, zoneA]);
    expect(bad.json().code).toBe(101003);
    expect(bad.json().extra.fields[0].field).toBe('zoneIDs');
    expect((await call(setAccountZones, { params: { clientId: subId }, body: { zoneIDs: [-1] } })).json().code).toBe(
      101003,
    );
    expect((await call(setAccountZones, rawInput({ params: { clientId: subId }, body: {} }))).json().code).toBe(101003);

    const rival = await signInOtherOperator(t.app, 'zone-rival');
    const rivalZone = (await call(createZone, { body: { name: 'rival-zone' } }, rival)).json().data.id;
    const foreign = await assign([zoneA, rivalZone]);
    expect(foreign.json()).toMatchObject({ code: 101018, extra: { zoneIDs: [rivalZone] } });
    // Another operator cannot read or change this operator's sub-account.
    expect((await call(getAccountZones, { params: { clientId: subId } }, rival)).json().code).toBe(101018);
    expect((await assign([rivalZone], rival)).json().code).toBe(101018);
    // A customer is no operator sub-account; the operator itself cannot be restricted.
    const customerId = await addAccount(t.app, 'user', 'zone-customer', operatorId);
    expect((await assign([zoneA], operator, customerId)).json().code).toBe(101018);
    expect((await assign([zoneA], operator, operatorId)).json().code).toBe(101018);
    // A sub-account cannot change its own assignment.
    expect((await assign([zoneA], sub)).json().code).toBe(101018);
    expect((await call(getAccountZones, { params: { clientId: subId } })).json().data.restricted).toBe(false);
  });
});

describe('a restricted sub-account', () => {
  it('lists only its zones and their nodes, and is refused any other zone or node', async () => {
    expect((await assign([zoneA])).statusCode).toBe(200);
    const zones = (await call(listZones, { query: { pageSize: 100 } }, sub)).json();
    expect(zones.data.map((z: { id: number }) => z.id)).toEqual([zoneA]);
    expect(zones.total).toBe(1);
    expect((await call(metaZones, undefined, sub)).json().data).toEqual([{ id: zoneA, name: 'scope-a' }]);
    const listed = (await call(listInitializedNodes, { query: { pageSize: 100 } }, sub)).json();
    expect(listed.data.map((n: { id: number }) => n.id)).toEqual([nodeA]);
    // The operator still sees both.
    const all = (await call(listInitializedNodes, { query: { pageSize: 100 } })).json();
    expect(all.data.map((n: { id: number }) => n.id).sort()).toEqual([nodeA, nodeB].sort());

    // Zone references: path, body and query.
    expect((await call(getZoneSettings, { params: { zoneID: zoneA } }, sub)).statusCode).toBe(200);
    expect((await call(getZoneSettings, { params: { zoneID: zoneB } }, sub)).json().code).toBe(101018);
    expect((await call(listGroups, { params: { zoneID: zoneB } }, sub)).json().code).toBe(101018);
    expect((await call(updateZone, { body: { id: zoneB, name: 'renamed' } }, sub)).json().code).toBe(101018);
    expect((await call(listInitializedNodes, { query: { zoneIDs: zoneB } }, sub)).json().code).toBe(101018);
    // Node references outside the zone path.
    const memo = await call(setNodeMemo, { body: { ids: [nodeA], memo: 'mine' } }, sub);
    expect(memo.json(), memo.body).toEqual({ data: true });
    expect((await call(setNodeMemo, { body: { ids: [nodeA, nodeB], memo: 'x' } }, sub)).json().code).toBe(101018);
    expect((await call(setNodeStatus, { body: { ids: [nodeB], status: 'off' } }, sub)).json().code).toBe(101018);
    expect((await call(listNodeUpgradeLogs, { params: { id: nodeB } }, sub)).json().code).toBe(101018);
    expect((await call(moveNodesToZone, { body: { nodeIDs: [nodeA], zoneID: zoneB } }, sub)).json().code).toBe(101018);
    // Nothing was changed by the refused calls.
    const b = all.data.find((n: { id: number }) => n.id === nodeB);
    const after = (await call(listInitializedNodes, { query: { pageSize: 100 } })).json().data;
    expect(after.find((n: { id: number }) => n.id === nodeB)).toMatchObject({ memo: b!.memo, status: b!.status });
  });

  it('gets the zones it creates, and none when its assigned zones are deleted', async () => {
    expect((await assign([zoneA])).statusCode).toBe(200);
    const created = await call(createZone, { body: { name: 'scope-own' } }, sub);
    expect(created.statusCode, created.body).toBe(200);
    const own = created.json().data.id as number;
    expect((await call(getAccountZones, { params: { clientId: subId } })).json().data.zoneIDs).toEqual([zoneA, own]);
    expect((await call(getZoneSettings, { params: { zoneID: own } }, sub)).statusCode).toBe(200);
    // Deleting its zones leaves it restricted to nothing, never to everything.
    expect((await call(deleteZone, { body: { id: own } }, sub)).json()).toEqual({ data: true });
    expect((await assign([own === zoneA ? zoneA : zoneA])).statusCode).toBe(200);
    const temp = (await call(createZone, { body: { name: 'scope-temp' } })).json().data.id as number;
    expect((await assign([temp])).statusCode).toBe(200);
    expect((await call(deleteZone, { body: { id: temp } })).json()).toEqual({ data: true });
    expect((await call(getAccountZones, { params: { clientId: subId } })).json().data).toEqual({
      restricted: true,
      zoneIDs: [],
      zones: [],
    });
    expect((await call(listZones, undefined, sub)).json().total).toBe(0);
    expect((await call(listInitializedNodes, undefined, sub)).json().total).toBe(0);
    expect((await call(getZoneSettings, { params: { zoneID: zoneA } }, sub)).json().code).toBe(101018);
  });

  it('cannot hand out more zones than it has to a sub-account of its own', async () => {
    expect((await assign([zoneA])).statusCode).toBe(200);
    const deeperId = await addAccount(t.app, 'client', 'zone-sub-sub', subId);
    await giveRole(t.app, sub, 'client', deeperId);
    expect((await assign([zoneB], sub, deeperId)).json()).toMatchObject({ code: 101018, extra: { zoneIDs: [zoneB] } });
    // Unrestricted itself, the deeper account still inherits its parent's scope.
    expect((await assign([], sub, deeperId)).json().data.restricted).toBe(false);
    const deeper = await signIn(t.app, 'client', 'zone-sub-sub');
    expect((await call(metaZones, undefined, deeper)).json().data).toEqual([{ id: zoneA, name: 'scope-a' }]);
    expect((await call(getZoneSettings, { params: { zoneID: zoneB } }, deeper)).json().code).toBe(101018);
    expect((await assign([])).statusCode).toBe(200);
    expect((await call(getZoneSettings, { params: { zoneID: zoneB } }, deeper)).statusCode).toBe(200);
  });
});
