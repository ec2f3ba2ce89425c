import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_NICE_DEFAULT } from '../src/agent/events/event-process.js';
import { alive } from '../src/agent/process/processes.js';
import { agentPorts } from './helpers/agent.js';
import { type AgentProcess, buildAgentPackage, startAgentProcess } from './helpers/agent-process.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { waitUntil } from './helpers/real-control-plane.js';

// The request events' process as a node runs it: the built agent (one bundle) starts it from that
// same bundle, it ships the node's events, and when the agent is killed (kill -9: no word to stop)
// it exits on its own, so that nothing of the agent outlives it but nginx.

let work: string;
let bundle: string;
let origin: Origin;
let cp: FakeControlPlane;
let agent: AgentProcess | undefined;
let worker = 0;

beforeAll(async () => {
  work = await mkdtemp('/tmp/rampart-events-process-');
  bundle = await buildAgentPackage(path.join(work, 'package'));
  origin = await startOrigin('origin');
  cp = await startFakeControlPlane();
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  // A process that outlived its agent (the failure this test looks for) is not left running.
  if (worker > 0 && alive(worker)) process.kill(worker, 'SIGKILL');
  await cp?.close();
  await origin?.close();
  await rm(work, { recursive: true, force: true });
}, 30_000);

describe("the built agent's request events process", () => {
  it('runs from the bundle at the lowest priority, ships, and exits when its agent is killed', async () => {
    const ports = await agentPorts();
    const snapshot = snapshotOf(document('one', [domain(3, 'site.example.com', [upstream(origin.port)])]));
    cp.setSnapshot(snapshot);
    agent = startAgentProcess({
      bundle,
      controlPlane: cp.url,
      joinToken: cp.joinToken,
      stateDir: path.join(work, 'state'),
      ports,
    });
    const started = await agent.waitForLine('events.worker_started');
    expect(started).toMatchObject({ prepared: true, nice: EVENTS_NICE_DEFAULT });
    worker = started.pid as number;
    expect(alive(worker)).toBe(true);

    await cp.waitForReport((r) => r.appliedVersion === snapshot.version, 90_000);
    const page = `/bundled/${Date.now()}`;
    expect((await request(ports.http, 'site.example.com', page)).status).toBe(200);
    // Bounds that hold at a load of 14 on two cores (20 s and 10 s timed out there); a passing run
    // waits only as long as the condition takes.
    await waitUntil(async () => cp.eventBatches.some((b) => b.events.some((e) => e.path === page)), 90_000, 100);

    process.kill(agent.child.pid ?? 0, 'SIGKILL');
    await waitUntil(async () => !alive(worker), 60_000, 50);
  }, 240_000);
});
