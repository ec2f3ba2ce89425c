import type { AnyRoute } from '@rampart/contract';
import {
  clearClientSitesCache,
  clearNodesCache,
  createDomains,
  getNodeCommands,
  getNodeSnapshot,
  initializeNodes,
  listCacheRules,
  listNodeCommands,
  listSitePurgeTasks,
  listZonePreheatTasks,
  preheatZoneCaches,
  purgeNodesCache,
  purgeSiteUrls,
  reportNodeCommandResult,
  setNodeStatus,
} from '@rampart/contract';
import type { CallArgs, CallInput } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId, signInOtherOperator } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Clearing and warming caches (routes/cache-tasks.ts): node cache epochs, URL purges by the
// operator and by the customer, operator site clears and zone preheats, each node's results.

const clock = manualClock();
let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let user: { accessToken: string };
let neighbour: { accessToken: string };
let zoneId: number;
let siteId: number;
let neighbourSiteId: number;
let a: JoinedNode;
let b: JoinedNode;
let spare: JoinedNode;

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
const node = <R extends AnyRoute>(n: JoinedNode, route: R, input?: CallInput<R>) =>
  nodeSend(t.app, n, route, input as CallInput<R>, { nowMs: clock.now() });
const snapshot = async (n: JoinedNode) => (await node(n, getNodeSnapshot)).json().data;

/** Takes the node's queued commands, as its agent's poll does. */
async function take(n: JoinedNode) {
  const res = await node(n, getNodeCommands, { query: { wait: 0 } });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: number; type: string; payload: Record<string, unknown> }[];
}

