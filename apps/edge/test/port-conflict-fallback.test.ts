import { connect, createServer, type Server } from 'node:net';
import type { EdgeSnapshot, EdgeStreamPort } from '@rampart/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanUpAgents, startAgent } from './helpers/agent.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// The agent's second line: a port that passed the bind check but that nginx still cannot bind
// (taken in between). Here the check is made to pass every port, so nginx meets the held port
// itself; the agent must read nginx's error and render again without it.
vi.mock('../src/agent/port-check.js', async (original) => ({
  ...(await original<typeof import('../src/agent/port-check.js')>()),
  unbindablePorts: async () => [],
}));

function tcpAsk(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.setTimeout(5000, () => socket.destroy(new Error('tcp answer timed out')));
    socket.once('data', (d) => {
      resolve(d.toString());
      socket.end();
    });
    socket.once('error', reject);
  });
}

const streamPort = (id: number, port: number, to: number): EdgeStreamPort => ({
  id,
  port,
  protocol: 'tcp',
  balance: 'round_robin',
  upstreams: [{ ip: '127.0.0.1', port: to, weight: 1, backup: false }],
});
const LISTEN: EdgeSnapshot['listen'] = { httpPorts: [80], httpsPorts: [443], http2: true };
const NGINX: EdgeSnapshot['nginx'] = { worker: {}, http: {}, stream: {}, custom: [] };

let origin: Origin;
let echo: Server;
let echoPort: number;
let cp: FakeControlPlane;

beforeAll(async () => {
  origin = await startOrigin('web');
  echoPort = await freePort();
  echo = createServer((socket) => socket.on('data', (d) => socket.write(`echo:${d.toString()}`)));
  await new Promise<void>((resolve) => echo.listen(echoPort, '127.0.0.1', resolve));
});
afterAll(async () => {
  await origin?.close();
  echo?.close();
  echo?.unref();
});
afterEach(async () => {
  await cleanUpAgents();
  await cp?.close();
});

describe('a port nginx itself cannot bind', () => {
  it('is left out after nginx names it, and the rest of the change applies', async () => {
    cp = await startFakeControlPlane();
    const s1 = snapshotOf(document('one', [domain(1, 'site.example.com', [upstream(origin.port)])]), LISTEN);
    cp.setSnapshot(s1);
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, portRetryMs: 60_000 });
    await cp.waitForReport((r) => r.appliedVersion === s1.version);

    const [free, held] = [await freePort(), await freePort()];
    const blocker = createServer((socket) => socket.end('blocker\n'));
    await new Promise<void>((resolve) => blocker.listen(held, '127.0.0.1', resolve));
    try {
      const s2 = snapshotOf(
        document('two', [
          domain(1, 'site.example.com', [upstream(origin.port)]),
          domain(2, 'new.example.com', [upstream(origin.port)]),
        ]),
        LISTEN,
        true,
        NGINX,
        [streamPort(1, free, echoPort), streamPort(2, held, echoPort)],
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
