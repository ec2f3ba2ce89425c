import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type EdgeEvent, type EdgeFirewall, emptyEdgeFirewall, ipListRanges } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_NICE_DEFAULT } from '../src/agent/events/event-process.js';
import { autogroupNiceOf, threadNicesOf } from '../src/agent/process/process-priority.js';
import { alive } from '../src/agent/process/processes.js';
import { cleanUpAgents, startAgent, startServingAgent, type TestAgent } from './helpers/agent.js';
import { cacheRule, document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { waitUntil } from './helpers/real-control-plane.js';

// The request events end to end on loopback: requests through the agent's real nginx, the access
// log read by the agent, spooled and shipped to the fake control plane as signed gzip batches
// (checked there with the contract's schema, deduplicated by batchId as the real one). Every
// request must arrive exactly once: across a log rotation, an agent restart (nginx serving
// meanwhile), the events' own process killed, and a control plane that fails for a while.

const RUN = randomBytes(4).toString('hex');
const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'];

let cp: FakeControlPlane;
let origin: Origin;
let edge: TestAgent;
/** The test process's own priority before any agent ran (the events' process must not change it). */
const ownPriority = { threads: threadNicesOf('self'), autogroup: autogroupNiceOf('self') };

const FIREWALL: EdgeFirewall = {
  ...emptyEdgeFirewall(1),
  blacklist: [{ id: 11, url: '\\/admin', methods: ALL_METHODS, action: 'deny', ...ipListRanges(['127.0.0.1']) }],
};

/** Every event the control plane took, by path. */
function taken(): Map<string, EdgeEvent[]> {
  const byPath = new Map<string, EdgeEvent[]>();
  for (const event of cp.eventBatches.flatMap((b) => b.events)) {
    byPath.set(event.path, [...(byPath.get(event.path) ?? []), event]);
  }
  return byPath;
}

/**
 * How long a test waits for a condition of the chain (events shipped, the spool filled or emptied,
 * the events process back): bounds that hold at a load of 14 on two cores, where the 20 s of
 * before timed out; a passing run waits only as long as the condition takes.
 */
const CHAIN_WAIT_MS = 90_000;
/** A test's own bound: above the waits it makes one after another. */
const TEST_MS = 180_000;

/** Waits (bounded) until every path has arrived; answers each path's one event. */
async function arrived(paths: string[], timeoutMs = CHAIN_WAIT_MS): Promise<Map<string, EdgeEvent>> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !paths.every((p) => taken().has(p))) await new Promise((r) => setTimeout(r, 100));
  const seen = taken();
  const missing = paths.filter((p) => !seen.has(p));
  if (missing.length > 0) throw new Error(`not shipped within ${timeoutMs} ms: ${missing.slice(0, 5).join(', ')}`);
  return new Map(paths.map((p) => [p, seen.get(p)?.[0] as EdgeEvent]));
}

/** No request id and no path of this run arrived twice. */
function expectEachOnce(): void {
  const events = cp.eventBatches.flatMap((b) => b.events);
  const ids = events.map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
  // Every path of this run is asked once, but the cached one (twice: a miss, then a hit).
  const paths = events.map((e) => e.path).filter((p) => p.includes(RUN) && !p.includes('/static/'));
  expect(new Set(paths).size).toBe(paths.length);
}

/** The pid of the agent's events process once it runs (it is started again after a death). */
async function workerPid(): Promise<number> {
  const deadline = Date.now() + CHAIN_WAIT_MS;
  while (Date.now() < deadline) {
    const pid = edge.agent.eventWorkerPid;
    if (pid !== null && alive(pid)) return pid;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no events process');
}

/** The session a process belongs to (field 6 of its stat). */
async function sessionOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

const spooledFiles = async () =>
  (await readdir(path.join(edge.stateDir, 'events'))).filter((n) => n.endsWith('.gz')).length;

const get = (host: string, p: string, options: Parameters<typeof request>[3] = {}) =>
  request(edge.ports.http, host, p, options);
const paths = (name: string, n: number) => Array.from({ length: n }, (_, i) => `/${RUN}/${name}/${i}`);

beforeAll(async () => {
  origin = await startOrigin('origin');
  cp = await startFakeControlPlane();
  const snapshot = snapshotOf(
    document(
      'events-1',
      [
        domain(5, 'shop.example.com', [upstream(origin.port)], { cacheId: 7, firewallId: 1 }),
        // An origin that is down: nothing listens on its port.
        domain(6, 'down.example.com', [upstream(await freePort())]),
      ],
      [],
      [{ id: 7, generation: 1, rules: [cacheRule({ scope: 'directory', values: [`/${RUN}/static/`] })] }],
      { firewalls: [FIREWALL] },
    ),
  );
  edge = await startServingAgent(cp, snapshot, { eventCutMs: 200 });
}, 60_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.close();
  await origin?.close();
});

