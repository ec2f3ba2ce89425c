import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPorts } from './helpers/agent.js';
import { type AgentProcess, buildAgentPackage, startAgentProcess } from './helpers/agent-process.js';
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
 * Node upgrade through the whole chain: the built control plane, told it is version 0.2.0-chain and
 * given a release of that version, upgrades an agent process built as 0.1.0 through the console's
 * API; the agent restarts onto the release while nginx serves the site, and the operator sees the
 * new version, the status and every stage. Needs `npm run build -w @rampart/server`.
 */

const VERSION = '0.2.0-chain';

let work: string;
let cp: ControlPlane;
let setup: OperatorSetup;
let origin: Origin;
let agent: AgentProcess | undefined;
let nodeId: number;
let httpPort: number;

interface ListedNode {
  id: number;
  version: string;
  upgradeStatus: string;
}

const operator = <T>(method: string, url: string, body?: unknown) => setup.operator.call<T>(method, url, body);
const served = async () => servedBy((await request(httpPort, 'www.shop.example')).body);
const listed = async () =>
  (await operator<ListedNode[]>('GET', 'client/nodes/initialized')).find((n) => n.id === nodeId);

beforeAll(async () => {
  work = await mkdtemp('/tmp/rampart-chain-upgrade-');
  const installed = await buildAgentPackage(path.join(work, 'install'));
  await buildAgentPackage(path.join(work, 'release'), VERSION);
  origin = await startOrigin('a');
  ({ cp, setup } = await startOperatorChain({
    RAMPART_VERSION: VERSION,
    RAMPART_AGENT_RELEASE_DIR: path.join(work, 'release'),
  }));
  const ports = await agentPorts();
  httpPort = ports.http;
  agent = startAgentProcess({
    bundle: installed,
    controlPlane: cp.url,
    joinToken: setup.joinToken,
    stateDir: path.join(work, 'state'),
    ports,
  });
  nodeId = await initializeFirstNode(setup);
  await addSiteDomain(setup, 'www.shop.example', origin.port);
  await waitUntil(async () => (await served()) === 'a', 20_000);
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await cp?.destroy();
  await origin?.close();
  if (work) await rm(work, { recursive: true, force: true });
}, 40_000);

describe('node upgrade through the whole chain', () => {
  it('upgrades the node to the control plane’s version while it serves, with every stage logged', async () => {
    expect(await operator('GET', 'client/node/latestVersion')).toEqual({ version: VERSION, available: true });
    expect(await listed()).toMatchObject({ version: '0.1.0', upgradeStatus: 'none' });

    let failures = 0;
    let polling = true;
    const load = (async () => {
      while (polling) {
        if ((await served().catch(() => null)) !== 'a') failures++;
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const [command] = await operator<{ type: string; status: string }[]>('POST', 'client/node/upgrade', {
      ids: [nodeId],
    });
    expect(command).toMatchObject({ type: 'upgrade', status: 'queued' });
    await waitUntil(async () => (await listed())?.upgradeStatus === 'succeeded', 60_000, 200);
    polling = false;
    await load;

    expect(await listed()).toMatchObject({ version: VERSION, upgradeStatus: 'succeeded' });
    const logs = await operator<{ stage: string; version: string }[]>('GET', `client/node/${nodeId}/upgrade/logs`);
    expect(logs.map((l) => l.stage).reverse()).toEqual([
      'queued',
      'downloading',
      'verified',
      'switched',
      'restarting',
      'reported',
    ]);
    expect(logs.every((l) => l.version === VERSION)).toBe(true);
    expect(failures).toBe(0);
    expect(await served()).toBe('a');
  }, 120_000);
});
