import { spawn } from 'node:child_process';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NodeApiError, NodeClient } from '../src/agent/node-api/node-client.js';
import { commandLine } from '../src/agent/process/processes.js';
import { adminRequest } from '../src/data-plane/admin-client.js';
import { NginxProcess } from '../src/nginx/nginx-process.js';
import {
  agentPorts,
  cleanUpAgents,
  makeStateDir,
  startAgent,
  startServingAgent,
  type TestAgent,
} from './helpers/agent.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// The agent against a fake control plane (test/helpers/fake-control-plane.ts) that checks signatures
// like the real one; the real control plane with this agent is covered by the whole-chain test.

const EDGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let first: Origin;
let second: Origin;
let fakes: FakeControlPlane[] = [];

beforeAll(async () => {
  [first, second] = await Promise.all([startOrigin('first'), startOrigin('second')]);
});

afterAll(async () => {
  await first?.close();
  await second?.close();
});

afterEach(async () => {
  await cleanUpAgents();
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

async function fake(): Promise<FakeControlPlane> {
  const cp = await startFakeControlPlane();
  fakes.push(cp);
  return cp;
}

function siteTo(origin: Origin, version: string, listen?: Parameters<typeof snapshotOf>[1]) {
  return snapshotOf(document(version, [domain(1, 'site.example.com', [upstream(origin.port)])]), listen);
}

async function served(edge: TestAgent): Promise<string | null> {
  return servedBy((await request(edge.ports.http, 'site.example.com')).body);
}

function mode(s: { mode: number }): string {
  return (s.mode & 0o777).toString(8);
}

describe('registration and signed requests', () => {
  it('registers once, keeps the credentials (0600) and reuses them after a restart', async () => {
    const cp = await fake();
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, heartbeatMs: 200 });
    await edge.waitForLog('registered');
    expect(cp.registrations).toEqual([{ nodeId: 1, hostname: 'edge-test', ips: ['127.0.0.1'], version: '0.1.0' }]);
    const credentialsPath = path.join(edge.stateDir, 'credentials.json');
    expect(mode(await stat(credentialsPath))).toBe('600');
    expect(JSON.parse(await readFile(credentialsPath, 'utf8'))).toEqual({
      nodeId: 1,
      nodeSecret: cp.secretOf(1),
      controlPlane: cp.url,
    });
    // The first report, then heartbeats.
    await cp.waitForReport(() => cp.reports.length >= 3, 30_000);
    expect(cp.reports[0]).toMatchObject({ nodeId: 1, version: '0.1.0', appliedVersion: '', lastError: '' });
    await edge.stop();

    // Neither the join token nor the URL is needed again: both come from credentials.json.
    const again = await startAgent({ controlPlane: null, stateDir: edge.stateDir });
    const before = cp.reports.length;
    await cp.waitForReport(() => cp.reports.length > before);
    expect(again.logs.some((e) => e.event === 'registered')).toBe(false);
    expect(cp.registrations).toHaveLength(1);
    expect(cp.refused).toEqual([]);
    expect(new Set(cp.accepted)).toEqual(
      new Set(['/api/edge/v1/status', '/api/edge/v1/snapshot', '/api/edge/v1/commands', '/api/edge/v1/probes']),
    );
  });

  it('keeps retrying a registration the control plane refuses, without spinning', async () => {
    const cp = await fake();
    const edge = await startAgent({ controlPlane: cp.url, joinToken: 'jt_wrong' });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const failures = edge.logs.filter((e) => e.event === 'register.failed');
    // Backoff 100 ms doubling (with jitter): a handful of attempts, not hundreds.
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures.length).toBeLessThanOrEqual(8);
    expect(failures[0]?.error).toMatch(/401/);
    expect(cp.registrations).toEqual([]);
  });

  it('is refused by the control plane with a wrong secret or a replayed nonce', async () => {
    const cp = await fake();
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken });
    await edge.waitForLog('registered');
    await cp.waitForReport(() => true);

    const forged = new NodeClient(cp.url, { nodeId: 1, nodeSecret: 'ns_not-the-secret' });
    const error = await forged.snapshot(null, 0).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error).toMatchObject({ status: 401, code: 101013 });
    expect(cp.refused.at(-1)).toMatchObject({ reason: 'bad signature', path: '/api/edge/v1/snapshot?wait=0' });

    // A correctly signed request is accepted once; the same headers again are a replay.
    const secret = cp.secretOf(1) ?? '';
    const body = JSON.stringify({ version: '0.1.0', appliedVersion: '', lastError: '' });
    const headers = {
      ...signedNodeHeaders({ nodeId: 1, nodeSecret: secret }, 'POST', '/api/edge/v1/status', body),
      'content-type': 'application/json',
    };
    const post = () => fetch(`${cp.url}/api/edge/v1/status`, { method: 'POST', headers, body });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(401);
    expect(cp.refused.at(-1)?.reason).toBe('replayed nonce');
    // Everything the agent itself sent passed.
    expect(cp.refused.filter((r) => r.reason !== 'replayed nonce' && r.reason !== 'bad signature')).toEqual([]);
  });
});

