import { appendFile, cp, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROTATED_LOGS_KEPT, shiftLogs } from '../src/agent/commands/log-rotate.js';
import { EventCollector } from '../src/agent/events/event-collector.js';
import { EventSpool } from '../src/agent/events/event-spool.js';
import type { LogEntry } from '../src/agent/log.js';
import { logLine, spooledBatches } from './helpers/event-log.js';

// The agent's half of the request events without nginx: a log file written by the test, the
// collector driven round by round (tick) on a clock the test moves, and the spool on disk.

let dir: string;
let logFile: string;
let spoolDir: string;
let clock: number;
let logs: LogEntry[];
let controllers: AbortController[];
/** Every collector a test made: closed after it, so no test leaves its log file open. */
let made: EventCollector[];

beforeEach(async () => {
  dir = await mkdtemp('/tmp/rampart-events-');
  await mkdir(path.join(dir, 'logs'));
  logFile = path.join(dir, 'logs/access.log');
  spoolDir = path.join(dir, 'events');
  clock = 1_000_000;
  logs = [];
  controllers = [];
  made = [];
});

afterEach(async () => {
  for (const c of controllers) c.abort();
  for (const events of made) await events.close();
  await rm(dir, { recursive: true, force: true });
});

/** A collector (and its spool) as the agent makes one at start, on the test's clock. */
async function collector(
  options: {
    maxBytes?: number;
    maxEvents?: number;
    intervalMs?: number;
    busy?: () => boolean;
    busyRoundMs?: number;
  } = {},
) {
  const controller = new AbortController();
  controllers.push(controller);
  const spool = new EventSpool(spoolDir, options.maxBytes);
  const events = new EventCollector({
    logFile,
    spool,
    log: (level, event, fields = {}) => logs.push({ time: '', level, event, ...fields }),
    signal: controller.signal,
    cutMs: 1000,
    graceMs: 3000,
    now: () => clock,
    ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}),
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
    ...(options.busy !== undefined ? { busy: options.busy, busyRoundMs: options.busyRoundMs } : {}),
  });
  made.push(events);
  expect(await events.prepare()).toBe(true);
  return { spool, events, controller };
}

const write = (ids: string[], file = logFile) => appendFile(file, ids.map((id) => logLine(id)).join(''));
const range = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
const shippedIds = async () => (await spooledBatches(spoolDir)).flatMap((b) => b.events.map((e) => e.id));

