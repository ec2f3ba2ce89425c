import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeTcp } from '../src/agent/monitoring/monitor.js';
import { cleanUpAgents, startAgent } from './helpers/agent.js';
import { type FakeControlPlane, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { freePort } from './helpers/net.js';

// The agent as a monitor node, with real sockets on loopback: the fake control plane assigns
// targets, the agent connects to them and reports.

let fakes: FakeControlPlane[] = [];
let servers: Server[] = [];

afterEach(async () => {
  await cleanUpAgents();
  await Promise.all(fakes.map((f) => f.close()));
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  fakes = [];
  servers = [];
});

async function listening(): Promise<number> {
  const server = createServer((socket) => socket.end());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return address.port;
}

describe('probes', () => {
  it('connects within the timeout to a listening port and names the failure of a closed one', async () => {
    expect(await probeTcp('127.0.0.1', await listening(), 1000)).toBeNull();
    expect(await probeTcp('127.0.0.1', await freePort(), 1000)).toBe('ECONNREFUSED');
  });

  it('reports up for a listening loopback port and down for a closed one, every interval', async () => {
    const cp = await startFakeControlPlane();
    fakes.push(cp);
    const open = await listening();
    const closed = await freePort();
    cp.setProbes([
      {
        groupId: 3,
        intervalSeconds: 1,
        timeoutSeconds: 1,
        targets: [
          { nodeId: 7, ip: '127.0.0.1', ports: [open] },
          { nodeId: 8, ip: '127.0.0.1', ports: [open, closed] },
        ],
      },
    ]);
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken });
    await edge.waitForLog('registered');
    const results = await cp.waitForProbeResults((r) => r.length >= 4, 10_000);
    const nodeId = edge.agent.nodeId;
    expect(results.slice(0, 2)).toEqual([
      { groupId: 3, nodeId: 7, ok: true, reason: '', monitorNodeId: nodeId },
      { groupId: 3, nodeId: 8, ok: false, reason: `${closed} ECONNREFUSED`, monitorNodeId: nodeId },
    ]);
    // The next round reports again.
    expect(results.slice(2, 4).map((r) => r.ok)).toEqual([true, false]);
    expect(cp.refused).toEqual([]);
  });

  it('probes nothing while the node is not a monitor node, and stops when the assignment goes', async () => {
    const cp = await startFakeControlPlane();
    fakes.push(cp);
    const open = await listening();
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, probeRefreshMs: 200 });
    await edge.waitForLog('registered');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(cp.probeResults).toEqual([]);
    cp.setProbes([
      { groupId: 1, intervalSeconds: 1, timeoutSeconds: 1, targets: [{ nodeId: 2, ip: '127.0.0.1', ports: [open] }] },
    ]);
    await cp.waitForProbeResults((r) => r.length >= 1, 30_000);
    cp.setProbes([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const count = cp.probeResults.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(cp.probeResults.length).toBe(count);
  });
});
