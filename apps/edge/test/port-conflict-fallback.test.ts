import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { startServingAgent } from './helpers/agent.js';
import { agentRig } from './helpers/agent-rig.js';
import { document, domain, upstream } from './helpers/documents.js';
import { snapshotOf } from './helpers/fake-control-plane.js';
import { streamPort, tcpAsk } from './helpers/layer4.js';
import { freePort, request } from './helpers/net.js';
import { servedBy } from './helpers/origins.js';

// The agent's second line: a port that passed the bind check but that nginx still cannot bind
// (taken in between). Here the check is made to pass every port, so nginx meets the held port
// itself; the agent must read nginx's error and render again without it.
vi.mock('../src/agent/plane/port-check.js', async (original) => ({
  ...(await original<typeof import('../src/agent/plane/port-check.js')>()),
  unbindablePorts: async () => [],
}));

const rig = agentRig({ origin: 'web', echo: true, controlPlanePerTest: true });

describe('a port nginx itself cannot bind', () => {
  it('is left out after nginx names it, and the rest of the change applies', async () => {
    const s1 = snapshotOf(document('one', [domain(1, 'site.example.com', [upstream(rig.origin.port)])]));
    const edge = await startServingAgent(rig.cp, s1, { portRetryMs: 60_000 });

    const [free, held] = [await freePort(), await freePort()];
    const blocker = createServer((socket) => socket.end('blocker\n'));
    await new Promise<void>((resolve) => blocker.listen(held, '127.0.0.1', resolve));
    try {
      const s2 = snapshotOf(
        document('two', [
          domain(1, 'site.example.com', [upstream(rig.origin.port)]),
          domain(2, 'new.example.com', [upstream(rig.origin.port)]),
        ]),
        undefined,
        true,
        undefined,
        [streamPort(1, free, rig.echo.port), streamPort(2, held, rig.echo.port)],
      );
      rig.cp.setSnapshot(s2);
      const report = await rig.cp.waitForReport((r) => r.appliedVersion === s2.version);
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