describe('applying snapshots', () => {
  it('applies a data-plane change without a reload, and a listen change with one', async () => {
    const cp = await fake();
    const s1 = siteTo(first, 'one');
    const edge = await startServingAgent(cp, s1);
    expect(await served(edge)).toBe('first');
    expect(await edge.waitForLog('snapshot.applied')).toMatchObject({ version: s1.version, nginx: 'started' });
    const master = await edge.agent.nginx.masterPid();
    const workers = await edge.agent.nginx.workerPids();
    expect(workers.length).toBe(1);

    const s2 = siteTo(second, 'two');
    cp.setSnapshot(s2);
    await cp.waitForReport((r) => r.appliedVersion === s2.version);
    expect(await served(edge)).toBe('second');
    expect(await edge.agent.nginx.workerPids()).toEqual(workers);
    expect(await edge.agent.nginx.masterPid()).toBe(master);
    expect(await edge.waitForLog('snapshot.applied', (e) => e.version === s2.version)).toMatchObject({
      nginx: 'none',
    });

    // HTTP/2 off changes nginx.conf: a reload (new workers, same master), data plane kept.
    const s3 = siteTo(second, 'three', { httpPorts: [80], httpsPorts: [443], http2: false });
    cp.setSnapshot(s3);
    await cp.waitForReport((r) => r.appliedVersion === s3.version);
    expect(await edge.waitForLog('snapshot.applied', (e) => e.version === s3.version)).toMatchObject({
      nginx: 'reloaded',
    });
    const after = await edge.agent.nginx.workerPids();
    expect(after.some((pid) => workers.includes(pid))).toBe(false);
    expect(await edge.agent.nginx.masterPid()).toBe(master);
    expect(await served(edge)).toBe('second');
    expect(await readFile(path.join(edge.agent.nginx.currentConfPath), 'utf8')).toContain(
      `listen 127.0.0.1:${edge.ports.https} ssl default_server;`,
    );
  });

  it('refuses an invalid snapshot, reports lastError and keeps serving the previous one', async () => {
    const cp = await fake();
    const good = siteTo(first, 'good');
    const edge = await startServingAgent(cp, good);

    // A data plane the contract refuses (not an IP literal).
    const bad = siteTo(second, 'bad');
    const badUpstream = bad.dataPlane.domains[0]?.origin?.upstreams[0];
    if (badUpstream) badUpstream.ip = '999.0.0.1';
    cp.setSnapshot({ ...bad, version: 'b'.repeat(32) });
    const report = await cp.waitForReport((r) => r.lastError !== '');
    expect(report.appliedVersion).toBe(good.version);
    expect(report.lastError).toContain('dataPlane.domains[0].origin.upstreams[0].ip');
    expect(report.lastError).toContain('b'.repeat(32));
    expect(await served(edge)).toBe('first');

    // Listen ports that collide once mapped: refused before nginx sees them.
    const clash = siteTo(second, 'clash', { httpPorts: [80, edge.ports.https], httpsPorts: [443], http2: true });
    cp.setSnapshot(clash);
    const clashReport = await cp.waitForReport((r) => r.lastError.includes(clash.version));
    expect(clashReport.lastError).toMatch(/listen\.httpPorts: port \d+ is used twice/);
    expect(clashReport.appliedVersion).toBe(good.version);
    expect(await served(edge)).toBe('first');
    expect(await readdir(path.join(edge.stateDir, 'snapshots'))).toEqual(
      expect.arrayContaining([`${good.version}.json`, `${good.version}.hmac`, 'current']),
    );
    expect(await readdir(path.join(edge.stateDir, 'snapshots'))).toHaveLength(3);
    expect((await readFile(path.join(edge.stateDir, 'snapshots/current'), 'utf8')).trim()).toBe(good.version);

    // The next good snapshot applies and clears the error.
    const next = siteTo(second, 'next');
    cp.setSnapshot(next);
    await cp.waitForReport((r) => r.appliedVersion === next.version && r.lastError === '');
    expect(await served(edge)).toBe('second');
    expect(edge.logs.filter((e) => e.event === 'snapshot.refused')).toHaveLength(2);
  });

  it('leaves out a listen port another process holds, applies the rest, and listens once it is free', async () => {
    const cp = await fake();
    const s1 = siteTo(first, 'one');
    const extra = await freePort();
    const ports = await agentPorts();
    // 80 and 8080 both map to local ports; the second one is taken when the snapshot asks for it.
    const portMap = new Map([
      [80, ports.http],
      [443, ports.https],
      [8080, extra],
    ]);
    const edge = await startServingAgent(cp, s1, { ports, portMap, portRetryMs: 200 });

    const blocker = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => blocker.listen(extra, '127.0.0.1', resolve));
    const s2 = siteTo(second, 'two', { httpPorts: [80, 8080], httpsPorts: [443], http2: true });
    cp.setSnapshot(s2);
    const report = await cp.waitForReport((r) => r.appliedVersion === s2.version);
    expect(report.lastError).toBe('');
    expect(report.failedPorts).toEqual([{ kind: 'listen', port: 8080, protocol: 'tcp', error: 'EADDRINUSE' }]);
    expect(await served(edge)).toBe('second');
    expect(await readFile(edge.agent.nginx.currentConfPath, 'utf8')).not.toContain(`:${extra} `);

    // The holder lets go: the agent tries the port again by itself and listens on it.
    blocker.close();
    blocker.unref();
    await cp.waitForReport((r) => r.appliedVersion === s2.version && r.failedPorts?.length === 0);
    expect(servedBy((await request(extra, 'site.example.com')).body)).toBe('second');
    // The site firewall's URLs carry the snapshot's (public) ports, not the local ones.
    const conf = await readFile(edge.agent.nginx.currentConfPath, 'utf8');
    expect(conf).toContain(`    ${ports.http} "http://$host$request_uri";`);
    expect(conf).toContain(`    ${extra} "http://$host:8080$request_uri";`);
    expect(conf).toContain(`    ${ports.https} "https://$host$request_uri";`);
  });

  it("applies the zone's nginx settings, and keeps serving with the error reported when nginx refuses them", async () => {
    const cp = await fake();
    const plane = document('one', [domain(1, 'site.example.com', [upstream(first.port)])]);
    const s1 = snapshotOf(plane);
    const edge = await startServingAgent(cp, s1);
    const conf = () => readFile(edge.agent.nginx.currentConfPath, 'utf8');

    const tuned = snapshotOf(plane, undefined, true, {
      worker: { workerConnections: 2048 },
      http: { keepaliveTimeoutSeconds: 20 },
      stream: {},
      custom: [{ context: 'http', name: 'gzip', args: ['on'] }],
    });
    cp.setSnapshot(tuned);
    await cp.waitForReport((r) => r.appliedVersion === tuned.version && r.lastError === '');
    expect(await conf()).toMatch(/worker_connections 2048;[\s\S]*keepalive_timeout 20s;[\s\S]*\n {2}gzip on;/);
    const version = await edge.agent.nginx.currentVersion();

    const broken = snapshotOf(plane, undefined, true, {
      ...tuned.nginx,
      custom: [{ context: 'http', name: 'gzip_comp_level', args: ['99'] }],
    });
    cp.setSnapshot(broken);
    const report = await cp.waitForReport((r) => r.lastError.includes(broken.version));
    expect(report.lastError).toMatch(/nginx -t refused the config.*\(gzip_comp_level 99;\)/);
    expect(report.appliedVersion).toBe(tuned.version);
    expect(await edge.agent.nginx.currentVersion()).toBe(version);
    expect(await served(edge)).toBe('first');

    // The operator removes the bad directive: the next snapshot applies and the error clears.
    const fixed = snapshotOf(plane, undefined, true, { ...tuned.nginx, custom: [] });
    cp.setSnapshot(fixed);
    await cp.waitForReport((r) => r.appliedVersion === fixed.version && r.lastError === '');
    // The site locations keep their own `gzip on;` (6 spaces in); the http-level directive is gone.
    expect(await conf()).not.toMatch(/\n {2}gzip on;/);
  });

  it('keeps the last 3 good snapshots on disk (0600) and points current at the newest', async () => {
    const cp = await fake();
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken });
    const versions: string[] = [];
    for (let i = 0; i < 5; i++) {
      const s = siteTo(i % 2 === 0 ? first : second, `keep-${i}`);
      versions.push(s.version);
      cp.setSnapshot(s);
      await cp.waitForReport((r) => r.appliedVersion === s.version);
    }
    const dir = path.join(edge.stateDir, 'snapshots');
    expect(mode(await stat(dir))).toBe('700');
    const files = (await readdir(dir)).sort();
    expect(files).toEqual([...versions.slice(2).flatMap((v) => [`${v}.json`, `${v}.hmac`]), 'current'].sort());
    for (const file of files) expect(mode(await stat(path.join(dir, file)))).toBe('600');
    expect((await readFile(path.join(dir, 'current'), 'utf8')).trim()).toBe(versions[4]);
    const stored = JSON.parse(await readFile(path.join(dir, `${versions[4]}.json`), 'utf8'));
    expect(stored.dataPlane.version).toBe('keep-4');
    expect(await served(edge)).toBe('first');
  });
});

