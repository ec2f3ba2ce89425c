import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import type { EdgeSnapshot } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { bindFailures } from '../src/agent/plane/port-check.js';
import { NginxConfigError } from '../src/nginx/nginx-process.js';
import { startAgent, type TestAgent } from './helpers/agent.js';
import { agentRig } from './helpers/agent-rig.js';
import { document, domain, upstream } from './helpers/documents.js';
import { startEdge } from './helpers/edge.js';
import { snapshotOf } from './helpers/fake-control-plane.js';
import { letGo, streamPort, tcpAsk } from './helpers/layer4.js';
import { freePort, request } from './helpers/net.js';
import { servedBy } from './helpers/origins.js';

// A layer-4 port that another process on the node holds: the agent leaves that port out, keeps
// applying every other change, reports the port, and serves it once the other process lets go.

/** A plain listening socket on loopback, as sshd or a DNS server would hold a port. */
async function occupyTcp(port: number): Promise<Server> {
  const server = createServer((socket) => socket.end('blocker\n'));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
async function occupyUdp(port: number): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
  return socket;
}

const rig = agentRig({ origin: 'web', echo: true, controlPlanePerTest: true });

async function agentWith(snapshot: EdgeSnapshot): Promise<TestAgent> {
  rig.cp.setSnapshot(snapshot);
  return startAgent({ controlPlane: rig.cp.url, joinToken: rig.cp.joinToken, portRetryMs: 200 });
}

const sites = (version: string, names: string[]) =>
  document(
    version,
    names.map((name, i) => domain(i + 1, name, [upstream(rig.origin.port)])),
  );
const served = async (edge: TestAgent, host: string) => servedBy((await request(edge.ports.http, host)).body);

describe('a layer-4 port another process holds', () => {
  it('fails for that port only: other ports and later changes apply, the port is reported, and binds once freed', async () => {
    const [free, held] = [await freePort(), await freePort()];
    const blocker = await occupyTcp(held);
    const ports = [streamPort(1, free, rig.echo.port), streamPort(2, held, rig.echo.port)];
    const s1 = snapshotOf(sites('one', ['site.example.com']), undefined, true, undefined, ports);
    const edge = await agentWith(s1);

    const first = await rig.cp.waitForReport((r) => r.appliedVersion === s1.version);
    expect(first.lastError).toBe('');
    expect(first.failedPorts).toEqual([{ kind: 'stream', id: 2, port: held, protocol: 'tcp', error: 'EADDRINUSE' }]);
    expect(await tcpAsk(free, 'a')).toBe('echo:a');
    expect(await tcpAsk(held, 'b')).toBe('blocker\n');
    expect(await served(edge, 'site.example.com')).toBe('web');

    // Another site's change still applies while the port stays held: a new domain answers.
    const s2 = snapshotOf(sites('two', ['site.example.com', 'new.example.com']), undefined, true, undefined, ports);
    rig.cp.setSnapshot(s2);
    const second = await rig.cp.waitForReport((r) => r.appliedVersion === s2.version);
    expect(second.failedPorts).toEqual(first.failedPorts);
    expect(await served(edge, 'new.example.com')).toBe('web');

    // And so does a port change of another site (a reload).
    const other = await freePort();
    const s3 = snapshotOf(sites('three', ['site.example.com', 'new.example.com']), undefined, true, undefined, [
      ...ports,
      streamPort(3, other, rig.echo.port),
    ]);
    rig.cp.setSnapshot(s3);
    await rig.cp.waitForReport((r) => r.appliedVersion === s3.version);
    expect(await tcpAsk(other, 'c')).toBe('echo:c');

    // The holder lets go: the agent tries again by itself and serves the port, with no new snapshot.
    letGo(blocker);
    const freed = await rig.cp.waitForReport((r) => r.appliedVersion === s3.version && r.failedPorts?.length === 0);
    expect(freed.lastError).toBe('');
    expect(await tcpAsk(held, 'd')).toBe('echo:d');
    expect(await tcpAsk(free, 'e')).toBe('echo:e');
  });

  it('keeps the free protocol of a TCP+UDP port whose UDP side is held', async () => {
    const port = await freePort();
    const blocker = await occupyUdp(port);
    try {
      const s1 = snapshotOf(sites('both', ['site.example.com']), undefined, true, undefined, [
        streamPort(7, port, rig.echo.port, { protocol: 'both' }),
      ]);
      const edge = await agentWith(s1);
      const report = await rig.cp.waitForReport((r) => r.appliedVersion === s1.version);
      expect(report.failedPorts).toEqual([{ kind: 'stream', id: 7, port, protocol: 'udp', error: 'EADDRINUSE' }]);
      expect(await tcpAsk(port, 'tcp')).toBe('echo:tcp');
      expect(await served(edge, 'site.example.com')).toBe('web');
    } finally {
      blocker.close();
    }
  });
});

describe("nginx's own bind error", () => {
  it('names the port, which the agent reads to render again without it', async () => {
    const held = await freePort();
    const blocker = await occupyTcp(held);
    const edge = await startEdge();
    try {
      const err = await edge.nginx
        .reload(edge.render({ streamPorts: [streamPort(1, held, rig.echo.port)] }))
        .catch((e) => e);
      expect(err).toBeInstanceOf(NginxConfigError);
      expect(bindFailures((err as NginxConfigError).emerg)).toEqual([
        { localPort: held, error: '98: Address already in use' },
      ]);
    } finally {
      await edge.stop();
      letGo(blocker);
    }
  });
});
