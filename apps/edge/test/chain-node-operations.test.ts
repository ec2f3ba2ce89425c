import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import {
  addSiteDomain,
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  startOperatorChain,
  waitUntil,
} from './helpers/real-control-plane.js';

/**
 * The operator's node operations through the whole chain: the built control plane, the agent with
 * its own nginx and an origin, everything driven through the console's API. Needs `npm run build`.
 */

let cp: ControlPlane;
let setup: OperatorSetup;
let edge: TestAgent;
let origin: Origin;
let nodeId: number;

interface Command {
  id: number;
  status: string;
  message: string;
}

const operator = <T>(method: string, url: string, body?: unknown) => setup.operator.call<T>(method, url, body);
const status = async () => (await request(edge.ports.http, 'www.shop.example')).status;

/** Waits for a command queued through the API to finish, and answers it as the operator sees it. */
async function finished(command: Command): Promise<Command> {
  let seen: Command | undefined;
  await waitUntil(
    async () => {
      const history = await operator<Command[]>('GET', `client/zone/${setup.zoneId}/node/${nodeId}/commands`);
      seen = history.find((c) => c.id === command.id);
      return seen !== undefined && seen.status !== 'queued' && seen.status !== 'sent';
    },
    20_000,
    100,
  );
  if (!seen) throw new Error('command not found');
  return seen;
}

beforeAll(async () => {
  origin = await startOrigin('a');
  ({ cp, setup } = await startOperatorChain());
  edge = await startAgent({ controlPlane: cp.url, joinToken: setup.joinToken, heartbeatMs: 500 });
  nodeId = await initializeFirstNode(setup);
  await addSiteDomain(setup, 'www.shop.example', origin.port);
  await waitUntil(async () => (await status()) === 200, 10_000);
}, 90_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.destroy();
  await origin?.close();
});

describe('node operations through the whole chain', () => {
  it('switches the node off (it answers the unknown-host page) and on again (it serves the site)', async () => {
    await operator('PATCH', 'client/node/status', { ids: [nodeId], status: 'off' });
    await waitUntil(async () => (await status()) === 404, 30_000);
    await operator('PATCH', 'client/node/status', { ids: [nodeId], status: 'on' });
    await waitUntil(async () => (await status()) === 200, 30_000);
    expect(servedBy((await request(edge.ports.http, 'www.shop.example')).body)).toBe('a');
  });

  it('reboots the node: the command succeeds with a new nginx master and the site is still served', async () => {
    const before = await edge.agent.nginx.masterPid();
    const [command] = await operator<Command[]>('POST', `client/zone/${setup.zoneId}/node/reboot`, { ids: [nodeId] });
    const done = await finished(command as Command);
    const after = await edge.agent.nginx.masterPid();
    expect(done).toMatchObject({ status: 'succeeded', message: `nginx restarted: master ${before} → ${after}` });
    expect(after).not.toBe(before);
    expect(await status()).toBe(200);
  });

  it('rotates the logs on demand and reports the machine through the system call', async () => {
    const [command] = await operator<Command[]>('POST', 'client/nodes/logRotate', { ids: [nodeId] });
    expect((await finished(command as Command)).status).toBe('succeeded');
    expect((await stat(path.join(edge.stateDir, 'nginx/logs/access.log.1'))).isFile()).toBe(true);
    let system: { cpuCount: number; nginxVersion: string } | null = null;
    await waitUntil(
      async () => {
        system = await operator('GET', `client/zone/${setup.zoneId}/node/${nodeId}/system`);
        return system !== null;
      },
      5000,
      100,
    );
    expect(system).toMatchObject({ cpuCount: expect.any(Number), nginxVersion: expect.stringMatching(/^1\./) });
  });
});

interface Task {
  id: number;
  state: string;
  nodes: {
    status: string;
    message: string;
    results: { ok: boolean; cacheStatus: string | null; purged: number | null }[];
  }[];
}

describe('clearing and warming the cache through the whole chain', () => {
  const cacheStatus = async (urlPath: string) =>
    (await request(edge.ports.http, 'www.shop.example', urlPath)).headers['x-cache-status'];
  const originHits = (urlPath: string) => origin.seen.filter((s) => s.url === urlPath).length;

  async function settled(list: string, id: number): Promise<Task> {
    let task: Task | undefined;
    await waitUntil(
      async () => {
        const page = await (list.startsWith('user/') ? setup.customer : setup.operator).call<Task[]>('GET', list);
        task = page.find((t) => t.id === id);
        return task !== undefined && task.state !== 'running';
      },
      20_000,
      100,
    );
    if (!task) throw new Error('task not found');
    return task;
  }

  beforeAll(async () => {
    await setup.customer.call('POST', `user/site/${setup.siteId}/setting/caches`, {
      data: [{ scope: 'directory', values: ['/'], ttl: 3600 }],
    });
    await waitUntil(async () => (await cacheStatus('/probe')) !== undefined, 10_000);
  });

  it('preheats a URL on the zone: the node fetched it (MISS) and the next request is a hit', async () => {
    const task = await operator<Task>('POST', `client/zone/${setup.zoneId}/setting/preheatCaches`, {
      urls: ['http://www.shop.example/warm.html'],
    });
    const done = await settled(`client/zone/${setup.zoneId}/setting/preheatCaches`, task.id);
    expect(done.state).toBe('succeeded');
    expect(done.nodes[0]?.results[0]).toMatchObject({ ok: true, cacheStatus: 'MISS' });
    expect(await cacheStatus('/warm.html')).toBe('HIT');
    expect(originHits('/warm.html')).toBe(1);
  });

  it("purges the customer's URL on the node: the next request goes to the origin again", async () => {
    const task = await setup.customer.call<Task>('POST', `user/site/${setup.siteId}/setting/purgeCache`, {
      urls: ['http://www.shop.example/warm.html'],
    });
    const done = await settled(`user/site/${setup.siteId}/setting/purgeCache`, task.id);
    expect(done).toMatchObject({ state: 'succeeded' });
    expect(done.nodes[0]?.results[0]).toMatchObject({ ok: true, purged: 1 });
    expect(await cacheStatus('/warm.html')).toBe('MISS');
    expect(originHits('/warm.html')).toBe(2);
  });

  it("clears the node's whole cache: the command answers once the new epoch serves", async () => {
    await cacheStatus('/kept.html');
    expect(await cacheStatus('/kept.html')).toBe('HIT');
    const [command] = await operator<Command[]>('DELETE', `client/zone/${setup.zoneId}/node/currentCache`, {
      ids: [nodeId],
    });
    const done = await finished(command as Command);
    expect(done).toMatchObject({ status: 'succeeded', message: expect.stringMatching(/^cache epoch 1 active/) });
    expect(await cacheStatus('/kept.html')).toBe('MISS');
  });
});