describe('supervision and restarts', () => {
  it('restarts nginx when its master is killed and pushes the data plane again', async () => {
    const cp = await fake();
    const s1 = siteTo(first, 'one');
    const edge = await startServingAgent(cp, s1);
    const master = await edge.agent.nginx.masterPid();
    const workers = await edge.agent.nginx.workerPids();
    // Workers and the cache manager and loader (the edge has a proxy cache).
    const children = await edge.agent.nginx.childPids();
    expect(master).not.toBeNull();
    expect(children.length).toBeGreaterThan(workers.length);
    for (const pid of workers) expect(children).toContain(pid);

    // The master's children outlive it when it is SIGKILLed and keep the ports: the agent must
    // clear them first.
    process.kill(master ?? 0, 'SIGKILL');
    const restarted = await edge.waitForLog('nginx.restarted', () => true, 10_000);
    expect(restarted).toMatchObject({ version: s1.version, nginx: 'started', domains: 1 });
    const died = await edge.waitForLog('nginx.died');
    // The loader exits on its own after its first pass; whatever still ran was killed.
    const killed = died.killedLeftovers as number[];
    expect(children).toEqual(expect.arrayContaining(killed));
    for (const pid of workers) expect(killed).toContain(pid);
    const newMaster = await edge.agent.nginx.masterPid();
    expect(newMaster).not.toBeNull();
    expect(newMaster).not.toBe(master);
    for (const pid of children) expect(commandLine(pid)).toBe('');
    expect(await served(edge)).toBe('first');
  });

  it('notices a data plane replaced behind its back (version or content) and pushes its own again', async () => {
    const cp = await fake();
    const s1 = siteTo(first, 'one');
    const edge = await startServingAgent(cp, s1, { verifyMs: 200 });
    // The admin secret (0600) and the socket's directory (0700) in the state directory.
    expect(mode(await stat(path.join(edge.stateDir, 'admin.secret')))).toBe('600');
    expect(mode(await stat(path.join(edge.stateDir, 'admin')))).toBe('700');
    const endpoint = {
      socketPath: path.join(edge.stateDir, 'admin/admin.sock'),
      secret: (await readFile(path.join(edge.stateDir, 'admin.secret'), 'utf8')).trim(),
    };
    const active = async () => JSON.parse((await adminRequest(endpoint, 'GET', '/config/version')).text);

    // Another version: the second origin serves the site until the agent notices.
    const other = document('planted', [domain(1, 'site.example.com', [upstream(second.port)])]);
    expect((await adminRequest(endpoint, 'PUT', '/config', JSON.stringify(other))).status).toBe(200);
    const mismatch = await edge.waitForLog('dataplane.mismatch', () => true, 30_000);
    expect(mismatch).toMatchObject({ expected: s1.dataPlane.version, found: 'planted' });
    expect(await active()).toMatchObject({ version: s1.dataPlane.version });
    expect(await served(edge)).toBe('first');

    // The same version with other content: only the hash tells.
    const same = { ...s1.dataPlane, domains: [domain(1, 'site.example.com', [upstream(second.port)])] };
    expect((await adminRequest(endpoint, 'PUT', '/config', JSON.stringify(same))).status).toBe(200);
    const second_ = await edge.waitForLog('dataplane.mismatch', (e) => e.found === s1.dataPlane.version, 30_000);
    expect(second_.foundHash).not.toBe((await active()).hash);
    expect(await active()).toMatchObject({ version: s1.dataPlane.version });
    expect(await served(edge)).toBe('first');
    expect(edge.logs.filter((e) => e.event === 'dataplane.mismatch')).toHaveLength(2);
  });

  it('serves the last good snapshot after the agent and nginx restart with the control plane gone', async () => {
    const cp = await fake();
    const s1 = siteTo(first, 'one');
    const ports = await agentPorts();
    const stateDir = await makeStateDir();
    const edge = await startServingAgent(cp, s1, { stateDir, ports });
    await edge.stop();
    expect(await edge.agent.nginx.isRunning()).toBe(false);
    await expect(request(ports.http, 'site.example.com', '/', { timeoutMs: 1000 })).rejects.toThrow();
    await cp.close();

    const again = await startAgent({ controlPlane: null, stateDir, ports });
    // start() has applied the stored snapshot before it tried the control plane.
    expect(again.logs.find((e) => e.event === 'snapshot.applied')).toMatchObject({
      version: s1.version,
      source: 'disk',
      nginx: 'started',
    });
    expect(await served(again)).toBe('first');
    expect(again.agent.appliedVersion).toBe(s1.version);

    // It keeps polling the dead control plane with a growing backoff, never a tight loop.
    await again.waitForLog('control_plane.unreachable');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const failures = again.logs.filter((e) => e.event === 'poll.failed');
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures.length).toBeLessThanOrEqual(8);
    expect(await served(again)).toBe('first');
  });
});

