import { describe, expect, it } from 'vitest';
import type { IngestResult } from '../src/modules/analytics/analytics-store.js';
import { BatchGroups } from '../src/modules/analytics/batch-groups.js';

// The stores' group commit (batch-groups.ts): a batch whose sender went while it waited is never written.

describe('BatchGroups', () => {
  it('drops a waiting batch whose signal aborted, and writes the others', async () => {
    const written: string[][] = [];
    let release = () => {};
    const first = new Promise<void>((r) => {
      release = r;
    });
    const groups = new BatchGroups<{ id: string }>(
      100,
      async (batches) => {
        written.push(batches.map((b) => b.id));
        if (written.length === 1) await first;
        return batches.map((): IngestResult => ({ stored: 1, duplicate: false }));
      },
      (drain) => drain(),
      () => 1,
    );
    const a = groups.add({ id: 'a' });
    const gone = new AbortController();
    const b = groups.add({ id: 'b' }, gone.signal).catch((e: unknown) => e);
    const c = groups.add({ id: 'c' });
    // 'a' is being written; 'b' and 'c' wait. b's sender goes.
    gone.abort(new Error('client gone'));
    release();
    expect(await a).toEqual({ stored: 1, duplicate: false });
    expect(await c).toEqual({ stored: 1, duplicate: false });
    expect(((await b) as Error).message).toBe('client gone');
    expect(written).toEqual([['a'], ['c']]);
  });
});
