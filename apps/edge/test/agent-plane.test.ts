import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PlaneDelta, PlaneFull } from '@rampart/contract';
import { entryHash, planeHash } from '@rampart/contract/plane-hash';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest } from '../src/data-plane/admin-client.js';
import { agentPorts, cleanUpAgents, makeStateDir, startAgent, type TestAgent } from './helpers/agent.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// The agent taking its data plane as entries (plane-loop.ts, plane-log.ts) from a fake control
// plane that answers whole planes of its snapshots, or an answer a test gives it: on a stream, and
// by long polls from a control plane without the stream route. Deltas from the real control plane
// are in plane-chain.test.ts.

let first: Origin;
let second: Origin;
let fakes: FakeControlPlane[] = [];
/** Whether the fakes serve the plane stream (each describe below sets it). */
let streams = false;

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
  cp.servePlanes({ streams });
  fakes.push(cp);
  return cp;
}

function siteTo(origin: Origin, version: string, hosts = ['site.example.com']) {
  return snapshotOf(
    document(
      version,
      hosts.map((host, i) => domain(i + 1, host, [upstream(origin.port)])),
    ),
  );
}

/** Which origin served the host, null when none did (nginx not listening yet included). */
async function served(edge: TestAgent, host = 'site.example.com'): Promise<string | null> {
  const answer = await request(edge.ports.http, host).catch(() => null);
  return answer && servedBy(answer.body);
}

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A delta from the fake's current plane changing the site's upstream to `port`, and the plane after it. */
function upstreamDelta(cp: FakeControlPlane, port: number, from?: string): [PlaneDelta, PlaneFull] {
  const plane = cp.plane;
  if (!plane) throw new Error('no plane yet');
  const { forceSSLCode: _code, ...value } = domain(1, 'site.example.com', [upstream(port)]);
  const hash = entryHash('domain', 'site.example.com', value);
  const entries = plane.entries.map((e) => (e.kind === 'domain' && e.key === 'site.example.com' ? { ...e, hash } : e));
  const to = String(Number(plane.to) + 1);
  const after = planeHash(entries.map((e) => e.hash));
  return [
    {
      type: 'delta',
      from: from ?? plane.to,
      to,
      meta: plane.meta,
      metaHash: plane.metaHash,
      changes: [{ op: 'put', kind: 'domain', key: 'site.example.com', hash, value }],
      planeHash: after,
    },
    { ...plane, to, entries: entries.map((e) => (e.hash === hash ? { ...e, value } : e)), planeHash: after },
  ];
}

