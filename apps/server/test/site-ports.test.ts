import type { AnyRoute } from '@rampart/contract';
import {
  addLineNodes,
  addSitePorts,
  addSitePortUpstreams,
  batchCreateSitePorts,
  createZonePorts,
  deleteSitePorts,
  deleteSitePortUpstreams,
  deleteSites,
  disableSitePorts,
  edgeSnapshotSchema,
  enableSitePorts,
  getNodeSnapshot,
  initializeNodes,
  listClientSites,
  listSitePorts,
  listSitePortUpstreams,
  listSiteZonePorts,
  SITE_PORTS_MAX,
  setNodePortType,
  setSitesLimitations,
  updateProduct,
  updateSitePort,
  updateSitePortUpstream,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, rawInput, rawRequest, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { operatorCalls } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Layer-4 ports of a site (user/site/{id}/ports …), what reaches the nodes, and the rules that
// keep numbers apart from the zone's listen ports and other sites' ports.

let t: TestApp;
let client: { accessToken: string };
let user: { accessToken: string };
let neighbour: { accessToken: string };
let zoneId: number;
let game: number; // layer-4 site of the customer
let chat: number; // another layer-4 site of the same operator, in the same zone (the neighbour's)
let far: number; // a layer-4 site of the customer in another zone
let shop: number; // a layer-7 site
let l4Product: number;
let webGroup: number;
let node: JoinedNode;

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
const site = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);
const upstream = (port: number, more: Record<string, unknown> = {}) => ({ ip: '198.51.100.7', port, ...more });

async function snapshot() {
  const res = await nodeSend(t.app, node, getNodeSnapshot, undefined);
  expect(res.statusCode).toBe(200);
  const data = res.json().data;
  expect(edgeSnapshotSchema.safeParse(data).success).toBe(true);
  return data;
}

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  const clientRoot = await rootId(t.app, 'client');
  const neighbourId = await addAccount(t.app, 'user', 'neighbour', clientRoot);
  neighbour = await signIn(t.app, 'user', 'neighbour');
  const userID = await rootId(t.app, 'user');

  const make = operatorCalls(t.app, client);
  zoneId = await make.zone('Asia');
  const europe = await make.zone('Europe');
  const tcp = await make.group(zoneId, 'tcp', 4);
  const tcpEu = await make.group(europe, 'tcp', 4);
  const web = await make.group(zoneId, 'web');
  l4Product = await make.product('L4', 4, [tcp]);
  game = await make.site('game', userID, l4Product);
  chat = await make.site('chat', neighbourId, l4Product);
  far = await make.site('far', userID, await make.product('L4 EU', 4, [tcpEu]));
  shop = await make.site('shop', userID, await make.product('CDN', 7, [web]));
  webGroup = web;

  node = await joinNode(t.app, client, 'edge-l4');
  await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId } });
  expect((await call(setNodePortType, { body: { ids: [node.nodeId], portType: 4 } })).statusCode).toBe(200);
  const placed = await call(addLineNodes, {
    params: { zoneID: zoneId, groupID: tcp, lineID: 'default' },
    body: {
      nodeIDs: [node.nodeId],
    },
  });
  expect(placed.statusCode).toBe(200);
});
afterAll(async () => t.close());

