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
    const started = Date.now();
    // …so its wait returns at once instead of sleeping until the re-check.
    expect(await changes.next(5000, undefined, seen)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    // With no change since, it waits as before.
    expect(await changes.next(10, undefined, changes.generation)).toBe(false);
  });
});
