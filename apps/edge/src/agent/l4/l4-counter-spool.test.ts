import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { L4CounterRecord } from '@rampart/contract';
import { l4CounterBatchSchema } from '@rampart/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventShipper } from '../events/event-shipper.js';
import type { NodeClient } from '../node-api/node-client.js';
import { L4CounterSpool } from './l4-counter-spool.js';
import { L4MinuteAccumulator } from './l4-counters.js';

const record = (over: Partial<L4CounterRecord> = {}): L4CounterRecord => ({
  minute: 600,
  portId: 3,
  outcome: 'drop',
  dimension: 'protocol',
  key: 'tcp',
  packets: 2,
  bytes: 120,
  ...over,
});

describe('the layer-4 counter spool and its shipping', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rampart-l4spool-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('sums readings per minute and hands on the minutes that ended', () => {
    const acc = new L4MinuteAccumulator();
    acc.add([record(), record({ packets: 3, bytes: 180 }), record({ minute: 660 })]);
    acc.add([record({ outcome: 'pass' })]);
    expect(acc.take(660)).toEqual([record({ packets: 5, bytes: 300 }), record({ outcome: 'pass' })]);
    expect(acc.take(660)).toEqual([]);
    expect(acc.take(null)).toEqual([record({ minute: 660 })]);
  });

  it('ships the spooled batches oldest first, once acknowledged; a retry sends the same batch', async () => {
    const spool = new L4CounterSpool(dir);
    await spool.open();
    await spool.append([record()]);
    await spool.append([record({ minute: 660 })]);
    const sent: { batchId: string; minute: number }[] = [];
    let fail = 1;
    const controller = new AbortController();
    const client = {
      shipL4Counters: async (bytes: Uint8Array) => {
        const batch = l4CounterBatchSchema.parse(JSON.parse(gunzipSync(bytes).toString('utf8')));
        sent.push({ batchId: batch.batchId, minute: batch.records[0]?.minute ?? 0 });
        if (fail-- > 0) throw new Error('the answer was lost');
        if (spool.waiting === 1) setTimeout(() => controller.abort(), 10);
        return { stored: batch.records.length, duplicate: false };
      },
    } as unknown as NodeClient;
    await new EventShipper({
      spool,
      client: () => client,
      log: () => {},
      signal: controller.signal,
      name: 'l4counters',
      idleMs: 5,
      backoffMinMs: 1,
      backoffMaxMs: 2,
      ship: (c, bytes) => c.shipL4Counters(bytes),
    }).run();
    expect(sent.map((s) => s.minute)).toEqual([600, 600, 660]);
    expect(sent[0]?.batchId).toBe(sent[1]?.batchId);
    expect(sent[1]?.batchId).not.toBe(sent[2]?.batchId);
    expect(spool.waiting).toBe(0);
    expect((await readdir(dir)).filter((f) => f.endsWith('.gz'))).toEqual([]);
  });

  it('keeps its batches and sequence across a restart, and drops the oldest past its bound', async () => {
    const spool = new L4CounterSpool(dir, 2);
    await spool.open();
    await spool.append([record()]);
    await spool.append([record({ minute: 660 })]);
    await spool.append([record({ minute: 720 }), record({ minute: 720, outcome: 'pass' })]);
    expect(spool.waiting).toBe(2);
    expect(spool.dropped).toBe(1);
    const again = new L4CounterSpool(dir, 2);
    await again.open();
    expect(again.waiting).toBe(2);
    const first = again.takeOldest();
    expect(first?.count).toBe(1);
    await again.acknowledge(first as NonNullable<typeof first>);
    await again.append([record({ minute: 780 })]);
    const seqs: number[] = [];
    for (let b = again.takeOldest(); b !== null; b = again.takeOldest()) {
      seqs.push(b.seq);
      await again.acknowledge(b);
    }
    expect(seqs).toEqual([3, 4]);
  });
});
