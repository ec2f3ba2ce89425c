import type { AnyRoute } from '@rampart/contract';
import {
  createZone,
  getNodeSnapshot,
  getZoneSettings,
  initializeNodes,
  setZoneInvalidDomainLimitCount,
  setZoneTlsLimitCount,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, rawRequest, send, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Zone limits (docs/decisions.md "Zone limits"): invalidDomainLimitCount and tlsLimitCount, PUT
// under client/zone/{zoneID}/setting/, shown by GET zone settings and carried to the zone's nodes.

let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let zoneId: number;
let node: JoinedNode;

const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, client, route, ...args);
const snapshotOf = async (n: JoinedNode) => (await nodeSend(t.app, n, getNodeSnapshot, undefined)).json().data;
const ROUTES = [setZoneInvalidDomainLimitCount, setZoneTlsLimitCount] as const;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app, 'operator-limits');
  zoneId = (await call(createZone, { body: { name: 'Limits' } })).json().data.id;
  node = await joinNode(t.app, client, 'edge-limits');
  await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId } });
});
afterAll(async () => t.close());

describe('zone limits', () => {
  it('start off, change, and show in the zone settings', async () => {
    expect((await call(getZoneSettings, { params: { zoneID: zoneId } })).json().data).toMatchObject({
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
    const invalid = await call(setZoneInvalidDomainLimitCount, { params: { zoneID: zoneId }, body: { count: 30 } });
    expect(invalid.statusCode).toBe(200);
    expect(invalid.json().data).toEqual({
      http2: true,
      http3: false,
      forceSSLRedirectCode: 301,
      invalidDomainLimitCount: 30,
      tlsLimitCount: 0,
      challengeWorkBits: 21,
    });
    const tls = await call(setZoneTlsLimitCount, { params: { zoneID: zoneId }, body: { count: 100000 } });
    expect(tls.statusCode).toBe(200);
    expect(tls.json().data).toMatchObject({ invalidDomainLimitCount: 30, tlsLimitCount: 100000 });
    expect((await call(getZoneSettings, { params: { zoneID: zoneId } })).json().data).toMatchObject({
      invalidDomainLimitCount: 30,
      tlsLimitCount: 100000,
    });
    // Back to off.
    await call(setZoneInvalidDomainLimitCount, { params: { zoneID: zoneId }, body: { count: 0 } });
    await call(setZoneTlsLimitCount, { params: { zoneID: zoneId }, body: { count: 0 } });
    expect((await call(getZoneSettings, { params: { zoneID: zoneId } })).json().data).toMatchObject({
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
  });

  it('refuses a count that is negative, fractional, too large, a string or missing, naming `count`', async () => {
    for (const route of ROUTES) {
      const name = route.path.split('/').at(-1);
      for (const bad of [-1, 1.5, 100001, '10', null]) {
        const res = await rawRequest(
          t.app,
          route,
          { params: { zoneID: zoneId }, body: { count: bad } },
          { token: client },
        );
        expect(res.statusCode, `${name} ${String(bad)}`).toBe(400);
        expect(res.json().code).toBe(101003);
        expect(fieldNames(res)).toEqual(['count']);
      }
      const missing = await rawRequest(t.app, route, { params: { zoneID: zoneId }, body: {} }, { token: client });
      expect(missing.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'count', key: 'required' }] } });
    }
    expect((await call(getZoneSettings, { params: { zoneID: zoneId } })).json().data).toMatchObject({
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
  });

  it("answers 101018 for a missing zone, another operator's zone and a customer, changing nothing", async () => {
    const user = await signIn(t.app, 'user');
    for (const route of ROUTES) {
      expect((await call(route, { params: { zoneID: 999999 }, body: { count: 5 } })).json().code).toBe(101018);
      const asRival = await call(route, { params: { zoneID: zoneId }, body: { count: 5 } }, rival);
      expect(asRival.json().code).toBe(101018);
      const asUser = await call(route, { params: { zoneID: zoneId }, body: { count: 5 } }, user);
      expect(asUser.json().code).toBe(101018);
    }
    expect((await send(t.app, getZoneSettings, { params: { zoneID: zoneId } }, { token: rival })).json().code).toBe(
      101018,
    );
    expect((await call(getZoneSettings, { params: { zoneID: zoneId } })).json().data).toMatchObject({
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
  });

  it("carries the limits to the zone's nodes, even a node that serves no domain", async () => {
    // The zone's escalation of floods (on by default) rides with the limits.
    const escalation = { escalationRefusals: 200, escalationSeconds: 10 };
    const before = await snapshotOf(node);
    expect(before.dataPlane.domains).toEqual([]);
    expect(before.dataPlane.limits).toEqual({
      invalidDomainPerMinute: 0,
      tlsHandshakesPerMinute: 0,
      challengeWorkBits: 21,
      ...escalation,
    });

    await call(setZoneInvalidDomainLimitCount, { params: { zoneID: zoneId }, body: { count: 7 } });
    const invalid = await snapshotOf(node);
    expect(invalid.version).not.toBe(before.version);
    expect(invalid.dataPlane.limits).toEqual({
      invalidDomainPerMinute: 7,
      tlsHandshakesPerMinute: 0,
      challengeWorkBits: 21,
      ...escalation,
    });

    await call(setZoneTlsLimitCount, { params: { zoneID: zoneId }, body: { count: 50 } });
    const tls = await snapshotOf(node);
    expect(tls.version).not.toBe(invalid.version);
    expect(tls.dataPlane.limits).toEqual({
      invalidDomainPerMinute: 7,
      tlsHandshakesPerMinute: 50,
      challengeWorkBits: 21,
      ...escalation,
    });

    // A node of another zone keeps its own (none).
    const otherZone = (await call(createZone, { body: { name: 'Limits elsewhere' } })).json().data.id;
    const otherNode = await joinNode(t.app, client, 'edge-limits-2');
    await call(initializeNodes, { body: { ids: [otherNode.nodeId], zoneID: otherZone } });
    expect((await snapshotOf(otherNode)).dataPlane.limits).toEqual({
      invalidDomainPerMinute: 0,
      tlsHandshakesPerMinute: 0,
      ...escalation,
      challengeWorkBits: 21,
    });

    await call(setZoneInvalidDomainLimitCount, { params: { zoneID: zoneId }, body: { count: 0 } });
    await call(setZoneTlsLimitCount, { params: { zoneID: zoneId }, body: { count: 0 } });
    expect((await snapshotOf(node)).version).toBe(before.version);
  });
});
