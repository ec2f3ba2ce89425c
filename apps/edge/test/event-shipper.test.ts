import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type EdgeEvent, edgeEventSchema } from '@rampart/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EventShipper } from '../src/agent/events/event-shipper.js';
import { EventSpool } from '../src/agent/events/event-spool.js';
import type { LogEntry } from '../src/agent/log.js';
import { RETRY_AFTER_MAX_MS, retryAfterMs } from '../src/agent/node-api/node-api-errors.js';
import { NodeClient } from '../src/agent/node-api/node-client.js';
import { AGENT_VERSION } from '../src/agent/version.js';
import { type FakeControlPlane, startFakeControlPlane } from './helpers/fake-control-plane.js';

// The shipper against the fake control plane (signature over the gzip bytes, the route's content
// type, the batch schema, deduplication by batchId): oldest first, a batch file removed only after
// the acknowledgement, the same bytes sent again after a failure.

let cp: FakeControlPlane;
let client: NodeClient;
let dir: string;
let spool: EventSpool;
let logs: LogEntry[];
let controller: AbortController;
let running: Promise<void> | null;

const event = (id: string): EdgeEvent =>
  edgeEventSchema.parse({
    id,
    time: 1_740_823_200_123,
    domainId: 1,
    ip: '127.0.0.1',
    method: 'GET',
    scheme: 'http',
    httpVersion: '1.1',
    host: 'www.example.com',
    path: `/${id}`,
    status: 200,
    bytesIn: 80,
    bytesOut: 400,
    requestMs: 1,
    upstreamMs: 1,
    upstreamStatus: 200,
    cacheStatus: '',
    userAgent: '',
    referer: '',
    fwKind: '',
    fwRule: 0,
    fwAction: '',
  });

/** Spools a batch of `ids` as the collector does. */
async function spoolBatch(ids: string[]): Promise<void> {
  const batch = spool.nextBatch(ids.map(event));
  await spool.append(batch, await EventSpool.encode(batch), { inode: '1', offset: spool.nextSeq * 100 });
}

function startShipper(): EventShipper {
  const shipper = new EventShipper({
    spool,
    client: () => client,
    log: (level, name, fields = {}) => logs.push({ time: '', level, event: name, ...fields }),
    signal: controller.signal,
    idleMs: 20,
    backoffMinMs: 50,
    backoffMaxMs: 200,
  });
  running = shipper.run();
  return shipper;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`not reached within 5 s: ${what}`);
}

beforeAll(async () => {
  cp = await startFakeControlPlane();
  client = new NodeClient(cp.url);
  client.setCredentials(
    await client.register({ joinToken: cp.joinToken, hostname: 'events', ips: ['127.0.0.1'], version: AGENT_VERSION }),
  );
});

afterAll(async () => {
  await cp?.close();
});

beforeEach(async () => {
  dir = await mkdtemp('/tmp/rampart-shipper-');
  spool = new EventSpool(dir);
  await spool.open();
  logs = [];
  controller = new AbortController();
  running = null;
  cp.eventBatches.length = 0;
  cp.eventAttempts.length = 0;
});

afterEach(async () => {
  controller.abort();
  await running;
  await rm(dir, { recursive: true, force: true });
});

const gzFiles = async () => (await readdir(dir)).filter((n) => n.endsWith('.gz'));