describe('stored snapshots changed on disk', () => {
  it.each([
    ['a changed upstream', (text: string) => text.replace(/"port":\d+/, '"port":1')],
    ['a byte appended', (text: string) => `${text} `],
    ['the digest removed', null],
  ])('refuses %s on restore, reports it, and falls back to the previous good one', async (_label, edit) => {
    const cp = await fake();
    const [s1, s2] = [siteTo(first, 'one'), siteTo(second, 'two')];
    const ports = await agentPorts();
    const stateDir = await makeStateDir();
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, stateDir, ports });
    for (const s of [s1, s2]) {
      cp.setSnapshot(s);
      await cp.waitForReport((r) => r.appliedVersion === s.version);
    }
    await edge.stop();
    const file = path.join(stateDir, `snapshots/${s2.version}.json`);
    if (edit) await writeFile(file, edit(await readFile(file, 'utf8')));
    else await rm(path.join(stateDir, `snapshots/${s2.version}.hmac`));

    // The control plane answers nothing new: what serves comes from disk.
    cp.setSnapshot(s1);
    const again = await startAgent({ controlPlane: cp.url, stateDir, ports });
    expect(again.logs.find((e) => e.event === 'snapshot.stored_refused')).toMatchObject({ version: s2.version });
    expect(again.logs.find((e) => e.event === 'snapshot.applied')).toMatchObject({
      version: s1.version,
      source: 'disk',
    });
    expect(await served(again)).toBe('first');
    const report = await cp.waitForReport((r) => r.lastError.includes('stored snapshot refused'));
    expect(report.lastError).toContain(s2.version);
  });
});

