import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPorts, cleanUpAgents, makeStateDir, startAgent, type TestAgent } from './helpers/agent.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import {
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  startOperatorChain,
  waitUntil,
} from './helpers/real-control-plane.js';

/**
 * The data plane as entries through the whole chain (docs/data-plane-deltas.md): the built control
 * plane answers the node's plane as deltas, the agent keeps them on disk and pushes only what
 * changed; the snapshot it polls carries no data plane. Needs `npm run build`.
 */

let cp: ControlPlane;
let setup: OperatorSetup;
let edge: TestAgent;
let a: Origin;
let b: Origin;
let stateDir: string;
let ports: Awaited<ReturnType<typeof agentPorts>>;

const site = (method: string, url: string, body?: unknown) =>
  setup.customer.call<unknown>(method, `user/site/${setup.siteId}/${url}`, body);

async function served(host: string): Promise<string | null> {
  const answer = await request(edge.ports.http, host).catch(() => null);
  return answer && answer.status === 200 ? servedBy(answer.body) : null;
}

beforeAll(async () => {
  [a, b] = await Promise.all([startOrigin('a'), startOrigin('b')]);
  ({ cp, setup } = await startOperatorChain());
  stateDir = await makeStateDir();
  ports = await agentPorts();
  edge = await startAgent({ controlPlane: cp.url, joinToken: setup.joinToken, stateDir, ports });
  await initializeFirstNode(setup);
}, 90_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.destroy();
  await Promise.all([a, b].map((o) => o?.close()));
});

describe('the data plane as entries, end to end', () => {
  let ids: number[] = [];

  it('serves domains added through the API, each change arriving as a delta of the records it touched', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `d${i}.plane.example`);
    ids = (
      (await site('POST', 'domains', {
        domains: names.map((name) => ({ name, upstreams: [{ ip: '127.0.0.1', port: a.port }] })),
      })) as { id: number }[]
    ).map((d) => d.id);
    await waitUntil(async () => (await served('d19.plane.example')) === 'a', 15_000);

    const started = Date.now();
    await site('PUT', 'domain', { id: ids[3], upstreams: [{ ip: '127.0.0.1', port: b.port }], certificateID: 0 });
    await waitUntil(async () => (await served('d3.plane.example')) === 'b', 5000, 10);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await served('d4.plane.example')).toBe('a');
    const delta = await edge.waitForLog(
      'plane.applied',
      (e) => String(e.answer).startsWith('delta') && e.records === 1,
    );
    expect(delta.answer).toMatch(/\(1 changes\)/);
    // The snapshots it polls carry no data plane.
    const received = edge.logs.filter((e) => e.event === 'snapshot.received');
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((e) => e.domains === 0)).toBe(true);
  });

  it('resumes from the plane on disk after a restart, and takes what changed meanwhile as a delta', async () => {
    await edge.stop();
    await site('PUT', 'domain', { id: ids[5], upstreams: [{ ip: '127.0.0.1', port: b.port }], certificateID: 0 });
    edge = await startAgent({ controlPlane: cp.url, stateDir, ports });
    const restored = edge.logs.find((e) => e.event === 'plane.restored');
    expect(restored).toBeDefined();
    await waitUntil(async () => (await served('d5.plane.example')) === 'b', 10_000);
    expect(await served('d3.plane.example')).toBe('b');
    expect(await served('d6.plane.example')).toBe('a');
    const taken = edge.logs.filter((e) => e.event === 'plane.applied').map((e) => String(e.answer));
    expect(taken.some((answer) => answer.startsWith(`delta ${String(restored?.to)} `))).toBe(true);
    expect(taken.some((answer) => answer.startsWith('full'))).toBe(false);
  });

  it('drops a deleted domain from the node', async () => {
    await site('DELETE', 'domains', { ids: [ids[7]] });
    await waitUntil(async () => (await request(edge.ports.http, 'd7.plane.example')).status === 404, 30_000);
    expect(await served('d8.plane.example')).toBe('a');
  });
});
