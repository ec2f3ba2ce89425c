import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import {
  addSiteDomain,
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  startControlPlane,
  startOperatorChain,
  waitUntil,
} from './helpers/real-control-plane.js';

/**
 * Traffic analytics through the whole chain: requests through a real edge node (the agent and its
 * nginx) reach the built control plane's statistics (embedded DuckDB) once each — also when the
 * control plane was away while traffic flowed, and when it was killed while batches were arriving.
 * Needs `npm run build`.
 */

let cp: ControlPlane;
let setup: OperatorSetup;
let edge: TestAgent;
let origin: Origin;
let cpPort: number;
const HOST = 'www.stats.test';
let sent = 0;

async function burst(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await request(edge.ports.http, HOST, `/page/${i % 7}?n=${i}`);
    expect(res.status).toBe(200);
    sent++;
  }
}

const lastHour = () => ({
  startTime: new Date(Date.now() - 3600_000).toISOString(),
  endTime: new Date(Date.now() + 60_000).toISOString(),
});
const userRequests = async () =>
  (await setup.customer.call<{ requests: number }>('POST', 'user/statistics/info', { ...lastHour(), type: 3 }))
    .requests;
const operatorRequests = async () =>
  (await setup.operator.call<{ requests: number }>('POST', 'client/statistics/info', { ...lastHour(), type: 3 }))
    .requests;

/** Waits until the customer's request card says `expected`, and checks it stays there (no double count). */
async function expectCounted(expected: number, timeoutMs: number): Promise<void> {
  let seen = -1;
  await waitUntil(
    async () => {
      seen = await userRequests();
      return seen >= expected;
    },
    timeoutMs,
    250,
  ).catch(() => {
    throw new Error(`statistics show ${seen} requests, expected ${expected}`);
  });
  await new Promise((r) => setTimeout(r, 1500));
  expect(await userRequests()).toBe(expected);
}

beforeAll(async () => {
  origin = await startOrigin('stats');
  cpPort = await freePort();
  ({ cp, setup } = await startOperatorChain({ PORT: String(cpPort) }));
  edge = await startAgent({ controlPlane: cp.url, joinToken: setup.joinToken });
  await initializeFirstNode(setup);
  await addSiteDomain(setup, HOST, origin.port);
  // Requests before the domain reaches the node are 404s of no site: not counted for the shop.
  await waitUntil(async () => (await request(edge.ports.http, HOST)).status === 200, 30_000, 100);
  sent = 1;
}, 120_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.destroy();
  await origin?.close();
});

describe('edge traffic in the statistics', () => {
  it("shows in the customer's and the operator's statistics within a minute, each request once", async () => {
    await burst(40);
    await expectCounted(sent, 60_000);
    expect(await operatorRequests()).toBe(sent);
    // The counters may all arrive in partials; the top lists ship with the minute's close (at most a
    // minute and the grace later).
    const topUrls = () =>
      setup.customer.call<{ key: string; requests: number }[]>('POST', 'user/statistics/top', {
        ...lastHour(),
        type: 19,
        top: 10,
      });
    let top = await topUrls();
    await waitUntil(
      async () => {
        top = await topUrls();
        return top.reduce((n, row) => n + row.requests, 0) >= sent;
      },
      120_000,
      500,
    ).catch(() => undefined);
    expect(top.reduce((n, row) => n + row.requests, 0)).toBe(sent);
    expect(top.find((row) => row.key === '/page/0')?.requests).toBe(6);
  }, 200_000);

  it('counts what flowed while the control plane was stopped, once', async () => {
    await cp.stop();
    await burst(30);
    cp = await startControlPlane(cp.dataDir, { PORT: String(cpPort) });
    await expectCounted(sent, 90_000);
  }, 150_000);

  it('loses and doubles nothing when the control plane is killed while batches arrive', async () => {
    await burst(25);
    // Batches are cut every second: kill it while the agent is shipping them.
    await new Promise((r) => setTimeout(r, 900));
    await cp.kill();
    await burst(25);
    cp = await startControlPlane(cp.dataDir, { PORT: String(cpPort) });
    await expectCounted(sent, 90_000);
  }, 150_000);
});
