import type { AnyRoute } from '@rampart/contract';
import { createZone, getNodeSnapshot, getZoneTrust, initializeNodes, setZoneTrust } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, rawInput, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// A zone's trust setting (client/zone/{zoneID}/setting/trust): the proxies believed about the
// visitor's address, carried to the zone's nodes as the snapshot's realIp.

let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let zoneId: number;
let node: JoinedNode;

const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, client, route, ...args);
const snapshotOf = async (n: JoinedNode) => (await nodeSend(t.app, n, getNodeSnapshot, undefined)).json().data;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app, 'operator-trust');
  zoneId = (await call(createZone, { body: { name: 'Trust' } })).json().data.id;
  node = await joinNode(t.app, client, 'edge-trust');
  await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId } });
});
afterAll(async () => t.close());

describe('the zone trust setting', () => {
  it('starts with nobody trusted, and the node is told so', async () => {
    expect((await call(getZoneTrust, { params: { zoneID: zoneId } })).json().data).toEqual({
      proxies: [],
      header: 'X-Forwarded-For',
      proxyProtocol: false,
    });
    expect((await snapshotOf(node)).realIp).toEqual({ trusted: [], header: 'X-Forwarded-For', proxyProtocol: false });
  });

  it('sets proxies, header and PROXY protocol, and the zone’s nodes get them', async () => {
    const res = await call(setZoneTrust, {
      params: { zoneID: zoneId },
      body: { proxies: ['10.0.0.0/8', '2001:db8::1'], header: 'X-Real-IP', proxyProtocol: true },
    });
    expect(res.json().data).toEqual({
      proxies: ['10.0.0.0/8', '2001:db8::1'],
      header: 'X-Real-IP',
      proxyProtocol: true,
    });
    expect((await snapshotOf(node)).realIp).toEqual({
      trusted: ['10.0.0.0/8', '2001:db8::1'],
      header: 'X-Real-IP',
      proxyProtocol: true,
    });
    await call(setZoneTrust, { params: { zoneID: zoneId }, body: { proxies: [] } });
    expect((await call(getZoneTrust, { params: { zoneID: zoneId } })).json().data).toEqual({
      proxies: [],
      header: 'X-Forwarded-For',
      proxyProtocol: false,
    });
  });

  it.each([
    [{ proxies: ['10.0.0.1; include x'] }, 'proxies.0'],
    [{ proxies: ['10.0.0.0/33'] }, 'proxies.0'],
    [{ proxies: ['example.com'] }, 'proxies.0'],
    [{ proxies: ['10.0.0.1', '10.0.0.1'] }, 'proxies.1'],
    [{ proxies: ['::1', '0::1'] }, 'proxies.1'],
    [{ proxies: Array.from({ length: 65 }, (_, i) => `10.0.0.${i}`) }, 'proxies'],
    [{ proxies: [], header: 'X-Client-IP' }, 'header'],
    [{ proxies: [], proxyProtocol: 'yes' }, 'proxyProtocol'],
  ])('refuses %j with 101003 naming %s', async (body, field) => {
    const res = await call(setZoneTrust, rawInput({ params: { zoneID: zoneId }, body }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it("answers another operator's zone as a missing one, and leaves it unchanged", async () => {
    const other = (route: AnyRoute, body?: unknown) =>
      sendAs(t.app, rival, route as typeof setZoneTrust, rawInput({ params: { zoneID: zoneId }, body }));
    expect((await other(getZoneTrust)).json().code).toBe(101018);
    expect((await other(setZoneTrust, { proxies: ['0.0.0.0/0'] })).json().code).toBe(101018);
    expect((await call(getZoneTrust, { params: { zoneID: zoneId } })).json().data.proxies).toEqual([]);
  });
});
