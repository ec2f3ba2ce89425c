import { type EdgeSnapshot, NODE_EXPORTER_DEFAULT, noChallenge } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { ConfigChanges } from '../../platform/changes.js';
import type { SnapshotBuilder } from './snapshot-builder.js';
import type { BuiltSnapshot } from './snapshot-plane.js';
import { SnapshotsService } from './snapshots.service.js';

/** A builder whose next builds answer from `outcomes`, in turn. */
function builder(outcomes: (() => Promise<Omit<BuiltSnapshot, 'json'>>)[]) {
  let calls = 0;
  const stub = {
    generationMemo: () => new Map(),
    build: () =>
      (outcomes[Math.min(calls++, outcomes.length - 1)] as () => Promise<Omit<BuiltSnapshot, 'json'>>)().then(
        (built) => ({ ...built, json: JSON.stringify(built.snapshot) }),
      ),
  };
  return { stub: stub as unknown as SnapshotBuilder, calls: () => calls };
}

const snapshot = (version: string): EdgeSnapshot => ({
  version,
  generatedAt: new Date(0).toISOString(),
  initialized: true,
  listen: { httpPorts: [80], httpsPorts: [443], http2: true },
  realIp: { trusted: [], header: 'X-Forwarded-For', proxyProtocol: false },
  nginx: { worker: {}, http: {}, stream: {}, custom: [] },
  dataPlane: {
    version,
    domains: [],
    certificates: [],
    caches: [],
    cacheEpoch: 0,
    modules: [],
    settings: [],
    firewalls: [],
    limits: { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: 21 },
    challenge: noChallenge(),
  },
  streamPorts: [],
  l4: null,
  l4KernelBlocks: false,
  nodeExporter: NODE_EXPORTER_DEFAULT,
  logRotateTime: null,
});

describe('SnapshotsService when a snapshot cannot be built', () => {
  it('answers the poll as "no change" and keeps the cause for the operator, then serves the next good build', async () => {
    const changes = new ConfigChanges();
    const logged: string[] = [];
    const { stub, calls } = builder([
      () => Promise.reject(new Error('the data plane breaks its schema: limits.x too big')),
      async () => ({ snapshot: snapshot('b'.repeat(32)), leftOut: [] }),
    ]);
    const service = new SnapshotsService(stub, changes, Date.now, (_node, problem) => logged.push(problem));
    const none = await service.poll(1, undefined, 0, new AbortController().signal);
    expect(none).toBeNull();
    const state = await service.state(1);
    expect(state.snapshot).toBeNull();
    expect(state.problem).toBe('the snapshot cannot be built: the data plane breaks its schema: limits.x too big');
    expect(logged).toEqual([state.problem]);
    // The failure is not rebuilt on every poll...
    await service.poll(1, undefined, 0, new AbortController().signal);
    expect(calls()).toBe(1);
    // ...but a change is built and served at once.
    changes.bump();
    const next = await service.poll(1, undefined, 0, new AbortController().signal);
    expect(JSON.parse(next ?? 'null')?.version).toBe('b'.repeat(32));
    expect((await service.state(1)).problem).toBe('');
  });

  it('refuses a snapshot whose zone-level part breaks its schema, naming the field, instead of serving it', async () => {
    const broken = { ...snapshot('d'.repeat(32)), listen: { httpPorts: [0], httpsPorts: [443], http2: true } };
    const { stub } = builder([async () => ({ snapshot: broken, leftOut: [] })]);
    const service = new SnapshotsService(stub, new ConfigChanges(), Date.now);
    expect(await service.poll(1, undefined, 0, new AbortController().signal)).toBeNull();
    const state = await service.state(1);
    expect(state.snapshot).toBeNull();
    expect(state.problem).toMatch(/^the snapshot cannot be built: listen\.httpPorts\.0: /);
  });

  it('names the sites left out of a snapshot it could build', async () => {
    const { stub } = builder([
      async () => ({
        snapshot: snapshot('c'.repeat(32)),
        leftOut: [{ siteId: 7, name: 'big', reason: 'the node would serve more than 5 domains' }],
      }),
    ]);
    const service = new SnapshotsService(stub, new ConfigChanges(), Date.now);
    const state = await service.state(1);
    expect(state.snapshot?.version).toBe('c'.repeat(32));
    expect(state.problem).toBe(
      "left out of this node's snapshot: site 7 (big): the node would serve more than 5 domains",
    );
  });
});
