import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigChanges } from '../changes.js';
import { ChangeBroadcast, COALESCE_MS } from './change-broadcast.js';

const quiet = { info: () => {}, warn: () => {} };
const atOnce = (fn: () => void) => fn();

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A broadcast whose NOTIFYs are recorded (payloads in order). */
function recorded(afterCommit: (fn: () => void) => void = atOnce) {
  const sent: string[] = [];
  const broadcast = new ChangeBroadcast(
    async (payload) => {
      sent.push(payload);
    },
    afterCommit,
    quiet,
  );
  return { broadcast, sent };
}

describe('ChangeBroadcast', () => {
  it('sends one NOTIFY for a burst of bumps at once, and one more after the last bump of the burst', async () => {
    const { broadcast, sent } = recorded();
    const config = new ConfigChanges();
    const commands = new ConfigChanges();
    broadcast.share('config', config);
    broadcast.share('commands', commands);

    config.bump();
    // The first bump is not held back: the other control planes hear of it at once.
    expect(sent).toEqual([`${broadcast.origin} config`]);
    for (let i = 0; i < 1000; i++) config.bump();
    commands.bump();
    expect(sent).toHaveLength(1);
    // Within the window nothing more is sent; at its end one NOTIFY carries every signal bumped.
    await vi.advanceTimersByTimeAsync(COALESCE_MS - 1);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([`${broadcast.origin} config`, `${broadcast.origin} commands,config`]);
    // Nothing was pending any more: no further NOTIFY.
    await vi.advanceTimersByTimeAsync(10 * COALESCE_MS);
    expect(sent).toHaveLength(2);
    // Local waiters were woken by every bump all the same.
    expect(config.generation).toBe(1001);

    // A burst spread over several windows: at most one NOTIFY per window, and the last bump is sent.
    sent.length = 0;
    for (let ms = 0; ms < 500; ms += 5) {
      config.bump();
      await vi.advanceTimersByTimeAsync(5);
    }
    await vi.advanceTimersByTimeAsync(COALESCE_MS);
    expect(sent.length).toBeLessThanOrEqual(500 / COALESCE_MS + 1);
    expect(sent.length).toBeGreaterThanOrEqual(500 / COALESCE_MS);
    const last = sent.length;
    config.bump();
    await vi.advanceTimersByTimeAsync(COALESCE_MS);
    expect(sent.length).toBe(last + 1);
  });

  it('sends only once the bump’s transaction committed', async () => {
    const held: Array<() => void> = [];
    const { broadcast, sent } = recorded((fn) => held.push(fn));
    const config = new ConfigChanges();
    broadcast.share('config', config);
    config.bump();
    expect(config.generation).toBe(1);
    expect(sent).toEqual([]);
    for (const fn of held) fn();
    expect(sent).toEqual([`${broadcast.origin} config`]);
  });

  it('bumps a received signal without sending, and ignores its own NOTIFYs: no echo, no loop', async () => {
    // Two processes on one channel; PostgreSQL delivers a NOTIFY to every listener, the sender's too.
    const listeners: ChangeBroadcast[] = [];
    const sent: string[] = [];
    const channel = async (payload: string) => {
      sent.push(payload);
      for (const listener of listeners) listener.received(payload);
    };
    const a = new ChangeBroadcast(channel, atOnce, quiet);
    const b = new ChangeBroadcast(channel, atOnce, quiet);
    listeners.push(a, b);
    const [configA, configB, commandsB] = [new ConfigChanges(), new ConfigChanges(), new ConfigChanges()];
    a.share('config', configA);
    b.share('config', configB);
    b.share('commands', commandsB);

    const waiting = configB.next(60_000);
    configA.bump();
    await vi.advanceTimersByTimeAsync(0);
    expect(await waiting).toBe(true);
    expect(configB.generation).toBe(1);
    // A did not bump itself again on its own NOTIFY, and B's bump was not sent back.
    expect(configA.generation).toBe(1);
    await vi.advanceTimersByTimeAsync(10 * COALESCE_MS);
    expect(sent).toEqual([`${a.origin} config`]);
    // Only the named signal is bumped; an unknown name or a malformed payload is ignored.
    expect(commandsB.generation).toBe(0);
    b.received(`${a.origin} other`);
    b.received('garbage');
    expect([configB.generation, commandsB.generation]).toEqual([1, 0]);
  });

  it('sends what is pending when closed, and nothing after', async () => {
    const { broadcast, sent } = recorded();
    const config = new ConfigChanges();
    broadcast.share('config', config);
    config.bump();
    config.bump();
    await broadcast.close();
    expect(sent).toHaveLength(2);
    config.bump();
    await vi.advanceTimersByTimeAsync(10 * COALESCE_MS);
    expect(sent).toHaveLength(2);
  });
});