describe('cutting batches', () => {
  it('cuts at the most events a batch takes at once, the rest a cut interval after its first event', async () => {
    await writeFile(logFile, '');
    const { spool, events } = await collector({ maxEvents: 5 });
    await write(range('a', 12));
    await events.tick();
    await events.tick();
    expect((await spooledBatches(spoolDir)).map((b) => b.events.length)).toEqual([5, 5]);
    await events.tick();
    expect(events.waiting).toBe(2);
    clock += 999;
    await events.tick();
    expect(events.waiting).toBe(2);
    clock += 1;
    await events.tick();
    const batches = await spooledBatches(spoolDir);
    expect(batches.map((b) => b.events.length)).toEqual([5, 5, 2]);
    expect(batches.map((b) => b.batchId)).toEqual([1, 2, 3].map((seq) => `${spool.spoolId}-${seq}`));
    expect(spool.spoolId).toMatch(/^[a-z0-9]{16}$/);
    expect(batches.flatMap((b) => b.events.map((e) => e.id))).toEqual(range('a', 12));
    expect(batches.every((b) => b.dropped === 0)).toBe(true);
  });

  it('skips lines that are no event, counted, and keeps reading', async () => {
    await writeFile(logFile, '');
    const { events } = await collector();
    await appendFile(logFile, `${logLine('ok-1')}not json\n${logLine('bad', { status: '1000' })}\n${logLine('ok-2')}`);
    await events.tick();
    clock += 1000;
    await events.tick();
    expect(await shippedIds()).toEqual(['ok-1', 'ok-2']);
    expect(events.invalidTotal).toBe(2);
    expect(logs.find((l) => l.event === 'events.lines_skipped')).toMatchObject({ count: 2, first: 'not JSON' });
  });

  it('names requests without a request id uniquely from the batch they are cut into', async () => {
    await writeFile(logFile, '');
    const { spool, events } = await collector();
    await write(['x-1']);
    await appendFile(logFile, logLine('', { status: '400' }) + logLine('', { status: '400' }));
    await events.tick();
    clock += 1000;
    await events.tick();
    expect(await shippedIds()).toEqual(['x-1', `${spool.spoolId}.1.1`, `${spool.spoolId}.1.2`]);
  });

  it('reads the first log from its start when the first start found none, also after a restart', async () => {
    await collector();
    await write(range('a', 2));
    const again = await collector();
    await again.events.tick();
    clock += 1000;
    await again.events.tick();
    expect(await shippedIds()).toEqual(range('a', 2));
    expect(logs.some((l) => l.event === 'events.log_lost')).toBe(false);
  });

  it('reads a backlog without waiting the interval between full batches, and cuts the rest when stopped', async () => {
    await writeFile(logFile, '');
    // An interval far longer than the test: only rounds that follow a full one at once can read it all.
    const { events, controller } = await collector({ maxEvents: 1000, intervalMs: 60_000 });
    await write(range('a', 12_345));
    const running = events.run();
    const deadline = Date.now() + 10_000;
    while ((await spooledBatches(spoolDir)).length < 12 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await spooledBatches(spoolDir)).map((b) => b.events.length)).toEqual(Array(12).fill(1000));
    controller.abort();
    await running;
    expect(await shippedIds()).toEqual(range('a', 12_345));
  });

  it('takes one batch a round while the node is busy, and catches up once it is not', async () => {
    await writeFile(logFile, '');
    let busy = true;
    const { events, controller } = await collector({
      maxEvents: 1000,
      intervalMs: 60_000,
      busy: () => busy,
      busyRoundMs: 300,
    });
    await write(range('a', 12_345));
    const running = events.run();
    await new Promise((r) => setTimeout(r, 1000));
    // Rounds at about 0, 300, 600 and 900 ms: a few batches, not the whole backlog.
    const whileBusy = (await spooledBatches(spoolDir)).length;
    expect(whileBusy).toBeGreaterThanOrEqual(2);
    expect(whileBusy).toBeLessThanOrEqual(5);
    busy = false;
    const deadline = Date.now() + 10_000;
    while ((await spooledBatches(spoolDir)).length < 12 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    controller.abort();
    await running;
    expect(await shippedIds()).toEqual(range('a', 12_345));
  });

  it('starts at the end of a log an older agent left on the very first start', async () => {
    await write(range('old', 3));
    const { events } = await collector();
    await write(['new-1']);
    await events.tick();
    clock += 1000;
    await events.tick();
    expect(await shippedIds()).toEqual(['new-1']);
  });
});

describe('the bound of the spool', () => {
  it('drops the oldest batches past the bound and counts them once, in the next batch cut', async () => {
    await writeFile(logFile, '');
    // A bound of one byte: every batch but the newest is over it.
    const { spool, events } = await collector({ maxBytes: 1, maxEvents: 3 });
    await write(range('a', 9));
    for (let i = 0; i < 3; i++) await events.tick();
    // Batch 2 dropped batch 1, batch 3 (carrying those 3) dropped batch 2; the newest is always kept.
    let batches = await spooledBatches(spoolDir);
    expect(batches.map((b) => [b.batchId, b.dropped])).toEqual([[`${spool.spoolId}-3`, 3]]);
    expect(spool.dropped).toBe(3);
    expect(logs.filter((l) => l.event === 'events.spool_full').map((l) => l.dropped)).toEqual([3, 3]);

    // The batch being shipped is never dropped: the one after it goes instead.
    const shipping = spool.takeOldest();
    expect(shipping?.seq).toBe(3);
    await write(range('b', 2));
    await events.tick();
    clock += 1000;
    await events.tick();
    batches = await spooledBatches(spoolDir);
    expect(batches.map((b) => [b.batchId, b.dropped, b.events.length])).toEqual([
      [`${spool.spoolId}-3`, 3, 3],
      [`${spool.spoolId}-4`, 3, 2],
    ]);
    if (shipping) await spool.acknowledge(shipping);

    // Batch 4 is dropped by batch 5: its 2 events and the 3 it carried go with batch 5, once.
    await write(range('c', 1));
    await events.tick();
    clock += 1000;
    await events.tick();
    batches = await spooledBatches(spoolDir);
    expect(batches.map((b) => [b.batchId, b.dropped])).toEqual([[`${spool.spoolId}-5`, 0]]);
    expect(spool.dropped).toBe(5);
    // 3 (batch 1) + 3 (batch 2) + 2 (batch 4) events dropped in all: 3 shipped with batch 3, 5 to come.
    expect(3 + spool.dropped).toBe(8);
  });

  it('a crash after counting drops and before removing the files neither ships nor counts them twice', async () => {
    await writeFile(logFile, '');
    const { spool, events } = await collector({ maxBytes: 1, maxEvents: 2 });
    await write(range('a', 4));
    await events.tick();
    await events.tick();
    // Batch 1 was dropped; put its file back as if the crash came before its removal.
    const state = JSON.parse(await readFile(path.join(spoolDir, 'spool.json'), 'utf8'));
    expect(state).toMatchObject({ dropped: 2, dropping: [1] });
    const batch2 = (await spooledBatches(spoolDir))[0];
    await writeFile(
      path.join(spoolDir, batch2?.file.replace(/^\d{16}/, '1'.padStart(16, '0')) ?? ''),
      await readFile(path.join(spoolDir, batch2?.file ?? '')),
    );
    const reopened = new EventSpool(spoolDir, 1);
    await reopened.open();
    expect(reopened.waiting).toBe(1);
    expect(reopened.dropped).toBe(2);
    expect(spool.spoolId).toBe(reopened.spoolId);
  });
});