describe('the command line', () => {
  it('runs rampart-edge, logs JSON lines, and exits 0 on SIGTERM with nginx stopped', async () => {
    const cp = await fake();
    const s1 = siteTo(first, 'cli');
    cp.setSnapshot(s1);
    const ports = await agentPorts();
    const stateDir = await makeStateDir();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/agent/main.ts',
        '--control-plane',
        cp.url,
        '--join-token',
        cp.joinToken,
        '--state-dir',
        stateDir,
        '--port-map',
        `80=${ports.http},443=${ports.https}`,
        // An old service file's option: accepted and ignored (the admin server is a unix socket).
        '--admin-port',
        '9180',
        '--listen-address',
        '127.0.0.1',
        '--worker-processes',
        '1',
        '--hostname',
        'cli-node',
        '--ips',
        '127.0.0.1',
      ],
      { cwd: EDGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let masterPid: number | null = null;
    try {
      await cp.waitForReport((r) => r.appliedVersion === s1.version, 20_000);
      expect(servedBy((await request(ports.http, 'site.example.com')).body)).toBe('first');
      masterPid = Number.parseInt(await readFile(path.join(stateDir, 'nginx/logs/nginx.pid'), 'utf8'), 10);
      expect(commandLine(masterPid)).toMatch(/^nginx: master process/);
      expect(cp.registrations).toMatchObject([{ hostname: 'cli-node', ips: ['127.0.0.1'] }]);
    } finally {
      child.kill('SIGTERM');
    }
    const code = await Promise.race([
      exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 15_000)),
    ]);
    if (code === 'timeout') {
      child.kill('SIGKILL');
      await new NginxProcess({ prefix: path.join(stateDir, 'nginx'), errorLogPath: '/dev/null' }).stop();
    }
    expect(code, stderr).toBe(0);
    expect(commandLine(masterPid ?? 0)).toBe('');
    const lines = stdout.trim().split('\n');
    const events = lines.map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events).toEqual(
      expect.arrayContaining([
        'agent.started',
        'registered',
        'snapshot.received',
        'snapshot.applied',
        'agent.stopping',
        'agent.stopped',
      ]),
    );
    expect(stdout).not.toContain(cp.secretOf(1));
    expect(stdout).not.toContain(cp.joinToken);
  });
});