describe('shipping the spool', () => {
  it('ships the batches oldest first, each removed once acknowledged', async () => {
    await spoolBatch(['a-1', 'a-2']);
    await spoolBatch(['b-1']);
    await spoolBatch(['c-1', 'c-2', 'c-3']);
    const shipper = startShipper();
    await until(() => cp.eventBatches.length === 3, 'three batches taken');
    expect(cp.eventBatches.map((b) => b.batchId)).toEqual([1, 2, 3].map((n) => `${spool.spoolId}-${n}`));
    expect(cp.eventBatches.flatMap((b) => b.events.map((e) => e.id))).toEqual([
      'a-1',
      'a-2',
      'b-1',
      'c-1',
      'c-2',
      'c-3',
    ]);
    await until(() => spool.waiting === 0, 'spool empty');
    expect(await gzFiles()).toEqual([]);
    expect(shipper.shipped).toEqual({ batches: 3, events: 6 });
    expect(cp.refused).toEqual([]);
  });

  it('keeps a batch while the control plane fails and sends the same bytes again until it takes it', async () => {
    await spoolBatch(['a-1']);
    await spoolBatch(['b-1']);
    const [first] = await gzFiles();
    const sha256 = createHash('sha256')
      .update(await readFile(path.join(dir, first ?? '')))
      .digest('hex');
    cp.failEvents(3);
    startShipper();
    await until(() => cp.eventAttempts.filter((a) => a.status === 500).length === 3, 'three failures');
    // Not taken yet: the file is still there.
    expect((await gzFiles())[0]).toBe(first);
    await until(() => cp.eventBatches.length === 2, 'both batches taken');
    const attemptsOfFirst = cp.eventAttempts.filter((a) => a.batchId === `${spool.spoolId}-1`);
    expect(attemptsOfFirst.map((a) => [a.sha256, a.status])).toEqual([
      [sha256, 500],
      [sha256, 500],
      [sha256, 500],
      [sha256, 200],
    ]);
    expect(cp.eventBatches.map((b) => b.batchId)).toEqual([`${spool.spoolId}-1`, `${spool.spoolId}-2`]);
    expect(logs.filter((l) => l.event === 'events.ship_failed')).toHaveLength(3);
    await until(() => spool.waiting === 0, 'spool empty');
  });

  it('waits as long as a busy control plane says (503, Retry-After) before it sends again', async () => {
    await spoolBatch(['a-1']);
    cp.failEvents(1, 2);
    startShipper();
    await until(() => cp.eventBatches.length === 1, 'the batch taken');
    expect(cp.eventAttempts.map((a) => a.status)).toEqual([503, 200]);
    // The shipper's own backoff is 50–200 ms here: the wait is the control plane's 2 s, plus jitter.
    const failed = logs.find((l) => l.event === 'events.ship_failed');
    expect(failed?.retryMs).toBeGreaterThanOrEqual(2000);
    expect(failed?.retryMs).toBeLessThanOrEqual(2200);
  });

  it('follows a Retry-After for at most five minutes, and not a negative or unreadable one', async () => {
    await spoolBatch(['a-1']);
    cp.failEvents(1, 86_400);
    startShipper();
    await until(() => logs.some((l) => l.event === 'events.ship_failed'), 'the failure logged');
    const failed = logs.find((l) => l.event === 'events.ship_failed');
    expect(failed?.retryMs).toBeGreaterThanOrEqual(RETRY_AFTER_MAX_MS);
    expect(failed?.retryMs).toBeLessThanOrEqual(RETRY_AFTER_MAX_MS + 200);
    // Whole seconds (also past setTimeout's bound), an HTTP date; nothing else.
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(retryAfterMs(' 2 ', now)).toBe(2000);
    expect(retryAfterMs('99999999999999999999999', now)).toBe(RETRY_AFTER_MAX_MS);
    expect(retryAfterMs('1e300', now)).toBeNull();
    expect(retryAfterMs('Infinity', now)).toBeNull();
    expect(retryAfterMs('1.5', now)).toBeNull();
    expect(retryAfterMs('Tue, 30 Nov 2027 12:00:00 GMT', now)).toBe(RETRY_AFTER_MAX_MS);
    expect(retryAfterMs('Sun, 29 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 29 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('-5', now)).toBeNull();
    expect(retryAfterMs('-Infinity', now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it('ships nothing before the node is registered, and everything after', async () => {
    await spoolBatch(['a-1']);
    let registered = false;
    const shipper = new EventShipper({
      spool,
      client: () => (registered ? client : null),
      log: () => undefined,
      signal: controller.signal,
      idleMs: 20,
    });
    running = shipper.run();
    await new Promise((r) => setTimeout(r, 150));
    expect(cp.eventAttempts).toEqual([]);
    registered = true;
    await until(() => cp.eventBatches.length === 1, 'the batch taken');
  });

  it('counts a batch the control plane refuses for good as dropped, and goes on with the next', async () => {
    await spoolBatch(['a-1', 'a-2']);
    await spoolBatch(['b-1']);
    // Batch 1 made invalid on disk (what a contract mismatch would look like): 400.
    const [first] = await gzFiles();
    await writeFile(path.join(dir, first ?? ''), 'not gzip');
    startShipper();
    await until(() => cp.eventBatches.length === 1, 'batch 2 taken');
    expect(cp.eventBatches[0]?.batchId).toBe(`${spool.spoolId}-2`);
    expect(spool.dropped).toBe(2);
    expect(logs.find((l) => l.event === 'events.batch_refused')).toMatchObject({ seq: 1, events: 2 });
  });
});