describe('what the spool says it holds', () => {
  it('never counts fewer batches or bytes than the files still on disk, while acknowledging or dropping', async () => {
    await writeFile(logFile, '');
    const { spool, events } = await collector({ maxEvents: 2 });
    await write(range('a', 6));
    for (let i = 0; i < 3; i++) await events.tick();
    const onDisk = async () => (await spooledBatches(spoolDir)).length;
    expect([spool.waiting, await onDisk()]).toEqual([3, 3]);
    const bytes = spool.bytes;
    const oldest = spool.takeOldest();
    if (!oldest) throw new Error('no batch to ship');
    // Checked in the same turn as the call, before its file is gone.
    const acknowledging = spool.acknowledge(oldest);
    expect([spool.waiting, spool.bytes]).toEqual([3, bytes]);
    await acknowledging;
    expect([spool.waiting, await onDisk()]).toEqual([2, 2]);
    const next = spool.takeOldest();
    if (!next) throw new Error('no batch to ship');
    const discarding = spool.discard(next);
    expect(spool.waiting).toBe(2);
    await discarding;
    expect([spool.waiting, await onDisk()]).toEqual([1, 1]);
  });
});

describe('restarts', () => {
  it('resumes from the saved cursor: every line once, none read again', async () => {
    await writeFile(logFile, '');
    const first = await collector({ maxEvents: 4 });
    await write(range('a', 6));
    await first.events.tick(); // a batch of 4
    await first.events.tick(); // 2 pending, never spooled: the agent "crashes"
    expect(first.events.waiting).toBe(2);
    await write(range('b', 3));

    const second = await collector({ maxEvents: 4 });
    expect(second.spool.spoolId).toBe(first.spool.spoolId);
    await second.events.tick(); // a-5 … b-2: a batch of 4
    await second.events.tick();
    clock += 1000;
    await second.events.tick();
    expect(await shippedIds()).toEqual([...range('a', 6), ...range('b', 3)]);
    expect((await spooledBatches(spoolDir)).map((b) => b.batchId)).toEqual(
      [1, 2, 3].map((n) => `${first.spool.spoolId}-${n}`),
    );
  });

  it('a crash between the batch file and the state resumes after that batch (its name holds the cursor)', async () => {
    await writeFile(logFile, '');
    const first = await collector({ maxBytes: 10 * 1024 * 1024 });
    await write(range('a', 2));
    await first.events.tick();
    clock += 1000;
    await first.events.tick(); // batch 1
    const before = await readFile(path.join(spoolDir, 'spool.json'));
    await write(range('b', 2));
    await first.events.tick();
    clock += 1000;
    await first.events.tick(); // batch 2
    await writeFile(path.join(spoolDir, 'spool.json'), before); // spool.json as if batch 2's state never landed

    const second = await collector();
    expect(second.spool.nextSeq).toBe(3);
    await write(range('c', 1));
    await second.events.tick();
    clock += 1000;
    await second.events.tick();
    expect(await shippedIds()).toEqual([...range('a', 2), ...range('b', 2), 'c-1']);
  });
});

