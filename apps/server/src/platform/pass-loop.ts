/**
 * A background job's loop of passes: one pass at a time, every `tickMs` (0: only when woken, as
 * tests drive it) and whenever woken; a wake-up during a pass runs one more pass right after it.
 * A failed pass goes to `onError` and the next tick tries again.
 */
export class PassLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private halted = true;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Whether the loop is stopped (a long pass checks it between its steps). */
  get stopped(): boolean {
    return this.halted;
  }

  start(tickMs: number): void {
    this.halted = false;
    if (tickMs > 0 && this.timer === null) {
      this.timer = setInterval(() => this.wake(), tickMs);
      this.timer.unref();
    }
  }

  /** Stops the ticks and waits for the pass running. */
  async stop(): Promise<void> {
    this.halted = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Runs a pass now (or right after the one running); nothing while stopped. */
  wake(): void {
    if (this.halted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((e) => this.onError(e))
      .finally(() => {
        this.running = null;
        if (this.again && !this.halted) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves once no pass is running (tests, before they drive a pass themselves). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
