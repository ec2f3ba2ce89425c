import type { FastifyBaseLogger } from 'fastify';
import type { ConfigChanges } from '../../platform/changes.js';
import type { DomainProofService } from './domain-proof.service.js';

/** Claims one round looks at; the rest wait for the next round (longest unchecked first). */
const ROUND_SIZE = 50;

/**
 * Looks for proof of control of waiting claims every `intervalSeconds` (0 = never), through the
 * same resolvers as the on-demand check, and wakes the nodes when a claim went live or was lost.
 */
export class DomainProofJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly proof: DomainProofService,
    private readonly changes: ConfigChanges,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(intervalSeconds: number): void {
    if (intervalSeconds <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.round().finally(() => (this.running = undefined));
    }, intervalSeconds * 1000);
    this.timer.unref();
  }

  /** One round; failures are logged, never thrown (the next round tries again). */
  async round(): Promise<void> {
    try {
      const looked = await this.proof.checkWaiting(ROUND_SIZE);
      if (looked > 0) this.changes.bump();
    } catch (err) {
      this.log.error({ err }, 'domain proof round failed');
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