describe('log rotation', () => {
  it('finishes the rotated file (nginx still flushing into it) before the new one: nothing lost, nothing twice', async () => {
    await writeFile(logFile, '');
    const first = await collector();
    await write(range('a', 3));
    await first.events.tick();
    // The agent's rotation: access.log → access.log.1; nginx's workers still write to it until they reopen.
    await rename(logFile, `${logFile}.1`);
    await write(range('b', 2), `${logFile}.1`);
    await first.events.tick();
    await write(range('c', 2)); // nginx reopened: a new access.log
    await first.events.tick();
    clock += 2000;
    await write(['b-3'], `${logFile}.1`); // a late flush of the old buffer
    await first.events.tick();
    expect(await shippedIds()).toEqual([...range('a', 3), ...range('b', 3)]);
    // Quiet for the grace: the old file is finished and the new one read from its start.
    clock += 3000;
    await first.events.tick();
    clock += 1000;
    await first.events.tick();
    expect(await shippedIds()).toEqual([...range('a', 3), ...range('b', 3), ...range('c', 2)]);
  });

  it('after a restart, finishes the rotated file of the saved cursor first, then the newer ones', async () => {
    await writeFile(logFile, '');
    const first = await collector();
    await write(range('a', 2));
    await first.events.tick();
    clock += 1000;
    await first.events.tick();
    await write(range('a', 4).slice(2)); // a-3, a-4: read by nobody before the "crash"
    // Two rotations while the agent was down.
    await rename(logFile, `${logFile}.1`);
    await write(range('b', 2));
    await rename(`${logFile}.1`, `${logFile}.2`);
    await rename(logFile, `${logFile}.1`);
    await write(range('c', 2));

    const second = await collector();
    for (let i = 0; i < 4; i++) {
      await second.events.tick();
      clock += 3000;
    }
    expect(await shippedIds()).toEqual([...range('a', 4), ...range('b', 2), ...range('c', 2)]);
    expect(logs.some((l) => l.event === 'events.log_lost')).toBe(false);
  });
});

describe('a reader more rotations behind than the kept logs', () => {
  it('finishes the file the rotation deleted under it, and says which newer files went unread', async () => {
    await writeFile(logFile, '');
    const { events } = await collector({ maxEvents: 2 });
    await write(range('a', 40));
    await events.tick(); // a-1, a-2: the reader is inside the first file
    const inodes: string[] = [];
    // One file per rotation: b, c, … written and rotated while the reader takes two lines a round.
    const later = 'bcdefghij'.split('');
    for (const name of later) {
      await shiftLogs([logFile]);
      await write([`${name}-1`]); // nginx reopened: a new access.log
      inodes.push((await stat(logFile, { bigint: true })).ino.toString());
      await events.tick();
    }
    // Nine rotations: the first file and then b's were deleted, c's is now the oldest kept.
    expect(later.length).toBe(ROTATED_LOGS_KEPT + 2);
    for (let i = 0; i < 40; i++) {
      clock += 1000;
      await events.tick();
    }
    const ids = await shippedIds();
    expect(ids).toEqual([...range('a', 40), ...later.slice(1).map((name) => `${name}-1`)]);
    expect(logs.filter((l) => l.event === 'events.log_lost')).toEqual([expect.objectContaining({ inode: inodes[0] })]);
  });
});

describe('a spool that cannot be written', () => {
  it('warns once, keeps the events and spools them once it can, the reader waiting meanwhile', async () => {
    await writeFile(logFile, '');
    const { events } = await collector({ maxEvents: 2 });
    // The spool's directory replaced by a file: every write fails (ENOTDIR), even as root.
    await cp(spoolDir, `${spoolDir}.saved`, { recursive: true });
    await rm(spoolDir, { recursive: true });
    await writeFile(spoolDir, '');
    await write(range('a', 5));
    for (let i = 0; i < 3; i++) await events.tick();
    expect(logs.filter((l) => l.event === 'events.spool_unwritable')).toHaveLength(1);
    expect(events.waiting).toBe(2); // one batch waits; the reader took no more
    await rm(spoolDir);
    await rename(`${spoolDir}.saved`, spoolDir);
    for (let i = 0; i < 3; i++) await events.tick();
    clock += 1000;
    await events.tick();
    expect(logs.some((l) => l.event === 'events.spool_writable')).toBe(true);
    expect(await shippedIds()).toEqual(range('a', 5));
  });
});
