import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPorts, cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { freePort, request } from './helpers/net.js';
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
 * What the operator does to a zone, on the whole chain (built control plane, agent, its nginx, a
 * local origin): listen ports and nginx settings reach the node, a setting nginx refuses leaves the
 * node serving with the error shown to the operator. Needs `npm run build`.
 */

interface NodeRow {
  id: number;
  appliedVersion: string;
  currentVersion: string;
  lastError: string;
}

let cp: ControlPlane;
let setup: OperatorSetup;
let edge: TestAgent;
let origin: Origin;
let extraPort: number;
let nodeId: number;

const zone = (method: string, url: string, body?: unknown) =>
  setup.operator.call<unknown>(method, `client/zone/${setup.zoneId}/setting/${url}`, body);
const node = async () => (await setup.operator.call<NodeRow[]>('GET', 'client/nodes/initialized'))[0];
const conf = () => readFile(edge.agent.nginx.currentConfPath, 'utf8');
const served = async (port = edge.ports.http) => servedBy((await request(port, 'www.zone.example')).body);

/** Waits until the node applied what the control plane would send it now, without error. */
async function inSync(): Promise<void> {
  await waitUntil(async () => {
    const n = await node();
    return n !== undefined && n.appliedVersion === n.currentVersion && n.lastError === '';
  }, 15_000);
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  ({ cp, setup } = await startOperatorChain());
  const ports = await agentPorts();
  extraPort = await freePort();
  edge = await startAgent({
    controlPlane: cp.url,
    joinToken: setup.joinToken,
    ports,
    portMap: new Map([
      [80, ports.http],
      [443, ports.https],
      [8080, extraPort],
    ]),
  });
  nodeId = await initializeFirstNode(setup);
  await addSiteDomain(setup, 'www.zone.example', origin.port);
  await waitUntil(async () => (await served()) === 'origin', 15_000);
}, 90_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.destroy();
  await origin?.close();
});

describe("an operator's zones on the whole chain", () => {
  it('adds a listen port: the node reloads nginx and serves the sites on it too', async () => {
    await expect(request(extraPort, 'www.zone.example', '/', { timeoutMs: 500 })).rejects.toThrow();
    await zone('POST', 'ports', { ports: [{ port: 8080, portType: 'http' }] });
    await waitUntil(async () => (await served(extraPort)) === 'origin', 15_000);
    expect(await served()).toBe('origin');
    await inSync();
  });

  it("applies the zone's nginx worker and http settings once they are turned on, after nginx -t", async () => {
    await zone('PUT', 'nginx/worker', { value: { workerProcesses: 1, workerConnections: 1024 } });
    await zone('PUT', 'nginx/http', { value: { keepaliveTimeoutSeconds: 20 } });
    await inSync();
    // Stored, not applied, while the zone's nginx settings are off.
    expect(await conf()).not.toContain('worker_connections 1024;');

    const master = await edge.agent.nginx.masterPid();
    await zone('PUT', 'nginx', { enable: true });
    await waitUntil(async () => (await conf()).includes('worker_connections 1024;'), 15_000);
    expect(await conf()).toContain('keepalive_timeout 20s;');
    await inSync();
    // A reload, not a restart: the master stays, its workers are the new single one.
    expect(await edge.agent.nginx.masterPid()).toBe(master);
    await waitUntil(async () => (await edge.agent.nginx.workerPids()).length === 1, 10_000);
    expect(await served()).toBe('origin');
  });

  it('keeps serving on the running configuration when nginx refuses a custom directive, and shows the error', async () => {
    const before = await conf();
    await zone('PUT', 'nginx/custom', { value: [{ context: 'http', name: 'gzip_comp_level', args: ['99'] }] });
    await waitUntil(async () => ((await node())?.lastError ?? '').includes('gzip_comp_level 99;'), 15_000);
    const refused = await node();
    expect(refused?.lastError).toMatch(/nginx -t refused the config/);
    expect(refused?.appliedVersion).not.toBe(refused?.currentVersion);
    expect(await conf()).toBe(before);
    expect(await served()).toBe('origin');

    await zone('PUT', 'nginx/custom', { value: [{ context: 'http', name: 'gzip_comp_level', args: ['6'] }] });
    await inSync();
    expect(await conf()).toContain('  gzip_comp_level 6;');
    expect(await served()).toBe('origin');
  });

  it('returns the node to the defaults when the zone turns its nginx settings off', async () => {
    await zone('PUT', 'nginx', { enable: false });
    await waitUntil(async () => !(await conf()).includes('gzip_comp_level'), 15_000);
    expect(await conf()).toContain('worker_connections 4096;');
    await inSync();
    expect(await served()).toBe('origin');
  });

  it("moves the node to another zone: it takes that zone's ports, and serves the site again once in a group of the product", async () => {
    const zoneB = await setup.operator.call<{ id: number }>('POST', 'client/zone', { name: 'Second' });
    const groupB = await setup.operator.call<{ id: number }>('POST', `client/zone/${zoneB.id}/group`, {
      name: 'web-b',
      portType: 7,
    });
    const [product] = await setup.operator.call<{ id: number; name: string }[]>('GET', 'client/products');
    await setup.operator.call('PUT', 'client/product', {
      id: product?.id,
      name: product?.name,
      portType: 7,
      mainGroupIDs: [setup.groupId, groupB.id],
    });

    // A node in a group of its zone cannot move (202003): take it out first.
    const lineA = `client/zone/${setup.zoneId}/group/${setup.groupId}/line/default/nodes`;
    await expect(
      setup.operator.call('POST', 'client/node/moveToZone', { nodeIDs: [nodeId], zoneID: zoneB.id }),
    ).rejects.toThrow(/202003/);
    await setup.operator.call('DELETE', lineA, { nodeIDs: [nodeId] });
    await setup.operator.call('POST', 'client/node/moveToZone', { nodeIDs: [nodeId], zoneID: zoneB.id });

    // In zone B and in no group: no site, and no listener on zone A's extra port 8080.
    await waitUntil(async () => (await request(edge.ports.http, 'www.zone.example')).status === 404, 15_000);
    await waitUntil(
      async () =>
        request(extraPort, 'www.zone.example', '/', { timeoutMs: 500 }).then(
          () => false,
          () => true,
        ),
      15_000,
    );
    await inSync();

    await setup.operator.call('POST', `client/zone/${zoneB.id}/group/${groupB.id}/line/default/nodes`, {
      nodeIDs: [nodeId],
    });
    await waitUntil(async () => (await served()) === 'origin', 15_000);
    const [row] = await setup.operator.call<{ zoneName: string; groups: { name: string }[] }[]>(
      'GET',
      'client/nodes/initialized',
    );
    expect(row).toMatchObject({ zoneName: 'Second', groups: [{ name: 'web-b' }] });
  });
});