const urlResult = (url: string, ok: boolean, extra: Record<string, unknown> = {}) => ({
  url,
  ok,
  httpStatus: null,
  cacheStatus: null,
  purged: ok ? 1 : 0,
  message: ok ? 'purged' : 'no domain of this node serves it',
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app);
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
  [a, b, spare] = [
    await joinNode(t.app, client, 'edge-a'),
    await joinNode(t.app, client, 'edge-b'),
    await joinNode(t.app, client, 'edge-spare'),
  ];
  await call(initializeNodes, { body: { ids: [a.nodeId, b.nodeId], zoneID: zoneId, groupID: chain.groupId } });
  // On the zone but on a group no product uses: it serves no site.
  await call(initializeNodes, { body: { ids: [spare.nodeId], zoneID: zoneId, groupID: other } });
  await call(
    createDomains,
    {
      params: { siteId },
      body: {
        domains: [
          { name: 'www.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] },
          { name: '*.img.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] },
        ],
      },
    },
    user,
  );
});
afterAll(async () => t.close());

describe('node cache clear (all)', () => {
  it("raises each node's cache epoch, sends it in the snapshot and queues a command carrying it", async () => {
    expect((await snapshot(a)).dataPlane.cacheEpoch).toBe(0);
    const res = await call(clearNodesCache, { params: { zoneID: zoneId }, body: { ids: [a.nodeId] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject([{ nodeId: a.nodeId, type: 'clearCache', status: 'queued', results: [] }]);
    expect((await snapshot(a)).dataPlane.cacheEpoch).toBe(1);
    expect((await snapshot(b)).dataPlane.cacheEpoch).toBe(0);
    const [command] = await take(a);
    expect(command).toMatchObject({ type: 'clearCache', payload: { epoch: 1 } });
    await node(a, reportNodeCommandResult, {
      params: { id: command?.id },
      body: { ok: true, message: 'cache epoch 1 active' },
    });

    await call(clearNodesCache, { params: { zoneID: zoneId }, body: { ids: [a.nodeId, b.nodeId] } });
    expect((await take(a))[0]?.payload).toEqual({ epoch: 2 });
    expect((await take(b))[0]?.payload).toEqual({ epoch: 1 });
  });

  it("refuses another operator's node and a node of another zone, all or none", async () => {
    const before = (await snapshot(a)).dataPlane.cacheEpoch;
    const foreign = await call(clearNodesCache, { params: { zoneID: zoneId }, body: { ids: [a.nodeId] } }, rival);
    expect(foreign.json().code).toBe(101018);
    const mixed = await call(clearNodesCache, { params: { zoneID: zoneId }, body: { ids: [a.nodeId, 987_654] } });
    expect(mixed.json().code).toBe(101018);
    expect((await snapshot(a)).dataPlane.cacheEpoch).toBe(before);
    expect(await take(a)).toEqual([]);
  });
});

describe('operator URL purge on nodes', () => {
  it('queues one command per node with the normalised URLs and records the results per URL', async () => {
    const res = await call(purgeNodesCache, {
      params: { zoneID: zoneId },
      body: {
        ids: [a.nodeId],
        type: 'url',
        urls: ['HTTP://WWW.Shop.Example/a/../b.css#top', 'http://www.shop.example/b.css'],
      },
    });
    expect(res.statusCode).toBe(200);
    const [queued] = res.json().data;
    const [command] = await take(a);
    expect(command).toEqual({ id: queued.id, type: 'purgeUrls', payload: { urls: ['http://www.shop.example/b.css'] } });
    const results = [urlResult('http://www.shop.example/b.css', true)];
    await node(a, reportNodeCommandResult, {
      params: { id: command?.id },
      body: { ok: true, message: '1 removed', results },
    });
    const history = await call(listNodeCommands, {
      params: { zoneID: zoneId, id: a.nodeId },
      query: { page: 1, pageSize: 5 },
    });
    expect(history.json().data[0]).toMatchObject({ id: queued.id, status: 'succeeded', results });
  });

  it('validates every URL and the list size', async () => {
    for (const [urls, field] of [
      [['ftp://www.shop.example/x'], 'urls.0'],
      [['http://user:pw@www.shop.example/x'], 'urls.0'],
      [['http://*.img.shop.example/x'], 'urls.0'],
      [['/relative/path'], 'urls.0'],
      [[], 'urls'],
      [Array.from({ length: 101 }, (_, i) => `http://www.shop.example/${i}`), 'urls'],
    ] satisfies [string[], string][]) {
      const res = await call(purgeNodesCache, { params: { zoneID: zoneId }, body: { ids: [a.nodeId], urls } });
      expect(res.json().code).toBe(101003);
      expect(fieldNames(res)).toContain(field);
    }
  });
});

describe('operator site cache clear', () => {
  it('gives each site a new cache generation, all or none', async () => {
    const res = await call(clearClientSitesCache, { body: { ids: [siteId, neighbourSiteId] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      { id: Math.min(siteId, neighbourSiteId), generation: 2 },
      { id: Math.max(siteId, neighbourSiteId), generation: 2 },
    ]);
    const rivalCall = await call(clearClientSitesCache, { body: { ids: [siteId] } }, rival);
    expect(rivalCall.json().code).toBe(101018);
    const mixed = await call(clearClientSitesCache, { body: { ids: [siteId, 999_999] } });
    expect(mixed.json().code).toBe(101018);
    const rules = await call(listCacheRules, { params: { siteId } }, user);
    expect(rules.json().data.generation).toBe(2);
  });
});

describe('customer URL purge', () => {
  it("sends the purge to every enabled node serving the site and shows the task's progress", async () => {
    const urls = ['http://www.shop.example/a.js', 'https://cdn.img.shop.example/logo.png?v=2'];
    const res = await call(purgeSiteUrls, { params: { siteId }, body: { urls } }, user);
    expect(res.statusCode).toBe(200);
    const task = res.json().data;
    expect(task).toMatchObject({ kind: 'purge', state: 'running', urls });
    expect(task.nodes.map((n: { nodeId: number }) => n.nodeId)).toEqual([a.nodeId, b.nodeId]);
    expect(await take(spare)).toEqual([]);

    const [onA] = await take(a);
    const [onB] = await take(b);
    expect(onA?.payload).toEqual({ urls });
    await node(a, reportNodeCommandResult, {
      params: { id: onA?.id },
      body: {
        ok: true,
        message: 'done',
        results: urls.map((u) => urlResult(u, true)),
      },
    });
    let listed = (
      await call(listSitePurgeTasks, { params: { siteId }, query: { page: 1, pageSize: 10 } }, user)
    ).json();
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toMatchObject({ id: task.id, state: 'running' });

    await node(b, reportNodeCommandResult, {
      params: { id: onB?.id },
      body: {
        ok: true,
        message: 'done',
        results: [urlResult(urls[0] as string, true), urlResult(urls[1] as string, false)],
      },
    });
    listed = (await call(listSitePurgeTasks, { params: { siteId }, query: { page: 1, pageSize: 10 } }, user)).json();
    expect(listed.data[0].state).toBe('partial');
    expect(listed.data[0].nodes[1]).toMatchObject({ nodeName: 'edge-b', status: 'succeeded', message: 'done' });
  });

  it('refuses a URL whose host is not a domain of the site, naming the URL', async () => {
    const res = await call(
      purgeSiteUrls,
      { params: { siteId }, body: { urls: ['http://www.shop.example/', 'http://evil.example/'] } },
      user,
    );
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields).toMatchObject([{ field: 'urls.1', key: 'urlNotOfSite' }]);
    // A name only the wildcard's parent would match is not covered either.
    const parent = await call(
      purgeSiteUrls,
      { params: { siteId }, body: { urls: ['http://img.shop.example/'] } },
      user,
    );
    expect(parent.json().extra.fields).toMatchObject([{ field: 'urls.0' }]);
  });

  it("keeps customers apart: another customer's site is 101018 for purges and task lists", async () => {
    const purge = await call(
      purgeSiteUrls,
      { params: { siteId }, body: { urls: ['http://www.shop.example/'] } },
      neighbour,
    );
    expect(purge.json().code).toBe(101018);
    const list = await call(listSitePurgeTasks, { params: { siteId }, query: { page: 1, pageSize: 10 } }, neighbour);
    expect(list.json().code).toBe(101018);
  });

  it('settles a task whose node never answered as failed once its commands expire', async () => {
    const res = await call(purgeSiteUrls, { params: { siteId }, body: { urls: ['http://www.shop.example/x'] } }, user);
    const id = res.json().data.id;
    clock.advance(601_000);
    const listed = (
      await call(listSitePurgeTasks, { params: { siteId }, query: { page: 1, pageSize: 1 } }, user)
    ).json();
    expect(listed.data[0]).toMatchObject({ id, state: 'failed' });
    expect(listed.data[0].nodes.every((n: { status: string }) => n.status === 'expired')).toBe(true);
  });
});

describe('zone preheat', () => {
  it('sends the URLs to every enabled node of the zone and pages the tasks', async () => {
    const url = 'http://www.shop.example/big.bin';
    const urls = [url];
    const res = await call(preheatZoneCaches, { params: { zoneID: zoneId }, body: { urls } });
    expect(res.statusCode).toBe(200);
    const task = res.json().data;
    expect(task).toMatchObject({ kind: 'preheat', state: 'running' });
    expect(task.nodes.map((n: { nodeId: number }) => n.nodeId)).toEqual([a.nodeId, b.nodeId, spare.nodeId]);
    for (const n of [a, b, spare]) {
      const [command] = await take(n);
      expect(command).toMatchObject({ type: 'preheat', payload: { urls } });
      const result = {
        url,
        ok: true,
        httpStatus: 200,
        cacheStatus: 'MISS',
        purged: null,
        message: '200 MISS',
      };
      await node(n, reportNodeCommandResult, {
        params: { id: command?.id },
        body: { ok: true, message: '1 of 1', results: [result] },
      });
    }
    const listed = (
      await call(listZonePreheatTasks, { params: { zoneID: zoneId }, query: { page: 1, pageSize: 10 } })
    ).json();
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toMatchObject({ id: task.id, state: 'succeeded' });
    expect(listed.data[0].nodes[0].results[0]).toMatchObject({ httpStatus: 200, cacheStatus: 'MISS' });
  });

  it('refuses a zone with no enabled node, and another operator', async () => {
    await call(setNodeStatus, { body: { ids: [a.nodeId, b.nodeId, spare.nodeId], status: 'off' } });
    const none = await call(preheatZoneCaches, { params: { zoneID: zoneId }, body: { urls: ['http://x.example/'] } });
    expect(none.json().code).toBe(101003);
    expect(none.json().extra.fields).toMatchObject([{ field: 'zoneID', key: 'noEnabledNode' }]);
    await call(setNodeStatus, { body: { ids: [a.nodeId, b.nodeId, spare.nodeId], status: 'on' } });
    const foreign = await call(
      preheatZoneCaches,
      { params: { zoneID: zoneId }, body: { urls: ['http://x.example/'] } },
      rival,
    );
    expect(foreign.json().code).toBe(101018);
    const list = await call(
      listZonePreheatTasks,
      { params: { zoneID: zoneId }, query: { page: 1, pageSize: 10 } },
      rival,
    );
    expect(list.json().code).toBe(101018);
  });

  it('refuses a node result with a malformed URL result', async () => {
    const res = await call(preheatZoneCaches, { params: { zoneID: zoneId }, body: { urls: ['http://x.example/'] } });
    const [command] = await take(a);
    const bad = await node(a, reportNodeCommandResult, {
      params: { id: command?.id },
      body: {
        ok: true,
        message: '',
        results: [
          {
            url: 'http://x.example/',
            ok: true,
            httpStatus: 200,
            cacheStatus: 'miss<script>',
            purged: null,
            message: '',
          },
        ],
      },
    });
    expect(bad.json().code).toBe(101003);
    expect(res.statusCode).toBe(200);
  });
});
