/**
 * bench:edge's first edge: the real control plane (built bundle, embedded PGlite or a throw-away
 * PostgreSQL) and the real agent (built bundle) running its own nginx, and the bench's domains and
 * rule mix created through the API.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../apps/edge/test/helpers/net.js';
import {
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  setUpOperator,
  stopProcess,
  waitUntil,
} from '../../apps/edge/test/helpers/real-control-plane.js';
import { startCluster } from '../../apps/server/test/helpers/pg-cluster.js';
import { startBenchControlPlane } from '../control-plane.js';
import { get, log } from './load.js';
import { addRuleMix } from './rules.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const AGENT = path.join(ROOT, 'apps/edge/dist/rampart-edge.js');

export type AgentLogEntry = { event: string; ms?: number; pid?: number; time: string };

export interface AgentEdge {
  cp: ControlPlane;
  setup: OperatorSetup;
  agent: ChildProcess;
  /** The agent's JSON log lines so far. */
  agentLog: AgentLogEntry[];
  edgeHttp: number;
  /** PostgreSQL's postmaster (BENCH_DATABASE=postgres), or null with the embedded PGlite. */
  postmaster: number | null;
}

/** Starts the control plane and the agent under `work`; pushes their stops onto `stops`. */
export async function startAgentEdge(
  work: string,
  workers: number,
  stops: (() => Promise<void>)[],
): Promise<AgentEdge> {
  const [edgeHttp, edgeHttps, adminPort] = [await freePort(), await freePort(), await freePort()];
  log('starting the control plane');
  // BENCH_DATABASE=postgres: the control plane on a throw-away PostgreSQL cluster (its own processes,
  // their CPU reported apart) instead of the embedded PGlite.
  let postmaster: number | null = null;
  const env: Record<string, string> = {};
  // The embedded database's vacuum (default 60 s; 0 turns it off, for an A/B of it).
  if (process.env.RAMPART_EMBEDDED_VACUUM_TICK_MS !== undefined)
    env.RAMPART_EMBEDDED_VACUUM_TICK_MS = process.env.RAMPART_EMBEDDED_VACUUM_TICK_MS;
  if (process.env.BENCH_DATABASE === 'postgres') {
    log('starting PostgreSQL');
    const cluster = await startCluster();
    stops.push(async () => cluster.stop());
    env.DATABASE_URL = cluster.url;
    postmaster = Number((await readFile(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  }
  // BENCH_CP_PROFILE, BENCH_CP_NODE_OPTIONS: see startBenchControlPlane.
  const cp = await startBenchControlPlane(path.join(work, 'control-plane'), env, stops);
  const setup = await setUpOperator(cp);

  log('starting the agent');
  const agent = spawn(
    process.execPath,
    [
      AGENT,
      '--control-plane',
      cp.url,
      '--join-token',
      setup.joinToken,
      '--state-dir',
      path.join(work, 'edge'),
      '--admin-port',
      String(adminPort),
      '--port-map',
      `80=${edgeHttp},443=${edgeHttps}`,
      '--listen-address',
      '127.0.0.1',
      '--hostname',
      'bench-edge',
      '--ips',
      '127.0.0.1',
      '--worker-processes',
      String(workers),
      // The bench runs on the host: the agent leaves the host's firewall alone (the plain
      // nginx it is compared with has none either; bench:l4-flood measures the kernel's part).
      '--l4-firewall',
      'off',
      // No node exporter (its fixed port would collide with another agent on the machine).
      '--metrics-port',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // The agent's JSON log: BENCH_PROFILE=1 prints how long each apply of the propagation phase took.
  const agentLog: AgentLogEntry[] = [];
  let partial = '';
  agent.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) agentLog.push(JSON.parse(line));
  });
  stops.push(async () => {
    await stopProcess(agent);
    // A stopped agent leaves its nginx serving (on a node an agent restart must not drop traffic):
    // stop that nginx too, or a failed run leaves it behind.
    const pidFile = path.join(work, 'edge', 'nginx', 'logs', 'nginx.pid');
    const nginxPid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
    if (nginxPid > 0) {
      try {
        process.kill(nginxPid, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
  });
  await initializeFirstNode(setup);

  return { cp, setup, agent, agentLog, edgeHttp, postmaster };
}

export interface BenchDomains {
  siteIds: number[];
  /** Domain i's id (named by `name(i)`). */
  domainIds: number[];
  createMs: number;
}

/**
 * The sites: the setup's and `sites` - 1 more of the same customer and product; `domains` domains,
 * domain i of site i % sites, each site with the rule mix when `rules`; waits until the edge serves
 * them all (and, with the rules, until the mix is built and applied).
 */
export async function createDomains(
  { setup, edgeHttp }: AgentEdge,
  originPort: number,
  domains: number,
  sites: number,
  rules: boolean,
  name: (i: number) => string,
): Promise<BenchDomains> {
  const siteIds = [setup.siteId];
  for (let k = 1; k < sites; k++) {
    const made = await setup.operator.call<{ siteID: number }>('POST', 'client/site', {
      siteName: `bench ${k}`,
      userID: setup.userId,
      productID: setup.productId,
    });
    siteIds.push(made.siteID);
  }
  log(`creating ${domains} domains on ${sites} sites`);
  const domainIds: number[] = [];
  const started = Date.now();
  for (const [k, siteId] of siteIds.entries()) {
    const mine: number[] = [];
    for (let i = k; i < domains; i += sites) mine.push(i);
    for (let from = 0; from < mine.length; from += 500) {
      const batch = mine
        .slice(from, from + 500)
        .map((i) => ({ name: name(i), upstreams: [{ ip: '127.0.0.1', port: originPort }] }));
      const made = await setup.customer.call<{ id: number; name: string }[]>('POST', `user/site/${siteId}/domains`, {
        domains: batch,
      });
      for (const d of made) domainIds[Number(/^d(\d+)\./.exec(d.name)?.[1])] = d.id;
    }
  }
  const createMs = Date.now() - started;
  if (rules) {
    log(`adding the rule mix to ${sites} sites`);
    for (const [k, siteId] of siteIds.entries()) await addRuleMix(setup.customer, siteId, k, domainIds, sites);
  }
  log(`created in ${createMs} ms; waiting for the edge to serve them`);
  // The planes may still be building when the last call returns (each rule of a site rebuilds the
  // site): whatever is left is built and applied here, and how long that took is logged.
  const serving = Date.now();
  await waitUntil(async () => (await get(edgeHttp, name(domains - 1))) === 200, 1_800_000, 100);
  log(`the edge served the last domain ${Date.now() - serving} ms later`);
  if ((await get(edgeHttp, name(0))) !== 200) throw new Error('the edge does not serve the first domain');
  if (rules) {
    // The rule mix's site rebuilds may still be under way (the last domain existed before them): a
    // change made after them all, seen at the edge, says they are built and applied, so that the
    // propagation below is measured from a settled plane, not behind the mix.
    const settling = Date.now();
    const last = domains - 1;
    const lastSite = siteIds[last % sites] as number;
    for (const forceSSL of [true, false]) {
      await setup.customer.call('PATCH', `user/site/${lastSite}/domain/setting/forceSSL`, {
        domainIDs: [domainIds[last]],
        forceSSL,
      });
      await waitUntil(async () => (await get(edgeHttp, name(last))) === (forceSSL ? 301 : 200), 1_800_000, 100);
    }
    log(`the rule mix was built and applied ${Date.now() - settling} ms later`);
  }
  return { siteIds, domainIds, createMs };
}