describe.each([
  { how: 'on a stream', stream: true },
  { how: 'by long polls', stream: false },
])('the data plane as entries, $how', ({ stream }) => {
  beforeAll(() => {
    streams = stream;
  });

  it('is in place when the first snapshot starts nginx, and a later plane goes as its changed records only', async () => {
    const cp = await fake();
    cp.setSnapshot(siteTo(first, 'one', ['site.example.com', 'other.example.com']));
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken });
    await cp.waitForReport((r) => r.appliedVersion !== '');
    // The plane came before the snapshot started nginx, and that apply pushed it.
    expect(await served(edge)).toBe('first');
    // The status says which plane nginx's store holds (the operator's node list compares it).
    await cp.waitForReport((r) => r.planeVersion === '1', 20_000);
    expect(edge.logs.find((e) => e.event === 'snapshot.applied')).toMatchObject({ nginx: 'started' });

    cp.setSnapshot(
      snapshotOf(
        document('two', [
          domain(1, 'site.example.com', [upstream(second.port)]),
          domain(2, 'other.example.com', [upstream(first.port)]),
        ]),
      ),
    );
    await until(async () => (await served(edge)) === 'second', 'the new upstream');
    expect(await served(edge, 'other.example.com')).toBe('first');
    const applied = await edge.waitForLog('plane.applied', (e) => e.records === 1);
    expect(applied.answer).toMatch(/^full plane at 2/);
    // It took them the way the control plane offers: a control plane without streams is long-polled.
    expect(edge.logs.some((e) => e.event === 'plane.stream_unavailable')).toBe(!stream);
  });

  it('applies a delta, and refuses one that does not follow or does not check out, then asks for a whole plane', async () => {
    const cp = await fake();
    cp.setSnapshot(siteTo(first, 'one'));
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken });
    await until(async () => (await served(edge)) === 'first', 'the first plane');

    cp.answerPlaneOnce(...upstreamDelta(cp, second.port));
    await until(async () => (await served(edge)) === 'second', 'the delta');
    expect(await edge.waitForLog('plane.applied', (e) => String(e.answer).startsWith('delta'))).toMatchObject({
      records: 1,
    });

    // Out of order: from a sequence the node is not at. Refused, nothing changes, a whole plane next.
    const asked = cp.planeQueries.length;
    // The fake's plane becomes the first upstream again, at a new sequence.
    cp.setSnapshot(siteTo(first, 'three'));
    cp.answerPlaneOnce(upstreamDelta(cp, first.port, '1')[0]);
    const refused = await edge.waitForLog('plane.refused');
    expect(refused.error).toMatch(/delta from 1, the node is at [0-9]+/);
    await until(
      async () => cp.planeQueries.slice(asked + 1).some((q) => q.since === undefined),
      'a poll without since',
    );
    // The whole plane (the fake's, on the first upstream) replaces the delta's.
    await until(async () => (await served(edge)) === 'first', 'the whole plane');

    // A corrupted value: its hash is not its value's.
    await until(async () => cp.planeQueries.at(-1)?.since === cp.plane?.to, 'the poll at the whole plane');
    const [corrupted] = upstreamDelta(cp, second.port);
    (corrupted.changes[0] as { hash: string }).hash = '0123456789ab';
    cp.answerPlaneOnce(corrupted);
    expect((await edge.waitForLog('plane.refused', (e) => String(e.error).includes('hash'))).error).toMatch(
      /not the hash of its value/,
    );
    expect(await served(edge)).toBe('first');
  });

  it('applies a delta whose meta carries a key it does not know, and still refuses a bad known one', async () => {
    const cp = await fake();
    cp.setSnapshot(siteTo(first, 'one'));
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken });
    await until(async () => (await served(edge)) === 'first', 'the first plane');

    // A control plane one version ahead: a meta key this agent does not know.
    const [ahead, after] = upstreamDelta(cp, second.port);
    cp.answerPlaneOnce({ ...ahead, meta: { ...ahead.meta, laterSetting: { on: true } } }, after);
    await until(async () => (await served(edge)) === 'second', 'the delta with an unknown meta key');
    // Taken as the delta itself, not refused and replaced by the whole plane after it.
    const applied = await edge.waitForLog('plane.applied', (e) => String(e.answer).startsWith('delta'));
    expect(applied.answer).toBe(`delta ${ahead.from} → ${ahead.to} (1 changes)`);
    expect(edge.logs.filter((e) => e.event === 'plane.poll_failed')).toEqual([]);

    // A known meta field out of its bounds is refused: nothing changes.
    const [bad] = upstreamDelta(cp, first.port);
    cp.answerPlaneOnce({ ...bad, meta: { ...bad.meta, laterSetting: 1, cacheEpoch: -1 } });
    await edge.waitForLog('plane.poll_failed', (e) => /meta\.cacheEpoch/.test(String(e.error)));
    expect(await served(edge)).toBe('second');
  });

  it('keeps the plane on disk and serves it after the agent and nginx restart with the control plane gone', async () => {
    const cp = await fake();
    cp.setSnapshot(siteTo(first, 'one'));
    const ports = await agentPorts();
    const stateDir = await makeStateDir();
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, stateDir, ports });
    await until(async () => (await served(edge)) === 'first', 'the first plane');
    cp.answerPlaneOnce(...upstreamDelta(cp, second.port));
    await until(async () => (await served(edge)) === 'second', 'the delta');
    await edge.stop();
    await cp.close();

    const again = await startAgent({ controlPlane: null, stateDir, ports });
    // The base and the delta after it, replayed: the delta's upstream serves.
    expect(again.logs.find((e) => e.event === 'plane.restored')).toMatchObject({ to: '2' });
    expect(await served(again)).toBe('second');
  });

  it('asks for the meta again after a restart from disk, then polls with its hash', async () => {
    // A stored meta is what the agent that stored it understood (an older one drops keys it does
    // not know, under the control plane's hash of the whole meta): after a restart the polls leave
    // the hash out until an answer has brought the meta again.
    const cp = await fake();
    cp.setSnapshot(siteTo(first, 'one'));
    const ports = await agentPorts();
    const stateDir = await makeStateDir();
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, stateDir, ports });
    await until(async () => (await served(edge)) === 'first', 'the first plane');
    await until(async () => cp.planeQueries.some((q) => q.meta !== undefined), 'a poll with the meta hash');
    await edge.stop();

    const restarted = cp.planeQueries.length;
    const again = await startAgent({ controlPlane: cp.url, stateDir, ports });
    await until(async () => cp.planeQueries.length > restarted, 'a poll after the restart');
    const first_ = cp.planeQueries[restarted];
    expect(first_?.since).toBe(cp.plane?.to);
    expect(first_?.meta).toBeUndefined();
    cp.answerPlaneOnce(...upstreamDelta(cp, second.port));
    await until(async () => (await served(again)) === 'second', 'the delta');
    // Long-polled, the poll after the answer carries the hash again (a stream is not asked again).
    if (!streams) {
      await until(async () => cp.planeQueries.at(-1)?.meta === cp.plane?.metaHash, 'a poll with the new hash');
    }
  });

  it('refuses a stored plane changed on disk, says so, and serves the snapshot it has', async () => {
    const cp = await fake();
    cp.setSnapshot(siteTo(first, 'one'));
    const ports = await agentPorts();
    const stateDir = await makeStateDir();
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, stateDir, ports });
    await until(async () => (await served(edge)) === 'first', 'the first plane');
    await edge.stop();
    await cp.close();
    const base = path.join(stateDir, 'plane/base.json');
    await writeFile(base, (await readFile(base, 'utf8')).replace(/"port":\d+/, `"port":${second.port}`));

    const again = await startAgent({ controlPlane: null, stateDir, ports });
    expect(again.logs.find((e) => e.event === 'plane.stored_refused')?.error).toMatch(/does not match its signature/);
    expect(await served(again)).toBe('first');
  });

  it('pushes the plane again into a store replaced behind its back', async () => {
    const cp = await fake();
    cp.setSnapshot(siteTo(first, 'one'));
    const edge = await startAgent({ controlPlane: cp.url, joinToken: cp.joinToken, verifyMs: 200 });
    await until(async () => (await served(edge)) === 'first', 'the first plane');
    const endpoint = {
      socketPath: path.join(edge.stateDir, 'admin/admin.sock'),
      secret: (await readFile(path.join(edge.stateDir, 'admin.secret'), 'utf8')).trim(),
    };
    const planted = document('planted', [domain(1, 'site.example.com', [upstream(second.port)])]);
    expect((await adminRequest(endpoint, 'PUT', '/config', JSON.stringify(planted))).status).toBe(200);
    const mismatch = await edge.waitForLog('dataplane.mismatch', () => true, 30_000);
    expect(mismatch).toMatchObject({ found: 'planted' });
    await until(async () => (await served(edge)) === 'first', 'its own plane again');
  });
});
