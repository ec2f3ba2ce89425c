import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { ReleaseManifest } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPorts } from './helpers/agent.js';
import { document, domain, upstream } from './helpers/documents.js';
import { LUA_DIR } from './helpers/edge.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// The agent upgrade end to end with real processes and real nginx: the installed agent (a bundle
// built as 0.1.0) runs with --self-restart; the fake control plane serves a release built as
// 0.2.0-test. A tampered file is refused and the old release keeps running; the good release is
// verified, switched to and restarted onto while nginx keeps serving, and the node then reports
// the new version.

const run = promisify(execFile);
const EDGE_DIR = path.resolve(LUA_DIR, '..');
const NEW_VERSION = '0.2.0-test';

let work: string;
let origin: Origin;
let cp: FakeControlPlane;
let release: { manifest: ReleaseManifest; files: Map<string, Buffer> };
const pids = new Set<number>();
const children: ChildProcess[] = [];

async function build(outfile: string, version?: string): Promise<void> {
  await run(process.execPath, ['build.mjs', outfile], {
    cwd: EDGE_DIR,
    env: { ...process.env, ...(version ? { RAMPART_EDGE_VERSION: version } : {}) },
    timeout: 60_000,
  });
}

async function luaFiles(dir: string, prefix = 'lua'): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await luaFiles(path.join(dir, entry.name), relative)));
    else if (entry.isFile()) found.push(relative);
  }
  return found;
}

beforeAll(async () => {
  work = await mkdtemp('/tmp/rampart-upgrade-');
  await mkdir(path.join(work, 'install/dist'), { recursive: true });
  await symlink(LUA_DIR, path.join(work, 'install/lua'));
  await build(path.join(work, 'install/dist/rampart-edge.js'));
  await build(path.join(work, 'release/dist/rampart-edge.js'), NEW_VERSION);
  const files = new Map<string, Buffer>();
  files.set('dist/rampart-edge.js', await readFile(path.join(work, 'release/dist/rampart-edge.js')));
  for (const file of await luaFiles(LUA_DIR)) files.set(file, await readFile(path.join(EDGE_DIR, file)));
  release = {
    manifest: {
      version: NEW_VERSION,
      files: [...files].map(([p, bytes]) => ({
        path: p,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      })),
    },
    files,
  };
  origin = await startOrigin('upgraded');
  cp = await startFakeControlPlane();
}, 120_000);

