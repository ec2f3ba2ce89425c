import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanUpAgents, startServingAgent } from './helpers/agent.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { letGo, streamPort, tcpAsk, tcpEcho } from './helpers/layer4.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// The agent's second line: a port that passed the bind check but that nginx still cannot bind
// (taken in between). Here the check is made to pass every port, so nginx meets the held port
// itself; the agent must read nginx's error and render again without it.
vi.mock('../src/agent/port-check.js', async (original) => ({
  ...(await original<typeof import('../src/agent/port-check.js')>()),
  unbindablePorts: async () => [],
}));

let origin: Origin;
let echo: Awaited<ReturnType<typeof tcpEcho>>;
let cp: FakeControlPlane;

beforeAll(async () => {
  origin = await startOrigin('web');
  echo = await tcpEcho('echo');
});
afterAll(async () => {
  await origin?.close();
  if (echo) letGo(echo.server);
});
afterEach(async () => {
  await cleanUpAgents();
  await cp?.close();
});

describe('a port nginx itself cannot bind', () => {
  it('is left out after nginx names it, and the rest of the change applies', async () => {
    cp = await startFakeControlPlane();
    const s1 = snapshotOf(document('one', [domain(1, 'site.example.com', [upstream(origin.port)])]));
    const edge = await startServingAgent(cp, s1, { portRetryMs: 60_000 });

    const [free, held] = [await freePort(), await freePort()];
    const blocker = createServer((socket) => socket.end('blocker\n'));
    await new Promise<void>((resolve) => blocker.listen(held, '127.0.0.1', resolve));
    try {
      const s2 = snapshotOf(
        document('two', [
          domain(1, 'site.example.com', [upstream(origin.port)]),
          domain(2, 'new.example.com', [upstream(origin.port)]),
        ]),
        undefined,
        true,
        undefined,
        [streamPort(1, free, echo.port), streamPort(2, held, echo.port)],
      );
      cp.setSnapshot(s2);
      const report = await cp.waitForReport((r) => r.appliedVersion === s2.version);
      expect(report.lastError).toBe('');
      expect(report.failedPorts).toEqual([
        { kind: 'stream', id: 2, port: held, protocol: 'tcp', error: '98: Address already in use' },
      ]);
      expect(await tcpAsk(free, 'a')).toBe('echo:a');
      expect(servedBy((await request(edge.ports.http, 'new.example.com')).body)).toBe('web');
    } finally {
      blocker.close();
      blocker.unref();
    }
  });
});