describe('request events from the edge to the control plane', { timeout: TEST_MS }, () => {
  it("ships each request once with the event's fields, as signed gzip batches the contract accepts", async () => {
    const plain = `/${RUN}/plain?q=1`;
    const cached = `/${RUN}/static/app.js`;
    const posted = `/${RUN}/form`;
    const blocked = `/${RUN}/admin`;
    const unknown = `/${RUN}/unknown`;
    const answers = {
      plain: await get('shop.example.com', plain, {
        headers: { 'user-agent': 'events-test', referer: 'https://ref.example/' },
      }),
      miss: await get('shop.example.com', cached),
      hit: await get('shop.example.com', cached),
      posted: await get('shop.example.com', posted, { method: 'POST', body: 'x'.repeat(1000) }),
      blocked: await get('shop.example.com', blocked),
      unknown: await get('nobody.example.com', unknown),
    };
    expect(answers.hit.headers['x-cache-status']).toBe('HIT');
    expect(answers.blocked.status).toBe(403);

    const events = await arrived([plain, posted, blocked, unknown]);
    await new Promise((r) => setTimeout(r, 500)); // both requests of `cached` were in one flush anyway
    const cachedEvents = taken().get(cached) ?? [];
    expect(cachedEvents.map((e) => e.cacheStatus)).toEqual(['MISS', 'HIT']);

    const before = Date.now();
    expect(events.get(plain)).toMatchObject({
      domainId: 5,
      ip: '127.0.0.1',
      method: 'GET',
      scheme: 'http',
      httpVersion: '1.1',
      host: 'shop.example.com',
      status: 200,
      upstreamStatus: 200,
      cacheStatus: '',
      userAgent: 'events-test',
      referer: 'https://ref.example/',
      fwKind: '',
      fwRule: 0,
      fwAction: '',
    });
    const first = events.get(plain) as EdgeEvent;
    // <node>-<worker pid>-<worker start>-<serial> (rampart.router).
    expect(first.id).toMatch(/^[a-z0-9]+-\d+-[0-9a-f]+-\d+$/);
    expect(first.time).toBeGreaterThan(before - 60_000);
    expect(first.time).toBeLessThanOrEqual(before);
    expect(first.bytesOut).toBeGreaterThan(answers.plain.body.length);
    expect(first.upstreamMs).toBeGreaterThanOrEqual(0);
    expect(events.get(posted)).toMatchObject({ method: 'POST', status: answers.posted.status });
    expect(events.get(posted)?.bytesIn).toBeGreaterThan(1000);
    expect(events.get(blocked)).toMatchObject({
      status: 403,
      domainId: 5,
      fwKind: 'blacklist',
      fwRule: 11,
      fwAction: 'deny',
      upstreamMs: -1,
      upstreamStatus: 0,
    });
    expect(events.get(unknown)).toMatchObject({
      domainId: 0,
      status: answers.unknown.status,
      host: 'nobody.example.com',
    });

    expect(cp.refused).toEqual([]);
    expect(cp.eventAttempts.every((a) => a.status === 200)).toBe(true);
    const batchIds = cp.eventBatches.map((b) => b.batchId);
    expect(batchIds.every((id) => /^[a-z0-9]{16}-\d+$/.test(id))).toBe(true);
    expectEachOnce();
  });

  it("logs an origin that is down with the origin's 502 as its upstream status (the log names the cause)", async () => {
    const down = `/${RUN}/down`;
    expect((await get('down.example.com', down)).status).toBe(502);
    // On a loaded machine the edge's 502 and its event take a while: a long deadline, not a sleep.
    const events = await arrived([down]);
    expect(events.get(down)).toMatchObject({ domainId: 6, status: 502, upstreamStatus: 502, fwKind: '' });
  });

  it('loses nothing and repeats nothing across a log rotation', async () => {
    const before = paths('before-rotation', 20);
    for (const p of before) await get('shop.example.com', p);
    cp.queueCommand({ id: 31, type: 'logRotate', payload: {} });
    const during = paths('during-rotation', 20);
    for (const p of during) await get('shop.example.com', p);
    expect(await cp.waitForResult(31)).toMatchObject({ ok: true });
    const after = paths('after-rotation', 20);
    for (const p of after) await get('shop.example.com', p);
    await arrived([...before, ...during, ...after]);
    expect(edge.logs.some((l) => l.event === 'logs.rotated')).toBe(true);
    expectEachOnce();
  });

  it('reads and ships in a session of its own, every thread at the lowest CPU priority, the agent untouched', async () => {
    const pid = await workerPid();
    expect(pid).not.toBe(process.pid);
    expect(await sessionOf(pid)).toBe(pid);
    const threads = threadNicesOf(pid);
    // V8's and libuv's threads too, not only the main one.
    expect(threads.length).toBeGreaterThan(4);
    expect(threads.every((nice) => nice === EVENTS_NICE_DEFAULT)).toBe(true);
    if (ownPriority.autogroup !== null) expect(autogroupNiceOf(pid)).toBe(EVENTS_NICE_DEFAULT);
    expect(edge.logs.find((l) => l.event === 'events.worker_started' && l.pid === pid)).toMatchObject({
      prepared: true,
      nice: EVENTS_NICE_DEFAULT,
    });
    expect(threadNicesOf('self')).toEqual(ownPriority.threads);
    expect(autogroupNiceOf('self')).toBe(ownPriority.autogroup);
  });

  it('starts the events process again when it is killed: nothing lost, nothing repeated', async () => {
    const before = paths('before-kill', 10);
    for (const p of before) await get('shop.example.com', p);
    await arrived(before);
    // Batches wait in the spool (the control plane fails) when the process is killed.
    cp.failEvents(3);
    const during = paths('process-killed', 10);
    for (const p of during) await get('shop.example.com', p);
    await waitUntil(async () => (await spooledFiles()) > 0, CHAIN_WAIT_MS, 100).catch(() => undefined);
    expect(await spooledFiles()).toBeGreaterThan(0);
    const killed = await workerPid();
    process.kill(killed, 'SIGKILL');
    const after = paths('after-kill', 10);
    for (const p of after) await get('shop.example.com', p);
    await edge.waitForLog('events.worker_exited', (l) => l.pid === killed && l.signal === 'SIGKILL');
    const again = await workerPid();
    expect(again).not.toBe(killed);
    await arrived([...before, ...during, ...after]);
    expectEachOnce();
  });

  it('loses nothing and repeats nothing across an agent restart, nginx serving meanwhile', async () => {
    const before = paths('before-restart', 10);
    for (const p of before) await get('shop.example.com', p);
    const worker = await workerPid();
    // A restart onto a new release: the agent goes, nginx keeps serving and logging.
    await edge.agent.detach();
    // The events' process stops with its agent (the next one starts its own).
    expect(alive(worker)).toBe(false);
    const meanwhile = paths('agent-away', 10);
    for (const p of meanwhile) await get('shop.example.com', p);
    const again = await startAgent({
      controlPlane: cp.url,
      stateDir: edge.stateDir,
      ports: edge.ports,
      eventCutMs: 200,
    });
    edge = again;
    const after = paths('after-restart', 10);
    for (const p of after) await get('shop.example.com', p);
    await arrived([...before, ...meanwhile, ...after]);
    expectEachOnce();
  });

  it('keeps the batches while the control plane answers 500, then ships them all once', async () => {
    const failuresBefore = cp.eventAttempts.filter((a) => a.status === 500).length;
    cp.failEvents(4);
    const sent = paths('cp-failing', 30);
    for (const p of sent) await get('shop.example.com', p);
    await arrived(sent);
    expect(cp.eventAttempts.filter((a) => a.status === 500).length - failuresBefore).toBe(4);
    expect(edge.logs.some((l) => l.event === 'events.ship_failed')).toBe(true);
    // Shipped batches are gone from the spool.
    await waitUntil(async () => (await spooledFiles()) === 0, CHAIN_WAIT_MS, 100).catch(() => undefined);
    expect(await spooledFiles()).toBe(0);
    expectEachOnce();
  });
});
