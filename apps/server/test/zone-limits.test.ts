import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { bearer, callApi, type Method, signIn } from './helpers/auth.js';
import { type JoinedNode, joinNode, nodeRequest } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Zone limits (docs/decisions.md "Zone limits"): invalidDomainLimitCount and tlsLimitCount, PUT
// under client/zone/{zoneID}/setting/, shown by GET zone settings and carried to the zone's nodes.

let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let zoneId: number;
let node: JoinedNode;

const call = (method: Method, url: string, payload?: Record<string, unknown>) =>
  callApi(t.app, client, method, url, payload);
const snapshotOf = async (n: JoinedNode) => (await nodeRequest(t.app, n, 'GET', '/snapshot')).json().data;
const ROUTES = ['invalidDomainLimitCount', 'tlsLimitCount'] as const;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app, 'operator-limits');
  zoneId = (await call('POST', 'client/zone', { name: 'Limits' })).json().data.id;
  node = await joinNode(t.app, client, 'edge-limits');
  await call('POST', 'client/nodes/initialize', { ids: [node.nodeId], zoneID: zoneId });
});
afterAll(async () => t.close());

describe('zone limits', () => {
  it('start off, change, and show in the zone settings', async () => {
    expect((await call('GET', `client/zone/${zoneId}/setting`)).json().data).toMatchObject({
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
    const invalid = await call('PUT', `client/zone/${zoneId}/setting/invalidDomainLimitCount`, { count: 30 });
    expect(invalid.statusCode).toBe(200);
    expect(invalid.json().data).toEqual({
      http2: true,
      http3: false,
      forceSSLRedirectCode: 301,
      invalidDomainLimitCount: 30,
      tlsLimitCount: 0,
    });
    const tls = await call('PUT', `client/zone/${zoneId}/setting/tlsLimitCount`, { count: 100000 });
    expect(tls.statusCode).toBe(200);
    expect(tls.json().data).toMatchObject({ invalidDomainLimitCount: 30, tlsLimitCount: 100000 });
    expect((await call('GET', `client/zone/${zoneId}/setting`)).json().data).toMatchObject({
      invalidDomainLimitCount: 30,
      tlsLimitCount: 100000,
    });
    // Back to off.
    await call('PUT', `client/zone/${zoneId}/setting/invalidDomainLimitCount`, { count: 0 });
    await call('PUT', `client/zone/${zoneId}/setting/tlsLimitCount`, { count: 0 });
    expect((await call('GET', `client/zone/${zoneId}/setting`)).json().data).toMatchObject({
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
  });

  it('refuses a count that is negative, fractional, too large, a string or missing, naming `count`', async () => {
    for (const route of ROUTES) {
      for (const bad of [-1, 1.5, 100001, '10', null]) {
        const res = await call('PUT', `client/zone/${zoneId}/setting/${route}`, { count: bad });
        expect(res.statusCode, `${route} ${String(bad)}`).toBe(400);
        expect(res.json().code).toBe(101003);
        expect(res.json().extra.fields.map((f: { field: string }) => f.field)).toEqual(['count']);
      }
      const missing = await call('PUT', `client/zone/${zoneId}/setting/${route}`, {});
      expect(missing.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'count', key: 'required' }] } });
    }
    expect((await call('GET', `client/zone/${zoneId}/setting`)).json().data).toMatchObject({
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
  });

  it("answers 101018 for a missing zone, another operator's zone and a customer, changing nothing", async () => {
    const user = await signIn(t.app, 'user');
    for (const route of ROUTES) {
      expect((await call('PUT', `client/zone/999999/setting/${route}`, { count: 5 })).json().code).toBe(101018);
      const asRival = await callApi(t.app, rival, 'PUT', `client/zone/${zoneId}/setting/${route}`, { count: 5 });
      expect(asRival.json().code).toBe(101018);
      const asUser = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/client/zone/${zoneId}/setting/${route}`,
        headers: bearer(user),
        payload: { count: 5 },
      });
      expect(asUser.json().code).toBe(101018);
    }
    expect((await callApi(t.app, rival, 'GET', `client/zone/${zoneId}/setting`)).json().code).toBe(101018);
    expect((await call('GET', `client/zone/${zoneId}/setting`)).json().data).toMatchObject({
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
    });
  });

  it("carries the limits to the zone's nodes, even a node that serves no domain", async () => {
    const before = await snapshotOf(node);
    expect(before.dataPlane.domains).toEqual([]);
    expect(before.dataPlane.limits).toEqual({ invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0 });

    await call('PUT', `client/zone/${zoneId}/setting/invalidDomainLimitCount`, { count: 7 });
    const invalid = await snapshotOf(node);
    expect(invalid.version).not.toBe(before.version);
    expect(invalid.dataPlane.limits).toEqual({ invalidDomainPerMinute: 7, tlsHandshakesPerMinute: 0 });

    await call('PUT', `client/zone/${zoneId}/setting/tlsLimitCount`, { count: 50 });
    const tls = await snapshotOf(node);
    expect(tls.version).not.toBe(invalid.version);
    expect(tls.dataPlane.limits).toEqual({ invalidDomainPerMinute: 7, tlsHandshakesPerMinute: 50 });

    // A node of another zone keeps its own (none).
    const otherZone = (await call('POST', 'client/zone', { name: 'Limits elsewhere' })).json().data.id;
    const otherNode = await joinNode(t.app, client, 'edge-limits-2');
    await call('POST', 'client/nodes/initialize', { ids: [otherNode.nodeId], zoneID: otherZone });
    expect((await snapshotOf(otherNode)).dataPlane.limits).toEqual({
      invalidDomainPerMinute: 0,
      tlsHandshakesPerMinute: 0,
    });

    await call('PUT', `client/zone/${zoneId}/setting/invalidDomainLimitCount`, { count: 0 });
    await call('PUT', `client/zone/${zoneId}/setting/tlsLimitCount`, { count: 0 });
    expect((await snapshotOf(node)).version).toBe(before.version);
  });
});
