import type { AnyRoute } from '@rampart/contract';
import {
  addLineNodes,
  addSitePorts,
  batchCreateSitePorts,
  createZonePorts,
  DEFAULT_RESERVED_PORTS,
  deleteSitePorts,
  getZoneReservedPorts,
  initializeNodes,
  listInitializedNodes,
  listSitePorts,
  listSiteZonePorts,
  listZonePorts,
  RESERVED_NODE_PORTS,
  reportNodeStatus,
  setNodePortType,
  setZoneReservedPorts,
  updateSitePort,
  updateZonePort,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootId, signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { nodeSend, rawInput, refusedFields, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { operatorCalls } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Ports a zone reserves for its nodes' hosts (and the node's own), refused on every call that
// sets a port number; and ports a node reports it could not listen on, shown on the node and on
// the site's port.

let t: TestApp;
let client: { accessToken: string };
let other: { accessToken: string };
let user: { accessToken: string };
let zoneId: number;
let game: number;
let node: JoinedNode;

const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, client, route, ...args);
const site = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);
const upstream = (port: number) => ({ ip: '198.51.100.7', port });
const portNumbers = async () =>
  (await site(listSitePorts, { params: { siteId: game }, query: { pageSize: 100 } }))
    .json()
    .data.map((p: { port: number }) => p.port);

async function report(n: JoinedNode, failedPorts?: unknown[]) {
  return nodeSend(
    t.app,
    n,
    reportNodeStatus,
    rawInput({
      body: {
        version: '0.1.0',
        appliedVersion: '',
        lastError: '',
        ...(failedPorts ? { failedPorts } : {}),
      },
    }),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  other = await signInOtherOperator(t.app, 'operator-two');
  user = await signIn(t.app, 'user');
  const userID = await rootId(t.app, 'user');
  const make = operatorCalls(t.app, client);
  zoneId = await make.zone('Asia');
  const tcp = await make.group(zoneId, 'tcp', 4);
  game = await make.site('game', userID, await make.product('L4', 4, [tcp]));
  node = await joinNode(t.app, client, 'edge-l4');
  await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId } });
  await call(setNodePortType, { body: { ids: [node.nodeId], portType: 4 } });
  await call(addLineNodes, {
    params: { zoneID: zoneId, groupID: tcp, lineID: 'default' },
    body: { nodeIDs: [node.nodeId] },
  });
});
afterAll(async () => t.close());

