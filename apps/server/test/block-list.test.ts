import type { AnyRoute, BlockListQuery } from '@rampart/contract';
import {
  addBlacklistRules,
  addIntervalLimits,
  clientUnblockIps,
  createDomains,
  deleteBlacklistRules,
  deleteIntervalLimits,
  getNodeCommands,
  getNodeSnapshot,
  initializeNodes,
  listBlockedIps,
  listClientBlockedIps,
  listIntervalLimits,
  reportNodeBlocks,
  unblockIps,
} from '@rampart/contract';
import type { CallArgs, CallInput } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { nodeSend, rawNodeRequest, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The block list (routes/block-list.ts): nodes report what their DROP + Blacklist rules blocked,
// customers and operators list their own sites' blocks and unblock them, each unblock queued as an
// `unblock` command for the node that holds the address.

const clock = manualClock();
let t: TestApp;
let client: Token;
let rival: Token;
let user: Token;
let neighbour: Token;
let zoneId: number;
let siteId: number;
let neighbourSiteId: number;
let rivalSiteId: number;
let ruleId: number;
let a: JoinedNode;
let b: JoinedNode;
let spare: JoinedNode;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const node = <R extends AnyRoute>(n: JoinedNode, route: R, input?: CallInput<R>) =>
  nodeSend(t.app, n, route, input as CallInput<R>, { nowMs: clock.now() });
const secs = () => Math.floor(clock.now() / 1000);

type Cause = 'blacklist' | 'geo' | 'userAgent' | 'intervalLimit' | 'secondLimit' | 'antiCc' | 'escalated';
const block = (site: number, ip: string, cause: Cause = 'blacklist', rule = 1, lasts = 3600) => ({
  siteId: site,
  ip,
  cause,
  ruleId: rule,
  blockedAt: secs(),
  expiresAt: secs() + lasts,
});

async function report(n: JoinedNode, entries: ReturnType<typeof block>[]) {
  const res = await node(n, reportNodeBlocks, { body: { entries } });
  expect(res.statusCode, res.body).toBe(200);
}

async function userList(who: Token, query: Partial<BlockListQuery> = {}) {
  const res = await as(who, listBlockedIps, { query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function takeCommands(n: JoinedNode) {
  const res = await node(n, getNodeCommands, { query: { wait: 0 } });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: number; type: string; payload: Record<string, unknown> }[];
}

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  client = await signIn(t.app, 'client');
  const rivalId = await addAccount(t.app, 'client', 'rival');
  rival = await signIn(t.app, 'client', 'rival');
  user = await signIn(t.app, 'user');
  const clientRoot = await rootId(t.app, 'client');
  const neighbourId = await addAccount(t.app, 'user', 'neighbour', clientRoot);
  neighbour = await signIn(t.app, 'user', 'neighbour');
  const make = operatorCalls(t.app, client);
  const chain = await webProduct(t.app, client);
  zoneId = chain.zoneId;
  const other = await make.group(zoneId, 'other');
  siteId = await make.site('shop', await rootId(t.app, 'user'), chain.productId);
  neighbourSiteId = await make.site('next door', neighbourId, chain.productId);
  // Another operator's site, which none of this operator's nodes serves.
  const rivalChain = await webProduct(t.app, rival);
  const rivalUser = await addAccount(t.app, 'user', 'rivalcustomer', rivalId);
  rivalSiteId = await operatorCalls(t.app, rival).site('elsewhere', rivalUser, rivalChain.productId);
  [a, b, spare] = [
    await joinNode(t.app, client, 'edge-a'),
    await joinNode(t.app, client, 'edge-b'),
    await joinNode(t.app, client, 'edge-spare'),
  ];
  await as(client, initializeNodes, { body: { ids: [a.nodeId, b.nodeId], zoneID: zoneId, groupID: chain.groupId } });
  // On the zone but on a group no product uses: it serves no site.
  await as(client, initializeNodes, { body: { ids: [spare.nodeId], zoneID: zoneId, groupID: other } });
  await as(user, createDomains, {
    params: { siteId },
    body: { domains: [{ name: 'www.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
  });
  const added = await as(user, addBlacklistRules, {
    params: { siteId },
    body: { data: [{ ips: ['203.0.113.0/24'], url: '.*', methods: { get: true }, memo: '', blockType: 12 }] },
  });
  expect(added.statusCode, added.body).toBe(200);
  ruleId = added.json().data[0]?.id as number;
});
afterAll(async () => t.close());

describe('DROP + Blacklist in the rules', () => {
  it('a blacklist rule takes mode 12 and reaches the node as dropBlacklist', async () => {
    const plane = (await node(a, getNodeSnapshot)).json().data.dataPlane;
    const firewall = plane.firewalls.find((f: { id: number }) => f.id === siteId);
    expect(firewall?.blacklist).toMatchObject([{ id: ruleId, action: 'dropBlacklist' }]);
  });

  it('a frequency limit takes it too', async () => {
    const res = await as(user, addIntervalLimits, {
      params: { siteId },
      body: { data: [{ urlRegex: '.*', seconds: 10, times: 5, priority: 1, blockType: 12, enabled: true }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const plane = (await node(a, getNodeSnapshot)).json().data.dataPlane;
    const firewall = plane.firewalls.find((f: { id: number }) => f.id === siteId);
    expect(firewall?.intervals).toMatchObject([{ action: 'dropBlacklist' }]);
  });
});

describe('node reports', () => {
  it('records the blocks of the sites the node serves and leaves out the others', async () => {
    await report(a, [
      block(siteId, '203.0.113.7', 'blacklist', ruleId),
      block(neighbourSiteId, '198.51.100.9', 'secondLimit', 999_999, 600),
      // Not served by node a: another operator's site, and an id that is no site at all.
      block(rivalSiteId, '192.0.2.1'),
      block(999_999, '192.0.2.2'),
    ]);
    // A node that serves no site of the operator records nothing.
    await report(spare, [block(siteId, '192.0.2.3')]);
    const mine = await userList(user);
    expect(mine.total).toBe(1);
    expect(mine.data).toEqual([
      {
        id: expect.any(Number),
        ip: '203.0.113.7',
        siteID: siteId,
        siteName: 'shop',
        cause: 'blacklist',
        ruleID: ruleId,
        nodeID: a.nodeId,
        nodeName: 'edge-a',
        zoneID: zoneId,
        zoneName: 'Asia',
        blockedAt: new Date(secs() * 1000).toISOString(),
        expiresAt: new Date((secs() + 3600) * 1000).toISOString(),
      },
    ]);
    // The neighbour sees its own block; its rule id named no rule of the site: shown as gone.
    const theirs = await userList(neighbour);
    expect(theirs.data).toMatchObject([{ ip: '198.51.100.9', siteID: neighbourSiteId, ruleID: null }]);
    // The rival operator sees nothing of these.
    const rivals = (await as(rival, listClientBlockedIps, { query: {} })).json();
    expect(rivals.total).toBe(0);
  });

  it('renews an address reported again by the same node, and keeps one row per node', async () => {
    clock.advance(10_000);
    await report(a, [block(siteId, '203.0.113.7', 'blacklist', ruleId, 7200)]);
    await report(b, [block(siteId, '203.0.113.7', 'blacklist', ruleId, 60)]);
    const rows = (await userList(user, { ips: ['203.0.113.7'], sortBy: 'expiresAt', orderBy: 'asc' })).data;
    expect(rows.map((r) => [r.nodeName, r.expiresAt])).toEqual([
      ['edge-b', new Date((secs() + 60) * 1000).toISOString()],
      ['edge-a', new Date((secs() + 7200) * 1000).toISOString()],
    ]);
  });

  it('refuses a malformed report whole', async () => {
    for (const bad of [
      { entries: [] },
      { entries: [{ ...block(siteId, '203.0.113.8'), ip: '203.0.113.999' }] },
      { entries: [{ ...block(siteId, '203.0.113.8'), cause: 'header' }] },
      { entries: [{ ...block(siteId, '203.0.113.8'), extra: 1 }] },
    ]) {
      const res = await rawNodeRequest(t.app, a, reportNodeBlocks, { body: bad }, { nowMs: clock.now() });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await userList(user, { ips: ['203.0.113.8'] })).total).toBe(0);
  });
});

describe('the lists', () => {
  it('filter by site, addresses, causes and zone, and page', async () => {
    await report(a, [
      block(siteId, '2001:db8::1', 'userAgent', 5),
      block(siteId, '203.0.113.20', 'intervalLimit', 6),
      block(siteId, '203.0.113.21', 'antiCc', 7),
    ]);
    expect((await userList(user, { causes: ['userAgent', 'antiCc'] })).data.map((r) => r.ip).sort()).toEqual([
      '2001:db8::1',
      '203.0.113.21',
    ]);
    expect((await userList(user, { siteID: siteId })).total).toBe(5);
    expect((await userList(user, { siteID: neighbourSiteId })).total).toBe(0);
    expect((await userList(user, { zoneID: zoneId })).total).toBe(5);
    expect((await userList(user, { zoneID: zoneId + 1000 })).total).toBe(0);
    const first = await userList(user, { page: 1, pageSize: 2, sortBy: 'ip', orderBy: 'asc' });
    const second = await userList(user, { page: 2, pageSize: 2, sortBy: 'ip', orderBy: 'asc' });
    expect(first.total).toBe(5);
    expect([...first.data, ...second.data].map((r) => r.ip)).toEqual([
      '2001:db8::1',
      '203.0.113.20',
      '203.0.113.21',
      '203.0.113.7',
    ]);
    const bad = await as(user, listBlockedIps, { query: { ips: ['not-an-ip'] } } as never);
    expect(bad.statusCode).toBe(400);
  });

  it("show the operator every customer's blocks with the account", async () => {
    const res = await as(client, listClientBlockedIps, { query: { pageSize: 100 } });
    expect(res.statusCode, res.body).toBe(200);
    const accounts = new Set(res.json().data.map((r) => r.userAccount));
    expect(accounts).toEqual(new Set(['user', 'neighbour']));
    expect((await as(client, listClientBlockedIps, { query: { siteID: neighbourSiteId } })).json().total).toBe(1);
  });

  it('leave out blocks that have expired', async () => {
    const before = (await userList(user)).total;
    clock.advance(61_000); // node b's 60-second block has ended
    expect((await userList(user)).total).toBe(before - 1);
    clock.advance(-61_000);
  });
});

describe('unblock', () => {
  it("refuses ids of another customer's blocks whole, and removes nothing", async () => {
    const mine = (await userList(user, { ips: ['203.0.113.20'] })).data[0]?.id as number;
    const theirs = (await userList(neighbour)).data[0]?.id as number;
    const res = await as(user, unblockIps, { body: { ids: [mine, theirs] } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(101018);
    expect((await userList(user, { ips: ['203.0.113.20'] })).total).toBe(1);
    expect((await userList(neighbour)).total).toBe(1);
    const unknown = await as(user, unblockIps, { body: { ids: [999_999] } });
    expect(unknown.json().code).toBe(101018);
  });

  it('removes the blocks and queues an unblock for each node that holds one', async () => {
    await takeCommands(a);
    await takeCommands(b);
    const rows = (await userList(user, { ips: ['203.0.113.7'] })).data;
    expect(rows).toHaveLength(2);
    const res = await as(user, unblockIps, { body: { ids: rows.map((r) => r.id) } });
    expect(res.json(), res.body).toEqual({ data: true });
    expect((await userList(user, { ips: ['203.0.113.7'] })).total).toBe(0);
    for (const n of [a, b]) {
      expect(await takeCommands(n)).toEqual([
        { id: expect.any(Number), type: 'unblock', payload: { entries: [{ siteId, ip: '203.0.113.7' }] } },
      ]);
    }
    expect(await takeCommands(spare)).toEqual([]);
  });

  it("lets the operator unblock its customers' blocks, and not another operator", async () => {
    const theirs = (await userList(neighbour)).data[0]?.id as number;
    const refused = await as(rival, clientUnblockIps, { body: { ids: [theirs] } });
    expect(refused.json().code).toBe(101018);
    const res = await as(client, clientUnblockIps, { body: { ids: [theirs] } });
    expect(res.json(), res.body).toEqual({ data: true });
    expect((await userList(neighbour)).total).toBe(0);
    expect(await takeCommands(a)).toMatchObject([
      { type: 'unblock', payload: { entries: [{ siteId: neighbourSiteId, ip: '198.51.100.9' }] } },
    ]);
  });
});

describe("a site's blocks outlive its rules at the edge", () => {
  const firewallOf = async () => {
    const plane = (await node(a, getNodeSnapshot)).json().data.dataPlane;
    return {
      entry: plane.firewalls.find((f: { id: number }) => f.id === siteId),
      domain: plane.domains.find((d: { name: string }) => d.name === 'www.shop.example'),
    };
  };

  it("keeps the site's entry, without rules, while a block has not ended, and drops it after the last unblock", async () => {
    const intervals = (await as(user, listIntervalLimits, { params: { siteId } })).json().data;
    await as(user, deleteIntervalLimits, { params: { siteId }, body: { ids: intervals.map((r) => r.id) } });
    await as(user, deleteBlacklistRules, { params: { siteId }, body: { ids: [ruleId] } });
    const held = await firewallOf();
    expect(held.entry).toMatchObject({ id: siteId, whitelist: [], blacklist: [], intervals: [], rates: [] });
    expect(held.domain?.firewallId).toBe(siteId);
    // The list shows the rule as gone.
    const left = (await userList(user)).data;
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((r) => r.ruleID === null)).toBe(true);
    await as(user, unblockIps, { body: { ids: left.map((r) => r.id) } });
    const after = await firewallOf();
    expect(after.entry).toBeUndefined();
    expect(after.domain?.firewallId).toBeNull();
  });

  it('brings the entry back when a node reports a block after the last rule went', async () => {
    await report(a, [block(siteId, '203.0.113.99', 'blacklist', ruleId)]);
    const back = await firewallOf();
    expect(back.entry).toMatchObject({ id: siteId, blacklist: [] });
    expect(back.domain?.firewallId).toBe(siteId);
  });
});

describe('floods escalated to the kernel', () => {
  it('shares an escalation with the other nodes serving the site, and an unblock lifts it on each', async () => {
    for (const n of [a, b, spare]) await takeCommands(n);
    const ip = '198.51.100.9';
    await report(a, [block(siteId, ip, 'escalated', siteId, 60)]);
    const rows = (await userList(user, { ips: [ip] })).data as {
      id: number;
      nodeID: number;
      cause: string;
      ruleID: number | null;
    }[];
    expect(rows.map((r) => [r.nodeID, r.cause, r.ruleID]).sort()).toEqual(
      [
        [a.nodeId, 'escalated', null],
        [b.nodeId, 'escalated', null],
      ].sort(),
    );
    // The other node serving the site drops it in its kernel; the reporting node and a node
    // serving nothing of the site get nothing.
    expect(await takeCommands(b)).toEqual([
      { id: expect.any(Number), type: 'block', payload: { entries: [{ siteId, ip, seconds: 60 }] } },
    ]);
    expect(await takeCommands(a)).toEqual([]);
    expect(await takeCommands(spare)).toEqual([]);
    // A rule's block stays the node's own.
    await report(a, [block(siteId, '198.51.100.10', 'blacklist', ruleId)]);
    expect(await takeCommands(b)).toEqual([]);

    const res = await as(user, unblockIps, { body: { ids: rows.map((r) => r.id) } });
    expect(res.json(), res.body).toEqual({ data: true });
    for (const n of [a, b]) {
      expect(await takeCommands(n)).toEqual([
        { id: expect.any(Number), type: 'unblock', payload: { entries: [{ siteId, ip }] } },
      ]);
    }
  });
});
