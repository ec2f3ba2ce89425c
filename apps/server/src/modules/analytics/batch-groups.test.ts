import { describe, expect, it } from 'vitest';
import type { IngestResult, StoredBatch } from './analytics-store.js';
import { BatchGroups } from './batch-groups.js';

/** A batch of `events` empty events (the groups only count them). */
const batch = (batchId: string, events = 1): StoredBatch => ({
  batchId,
  nodeId: 1,
  receivedAt: 0,
  dropped: 0,
  events: Array.from({ length: events }, () => ({}) as StoredBatch['events'][number]),
});

/** A store whose writes finish when the test says: each call's batch ids, and a way to end it. */
function heldStore() {
  const calls: { ids: string[]; finish: (fail?: boolean) => void }[] = [];
  const write = (batches: readonly StoredBatch[]) =>
    new Promise<IngestResult[]>((resolve, reject) => {
      calls.push({
        ids: batches.map((b) => b.batchId),
        finish: (fail = false) =>
          fail
            ? reject(new Error('refused'))
            : resolve(batches.map((b) => ({ stored: b.events.length, duplicate: false }))),
      });
    });
  return { calls, write };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchGroups', () => {
  it('writes one group at a time with one lane, the batches that waited together', async () => {
    const { calls, write } = heldStore();
    const groups = new BatchGroups(100, write);
    // The first batch goes at once, alone; those that come while it is written wait together.
    const a = groups.add(batch('a'));
    const b = groups.add(batch('b'));
    const c = groups.add(batch('c'));
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['a']]);
    calls[0]?.finish();
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['a'], ['b', 'c']]);
    calls[1]?.finish();
    expect(await Promise.all([a, b, c])).toEqual(Array(3).fill({ stored: 1, duplicate: false }));
  });

  it('writes up to its lanes of groups at once, each up to the events it may hold', async () => {
    const { calls, write } = heldStore();
    const groups = new BatchGroups(10, write, undefined, 2);
    const all = [
      groups.add(batch('a', 6)),
      groups.add(batch('b', 6)),
      groups.add(batch('c', 4)),
      groups.add(batch('d', 3)),
      groups.add(batch('e', 5)),
    ];
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['a'], ['b']]);
    calls[1]?.finish();
    await tick();
    // The free lane takes c and d (7 events; e would make 12); e waits for the next.
    expect(calls.map((c) => c.ids)).toEqual([['a'], ['b'], ['c', 'd']]);
    calls[0]?.finish();
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['a'], ['b'], ['c', 'd'], ['e']]);
    calls[2]?.finish();
    calls[3]?.finish();
    expect((await Promise.all(all)).map((r) => r.stored)).toEqual([6, 6, 4, 3, 5]);
  });

  it('keeps a batch whose id is being written until that group ends, passing it over for others', async () => {
    const { calls, write } = heldStore();
    const groups = new BatchGroups(100, write, undefined, 2);
    const first = groups.add(batch('x'));
    await tick();
    const again = groups.add(batch('x'));
    const other = groups.add(batch('y'));
    await tick();
    // The free lane takes y, not the second x.
    expect(calls.map((c) => c.ids)).toEqual([['x'], ['y']]);
    calls[1]?.finish();
    await tick();
    expect(calls).toHaveLength(2);
    calls[0]?.finish();
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['x'], ['y'], ['x']]);
    calls[2]?.finish();
    await Promise.all([first, again, other]);
  });

  it('puts a batch sent twice while another group is written into one group (the store counts it once)', async () => {
    const { calls, write } = heldStore();
    const groups = new BatchGroups(100, write);
    const hold = groups.add(batch('h'));
    const twice = [groups.add(batch('z')), groups.add(batch('z'))];
    await tick();
    calls[0]?.finish();
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['h'], ['z', 'z']]);
    calls[1]?.finish();
    await Promise.all([hold, ...twice]);
  });

  it('writes a failed group again batch by batch, so only the refused batch fails', async () => {
    const { calls, write } = heldStore();
    const groups = new BatchGroups(100, write, undefined, 2);
    const holds = [groups.add(batch('h1')), groups.add(batch('h2'))];
    const good = groups.add(batch('g'));
    const bad = groups.add(batch('r'));
    await tick();
    calls[0]?.finish();
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['h1'], ['h2'], ['g', 'r']]);
    calls[2]?.finish(true);
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['h1'], ['h2'], ['g', 'r'], ['g']]);
    calls[3]?.finish();
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['h1'], ['h2'], ['g', 'r'], ['g'], ['r']]);
    calls[4]?.finish(true);
    await expect(good).resolves.toEqual({ stored: 1, duplicate: false });
    await expect(bad).rejects.toThrow('refused');
    calls[1]?.finish();
    await Promise.all(holds);
  });

  it('is settled only when every lane is done', async () => {
    const { calls, write } = heldStore();
    const groups = new BatchGroups(1, write, undefined, 2);
    const sent = [groups.add(batch('a')), groups.add(batch('b')), groups.add(batch('c'))];
    await tick();
    let settled = false;
    const done = groups.settled().then(() => {
      settled = true;
    });
    calls[0]?.finish();
    await tick();
    calls[1]?.finish();
    await tick();
    expect(settled).toBe(false);
    calls[2]?.finish();
    await done;
    expect(settled).toBe(true);
    await Promise.all(sent);
  });
});
