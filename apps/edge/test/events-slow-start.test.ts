import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROLLUP_COUNTERS } from '@rampart/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_HOLD_FILE_ENV } from '../src/agent/events/event-worker.js';
import { alive } from '../src/agent/process/processes.js';
import { cleanUpAgents, SOURCE_EVENT_WORKER, startServingAgent, type TestAgent } from './helpers/agent.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { waitUntil } from './helpers/real-control-plane.js';

// A node's first start while its events' process is slow to come up (a loaded node: it runs at
// nice 19): the agent stops waiting for it after its readiness wait and nginx serves, the worker
// comes up later. Every request served from the agent's start on must be shipped once, as an event
// and in the aggregates, and the slow worker is waited for, not killed and started again. The
// worker is held (EVENTS_HOLD_FILE_ENV) until the test has sent its requests.

const RUN = randomBytes(4).toString('hex');
const DOMAIN = 5;

let work: string;
let origin: Origin;
let cp: FakeControlPlane | undefined;

beforeAll(async () => {
  work = await mkdtemp('/tmp/rampart-events-slow-');
  origin = await startOrigin('origin');
});

afterEach(async () => {
  await cleanUpAgents();
  await cp?.close();
  cp = undefined;
});

afterAll(async () => {
  await origin?.close();
  await rm(work, { recursive: true, force: true });
});

/** A node whose events' worker waits for `hold` before it positions its reader. */
async function slowNode(name: string, aggregates: boolean): Promise<{ edge: TestAgent; hold: string }> {
  cp = await startFakeControlPlane();
  const hold = path.join(work, `${name}.go`);
  const snapshot = snapshotOf(document(name, [domain(DOMAIN, 'shop.example.com', [upstream(origin.port)])]));
  const edge = await startServingAgent(cp, snapshot, {
    eventCutMs: 200,
    eventAggregates: aggregates,
    refusalTallies: false,
    aggregatePartialSeconds: 1,
    eventWorker: { ...SOURCE_EVENT_WORKER, env: { [EVENTS_HOLD_FILE_ENV]: hold } },
  });
  return { edge, hold };
}

/** The events the control plane took of `paths`, by path. */
function shipped(from: FakeControlPlane, paths: string[]): Map<string, number> {
  const counts = new Map(paths.map((p) => [p, 0]));
  for (const event of from.eventBatches.flatMap((b) => b.events)) {
    const n = counts.get(event.path);
    if (n !== undefined) counts.set(event.path, n + 1);
  }
  return counts;
}

async function servedWhileHeld(edge: TestAgent, hold: string, name: string): Promise<string[]> {
  // The agent gave up waiting and serves; the worker is still coming up.
  const slow = await edge.waitForLog('events.worker_slow');
  expect(edge.logs.some((e) => e.event === 'events.worker_started')).toBe(false);
  const pid = slow.pid as number;
  expect(alive(pid)).toBe(true);
  const paths = Array.from({ length: 30 }, (_, i) => `/${RUN}/${name}/${i}`);
  for (const p of paths) expect((await request(edge.ports.http, 'shop.example.com', p)).status).toBe(200);
  await writeFile(hold, '');
  // The worker runs at nice 19: on a machine whose cores are busy it gets what they leave over.
  const started = await edge.waitForLog('events.worker_started', () => true, 120_000);
  // The same worker, waited for: not killed and started again.
  expect(started).toMatchObject({ pid, prepared: true });
  return paths;
}

describe("a first start whose events' process is slow to come up", () => {
  // One node with aggregates on checks both outputs of the one reader: the events for the logs and
  // the aggregates (a node with aggregates off reads the log the same way; a second node would only
  // spend another 15 s readiness wait).
  it('ships every request served meanwhile once to the logs and counts it once in the aggregates', async () => {
    const { edge, hold } = await slowNode('slow-aggregates', true);
    const paths = await servedWhileHeld(edge, hold, 'aggregates');
    const from = cp as FakeControlPlane;
    const requests = () =>
      from.aggregateBatches
        .flatMap((b) => b.minutes)
        .filter((m) => m.domainId === DOMAIN)
        .reduce((sum, m) => sum + (m.counters[ROLLUP_COUNTERS.indexOf('requests')] ?? 0), 0);
    await waitUntil(async () => requests() >= paths.length, 90_000, 100);
    expect(requests()).toBe(paths.length);
    // The events for the logs too.
    await waitUntil(async () => [...shipped(from, paths).values()].every((n) => n > 0), 90_000, 100);
    expect([...shipped(from, paths).values()]).toEqual(paths.map(() => 1));
    expect(edge.logs.filter((e) => e.event === 'events.worker_exited')).toEqual([]);
  }, 360_000);
});
