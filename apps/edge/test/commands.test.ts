import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextDailyTime } from '../src/agent/commands/log-rotate.js';
import { cleanUpAgents, startServingAgent, type TestAgent } from './helpers/agent.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { waitUntil } from './helpers/real-control-plane.js';

// The operator's commands as the agent runs them, with real nginx: reboot, reset and log rotation
// arrive through the command long poll of the fake control plane; results go back to it.

let origin: Origin;
let fakes: FakeControlPlane[] = [];

beforeAll(async () => {
  origin = await startOrigin('first');
});
afterAll(async () => origin?.close());
afterEach(async () => {
  await cleanUpAgents();
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

const site = (version: string, logRotateTime: string | null = null) => ({
  ...snapshotOf(document(version, [domain(1, 'site.example.com', [upstream(origin.port)])])),
  logRotateTime,
});

/** A fake control plane serving one site and an agent that applied it. */
async function servingAgent(logRotateTime: string | null = null): Promise<{ cp: FakeControlPlane; edge: TestAgent }> {
  const cp = await startFakeControlPlane();
  fakes.push(cp);
  const snapshot = site('one', logRotateTime);
  const edge = await startServingAgent(cp, snapshot);
  return { cp, edge };
}

async function served(edge: TestAgent): Promise<string | null> {
  return servedBy((await request(edge.ports.http, 'site.example.com')).body);
}

async function size(file: string): Promise<number> {
  return (await stat(file)).size;
}

describe('operator commands on the agent', () => {
  it('reboots nginx: a new master, and the site is still served', async () => {
    const { cp, edge } = await servingAgent();
    const before = await edge.agent.nginx.masterPid();
    expect(before).not.toBeNull();
    cp.queueCommand({ id: 11, type: 'reboot', payload: {} });
    const result = await cp.waitForResult(11);
    const after = await edge.agent.nginx.masterPid();
    expect(result).toMatchObject({ ok: true, nodeId: 1 });
    expect(result.message).toBe(`nginx restarted: master ${before} → ${after}`);
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
    expect(await served(edge)).toBe('first');
  });

  it('rotates the logs: the old lines move to .1, nginx writes to a fresh file, older ones shift', async () => {
    const { cp, edge } = await servingAgent();
    const logs = path.join(edge.stateDir, 'nginx/logs');
    const access = path.join(logs, 'access.log');
    await request(edge.ports.http, 'site.example.com', '/before-rotation');
    // The access log is buffered for up to a second.
    await waitUntil(async () => (await readFile(access, 'utf8')).includes('/before-rotation'), 30_000, 50);

    cp.queueCommand({ id: 21, type: 'logRotate', payload: {} });
    const result = await cp.waitForResult(21);
    expect(result).toMatchObject({ ok: true, message: 'rotated access.log, error.log; nginx reopened its logs' });
    expect(await readFile(`${access}.1`, 'utf8')).toContain('/before-rotation');
    expect(await size(path.join(logs, 'error.log.1'))).toBeGreaterThan(0);
    await request(edge.ports.http, 'site.example.com', '/after-rotation');
    await waitUntil(async () => (await readFile(access, 'utf8')).includes('/after-rotation'), 30_000, 50);
    expect(await readFile(access, 'utf8')).not.toContain('/before-rotation');
    expect(await readFile(`${access}.1`, 'utf8')).not.toContain('/after-rotation');

    cp.queueCommand({ id: 22, type: 'logRotate', payload: {} });
    expect((await cp.waitForResult(22)).ok).toBe(true);
    expect(await readFile(`${access}.2`, 'utf8')).toContain('/before-rotation');
    expect(await readFile(`${access}.1`, 'utf8')).toContain('/after-rotation');
    expect(await served(edge)).toBe('first');
  });

  it('resets: drops the stored snapshots, fetches and applies the snapshot again with a new nginx', async () => {
    const { cp, edge } = await servingAgent();
    const snapshots = path.join(edge.stateDir, 'snapshots');
    const stale = 'f'.repeat(32);
    await writeFile(path.join(snapshots, `${stale}.json`), '{"stale": true}');
    const before = await edge.agent.nginx.masterPid();
    const applied = edge.agent.appliedVersion;

    cp.queueCommand({ id: 31, type: 'reset', payload: {} });
    const result = await cp.waitForResult(31);
    expect(result.ok).toBe(true);
    const after = await edge.agent.nginx.masterPid();
    expect(result.message).toBe(`snapshot ${applied} applied again; nginx master ${after}`);
    expect(after).not.toBe(before);
    expect(edge.agent.appliedVersion).toBe(applied);
    expect((await readdir(snapshots)).sort()).toEqual(['current', `${applied}.json`, `${applied}.hmac`].sort());
    expect(edge.logs.filter((e) => e.event === 'snapshot.applied').at(-1)).toMatchObject({ nginx: 'started' });
    expect(await served(edge)).toBe('first');
  });

  it('reports a command it cannot run as failed, and keeps running the next ones', async () => {
    const { cp } = await servingAgent();
    cp.queueCommand({ id: 41, type: 'purge', payload: { urls: ['/'] } });
    cp.queueCommand({ id: 42, type: 'reboot', payload: { force: true } });
    cp.queueCommand({ id: 43, type: 'logRotate', payload: {} });
    expect(await cp.waitForResult(41)).toMatchObject({ ok: false });
    expect((await cp.waitForResult(41)).message).toMatch(/^this agent cannot run purge/);
    expect(await cp.waitForResult(42)).toMatchObject({ ok: false });
    expect(await cp.waitForResult(43)).toMatchObject({ ok: true });
    expect(cp.results.map((r) => r.id)).toEqual([41, 42, 43]);
  });

  it('reports its system information with its status', async () => {
    const { cp } = await servingAgent();
    const report = await cp.waitForReport((r) => r.system !== undefined);
    expect(report.system).toMatchObject({ agentVersion: '0.1.0', nginxVersion: expect.stringMatching(/^1\.\d+\.\d+/) });
    expect(report.system?.cpuCount).toBeGreaterThan(0);
    expect(report.system?.memoryUsedBytes).toBeLessThanOrEqual(report.system?.memoryTotalBytes ?? 0);
    expect(report.system?.diskTotalBytes).toBeGreaterThan(0);
  });

  it('arms a daily log rotation at the time its snapshot names, and re-arms it when the time changes', async () => {
    const { cp, edge } = await servingAgent('03:30');
    const first = await edge.waitForLog('logs.rotation_scheduled');
    expect(first).toMatchObject({ daily: '03:30', at: expect.stringMatching(/T03:30:00\.000Z$/) });
    cp.setSnapshot(site('two', '22:05'));
    const second = await edge.waitForLog('logs.rotation_scheduled', (e) => e.daily === '22:05');
    expect(second.at).toMatch(/T22:05:00\.000Z$/);
  });
});

describe('the next daily rotation', () => {
  it('is later today when the time is still ahead, else tomorrow (UTC)', () => {
    const now = new Date('2026-03-01T10:00:00.000Z');
    expect(nextDailyTime('10:30', now).toISOString()).toBe('2026-03-01T10:30:00.000Z');
    expect(nextDailyTime('10:00', now).toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(nextDailyTime('00:00', new Date('2026-12-31T23:59:00.000Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
