import type { AnyRoute } from '@rampart/contract';
import {
  addL4BlacklistRules,
  addL4LimitConnRules,
  addL4PositionRules,
  addL4WhitelistRules,
  addLineNodes,
  addSitePorts,
  deleteGeoDatabase,
  deleteL4BlacklistRules,
  deleteL4LimitConnRules,
  deleteL4PositionRules,
  deleteL4WhitelistRules,
  deleteSitePorts,
  edgeSnapshotSchema,
  FIREWALL_LIST_RULES_PER_SITE,
  getNodeSnapshot,
  getZoneL4Protection,
  initializeNodes,
  L4_IP_LIST_MAX,
  L4_POSITION_REGIONS_MAX,
  listInitializedNodes,
  listL4BlacklistRules,
  listL4LimitConnRules,
  listL4PositionRules,
  listL4WhitelistRules,
  setAccountZones,
  setNodePortType,
  setZoneL4Protection,
  updateL4BlacklistRule,
  updateL4LimitConnRule,
  updateL4PositionRule,
  updateL4WhitelistRule,
  uploadGeoDatabase,
} from '@rampart/contract';
import { type CallArgs, geoRecord, writeMmdb } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MmdbFile, rangeToCidrs } from '../src/modules/geo/mmdb-reader.js';
import { addAccount, giveRole, rootId, signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, rawInput, sendAs, sendFile, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { operatorCalls } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The site firewall's layer-4 rules (user/site/{id}/firewall/setting/l4Whitelists, l4Blacklists,
// positions, limitConns) and the zone's layer-4 protection (client/zone/{id}/setting/l4Protection):
// the calls, their checks and codes, and tenant isolation.

let t: TestApp;
let client: { accessToken: string };
let user: { accessToken: string };
let neighbour: { accessToken: string };
let rival: { accessToken: string };
let zoneId: number;
let otherZoneId: number;
let game: number; // the customer's layer-4 site
let chat: number; // the neighbour's
let tcpPort: number; // game's TCP port
let udpPort: number; // game's UDP port
let chatPort: number; // chat's port
let node: JoinedNode; // on the zone's layer-4 group
let tcpGroup: number;

const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);
const asNeighbour = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, neighbour, route, ...args);
const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, client, route, ...args);

async function addPort(token: { accessToken: string }, siteId: number, port: number, protocol = 'tcp') {
  const res = await sendAs(t.app, token, addSitePorts, {
    params: { siteId },
    body: { ports: [{ port, protocol: protocol as 'tcp', upstreams: [{ ip: '198.51.100.7', port }] }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data[0].id as number;
}

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  const clientRoot = await rootId(t.app, 'client');
  const neighbourId = await addAccount(t.app, 'user', 'l4-neighbour', clientRoot);
  neighbour = await signIn(t.app, 'user', 'l4-neighbour');
  rival = await signInOtherOperator(t.app, 'l4-rival');
  const userID = await rootId(t.app, 'user');
  const make = operatorCalls(t.app, client);
  zoneId = await make.zone('L4 zone');
  otherZoneId = await make.zone('L4 other zone');
  const tcp = await make.group(zoneId, 'tcp', 4);
  tcpGroup = tcp;
  const product = await make.product('L4 rules', 4, [tcp]);
  game = await make.site('l4-game', userID, product);
  chat = await make.site('l4-chat', neighbourId, product);
  tcpPort = await addPort(user, game, 25565);
  udpPort = await addPort(user, game, 5000, 'udp');
  chatPort = await addPort(neighbour, chat, 7000);
  node = await joinNode(t.app, client, 'edge-l4-rules');
  await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId } });
  expect((await call(setNodePortType, { body: { ids: [node.nodeId], portType: 4 } })).statusCode).toBe(200);
  const placed = await call(addLineNodes, {
    params: { zoneID: zoneId, groupID: tcpGroup, lineID: 'default' },
    body: { nodeIDs: [node.nodeId] },
  });
  expect(placed.statusCode).toBe(200);
});
afterAll(async () => t.close());