describe('site ports', () => {
  it('starts empty, lists the zone ports the site cannot use, and sends no stream port to the node', async () => {
    expect((await site(listSitePorts, { params: { siteId: game } })).json()).toEqual({ data: [], total: 0 });
    const taken = (await site(listSiteZonePorts, { params: { siteId: game } })).json().data;
    expect(taken.filter((p: { portType: string }) => p.portType !== 'reserved')).toEqual([
      { zoneID: zoneId, zoneName: 'Asia', port: 80, portType: 'http' },
      { zoneID: zoneId, zoneName: 'Asia', port: 443, portType: 'https' },
    ]);
    const snap = await snapshot();
    expect(snap.streamPorts).toEqual([]);
    expect(snap.listen.httpPorts).toEqual([80]);
  });

  it('adds ports with defaults and upstreams, and the node receives them to render', async () => {
    const res = await site(addSitePorts, {
      params: { siteId: game },
      body: {
        ports: [
          { port: 25565, upstreams: [upstream(25565), upstream(25566, { backup: true, weight: 3 })] },
          { port: '5000', protocol: 'udp', hashType: 1, memo: 'voice', upstreams: [upstream(5000)] },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(2);
    const list = (await site(listSitePorts, { params: { siteId: game } })).json();
    expect(list.total).toBe(2);
    expect(list.data.map((p: { port: number }) => p.port)).toEqual([5000, 25565]);
    expect(list.data[1]).toMatchObject({
      siteID: game,
      protocol: 'tcp',
      hashType: 0,
      status: 1,
      memo: '',
      upstreams: [
        { ip: '198.51.100.7', port: 25565, weight: 1, backup: false, status: 1 },
        { ip: '198.51.100.7', port: 25566, weight: 3, backup: true, status: 1 },
      ],
    });
    expect(list.data[0]).toMatchObject({ protocol: 'udp', hashType: 1, memo: 'voice' });

    const snap = await snapshot();
    expect(snap.streamPorts).toEqual([
      {
        id: list.data[0].id,
        port: 5000,
        protocol: 'udp',
        balance: 'ip_hash',
        upstreams: [{ ip: '198.51.100.7', port: 5000, weight: 1, backup: false }],
      },
      {
        id: list.data[1].id,
        port: 25565,
        protocol: 'tcp',
        balance: 'round_robin',
        upstreams: [
          { ip: '198.51.100.7', port: 25565, weight: 1, backup: false },
          { ip: '198.51.100.7', port: 25566, weight: 3, backup: true },
        ],
      },
    ]);
    // A layer-4 node serves no layer-7 domain.
    expect(snap.dataPlane.domains).toEqual([]);
  });

  it('filters the list by port, protocol and status, paged', async () => {
    expect(
      (await site(listSitePorts, { params: { siteId: game }, query: { port: 5000 } }))
        .json()
        .data.map((p: { port: number }) => p.port),
    ).toEqual([5000]);
    expect((await site(listSitePorts, { params: { siteId: game }, query: { protocol: 'tcp' } })).json().total).toBe(1);
    expect((await site(listSitePorts, { params: { siteId: game }, query: { status: 0 } })).json().total).toBe(0);
    const page2 = (await site(listSitePorts, { params: { siteId: game }, query: { page: 2, pageSize: 1 } })).json();
    expect(page2).toMatchObject({ total: 2, data: [{ port: 25565 }] });
  });

  it('refuses a zone listen port, the agent port, a port taken by another site of the zone, and one twice', async () => {
    const add = (port: number, id = game, token = user) =>
      site(addSitePorts, { params: { siteId: id }, body: { ports: [{ port, upstreams: [upstream(9000)] }] } }, token);
    const zonePort = (await add(443)).json();
    expect(zonePort.code).toBe(101003);
    expect(zonePort.extra.fields).toEqual([expect.objectContaining({ field: 'ports.0.port', key: 'portInUse' })]);
    expect((await add(9180)).json().extra.fields[0]).toMatchObject({ field: 'ports.0.port', key: 'portReserved' });
    // Another customer's site served in the same zone.
    expect((await add(25565, chat, neighbour)).json().extra.fields[0]).toMatchObject({ key: 'portInUse' });
    // The same site again, and twice in one call (nothing written).
    expect((await add(5000)).json().extra.fields[0]).toMatchObject({ key: 'portInUse' });
    const twice = await site(addSitePorts, {
      params: { siteId: game },
      body: {
        ports: [
          { port: 7000, upstreams: [upstream(7000)] },
          { port: 7000, upstreams: [upstream(7001)] },
        ],
      },
    });
    expect(twice.json().extra.fields[0]).toMatchObject({ field: 'ports.1.port', key: 'portInUse' });
    expect((await site(listSitePorts, { params: { siteId: game }, query: { port: 7000 } })).json().total).toBe(0);
    // Another zone is another set of nodes: the number is free there.
    expect((await add(25565, far)).statusCode).toBe(200);
  });

  it('answers 101023 on a layer-7 site, 401008 without a servable upstream, and 101003 with field names', async () => {
    const onShop = await site(addSitePorts, {
      params: { siteId: shop },
      body: { ports: [{ port: 7000, upstreams: [upstream(7000)] }] },
    });
    expect(onShop.json().code).toBe(101023);
    const backups = await site(addSitePorts, {
      params: { siteId: game },
      body: {
        ports: [{ port: 7000, upstreams: [upstream(7000, { backup: true })] }],
      },
    });
    expect(backups.json().code).toBe(401008);
    const bad = await site(
      addSitePorts,
      rawInput({
        params: { siteId: game },
        body: { ports: [{ port: 70000, protocol: 'sctp', upstreams: [{ ip: 'example.com', port: 0 }] }] },
      }),
    );
    expect(bad.json().code).toBe(101003);
    const fields = fieldNames(bad);
    expect(fields).toEqual(
      expect.arrayContaining([
        'ports.0.port',
        'ports.0.protocol',
        'ports.0.upstreams.0.ip',
        'ports.0.upstreams.0.port',
      ]),
    );
    expect(
      (await site(addSitePorts, { params: { siteId: game }, body: { ports: [] } })).json().extra.fields[0].field,
    ).toBe('ports');
  });

  it('edits a port, refusing a taken number, and turns ports off and on (the node stops listening)', async () => {
    const [voice, mc] = (await site(listSitePorts, { params: { siteId: game } })).json().data;
    const edited = await site(updateSitePort, {
      params: { siteId: game },
      body: { id: voice.id, port: 5001, protocol: 'both', memo: 'v2' },
    });
    expect(edited.json().data).toMatchObject({ id: voice.id, port: 5001, protocol: 'both', hashType: 1, memo: 'v2' });
    // Its own number is no conflict; another port's, a zone port's and another site's are.
    expect(
      (await site(updateSitePort, { params: { siteId: game }, body: { id: voice.id, port: 5001 } })).statusCode,
    ).toBe(200);
    const taken = await site(updateSitePort, { params: { siteId: game }, body: { id: voice.id, port: mc.port } });
    expect(taken.json().extra.fields).toEqual([expect.objectContaining({ field: 'port', key: 'portInUse' })]);
    expect(
      (await site(updateSitePort, { params: { siteId: game }, body: { id: voice.id, port: 80 } })).json().code,
    ).toBe(101003);
    expect(
      (await site(updateSitePort, { params: { siteId: game }, body: { id: 999999, port: 5002 } })).json().code,
    ).toBe(101018);

    expect((await site(disableSitePorts, { params: { siteId: game }, body: { ids: [voice.id] } })).json()).toEqual({
      data: true,
    });
    expect((await site(listSitePorts, { params: { siteId: game }, query: { port: 5001 } })).json().data[0].status).toBe(
      0,
    );
    expect((await snapshot()).streamPorts.map((p: { port: number }) => p.port)).toEqual([25565]);
    expect(
      (await site(enableSitePorts, { params: { siteId: game }, body: { ids: [voice.id, 999999] } })).json().code,
    ).toBe(101018);
    expect((await site(enableSitePorts, { params: { siteId: game }, body: { ids: [voice.id] } })).statusCode).toBe(200);
    expect((await snapshot()).streamPorts.map((p: { port: number; protocol: string }) => [p.port, p.protocol])).toEqual(
      [
        [5001, 'both'],
        [25565, 'tcp'],
      ],
    );
  });

  it("manages a port's upstreams, keeping one that serves (401008)", async () => {
    const mc = (await site(listSitePorts, { params: { siteId: game }, query: { port: 25565 } })).json().data[0];
    expect((await site(listSitePortUpstreams, { params: { siteId: game, portId: mc.id } })).json().data).toHaveLength(
      2,
    );
    const added = await site(addSitePortUpstreams, {
      params: { siteId: game, portId: mc.id },
      body: { upstreams: [upstream(25567, { weight: 5 })] },
    });
    expect(added.json().data.map((u: { port: number }) => u.port)).toEqual([25565, 25566, 25567]);
    const [first, , third] = added.json().data;
    const changed = await site(updateSitePortUpstream, {
      params: { siteId: game, portId: mc.id },
      body: {
        id: third.id,
        ip: '198.51.100.8',
        port: 25568,
      },
    });
    expect(changed.json().data).toMatchObject({ id: third.id, ip: '198.51.100.8', port: 25568, weight: 1 });
    expect(
      (
        await site(deleteSitePortUpstreams, { params: { siteId: game, portId: mc.id }, body: { ids: [first.id] } })
      ).json().data,
    ).toHaveLength(2);
    // The last non-backup upstream cannot go, nor be switched off.
    const remaining = (await site(listSitePortUpstreams, { params: { siteId: game, portId: mc.id } })).json().data;
    const serving = remaining.find((u: { backup: boolean }) => !u.backup)!;
    expect(
      (
        await site(deleteSitePortUpstreams, { params: { siteId: game, portId: mc.id }, body: { ids: [serving.id] } })
      ).json().code,
    ).toBe(401008);
    const off = await site(updateSitePortUpstream, {
      params: { siteId: game, portId: mc.id },
      body: { ...serving, status: 0 },
    });
    expect(off.json().code).toBe(401008);
    expect(
      (await site(deleteSitePortUpstreams, { params: { siteId: game, portId: mc.id }, body: { ids: [999999] } })).json()
        .code,
    ).toBe(101018);
    expect((await site(listSitePortUpstreams, { params: { siteId: game, portId: 999999 } })).json().code).toBe(101018);
    const snap = await snapshot();
    expect(snap.streamPorts.find((p: { port: number }) => p.port === 25565)!.upstreams).toEqual([
      { ip: '198.51.100.7', port: 25566, weight: 3, backup: true },
      { ip: '198.51.100.8', port: 25568, weight: 1, backup: false },
    ]);
  });

  it('batch-creates a range onto an upstream range (101011 when the lengths differ)', async () => {
    const batch = (more: Record<string, unknown>) =>
      site(batchCreateSitePorts, {
        params: { siteId: game },
        body: {
          portFrom: 30000,
          portTo: 30002,
          upstreamPortFrom: 40000,
          upstreamPortTo: 40002,
          upstreams: [{ ip: '198.51.100.9' }, { ip: '198.51.100.10', backup: true }],
          ...more,
        },
      });
    expect((await batch({ upstreamPortTo: 40005 })).json().code).toBe(101011);
    expect((await batch({ portTo: 29999 })).json().extra.fields[0].field).toBe('portTo');
    expect(
      (await batch({ portFrom: 80, portTo: 82, upstreamPortFrom: 80, upstreamPortTo: 82 })).json().extra.fields[0],
    ).toMatchObject({ field: 'portFrom', key: 'portInUse', message: expect.stringContaining('80') });
    const made = await batch({ protocol: 'udp' });
    expect(made.statusCode).toBe(200);
    expect(
      made.json().data.map((p: { port: number; upstreams: { port: number }[] }) => [p.port, p.upstreams[0]?.port]),
    ).toEqual([
      [30000, 40000],
      [30001, 40001],
      [30002, 40002],
    ]);
    expect(made.json().data[2].upstreams[1]).toMatchObject({ ip: '198.51.100.10', port: 40002, backup: true });
    expect(
      (
        await batch({
          portFrom: 31000,
          portTo: 31000 + SITE_PORTS_MAX,
          upstreamPortFrom: 1,
          upstreamPortTo: 1 + SITE_PORTS_MAX,
        })
      ).json().code,
    ).toBe(101029);
  });

  it("enforces the operator's port limit (401007) and refuses a limit below the ports a site has", async () => {
    const count = (await site(listSitePorts, { params: { siteId: game } })).json().total as number;
    expect(count).toBe(5);
    const limit = (maxPorts: number) =>
      call(setSitesLimitations, { body: { ids: [game], limitations: { maxDomains: 0, maxPorts } } });
    expect((await limit(4)).json().code).toBe(401007);
    expect((await limit(5)).statusCode).toBe(200);
    const listed = (await call(listClientSites, { query: { siteID: game } })).json().data[0];
    expect(listed.limitations).toEqual({ maxDomains: 0, maxPorts: 5 });
    const over = await site(addSitePorts, {
      params: { siteId: game },
      body: { ports: [{ port: 7000, upstreams: [upstream(7000)] }] },
    });
    expect(over.json().code).toBe(401007);
    // Left out, the port limit keeps its value.
    await call(setSitesLimitations, { body: { ids: [game], limitations: { maxDomains: 3 } } });
    expect((await call(listClientSites, { query: { siteID: game } })).json().data[0].limitations).toEqual({
      maxDomains: 3,
      maxPorts: 5,
    });
    await limit(0);
    expect(
      (
        await site(addSitePorts, {
          params: { siteId: game },
          body: { ports: [{ port: 7000, upstreams: [upstream(7000)] }] },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('keeps the zone from listening on a number a site port uses', async () => {
    const res = await call(createZonePorts, {
      params: { zoneID: zoneId },
      body: {
        ports: [{ port: 7000, portType: 'http' }],
      },
    });
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields[0]).toMatchObject({ field: 'ports.0.port', key: 'portInUse' });
    expect(
      (await call(createZonePorts, { params: { zoneID: zoneId }, body: { ports: [{ port: 8080, portType: 'http' }] } }))
        .statusCode,
    ).toBe(200);
  });

  it("isolates sites: another customer's calls on this site answer 101018", async () => {
    const [one] = (await site(listSitePorts, { params: { siteId: game } })).json().data;
    for (const [route, input] of [
      [listSitePorts, { params: { siteId: game } }],
      [listSiteZonePorts, { params: { siteId: game } }],
      [addSitePorts, { params: { siteId: game }, body: { ports: [{ port: 7100, upstreams: [upstream(7100)] }] } }],
      [updateSitePort, { params: { siteId: game }, body: { id: one.id, port: 7101 } }],
      [deleteSitePorts, { params: { siteId: game }, body: { ids: [one.id] } }],
      [listSitePortUpstreams, { params: { siteId: game, portId: one.id } }],
      [enableSitePorts, { params: { siteId: game }, body: { ids: [one.id] } }],
    ] as const) {
      expect((await rawRequest(t.app, route, input, { token: neighbour })).json().code).toBe(101018);
    }
    // A port of another site is not this site's.
    expect(
      (await site(updateSitePort, { params: { siteId: chat }, body: { id: one.id, port: 7101 } }, neighbour)).json()
        .code,
    ).toBe(101018);
  });

  it('refuses to delete a site with ports (205004), and a product port type change under them', async () => {
    expect((await call(deleteSites, { body: { ids: [game] } })).json()).toMatchObject({
      code: 205004,
      extra: { siteIDs: [game] },
    });
    const toL7 = await call(updateProduct, {
      body: {
        id: l4Product,
        name: 'L4',
        portType: 7,
        mainGroupIDs: [webGroup],
      },
    });
    expect(toL7.json().code).toBe(205004);
    const ids = (await site(listSitePorts, { params: { siteId: game }, query: { pageSize: 100 } }))
      .json()
      .data.map((p: { id: number }) => p.id);
    expect(
      (await site(deleteSitePorts, { params: { siteId: game }, body: { ids: [...ids, 999999] } })).json().code,
    ).toBe(101018);
    expect((await site(deleteSitePorts, { params: { siteId: game }, body: { ids } })).json()).toEqual({ data: true });
    expect((await snapshot()).streamPorts).toEqual([]);
    expect((await call(deleteSites, { body: { ids: [game] } })).statusCode).toBe(200);
  });
});