describe('reserved ports', () => {
  it('gives a zone the default list, and the node ports besides', async () => {
    expect(DEFAULT_RESERVED_PORTS).toEqual(expect.arrayContaining([22, 53]));
    const res = await call(getZoneReservedPorts, { params: { zoneID: zoneId } });
    expect(res.json().data).toEqual({ ports: [...DEFAULT_RESERVED_PORTS], nodePorts: [...RESERVED_NODE_PORTS] });
    // The customer sees them among the numbers its ports cannot use.
    const taken = (await site(listSiteZonePorts, { params: { siteId: game } })).json().data;
    expect(
      taken.filter((p: { portType: string }) => p.portType === 'reserved').map((p: { port: number }) => p.port),
    ).toEqual([...DEFAULT_RESERVED_PORTS, ...RESERVED_NODE_PORTS].sort((a, b) => a - b));
  });

  it('refuses a reserved or node port on every call that sets a port number, naming the field', async () => {
    const add = await site(addSitePorts, {
      params: { siteId: game },
      body: {
        ports: [
          { port: 22, upstreams: [upstream(22)] },
          { port: 53, protocol: 'udp', upstreams: [upstream(53)] },
          { port: 9180, upstreams: [upstream(9180)] },
          { port: 2200, upstreams: [upstream(2200)] },
        ],
      },
    });
    expect(refusedFields(add)).toEqual([
      'ports.0.port:portReserved',
      'ports.1.port:portReserved',
      'ports.2.port:portReserved',
    ]);
    const batch = await site(batchCreateSitePorts, {
      params: { siteId: game },
      body: {
        portFrom: 50,
        portTo: 55,
        upstreamPortFrom: 50,
        upstreamPortTo: 55,
        upstreams: [{ ip: '198.51.100.7' }],
      },
    });
    expect(refusedFields(batch)).toEqual(['portFrom:portReserved']);
    expect(await portNumbers()).toEqual([]);

    const made = await site(addSitePorts, {
      params: { siteId: game },
      body: { ports: [{ port: 2200, upstreams: [upstream(2200)] }] },
    });
    const id = made.json().data[0].id;
    for (const port of [22, 323, 9180]) {
      expect(refusedFields(await site(updateSitePort, { params: { siteId: game }, body: { id, port } }))).toEqual([
        'port:portReserved',
      ]);
    }
    expect(await portNumbers()).toEqual([2200]);
    // The zone's listen ports refuse them too.
    expect(
      refusedFields(
        await call(createZonePorts, { params: { zoneID: zoneId }, body: { ports: [{ port: 53, portType: 'http' }] } }),
      ),
    ).toEqual(['ports.0.port:portReserved']);
    const http = (await call(listZonePorts, { params: { zoneID: zoneId } })).json().data[0];
    expect(
      refusedFields(
        await call(updateZonePort, { params: { zoneID: zoneId }, body: { id: http.id, port: 22, portType: 'http' } }),
      ),
    ).toEqual(['port:portReserved']);
    await site(deleteSitePorts, { params: { siteId: game }, body: { ids: [id] } });
  });

  it("follows the operator's list: a number freed is usable, a number added is refused", async () => {
    const set = await call(setZoneReservedPorts, {
      params: { zoneID: zoneId },
      body: { ports: [3306, 22, 3306, 9180] },
    });
    // Sorted, once each; the node's own port is reserved anyway and not stored.
    expect(set.json().data).toEqual({ ports: [22, 3306], nodePorts: [9180] });
    const add = (port: number) =>
      site(addSitePorts, { params: { siteId: game }, body: { ports: [{ port, upstreams: [upstream(port)] }] } });
    expect(refusedFields(await add(3306))).toEqual(['ports.0.port:portReserved']);
    expect((await add(53)).statusCode).toBe(200);
    expect(await portNumbers()).toEqual([53]);
    // A number in use is not reserved under it (the port, or a listen port, moves first); all or none.
    const clash = await call(setZoneReservedPorts, {
      params: { zoneID: zoneId },
      body: { ports: [22, 53, 443, 3306] },
    });
    expect(refusedFields(clash)).toEqual(['ports.1:portInUse', 'ports.2:portInUse']);
    expect((await call(getZoneReservedPorts, { params: { zoneID: zoneId } })).json().data.ports).toEqual([22, 3306]);
    // Nothing reserved: only the node's own port is refused.
    expect((await call(setZoneReservedPorts, { params: { zoneID: zoneId }, body: { ports: [] } })).json().data).toEqual(
      { ports: [], nodePorts: [9180] },
    );
    expect((await add(22)).statusCode).toBe(200);
    expect(refusedFields(await add(9180))).toEqual(['ports.0.port:portReserved']);
    const ids = (await site(listSitePorts, { params: { siteId: game } })).json().data.map((p: { id: number }) => p.id);
    await site(deleteSitePorts, { params: { siteId: game }, body: { ids } });
    await call(setZoneReservedPorts, { params: { zoneID: zoneId }, body: { ports: [...DEFAULT_RESERVED_PORTS] } });
  });

  it('refuses a bad list with 101003 naming the field, and keeps the list to its operator', async () => {
    expect(
      refusedFields(await call(setZoneReservedPorts, { params: { zoneID: zoneId }, body: { ports: [0] } })),
    ).toEqual(['ports.0:invalidPort']);
    expect(
      (
        await call(setZoneReservedPorts, {
          params: { zoneID: zoneId },
          body: { ports: Array.from({ length: 257 }, (_, i) => i + 1) },
        })
      ).json().code,
    ).toBe(101003);
    expect((await call(getZoneReservedPorts, { params: { zoneID: zoneId } }, other)).json().code).toBe(101018);
    expect(
      (await call(setZoneReservedPorts, { params: { zoneID: zoneId }, body: { ports: [] } }, other)).json().code,
    ).toBe(101018);
    expect((await call(getZoneReservedPorts, { params: { zoneID: zoneId } }, user)).json().code).toBe(101018);
    expect((await call(getZoneReservedPorts, { params: { zoneID: zoneId } })).json().data.ports).toEqual([
      ...DEFAULT_RESERVED_PORTS,
    ]);
  });
});

