import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commandLine } from '../src/agent/process/processes.js';
import { NginxProcess } from '../src/nginx/nginx-process.js';
import { type AgentPorts, agentPorts, cleanUpAgents, makeStateDir, startAgent } from './helpers/agent.js';
import { alive } from './helpers/agent-process.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// One agent per state directory: a second agent on the same --state-dir refuses to start (exit 3)
// and leaves the first one and its nginx alone; a dead agent's lock does not block the next one.

const EDGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let origin: Origin;
let cp: FakeControlPlane;
const children: ChildProcess[] = [];
const stateDirs: string[] = [];

beforeAll(async () => {
  origin = await startOrigin('first');
});
afterAll(async () => {
  await origin?.close();
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const dir of stateDirs.splice(0)) {
    await new NginxProcess({ prefix: path.join(dir, 'nginx'), errorLogPath: '/dev/null' }).stop();
  }
  await cleanUpAgents();
  await cp?.close();
});

interface Run {
  child: ChildProcess;
  lines: () => { event: string; [key: string]: unknown }[];
  exited: Promise<number | null>;
}

/**
 * `rampart-edge` (the sources, through tsx) as its own process on `stateDir`; `ownGroup` starts it
 * in a process group of its own, as a shell does for a foreground command.
 */
function runAgent(stateDir: string, ports: AgentPorts, ownGroup = false): Run {
  const child = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', 'src/agent/main.ts'],
      ...['--control-plane', cp.url, '--join-token', cp.joinToken, '--state-dir', stateDir],
      ...['--port-map', `80=${ports.http},443=${ports.https}`, '--listen-address', '127.0.0.1'],
      ...['--worker-processes', '1', '--hostname', 'lock-node', '--ips', '127.0.0.1'],
      // Never the host's kernel firewall: the layer-4 tests run it inside their own namespaces.
      ...['--l4-firewall', 'off'],
    ],
    { cwd: EDGE_DIR, stdio: ['ignore', 'pipe', 'inherit'], detached: ownGroup },
  );
  children.push(child);
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = () =>
    stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
  return { child, lines, exited };
}

async function masterPid(stateDir: string): Promise<number> {
  return Number.parseInt(await readFile(path.join(stateDir, 'nginx/logs/nginx.pid'), 'utf8'), 10);
}

async function served(ports: AgentPorts): Promise<string | null> {
  return servedBy((await request(ports.http, 'site.example.com')).body);
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  return Promise.race([promise, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))]);
}

describe('the state directory lock', () => {
  it('refuses a second agent on the same state directory, leaves the first serving, and lets a new one start after kill -9', async () => {
    cp = await startFakeControlPlane();
    const snapshot = snapshotOf(document('lock', [domain(1, 'site.example.com', [upstream(origin.port)])]));
    cp.setSnapshot(snapshot);
    const stateDir = await makeStateDir();
    stateDirs.push(stateDir);
    const ports = await agentPorts();

    const one = runAgent(stateDir, ports);
    await cp.waitForReport((r) => r.appliedVersion === snapshot.version, 20_000);
    expect(await served(ports)).toBe('first');
    const master = await masterPid(stateDir);
    expect((await readFile(path.join(stateDir, 'agent.lock'), 'utf8')).trim()).toBe(String(one.child.pid));

    // A second agent on the same directory (other ports, so only the lock can stop it).
    const two = runAgent(stateDir, await agentPorts());
    expect(await within(two.exited, 20_000)).toBe(3);
    const refused = two.lines().find((l) => l.event === 'agent.state_locked');
    expect(refused?.error).toContain(`is in use by another rampart-edge agent (process ${one.child.pid})`);
    expect(two.lines().some((l) => l.event === 'agent.started' || l.event === 'snapshot.applied')).toBe(false);
    // The first agent and its nginx are untouched.
    expect(alive(one.child.pid ?? 0)).toBe(true);
    expect(await masterPid(stateDir)).toBe(master);
    expect(commandLine(master)).toMatch(/^nginx: master process/);
    expect(await served(ports)).toBe('first');
    expect(cp.registrations).toHaveLength(1);

    // kill -9: nginx keeps serving, and the dead agent's lock does not block the next one.
    one.child.kill('SIGKILL');
    await one.exited;
    expect(await served(ports)).toBe('first');
    const before = cp.reports.length;
    const three = runAgent(stateDir, ports);
    await cp.waitForReport(() => cp.reports.length > before, 20_000);
    expect(three.lines().some((l) => l.event === 'agent.started')).toBe(true);
    expect(three.lines().some((l) => l.event === 'agent.state_locked')).toBe(false);
    expect((await readFile(path.join(stateDir, 'agent.lock'), 'utf8')).trim()).toBe(String(three.child.pid));
    // It adopted the running nginx (no second master) and serves.
    expect(await masterPid(stateDir)).toBe(master);
    expect(await served(ports)).toBe('first');

    three.child.kill('SIGTERM');
    expect(await within(three.exited, 15_000)).toBe(0);
    expect(commandLine(master)).toBe('');
  });

  it("stops cleanly on a terminal's Ctrl-C (SIGINT to its whole process group): the lock is the agent's to release", async () => {
    cp = await startFakeControlPlane();
    const snapshot = snapshotOf(document('ctrlc', [domain(1, 'site.example.com', [upstream(origin.port)])]));
    cp.setSnapshot(snapshot);
    const stateDir = await makeStateDir();
    stateDirs.push(stateDir);
    const ports = await agentPorts();
    const run = runAgent(stateDir, ports, true);
    await cp.waitForReport((r) => r.appliedVersion === snapshot.version, 20_000);
    const master = await masterPid(stateDir);
    process.kill(-(run.child.pid ?? 0), 'SIGINT');
    expect(await within(run.exited, 15_000)).toBe(0);
    // The lock helper is not in the agent's group, so it did not die before the agent stopped.
    expect(run.lines().some((l) => l.event === 'agent.lock_lost')).toBe(false);
    expect(run.lines().some((l) => l.event === 'agent.stopped')).toBe(true);
    expect(commandLine(master)).toBe('');
  });

  it('frees the lock on stop, so the same directory starts again at once (in one process)', async () => {
    cp = await startFakeControlPlane();
    const snapshot = snapshotOf(document('inproc', [domain(1, 'site.example.com', [upstream(origin.port)])]));
    cp.setSnapshot(snapshot);
    const stateDir = await makeStateDir();
    const ports = await agentPorts();
    const first = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, stateDir, ports, lockWaitMs: 0 });
    await cp.waitForReport((r) => r.appliedVersion === snapshot.version);
    // Refused; and the refused agent's stop (the helper stops it) leaves the holder's nginx serving.
    await expect(
      startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, stateDir, ports, lockWaitMs: 0 }),
    ).rejects.toThrow(/is in use by another rampart-edge agent/);
    expect(await first.agent.nginx.isRunning()).toBe(true);
    expect(await served(ports)).toBe('first');
    await first.stop();
    const again = await startAgent({ controlPlane: cp.url, stateDir, ports, lockWaitMs: 0 });
    expect(again.agent.nodeId).toBe(1);
    expect(await served(ports)).toBe('first');
  });
});
