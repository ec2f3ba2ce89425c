/**
 * Exponential backoff with jitter: the n-th consecutive failure waits between half and all of
 * min(maxMs, minMs · 2^n). Never zero, so a failing call can never spin.
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly minMs = 500,
    private readonly maxMs = 10_000,
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay before the next attempt; counts one more failure. */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.minMs * 2 ** Math.min(this.failures, 20));
    this.failures++;
    return Math.max(1, Math.round(ceiling / 2 + (this.random() * ceiling) / 2));
  }

  reset(): void {
    this.failures = 0;
  }

  get consecutiveFailures(): number {
    return this.failures;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
