import type { AnyRoute } from '@rampart/contract';
import {
  CHALLENGE_WORK_BITS_DEFAULT,
  createZone,
  getNodeSnapshot,
  getZoneSettings,
  initializeNodes,
  setZoneChallengeWorkBits,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, rawRequest, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The zone's challenge work (docs/decisions "new-harden-challenge-work"): the bits of proof of work
// its challenge pages ask, PUT client/zone/{zoneID}/setting/challengeWorkBits, shown by GET zone
// settings and carried to the zone's nodes in their data plane's limits.

let t: TestApp;
let client: { accessToken: string };
let zoneId: number;
let node: JoinedNode;

const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, client, route, ...args);
const snapshotOf = async (n: JoinedNode) => (await nodeSend(t.app, n, getNodeSnapshot, undefined)).json().data;
const settings = async () => (await call(getZoneSettings, { params: { zoneID: zoneId } })).json().data;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  zoneId = (await call(createZone, { body: { name: 'Challenge work' } })).json().data.id;
  node = await joinNode(t.app, client, 'edge-work');
  await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId } });
});
afterAll(async () => t.close());

describe("a zone's challenge work", () => {
  it('starts at the default, changes, and reaches the zone’s nodes (not another zone’s)', async () => {
    expect((await settings()).challengeWorkBits).toBe(CHALLENGE_WORK_BITS_DEFAULT);
    const before = await snapshotOf(node);
    expect(before.dataPlane.limits.challengeWorkBits).toBe(CHALLENGE_WORK_BITS_DEFAULT);

    const set = await call(setZoneChallengeWorkBits, { params: { zoneID: zoneId }, body: { bits: 17 } });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ challengeWorkBits: 17 });
    expect((await settings()).challengeWorkBits).toBe(17);
    const after = await snapshotOf(node);
    expect(after.version).not.toBe(before.version);
    expect(after.dataPlane.limits.challengeWorkBits).toBe(17);

    const otherZone = (await call(createZone, { body: { name: 'Challenge work elsewhere' } })).json().data.id;
    const otherNode = await joinNode(t.app, client, 'edge-work-2');
    await call(initializeNodes, { body: { ids: [otherNode.nodeId], zoneID: otherZone } });
    expect((await snapshotOf(otherNode)).dataPlane.limits.challengeWorkBits).toBe(CHALLENGE_WORK_BITS_DEFAULT);

    await call(setZoneChallengeWorkBits, { params: { zoneID: zoneId }, body: { bits: CHALLENGE_WORK_BITS_DEFAULT } });
    expect((await snapshotOf(node)).version).toBe(before.version);
  });

  it('refuses bits outside 16..24, fractional, a string or missing with 101003 naming `bits`', async () => {
    for (const bad of [15, 25, 20.5, '20', null, -1]) {
      const res = await rawRequest(
        t.app,
        setZoneChallengeWorkBits,
        { params: { zoneID: zoneId }, body: { bits: bad } },
        { token: client },
      );
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().code).toBe(101003);
      expect(fieldNames(res)).toEqual(['bits']);
    }
    const missing = await rawRequest(
      t.app,
      setZoneChallengeWorkBits,
      { params: { zoneID: zoneId }, body: {} },
      { token: client },
    );
    expect(missing.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'bits', key: 'required' }] } });
    for (const good of [16, 24]) {
      const res = await call(setZoneChallengeWorkBits, { params: { zoneID: zoneId }, body: { bits: good } });
      expect(res.json().data.challengeWorkBits).toBe(good);
    }
    await call(setZoneChallengeWorkBits, { params: { zoneID: zoneId }, body: { bits: CHALLENGE_WORK_BITS_DEFAULT } });
  });

  it("answers 101018 for a missing zone, another operator's zone and a customer, changing nothing", async () => {
    const rival = await signInOtherOperator(t.app, 'operator-work');
    const user = await signIn(t.app, 'user');
    const body = { bits: 16 };
    expect((await call(setZoneChallengeWorkBits, { params: { zoneID: 999999 }, body })).json().code).toBe(101018);
    expect((await call(setZoneChallengeWorkBits, { params: { zoneID: zoneId }, body }, rival)).json().code).toBe(
      101018,
    );
    expect((await call(setZoneChallengeWorkBits, { params: { zoneID: zoneId }, body }, user)).json().code).toBe(101018);
    expect((await settings()).challengeWorkBits).toBe(CHALLENGE_WORK_BITS_DEFAULT);
  });
});
