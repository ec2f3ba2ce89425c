import { access, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPorts } from './helpers/agent.js';
import { type AgentProcess, alive, buildAgentPackage, releaseOf, startAgentProcess } from './helpers/agent-process.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { waitUntil } from './helpers/real-control-plane.js';

// The agent upgrade end to end with real processes and real nginx: the installed agent (a bundle
// built as 0.1.0) runs with --self-restart; the fake control plane serves a release built as
// 0.2.0-test. A tampered file is refused and the old release keeps running; the good release is
// verified, switched to and restarted onto while nginx keeps serving, and the node then reports
// the new version.

const NEW_VERSION = '0.2.0-test';

let work: string;
let origin: Origin;
let cp: FakeControlPlane;
let installed: string;
let release: Awaited<ReturnType<typeof releaseOf>>;
let agent: AgentProcess | undefined;

beforeAll(async () => {
  work = await mkdtemp('/tmp/rampart-upgrade-');
  installed = await buildAgentPackage(path.join(work, 'install'));
  await buildAgentPackage(path.join(work, 'release'), NEW_VERSION);
  release = await releaseOf(path.join(work, 'release'), NEW_VERSION);
  origin = await startOrigin('upgraded');
  cp = await startFakeControlPlane();
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await cp?.close();
  await origin?.close();
  await rm(work, { recursive: true, force: true });
}, 30_000);

describe('agent upgrade', () => {
  it('refuses a tampered release, then switches to a good one and restarts onto it while nginx serves', async () => {
    const ports = await agentPorts();
    const stateDir = path.join(work, 'state');
    const snapshot = snapshotOf(document('one', [domain(1, 'site.example.com', [upstream(origin.port)])]));
    cp.setSnapshot(snapshot);
    agent = startAgentProcess({ bundle: installed, controlPlane: cp.url, joinToken: cp.joinToken, stateDir, ports });
    const first = agent.child;
    await cp.waitForReport((r) => r.appliedVersion === snapshot.version && r.version === '0.1.0', 30_000);
    const served = async () => servedBy((await request(ports.http, 'site.example.com')).body);
    expect(await served()).toBe('upgraded');

    // A file that differs from its manifest entry: nothing is switched, the old agent runs on.
    const tampered = new Map(release.files);
    const init = release.files.get('lua/rampart/init.lua') ?? Buffer.alloc(0);
    tampered.set('lua/rampart/init.lua', Buffer.from('-- tampered\n'.padEnd(init.length)));
    cp.setRelease({ manifest: release.manifest, files: tampered });
    cp.queueCommand({ id: 1, type: 'upgrade', payload: { version: NEW_VERSION } });
    const refused = await cp.waitForResult(1, 30_000);
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/lua\/rampart\/init\.lua: SHA-256 .* differs/);
    await expect(access(path.join(stateDir, 'releases/current'))).rejects.toThrow();
    expect((await readdir(path.join(stateDir, 'releases'))).filter((n) => n.startsWith('.staging'))).toEqual([]);
    expect(cp.progress.map((p) => p.stage)).toEqual(['downloading']);
    expect(await served()).toBe('upgraded');
    expect(alive(first.pid ?? 0)).toBe(true);

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

    const restarting = await agent.waitForLine('agent.restarting');
    const newPid = Number(restarting.pid);
    expect(cp.progress.filter((p) => p.commandId === 2).map((p) => p.stage)).toEqual([
      'downloading',
      'verified',
      'switched',
    ]);
    expect(await readlink(path.join(stateDir, 'releases/current'))).toBe(NEW_VERSION);
    expect(agent.lines.some((l) => l.event === 'agent.handoff' && l.from === '0.1.0')).toBe(true);
    // The new agent adopted the running nginx and reloaded it onto its release's Lua package.
    expect((await readFile(path.join(stateDir, 'nginx/logs/nginx.pid'), 'utf8')).trim()).toBe(masterBefore);
    expect(
      agent.lines.some((l) => l.event === 'snapshot.applied' && l.source === 'disk' && l.nginx === 'reloaded'),
    ).toBe(true);
    expect(await readFile(path.join(stateDir, 'nginx/current/nginx.conf'), 'utf8')).toContain(
      `${stateDir}/releases/${NEW_VERSION}/lua`,
    );
    expect(requests).toBeGreaterThan(5);
    expect(failures).toBe(0);
    // The old process is gone; the new one runs the release.
    await waitUntil(async () => !alive(first.pid ?? 0), 10_000, 50);
    expect(alive(newPid)).toBe(true);
    await agent.stop();
    expect(alive(newPid)).toBe(false);
  }, 180_000);
});
