import { describe, expect, it } from 'vitest';
import { memoized, type PlaneMemo } from './snapshot-plane.js';

/** A thenable that does its work on every `then`, as drizzle's query builders do. */
function query(value: number) {
  let runs = 0;
  const thenable: PromiseLike<number> = {
    // biome-ignore lint/suspicious/noThenProperty: the point of the test is a thenable
    then(onFulfilled, onRejected) {
      runs += 1;
      return Promise.resolve(value).then(onFulfilled, onRejected);
    },
  };
  return { thenable, runs: () => runs };
}

describe('memoized', () => {
  it('runs a query builder once however many nodes await it', async () => {
    const memo: PlaneMemo = new Map();
    const q = query(7);
    const made = () => q.thenable;
    const answers = await Promise.all(Array.from({ length: 5 }, () => memoized(memo, 'ports|1', made)));
    expect(answers).toEqual([7, 7, 7, 7, 7]);
    expect(await memoized(memo, 'ports|1', made)).toBe(7);
    expect(q.runs()).toBe(1);
  });

  it('keeps no failure: the next caller makes it again', async () => {
    const memo: PlaneMemo = new Map();
    await expect(memoized(memo, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memoized(memo, 'k', () => Promise.resolve(1))).toBe(1);
  });
});