afterAll(async () => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Gone already.
    }
  }
  await eventually(async () => [...pids].every((pid) => !alive(pid)), 15_000).catch(() => {
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  const nginxPid = await readFile(path.join(work, 'state/nginx/logs/nginx.pid'), 'utf8').catch(() => '');
  if (nginxPid.trim() !== '' && alive(Number(nginxPid))) process.kill(Number(nginxPid), 'SIGQUIT');
  await cp?.close();
  await origin?.close();
  await rm(work, { recursive: true, force: true });
}, 30_000);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('agent upgrade', () => {
  it('refuses a tampered release, then switches to a good one and restarts onto it while nginx serves', async () => {
    const ports = await agentPorts();
    const stateDir = path.join(work, 'state');
    const snapshot = snapshotOf(document('one', [domain(1, 'site.example.com', [upstream(origin.port)])]));
    cp.setSnapshot(snapshot);
    const agent = spawn(
      process.execPath,
      [
        path.join(work, 'install/dist/rampart-edge.js'),
        ...['--control-plane', cp.url, '--join-token', cp.joinToken, '--state-dir', stateDir],
        ...['--port-map', `80=${ports.http},443=${ports.https}`, '--admin-port', String(ports.admin)],
        ...['--listen-address', '127.0.0.1', '--ips', '127.0.0.1', '--hostname', 'edge-upgrade'],
        ...['--worker-processes', '1', '--self-restart'],
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(agent);
    if (agent.pid) pids.add(agent.pid);
    const lines: Record<string, unknown>[] = [];
    createInterface({ input: agent.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      try {
        lines.push(JSON.parse(line));
      } catch {
        // Not a log line.
      }
    });
    await cp.waitForReport((r) => r.appliedVersion === snapshot.version && r.version === '0.1.0', 30_000);
    const served = async () => servedBy((await request(ports.http, 'site.example.com')).body);
    expect(await served()).toBe('upgraded');

    // A file that differs from its manifest entry: nothing is switched, the old agent runs on.
    const tampered = new Map(release.files);
    tampered.set(
      'lua/rampart/init.lua',
      Buffer.from('-- tampered\n'.padEnd(release.files.get('lua/rampart/init.lua')?.length ?? 0)),
    );
    cp.setRelease({ manifest: release.manifest, files: tampered });
    cp.queueCommand({ id: 1, type: 'upgrade', payload: { version: NEW_VERSION } });
    const refused = await cp.waitForResult(1, 30_000);
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/lua\/rampart\/init\.lua: SHA-256 .* differs/);
    await expect(access(path.join(stateDir, 'releases/current'))).rejects.toThrow();
    expect((await readdir(path.join(stateDir, 'releases'))).filter((n) => n.startsWith('.staging'))).toEqual([]);
    expect(cp.progress.map((p) => p.stage)).toEqual(['downloading']);
    expect(await served()).toBe('upgraded');
    expect(alive(agent.pid ?? 0)).toBe(true);

    const masterBefore = (await readFile(path.join(stateDir, 'nginx/logs/nginx.pid'), 'utf8')).trim();
    // The good release, with requests going on all the while.
    cp.setRelease(release);
    let failures = 0;
    let requests = 0;
    let polling = true;
    const load = (async () => {
      while (polling) {
        requests++;
        if ((await served().catch(() => null)) !== 'upgraded') failures++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    cp.queueCommand({ id: 2, type: 'upgrade', payload: { version: NEW_VERSION } });
    const result = await cp.waitForResult(2, 60_000);
    expect(result).toMatchObject({ ok: true, message: `switched to ${NEW_VERSION}; restarting onto it` });
    const report = await cp.waitForReport((r) => r.version === NEW_VERSION, 30_000);
    expect(report.appliedVersion).toBe(snapshot.version);
    expect(report.lastError).toBe('');
    await new Promise((r) => setTimeout(r, 500));
    polling = false;
    await load;

    const restarting = lines.find((l) => l.event === 'agent.restarting');
    const newPid = Number(restarting?.pid);
    expect(newPid).toBeGreaterThan(0);
    pids.add(newPid);
    expect(cp.progress.filter((p) => p.commandId === 2).map((p) => p.stage)).toEqual([
      'downloading',
      'verified',
      'switched',
    ]);
    expect(await readlink(path.join(stateDir, 'releases/current'))).toBe(NEW_VERSION);
    expect(lines.some((l) => l.event === 'agent.handoff' && l.from === '0.1.0')).toBe(true);
    // The new agent adopted the running nginx and reloaded it onto its release's Lua package.
    expect((await readFile(path.join(stateDir, 'nginx/logs/nginx.pid'), 'utf8')).trim()).toBe(masterBefore);
    expect(lines.some((l) => l.event === 'snapshot.applied' && l.source === 'disk' && l.nginx === 'reloaded')).toBe(
      true,
    );
    expect(await readFile(path.join(stateDir, 'nginx/current/nginx.conf'), 'utf8')).toContain(
      `${stateDir}/releases/${NEW_VERSION}/lua`,
    );
    expect(requests).toBeGreaterThan(5);
    expect(failures).toBe(0);
    expect(await served()).toBe('upgraded');
    // The old process is gone; the new one runs the release.
    await eventually(async () => !alive(agent.pid ?? 0), 10_000);
    expect(alive(newPid)).toBe(true);
    process.kill(newPid, 'SIGTERM');
    await eventually(async () => !alive(newPid), 20_000);
  }, 180_000);
});