describe('ports a node could not listen on', () => {
  it('shows them on the node and on the site port, and clears them with the next report', async () => {
    const made = await site(addSitePorts, {
      params: { siteId: game },
      body: { ports: [{ port: 2201, protocol: 'both', upstreams: [upstream(1)] }] },
    });
    const portId = made.json().data[0].id;
    const failed = [
      { kind: 'stream', id: portId, port: 2201, protocol: 'tcp', error: 'EADDRINUSE' },
      { kind: 'stream', id: portId, port: 2201, protocol: 'udp', error: 'EADDRINUSE' },
      { kind: 'listen', port: 80, protocol: 'tcp', error: 'EACCES' },
    ];
    expect((await report(node, failed)).statusCode).toBe(200);

    const nodes = (await call(listInitializedNodes, { query: { pageSize: 100 } })).json().data;
    expect(nodes.find((n: { id: number }) => n.id === node.nodeId)!.failedPorts).toEqual([
      { kind: 'stream', port: 2201, protocol: 'tcp', portID: portId, siteID: game, error: 'EADDRINUSE' },
      { kind: 'stream', port: 2201, protocol: 'udp', portID: portId, siteID: game, error: 'EADDRINUSE' },
      { kind: 'listen', port: 80, protocol: 'tcp', portID: null, siteID: null, error: 'EACCES' },
    ]);
    const port = (await site(listSitePorts, { params: { siteId: game } })).json().data[0];
    expect(port.failedNodes).toEqual([{ nodeID: node.nodeId, nodeName: 'edge-l4', error: 'EADDRINUSE' }]);

    // Another operator's node naming this port id shows nowhere.
    const theirs = await joinNode(t.app, other, 'their-edge');
    expect((await report(theirs, [failed[0]])).statusCode).toBe(200);
    expect((await site(listSitePorts, { params: { siteId: game } })).json().data[0].failedNodes).toHaveLength(1);

    // A report without failures (or from an older agent without the field) clears them.
    await report(node);
    expect((await site(listSitePorts, { params: { siteId: game } })).json().data[0].failedNodes).toEqual([]);
    const after = (await call(listInitializedNodes, { query: { pageSize: 100 } })).json().data;
    expect(after.find((n: { id: number }) => n.id === node.nodeId)!.failedPorts).toEqual([]);
    await site(deleteSitePorts, { params: { siteId: game }, body: { ids: [portId] } });
  });

  it('refuses a malformed failed-port report and stores nothing from it', async () => {
    for (const bad of [
      { kind: 'stream', id: 1, port: 70_000, protocol: 'tcp', error: 'x' },
      { kind: 'other', port: 22, protocol: 'tcp', error: 'x' },
      { kind: 'listen', port: 22, protocol: 'tcp', error: 'x'.repeat(201) },
      { kind: 'listen', port: 22, protocol: 'tcp', error: 'x', extra: 1 },
    ]) {
      expect((await report(node, [bad])).json().code).toBe(101003);
    }
    const nodes = (await call(listInitializedNodes, { query: { pageSize: 100 } })).json().data;
    expect(nodes.find((n: { id: number }) => n.id === node.nodeId)!.failedPorts).toEqual([]);
  });
});
