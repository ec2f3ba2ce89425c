/**
 * Tells the snapshot builder that configuration may have changed. Every successful state-changing
 * console call bumps the generation (one hook in app.ts, so no write path can forget it); waiters
 * then rebuild and compare content hashes, so a bump that changed nothing for a node sends it
 * nothing. The same class wakes the node command polls (a second instance, in composition/edge.ts).
 * With several control-plane processes on one PostgreSQL, a local bump is also published to the
 * others and a bump published by another arrives through {@link ConfigChanges.bumpFromElsewhere}
 * (platform/db/change-broadcast.ts, LISTEN/NOTIFY); on the embedded PGlite it stays in-process.
 */
export class ConfigChanges {
  private current = 0;
  private waiters = new Set<() => void>();
  /**
   * The waits on each signal, woken by one listener per signal: a held poll or stream waits once
   * per change, and adding and removing an abort listener each time (EventTarget's checks) cost
   * more than the rest of the wait, for every node a change wakes.
   */
  private readonly onAbort = new WeakMap<AbortSignal, Set<() => void>>();
  private published: () => void = () => {};

  get generation(): number {
    return this.current;
  }

  /** Installs what tells other processes about each local bump (one publisher: ChangeBroadcast). */
  publishTo(publish: () => void): void {
    this.published = publish;
  }

  /** A change made by this process: wakes the local waiters and tells the other processes. */
  bump(): void {
    this.wake();
    this.published();
  }

  /** A change another process published: wakes the local waiters and tells nobody (no echo, no loop). */
  bumpFromElsewhere(): void {
    this.wake();
  }

  private wake(): void {
    this.current += 1;
    const woken = this.waiters;
    this.waiters = new Set();
    for (const wake of woken) wake();
  }

  /**
   * A held poll: calls `look` until it answers something (not null), and answers that, or null once
   * `waitSeconds` passed or `signal` aborted. Between looks it waits for a bump or the look's
   * `recheckMs`. The generation is read before each look, so a bump made while `look` reads the
   * data wakes the wait at once: a change is never missed.
   */
  async hold<T>(
    look: () => Promise<{ answer: T | null; recheckMs: number }>,
    waitSeconds: number,
    signal: AbortSignal,
  ): Promise<T | null> {
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      const seen = this.current;
      const { answer, recheckMs } = await look();
      if (answer !== null) return answer;
      const left = deadline - Date.now();
      if (left <= 0 || signal.aborted) return null;
      await this.next(Math.min(left, recheckMs), signal, seen);
      if (signal.aborted) return null;
    }
  }

  /**
   * Resolves at the next bump or after `ms`, whichever is first; true when a bump woke it. With
   * `seen` (the generation read before the caller looked at the data), a bump that came in between
   * resolves it at once: a waiter that read, then waits, never misses a change made meanwhile.
   */
  next(ms: number, signal?: AbortSignal, seen?: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve(false);
      if (seen !== undefined && seen !== this.current) return resolve(true);
      const aborts = signal ? this.abortsOf(signal) : undefined;
      const done = (bumped: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        aborts?.delete(abort);
        resolve(bumped);
      };
      const wake = () => done(true);
      const abort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      this.waiters.add(wake);
      aborts?.add(abort);
    });
  }

  /** The waits on `signal`, which its one abort listener ends (registered at its first wait). */
  private abortsOf(signal: AbortSignal): Set<() => void> {
    let aborts = this.onAbort.get(signal);
    if (!aborts) {
      const waits = new Set<() => void>();
      aborts = waits;
      this.onAbort.set(signal, waits);
      signal.addEventListener(
        'abort',
        () => {
          for (const end of [...waits]) end();
        },
        { once: true },
      );
    }
    return aborts;
  }
}
