import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ConfigChanges } from './changes.js';

describe('ConfigChanges', () => {
  it('wakes a waiter at the next bump, and times out without one', async () => {
    const changes = new ConfigChanges();
    const woken = changes.next(5000);
    changes.bump();
    expect(await woken).toBe(true);
    expect(await changes.next(10)).toBe(false);
  });

  it('does not miss a bump between reading the generation and waiting', async () => {
    const changes = new ConfigChanges();
    const seen = changes.generation;
    // A change lands while the waiter reads its data…
    changes.bump();
    // …so its wait returns at once instead of sleeping until the re-check: true only comes from a
    // bump (the wait's end answers false), and none is made after it starts.
    expect(await changes.next(60_000, undefined, seen)).toBe(true);
    // With no change since, it waits as before.
    expect(await changes.next(10, undefined, changes.generation)).toBe(false);
  }, 90_000);

  it('holds a poll: looks again after a bump made while it looked, answers null when the wait ends or is aborted', async () => {
    const changes = new ConfigChanges();
    let looks = 0;
    const started = Date.now();
    // The first look sees nothing while a change lands; the look after it finds the answer at once.
    const answer = await changes.hold(
      async () => {
        looks += 1;
        if (looks === 1) changes.bump();
        return { answer: looks === 2 ? 'changed' : null, recheckMs: 60_000 };
      },
      120,
      new AbortController().signal,
    );
    expect(answer).toBe('changed');
    expect(looks).toBe(2);
    // The second look came from the bump, not from the re-check (60 s after the first look).
    expect(Date.now() - started).toBeLessThan(60_000);
    // Nothing comes: null once the wait ends, having looked again at each re-check.
    looks = 0;
    const none = await changes.hold(
      async () => {
        looks += 1;
        return { answer: null, recheckMs: 20 };
      },
      0.2,
      new AbortController().signal,
    );
    expect(none).toBeNull();
    expect(looks).toBeGreaterThan(2);
    // A hang-up ends the wait at once.
    const hangUp = new AbortController();
    const held = changes.hold(async () => ({ answer: null, recheckMs: 5000 }), 10, hangUp.signal);
    hangUp.abort();
    expect(await held).toBeNull();
  }, 90_000);

  it('listens once to a signal however many waits it ends, and ends every wait on it when it aborts', async () => {
    const changes = new ConfigChanges();
    const hangUp = new AbortController();
    for (let i = 0; i < 5; i++) expect(await changes.next(1, hangUp.signal)).toBe(false);
    changes.bump();
    const woken = changes.next(5000, hangUp.signal);
    changes.bump();
    expect(await woken).toBe(true);
    expect(getEventListeners(hangUp.signal, 'abort')).toHaveLength(1);
    const started = Date.now();
    const held = [changes.next(60_000, hangUp.signal), changes.next(60_000, hangUp.signal)];
    hangUp.abort();
    expect(await Promise.all(held)).toEqual([false, false]);
    // Ended by the abort, not by their own end (60 s).
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(await changes.next(60_000, hangUp.signal)).toBe(false);
  }, 90_000);
});
