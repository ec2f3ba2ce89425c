import { randomBytes } from 'node:crypto';
import { type EdgeFirewall, emptyEdgeFirewall, ipListRanges, ROLLUP_COUNTERS } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../src/agent/process/processes.js';
import { cleanUpAgents, startServingAgent, type TestAgent } from './helpers/agent.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';

// The aggregates end to end on loopback: requests through the agent's real nginx, read from its
// access log by the events' process with `eventAggregates` on, counted into minute aggregates and
// shipped to the fake control plane (checked there with the contract's schema, deduplicated by
// batchId). The events' process is killed (kill -9) mid-way: every request must be counted once.

const RUN = randomBytes(4).toString('hex');
const DOMAIN = 5;
const BLOCKED = ROLLUP_COUNTERS.indexOf('blocked');
const FIREWALL: EdgeFirewall = {
  ...emptyEdgeFirewall(1),
  blacklist: [{ id: 11, url: '\\/admin', methods: ['GET'], action: 'deny', ...ipListRanges(['127.0.0.1']) }],
};

let cp: FakeControlPlane;
let origin: Origin;
let edge: TestAgent;

const get = (p: string) => request(edge.ports.http, 'shop.example.com', p);
const paths = (name: string, n: number) => Array.from({ length: n }, (_, i) => `/${RUN}/${name}/${i}`);

/** The counters of every record the control plane took for the domain, summed. */
function counted(from: FakeControlPlane = cp): number[] {
  const sums = ROLLUP_COUNTERS.map(() => 0);
  for (const m of from.aggregateBatches.flatMap((b) => b.minutes)) {
    if (m.domainId !== DOMAIN) continue;
    for (const [i, v] of m.counters.entries()) sums[i]! += v;
  }
  return sums;
}

async function workerPid(): Promise<number> {
  for (let i = 0; i < 300; i++) {
    const pid = edge.agent.eventWorkerPid;
    if (pid !== null && alive(pid)) return pid;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no events process');
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  cp = await startFakeControlPlane();
  const snapshot = snapshotOf(
    document('aggregates-1', [domain(DOMAIN, 'shop.example.com', [upstream(origin.port)], { firewallId: 1 })], [], [], {
      firewalls: [FIREWALL],
    }),
  );
  // Every refusal logged as an event (the tallies are the next describe's).
  edge = await startServingAgent(cp, snapshot, { eventCutMs: 200, eventAggregates: true, refusalTallies: false });
}, 60_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.close();
  await origin?.close();
});

describe('aggregates from a real node', () => {
  it('counts every request once across the events process killed mid-minute, events kept for the logs only', async () => {
    const before = [...paths('before', 30), ...paths('admin', 20).map((p) => `${p}/admin`)];
    for (const p of before) await get(p);
    // Read (its events shipped) before the kill: the open minute is in the killed process's memory only.
    const shippedPaths = () => new Set(cp.eventBatches.flatMap((b) => b.events.map((e) => e.path)));
    for (let i = 0; i < 300 && !before.every((p) => shippedPaths().has(p)); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(before.every((p) => shippedPaths().has(p))).toBe(true);
    const killed = await workerPid();
    process.kill(killed, 'SIGKILL');
    await edge.waitForLog('events.worker_exited', (l) => l.pid === killed && l.signal === 'SIGKILL');
    expect(await workerPid()).not.toBe(killed);
    const after = [...paths('after', 25), ...paths('admin-after', 5).map((p) => `${p}/admin`)];
    for (const p of after) await get(p);

    // The minutes close once the log's clock is past them (at most a minute and the grace). The
    // counters may all arrive in partials before the close; the collapsed records ship with it.
    const total = before.length + after.length;
    const collapsedCount = () =>
      cp.aggregateBatches
        .flatMap((b) => b.collapsed)
        .filter((c) => c.domainId === DOMAIN && c.ip === '127.0.0.1' && c.fwRule === 11)
        .reduce((n, c) => n + c.count, 0);
    for (let i = 0; i < 1200 && (counted()[0]! < total || collapsedCount() < 25); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(counted()[0]).toBe(total);
    expect(counted()[BLOCKED]).toBe(25);
    expect(collapsedCount()).toBe(25);
    const batchIds = cp.aggregateBatches.map((b) => b.batchId);
    expect(new Set(batchIds).size).toBe(batchIds.length);
    // The events: each once, for the logs only.
    const events = cp.eventBatches.flatMap((b) => b.events).filter((e) => e.path.includes(RUN));
    expect(events.length).toBe(total);
    expect(cp.eventBatches.every((b) => b.statistics === false)).toBe(true);
  }, 180_000);
});

describe('aggregates from a real node that tallies its refusals', () => {
  let cp2: FakeControlPlane;
  let edge2: TestAgent;
  beforeAll(async () => {
    cp2 = await startFakeControlPlane();
    const snapshot = snapshotOf(
      document(
        'aggregates-2',
        [domain(DOMAIN, 'shop.example.com', [upstream(origin.port)], { firewallId: 1 })],
        [],
        [],
        {
          firewalls: [FIREWALL],
        },
      ),
    );
    edge2 = await startServingAgent(cp2, snapshot, { eventCutMs: 200, eventAggregates: true, refusalTallies: true });
  }, 60_000);
  afterAll(async () => {
    await cp2?.close();
  });

  it('counts a flood of refusals exactly from one logged line and the tally of the rest', async () => {
    const passed = paths('tally-pass', 10);
    const refused = paths('tally-admin', 40).map((p) => `${p}/admin`);
    for (const p of [...passed, ...refused]) await request(edge2.ports.http, 'shop.example.com', p);
    const total = passed.length + refused.length;
    const sums = () => counted(cp2);
    const collapsed = () =>
      cp2.aggregateBatches
        .flatMap((b) => b.collapsed)
        .filter((c) => c.domainId === DOMAIN && c.ip === '127.0.0.1' && c.fwRule === 11)
        .reduce((n, c) => n + c.count, 0);
    // Counters come with the partials; the collapsed records with the minute's close (its sketches).
    for (let i = 0; i < 1500 && (sums()[0]! < total || collapsed() < refused.length); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(sums()[0]).toBe(total);
    expect(sums()[BLOCKED]).toBe(refused.length);
    expect(collapsed()).toBe(refused.length);
    // The logs: every passed request, and of the flood only its first request per minute.
    const logged = cp2.eventBatches.flatMap((b) => b.events).filter((e) => e.path.includes(RUN));
    expect(passed.every((p) => logged.some((e) => e.path === p))).toBe(true);
    const loggedRefusals = logged.filter((e) => e.path.endsWith('/admin'));
    expect(loggedRefusals.length).toBeGreaterThanOrEqual(1);
    expect(loggedRefusals.length).toBeLessThanOrEqual(2);
    expect(loggedRefusals[0]?.path).toBe(refused[0]);
  }, 180_000);
});
