/**
 * Tells the snapshot builder that configuration may have changed. Every successful state-changing
 * console call bumps the generation (one hook in app.ts, so no write path can forget it); waiters
 * then rebuild and compare content hashes, so a bump that changed nothing for a node sends it
 * nothing. In-process only: with several control-plane processes on one PostgreSQL, the others
 * notice on their periodic re-check (see SnapshotService) — LISTEN/NOTIFY is the later upgrade.
 */
export class ConfigChanges {
  private current = 0;
  private waiters = new Set<() => void>();

  get generation(): number {
    return this.current;
  }

  bump(): void {
    this.current += 1;
    const woken = this.waiters;
    this.waiters = new Set();
    for (const wake of woken) wake();
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
      const done = (bumped: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        signal?.removeEventListener('abort', abort);
        resolve(bumped);
      };
      const wake = () => done(true);
      const abort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      this.waiters.add(wake);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}