describe('layer-4 port-to-IP lists', () => {
  it('add, list (newest first, paged), edit and delete whitelist and blacklist rules', async () => {
    for (const [add, list, update, del] of [
      [addL4WhitelistRules, listL4WhitelistRules, updateL4WhitelistRule, deleteL4WhitelistRules],
      [addL4BlacklistRules, listL4BlacklistRules, updateL4BlacklistRule, deleteL4BlacklistRules],
    ] as const) {
      expect((await as(list, { params: { siteId: game } })).json()).toEqual({ data: [], total: 0 });
      const added = await as(add, {
        params: { siteId: game },
        body: {
          data: [
            { portID: tcpPort, ips: ['203.0.113.7', '198.51.100.0/24', '203.0.113.7'] },
            { portID: udpPort, ips: ['2001:db8::/32'], memo: 'voice' },
          ],
        },
      });
      expect(added.statusCode, added.body).toBe(200);
      const [first, second] = added.json().data;
      // Each address once.
      expect(first).toMatchObject({
        siteID: game,
        portID: tcpPort,
        port: 25565,
        protocol: 'tcp',
        ips: ['203.0.113.7', '198.51.100.0/24'],
        memo: '',
      });
      expect(second).toMatchObject({ portID: udpPort, port: 5000, protocol: 'udp', memo: 'voice' });
      const page = (await as(list, { params: { siteId: game }, query: { page: 1, pageSize: 1 } })).json();
      expect(page.total).toBe(2);
      expect(page.data.map((r: { id: number }) => r.id)).toEqual([second.id]);
      const edited = await as(update, {
        params: { siteId: game },
        body: { id: first.id, portID: udpPort, ips: ['::1'], memo: 'moved' },
      });
      expect(edited.json().data).toMatchObject({
        id: first.id,
        portID: udpPort,
        port: 5000,
        ips: ['::1'],
        memo: 'moved',
      });
      expect((await as(del, { params: { siteId: game }, body: { ids: [first.id, second.id] } })).statusCode).toBe(200);
      expect((await as(list, { params: { siteId: game } })).json().total).toBe(0);
    }
  });

  it('names the field of an invalid rule (101003)', async () => {
    const bad = await as(
      addL4BlacklistRules,
      rawInput({
        params: { siteId: game },
        body: { data: [{ portID: tcpPort, ips: ['not-an-ip'] }, { ips: [] }] },
      }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(expect.arrayContaining(['data.0.ips.0', 'data.1.portID', 'data.1.ips']));
  });

  it(`holds at most ${L4_IP_LIST_MAX} addresses per port in its whitelists and blacklists together (101029)`, async () => {
    const ips = (n: number, base: number) => Array.from({ length: n }, (_, i) => `10.${base}.${i >> 8}.${i & 255}`);
    const white = await as(addL4WhitelistRules, {
      params: { siteId: game },
      body: { data: [{ portID: tcpPort, ips: ips(L4_IP_LIST_MAX - 10, 1) }] },
    });
    expect(white.statusCode).toBe(200);
    const over = await as(addL4BlacklistRules, {
      params: { siteId: game },
      body: { data: [{ portID: tcpPort, ips: ips(11, 2) }] },
    });
    expect(over.json().code).toBe(101029);
    // The other port has its own room; exactly the limit passes.
    expect(
      (
        await as(addL4BlacklistRules, {
          params: { siteId: game },
          body: { data: [{ portID: udpPort, ips: ips(11, 2) }] },
        })
      ).statusCode,
    ).toBe(200);
    const black = await as(addL4BlacklistRules, {
      params: { siteId: game },
      body: { data: [{ portID: tcpPort, ips: ips(10, 2) }] },
    });
    expect(black.statusCode).toBe(200);
    // An edit counts the port's other rules, not the rule it replaces.
    const id = black.json().data[0].id;
    expect(
      (await as(updateL4BlacklistRule, { params: { siteId: game }, body: { id, portID: tcpPort, ips: ips(10, 3) } }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await as(updateL4BlacklistRule, { params: { siteId: game }, body: { id, portID: tcpPort, ips: ips(11, 3) } })
      ).json().code,
    ).toBe(101029);
    const all = [
      ...(await as(listL4WhitelistRules, { params: { siteId: game } })).json().data,
      ...(await as(listL4BlacklistRules, { params: { siteId: game } })).json().data,
    ];
    await as(deleteL4WhitelistRules, {
      params: { siteId: game },
      body: { ids: all.filter((r) => r.ips.length === L4_IP_LIST_MAX - 10).map((r) => r.id) },
    });
    await as(deleteL4BlacklistRules, {
      params: { siteId: game },
      body: { ids: all.filter((r) => r.ips.length !== L4_IP_LIST_MAX - 10).map((r) => r.id) },
    });
  });

  it(`refuses more than ${FIREWALL_LIST_RULES_PER_SITE} rules of a kind per site (101029), all or none`, async () => {
    const many = Array.from({ length: FIREWALL_LIST_RULES_PER_SITE - 1 }, (_, i) => ({
      portID: tcpPort,
      ips: [`192.0.2.${i}`],
    }));
    expect((await as(addL4WhitelistRules, { params: { siteId: game }, body: { data: many } })).statusCode).toBe(200);
    const over = await as(addL4WhitelistRules, { params: { siteId: game }, body: { data: many.slice(0, 2) } });
    expect(over.json().code).toBe(101029);
    expect((await as(listL4WhitelistRules, { params: { siteId: game } })).json().total).toBe(
      FIREWALL_LIST_RULES_PER_SITE - 1,
    );
    const ids = (await as(listL4WhitelistRules, { params: { siteId: game }, query: { pageSize: 100 } }))
      .json()
      .data.map((r: { id: number }) => r.id);
    expect((await as(deleteL4WhitelistRules, { params: { siteId: game }, body: { ids } })).statusCode).toBe(200);
  });
});

describe('layer-4 positions and connection limits', () => {
  it('add, edit and delete position rules; one enabled per port (101025)', async () => {
    const added = await as(addL4PositionRules, {
      params: { siteId: game },
      body: { data: [{ portID: tcpPort, isBlack: true, positions: ['CN', 'RU', 'CN'] }] },
    });
    expect(added.statusCode, added.body).toBe(200);
    const rule = added.json().data[0];
    expect(rule).toMatchObject({ portID: tcpPort, port: 25565, isBlack: true, positions: ['CN', 'RU'], enabled: true });
    // A second enabled rule on the port, in the same call or later, is refused; a disabled one is kept.
    const twice = await as(addL4PositionRules, {
      params: { siteId: game },
      body: { data: [{ portID: tcpPort, isBlack: false, positions: ['US'] }] },
    });
    expect(twice.json().code).toBe(101025);
    const both = await as(addL4PositionRules, {
      params: { siteId: game },
      body: {
        data: [
          { portID: udpPort, isBlack: false, positions: ['US'] },
          { portID: udpPort, isBlack: true, positions: ['FR'] },
        ],
      },
    });
    expect(both.json().code).toBe(101025);
    const off = await as(addL4PositionRules, {
      params: { siteId: game },
      body: { data: [{ portID: tcpPort, isBlack: false, positions: ['US'], enabled: false }] },
    });
    expect(off.statusCode).toBe(200);
    const offId = off.json().data[0].id;
    // Enabling it while the other is enabled is a conflict; the rule itself may be edited.
    expect(
      (
        await as(updateL4PositionRule, {
          params: { siteId: game },
          body: { id: offId, portID: tcpPort, isBlack: false, positions: ['US'], enabled: true },
        })
      ).json().code,
    ).toBe(101025);
    const edited = await as(updateL4PositionRule, {
      params: { siteId: game },
      body: { id: rule.id, portID: tcpPort, isBlack: false, positions: ['DE'], memo: 'only DE' },
    });
    expect(edited.json().data).toMatchObject({ isBlack: false, positions: ['DE'], memo: 'only DE' });
    expect((await as(listL4PositionRules, { params: { siteId: game } })).json().total).toBe(2);
    expect(
      (await as(deleteL4PositionRules, { params: { siteId: game }, body: { ids: [rule.id, offId] } })).statusCode,
    ).toBe(200);
  });

  it(`refuses unknown regions (101003) and more than ${L4_POSITION_REGIONS_MAX} (201003)`, async () => {
    const bad = await as(
      addL4PositionRules,
      rawInput({
        params: { siteId: game },
        body: { data: [{ portID: tcpPort, isBlack: true, positions: ['ZZ', 'cn'] }] },
      }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['data.0.positions.0', 'data.0.positions.1']);
    expect(
      fieldNames(
        await as(addL4PositionRules, rawInput({ params: { siteId: game }, body: { data: [{ portID: tcpPort }] } })),
      ),
    ).toEqual(['data.0.isBlack', 'data.0.positions']);
    // The list as sent counts (the contract knows fewer regions than the limit).
    const over = await as(addL4PositionRules, {
      params: { siteId: game },
      body: { data: [{ portID: tcpPort, isBlack: true, positions: Array(L4_POSITION_REGIONS_MAX + 1).fill('CN') }] },
    });
    expect(over.json().code).toBe(201003);
  });

  it('add, edit and delete connection limits; one enabled per port (101025); field checks', async () => {
    const added = await as(addL4LimitConnRules, {
      params: { siteId: game },
      body: { data: [{ portID: tcpPort, max: 3 }] },
    });
    expect(added.statusCode, added.body).toBe(200);
    const rule = added.json().data[0];
    expect(rule).toMatchObject({ portID: tcpPort, max: 3, rate: null, burst: 0, delay: 0, enabled: true });
    expect(
      (
        await as(addL4LimitConnRules, { params: { siteId: game }, body: { data: [{ portID: tcpPort, max: 9 }] } })
      ).json().code,
    ).toBe(101025);
    const edited = await as(updateL4LimitConnRule, {
      params: { siteId: game },
      body: { id: rule.id, portID: tcpPort, max: 10, rate: 5, burst: 2, delay: 60 },
    });
    expect(edited.json().data).toMatchObject({ max: 10, rate: 5, burst: 2, delay: 60, enabled: true });
    const bad = await as(
      addL4LimitConnRules,
      rawInput({
        params: { siteId: game },
        body: { data: [{ portID: udpPort, max: 0, rate: 0, burst: -1, delay: 86_401 }] },
      }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['data.0.max', 'data.0.rate', 'data.0.burst', 'data.0.delay']);
    expect((await as(listL4LimitConnRules, { params: { siteId: game } })).json().total).toBe(1);
    expect((await as(deleteL4LimitConnRules, { params: { siteId: game }, body: { ids: [rule.id] } })).statusCode).toBe(
      200,
    );
  });
});

describe('isolation', () => {
  it('refuses another customer’s site (101018) and a port of another site (101003 on portID)', async () => {
    expect((await as(listL4BlacklistRules, { params: { siteId: chat } })).json().code).toBe(101018);
    expect(
      (
        await as(addL4BlacklistRules, {
          params: { siteId: chat },
          body: { data: [{ portID: chatPort, ips: ['::1'] }] },
        })
      ).json().code,
    ).toBe(101018);
    const foreign = await as(addL4BlacklistRules, {
      params: { siteId: game },
      body: {
        data: [
          { portID: tcpPort, ips: ['::1'] },
          { portID: chatPort, ips: ['::1'] },
        ],
      },
    });
    expect(foreign.json().code).toBe(101003);
    expect(fieldNames(foreign)).toEqual(['data.1.portID']);
    expect((await as(listL4BlacklistRules, { params: { siteId: game } })).json().total).toBe(0);
    const mine = (
      await as(addL4LimitConnRules, { params: { siteId: game }, body: { data: [{ portID: tcpPort, max: 2 }] } })
    ).json().data[0];
    const moved = await as(updateL4LimitConnRule, {
      params: { siteId: game },
      body: { id: mine.id, portID: chatPort, max: 2 },
    });
    expect(fieldNames(moved)).toEqual(['portID']);
    // The neighbour can neither see nor touch the customer's rule through its own site.
    expect(
      (
        await asNeighbour(updateL4LimitConnRule, {
          params: { siteId: chat },
          body: { id: mine.id, portID: chatPort, max: 1 },
        })
      ).json().code,
    ).toBe(101018);
    expect(
      (await asNeighbour(deleteL4LimitConnRules, { params: { siteId: chat }, body: { ids: [mine.id] } })).json().code,
    ).toBe(101018);
    await as(deleteL4LimitConnRules, { params: { siteId: game }, body: { ids: [mine.id] } });
  });

  it('a deleted port takes its rules', async () => {
    const port = await addPort(user, game, 26000);
    await as(addL4BlacklistRules, { params: { siteId: game }, body: { data: [{ portID: port, ips: ['192.0.2.1'] }] } });
    await as(addL4LimitConnRules, { params: { siteId: game }, body: { data: [{ portID: port, max: 2 }] } });
    await as(addL4PositionRules, {
      params: { siteId: game },
      body: { data: [{ portID: port, isBlack: true, positions: ['CN'] }] },
    });
    expect((await as(deleteSitePorts, { params: { siteId: game }, body: { ids: [port] } })).statusCode).toBe(200);
    for (const list of [listL4BlacklistRules, listL4LimitConnRules, listL4PositionRules]) {
      expect((await as(list, { params: { siteId: game } })).json().total).toBe(0);
    }
  });
});

describe('the zone’s layer-4 protection', () => {
  it('starts off, is replaced, and is the operator’s own', async () => {
    // The escalation of floods is on by default (routes/firewall-l4.ts ESCALATION_DEFAULT).
    expect((await call(getZoneL4Protection, { params: { zoneID: zoneId } })).json().data).toEqual({
      synFlood: null,
      newConnections: null,
      kernelBlocks: false,
      escalation: { refusals: 200, seconds: 10 },
    });
    const set = await call(setZoneL4Protection, {
      params: { zoneID: zoneId },
      body: {
        synFlood: { rate: 100 },
        newConnections: { rate: 20, burst: 40 },
        kernelBlocks: true,
        escalation: { refusals: 50, seconds: 5 },
      },
    });
    expect(set.json().data).toEqual({
      synFlood: { rate: 100, burst: 0 },
      newConnections: { rate: 20, burst: 40 },
      kernelBlocks: true,
      escalation: { refusals: 50, seconds: 5 },
    });
    const bad = await call(
      setZoneL4Protection,
      rawInput({
        params: { zoneID: zoneId },
        body: { synFlood: { rate: 0 }, kernelBlocks: 'yes', escalation: { refusals: 9, seconds: 601 } },
      }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['synFlood.rate', 'kernelBlocks', 'escalation.refusals', 'escalation.seconds']);
    const off = await call(setZoneL4Protection, {
      params: { zoneID: zoneId },
      body: { kernelBlocks: true, escalation: null },
    });
    expect(off.json().data.escalation).toBeNull();
    // Another operator's zone is not found, either way.
    expect((await sendAs(t.app, rival, getZoneL4Protection, { params: { zoneID: zoneId } })).json().code).toBe(101018);
    expect(
      (await sendAs(t.app, rival, setZoneL4Protection, { params: { zoneID: zoneId }, body: {} })).json().code,
    ).toBe(101018);
    expect((await call(getZoneL4Protection, { params: { zoneID: zoneId } })).json().data.kernelBlocks).toBe(true);
  });

  it('a zone-restricted sub-account reaches its zones only', async () => {
    const operatorId = await rootId(t.app, 'client');
    const subId = await addAccount(t.app, 'client', 'l4-sub', operatorId);
    await giveRole(t.app, client, 'client', subId);
    const sub = await signIn(t.app, 'client', 'l4-sub');
    expect(
      (await call(setAccountZones, { params: { clientId: subId }, body: { zoneIDs: [otherZoneId] } })).statusCode,
    ).toBe(200);
    expect((await sendAs(t.app, sub, getZoneL4Protection, { params: { zoneID: zoneId } })).json().code).toBe(101018);
    const own = await sendAs(t.app, sub, setZoneL4Protection, {
      params: { zoneID: otherZoneId },
      body: { kernelBlocks: true },
    });
    expect(own.json().data).toEqual({
      synFlood: null,
      newConnections: null,
      kernelBlocks: true,
      escalation: { refusals: 200, seconds: 10 },
    });
  });
});

async function snapshot() {
  const res = await nodeSend(t.app, node, getNodeSnapshot, undefined);
  expect(res.statusCode).toBe(200);
  const data = res.json().data;
  expect(edgeSnapshotSchema.safeParse(data).success).toBe(true);
  return data;
}

async function uploadGeo(bytes: Buffer) {
  const res = await sendFile(t.app, uploadGeoDatabase, bytes, client);
  expect(res.statusCode, res.body).toBe(200);
}

const GEO_DB = writeMmdb(
  [
    { cidr: '198.51.100.0/25', data: geoRecord('CN') },
    { cidr: '198.51.100.128/26', data: geoRecord('CN', { geonameId: 1, names: { en: 'x' } }) },
    { cidr: '198.51.100.192/26', data: geoRecord('US') },
    { cidr: '203.0.113.0/24', data: geoRecord('CN') },
    { cidr: '2001:db8::/33', data: geoRecord('CN') },
    { cidr: '2001:db8:8000::/33', data: geoRecord('CN') },
  ],
  { databaseType: 'GeoLite2-City' },
);

describe("a country's networks in the geo database", () => {
  it('are the fewest CIDR blocks per country and family, IPv4 apart from IPv6', async () => {
    const networks = await new MmdbFile(GEO_DB).countryNetworks();
    expect(networks.get('CN')).toEqual({
      v4: ['198.51.100.0/25', '198.51.100.128/26', '203.0.113.0/24'],
      v6: ['2001:db8::/32'],
    });
    expect(networks.get('US')).toEqual({ v4: ['198.51.100.192/26'], v6: [] });
    expect(rangeToCidrs(1n, 6n, 32)).toEqual(['0.0.0.1/32', '0.0.0.2/31', '0.0.0.4/31', '0.0.0.6/32']);
  });
});

describe("the node's layer-4 document", () => {
  it('is null for a node without layer-4 rules to enforce, then carries each served port', async () => {
    // The zone protection set earlier in this file is on the first zone: the node sees it.
    await call(setZoneL4Protection, { params: { zoneID: zoneId }, body: {} });
    const before = await snapshot();
    // The node's ports (the customer's two and the neighbour's) without rules: nothing but the ports.
    expect(before.l4).toMatchObject({ zone: { synFlood: null, newConnections: null }, regions: [] });
    expect(before.l4.ports.map((p: { port: number; whitelist: string[] }) => [p.port, p.whitelist])).toEqual([
      [5000, []],
      [7000, []],
      [25565, []],
    ]);
    expect(before.l4KernelBlocks).toBe(false);
    // A node of a zone without layer-4 ports or protection has nothing for its kernel.
    const idle = await joinNode(t.app, client, 'edge-l4-idle');
    await call(initializeNodes, { body: { ids: [idle.nodeId], zoneID: otherZoneId } });
    await call(setZoneL4Protection, { params: { zoneID: otherZoneId }, body: { escalation: null } });
    const idleSnapshot = async () => (await nodeSend(t.app, idle, getNodeSnapshot, undefined)).json().data;
    expect((await idleSnapshot()).l4).toBeNull();
    // Escalating floods uses the kernel's blocked sets: the node gets a table for them.
    await call(setZoneL4Protection, { params: { zoneID: otherZoneId }, body: {} });
    expect((await idleSnapshot()).l4).toEqual({
      zone: { guardedPorts: [80, 443], synFlood: null, newConnections: null },
      regions: [],
      ports: [],
    });
    await call(setZoneL4Protection, { params: { zoneID: otherZoneId }, body: { newConnections: { rate: 50 } } });
    expect((await idleSnapshot()).l4).toEqual({
      zone: { guardedPorts: [80, 443], synFlood: null, newConnections: { rate: 50, burst: 0 } },
      regions: [],
      ports: [],
    });

    await as(addL4WhitelistRules, {
      params: { siteId: game },
      body: { data: [{ portID: tcpPort, ips: ['192.0.2.1'] }] },
    });
    await as(addL4BlacklistRules, {
      params: { siteId: game },
      body: {
        data: [
          { portID: tcpPort, ips: ['192.0.2.66', '2001:db8::/48'] },
          { portID: tcpPort, ips: ['192.0.2.66', '192.0.2.67'] },
        ],
      },
    });
    const limit = (
      await as(addL4LimitConnRules, {
        params: { siteId: game },
        body: { data: [{ portID: tcpPort, max: 3, rate: 10, burst: 5, delay: 30 }] },
      })
    ).json().data[0];
    await as(addL4LimitConnRules, {
      params: { siteId: game },
      body: { data: [{ portID: udpPort, max: 9, enabled: false }] },
    });
    await call(setZoneL4Protection, {
      params: { zoneID: zoneId },
      body: { synFlood: { rate: 100, burst: 50 }, kernelBlocks: true },
    });
    const snap = await snapshot();
    expect(snap.l4KernelBlocks).toBe(true);
    expect(snap.l4).toEqual({
      zone: { guardedPorts: [80, 443], synFlood: { rate: 100, burst: 50 }, newConnections: null },
      regions: [],
      ports: [
        {
          id: udpPort,
          port: 5000,
          protocol: 'udp',
          whitelist: [],
          blacklist: [],
          regions: null,
          connectionLimit: null,
        },
        {
          id: chatPort,
          port: 7000,
          protocol: 'tcp',
          whitelist: [],
          blacklist: [],
          regions: null,
          connectionLimit: null,
        },
        {
          id: tcpPort,
          port: 25565,
          protocol: 'tcp',
          whitelist: ['192.0.2.1'],
          blacklist: ['192.0.2.66', '2001:db8::/48', '192.0.2.67'],
          regions: null,
          connectionLimit: { max: 3, rate: 10, burst: 5, blockSeconds: 30 },
        },
      ],
    });
    await as(deleteL4LimitConnRules, { params: { siteId: game }, body: { ids: [limit.id] } });
    expect((await snapshot()).l4.ports.find((p: { id: number }) => p.id === tcpPort)?.connectionLimit).toBeNull();
  });

  it("puts a position rule's regions in from the operator's geo database, and says when it cannot", async () => {
    const rule = (
      await as(addL4PositionRules, {
        params: { siteId: game },
        body: { data: [{ portID: tcpPort, isBlack: true, positions: ['CN', 'FR'] }] },
      })
    ).json().data[0];
    // No geo database: the region rule is left out, the port's other rules stay, the node is told why.
    const without = await snapshot();
    expect(without.l4.ports.find((p: { id: number }) => p.id === tcpPort)).toMatchObject({
      regions: null,
      whitelist: ['192.0.2.1'],
    });
    expect(without.l4.regions).toEqual([]);
    const row = (await call(listInitializedNodes, { query: { page: 1, pageSize: 50 } }))
      .json()
      .data.find((n: { id: number }) => n.id === node.nodeId) as { snapshotError: string };
    expect(row.snapshotError).toContain(`site ${game} (l4-game)`);
    expect(row.snapshotError).toContain('region rule on port 25565 is not enforced: the operator has no geo database');

    await uploadGeo(GEO_DB);
    const snap = await snapshot();
    expect(snap.l4.ports.find((p: { id: number }) => p.id === tcpPort)?.regions).toEqual({
      mode: 'deny',
      codes: ['CN', 'FR'],
    });
    expect(snap.l4.regions).toEqual([
      { code: 'CN', cidrs: ['198.51.100.0/25', '198.51.100.128/26', '203.0.113.0/24', '2001:db8::/32'] },
      { code: 'FR', cidrs: [] },
    ]);
    await as(updateL4PositionRule, {
      params: { siteId: game },
      body: { id: rule.id, portID: tcpPort, isBlack: false, positions: ['US'] },
    });
    const white = await snapshot();
    expect(white.l4.ports.find((p: { id: number }) => p.id === tcpPort)?.regions).toEqual({
      mode: 'allow',
      codes: ['US'],
    });
    expect(white.l4.regions).toEqual([{ code: 'US', cidrs: ['198.51.100.192/26'] }]);
    expect((await call(deleteGeoDatabase, undefined)).statusCode).toBe(200);
    await as(deleteL4PositionRules, { params: { siteId: game }, body: { ids: [rule.id] } });
  });
});
