import type { Clock } from '../../platform/clock.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { PassLoop } from '../../platform/pass-loop.js';
import { alertMessage } from './alerts.messages.js';
import type { AlertsRepository, DueDelivery } from './alerts.repository.js';
import type { AlertsService } from './alerts.service.js';
import { type NotifySettingsService, reasonOf } from './notify-settings.service.js';
import type { TelegramClient } from './telegram.client.js';

export const ALERTS_TICK_MS = 5000;
/** Attempts per delivery before it is failed for good, and the waits between them (30 s doubling to 1 h). */
export const ALERT_MAX_ATTEMPTS = 6;
const BACKOFF = { base: 30_000, max: 3_600_000 };
/** A claimed delivery is not taken again for this long (a sender's own timeouts are shorter). */
const LEASE_MS = 120_000;
const BATCH = 50;
/** Attack spikes are looked for this often. */
const SPIKE_SCAN_MS = 60_000;

/**
 * Delivers alerts (alerts.service.ts): every pass claims the due deliveries and sends each through
 * its operator's channels, recording the outcome on the delivery row: sent, or retried with
 * backoff, or failed after {@link ALERT_MAX_ATTEMPTS}. Once a minute it also looks for attack spikes.
 */
export class AlertsJob {
  private readonly loop: PassLoop;
  private lastScan = 0;

  constructor(
    private readonly repo: AlertsRepository,
    private readonly alerts: AlertsService,
    private readonly settings: NotifySettingsService,
    private readonly mailer: Mailer,
    private readonly telegram: TelegramClient,
    private readonly clock: Clock,
    private readonly tickMs: number,
    onError: (error: unknown) => void,
  ) {
    this.loop = new PassLoop(() => this.pass(), onError);
  }

  start(): void {
    this.loop.start(this.tickMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Runs a pass now (or right after the one running); nothing while stopped. */
  wake(): void {
    this.loop.wake();
  }

  /** Waits for the pass a wake-up started, then runs one (tests drive the job so). */
  async drain(options: { scan?: boolean } = {}): Promise<void> {
    await this.loop.idle();
    await this.pass(options);
  }

  /** One pass: spikes when a scan is due, then the due deliveries. */
  async pass(options: { scan?: boolean } = {}): Promise<void> {
    const now = this.clock();
    if (options.scan ?? now - this.lastScan >= SPIKE_SCAN_MS) {
      this.lastScan = now;
      await this.alerts.scanSpikes();
    }
    for (;;) {
      const due = await this.repo.claimDue(new Date(this.clock()), LEASE_MS, BATCH);
      for (const delivery of due) await this.deliver(delivery);
      if (due.length < BATCH) return;
    }
  }

  private async deliver(d: DueDelivery): Promise<void> {
    const message = alertMessage(d.kind, d.params, d.language);
    try {
      if (d.channel === 'email') {
        await this.mailer.send({ to: d.target, subject: message.subject, text: message.text }, d.operatorId);
      } else {
        const bot = await this.settings.botOf(d.operatorId);
        if (!bot) throw new Error('the operator has no Telegram bot set');
        await this.telegram.sendMessage(d.operatorId, bot.token, d.target, `${message.subject}\n\n${message.text}`);
      }
    } catch (error) {
      const attempts = d.attempts + 1;
      const wait = Math.min(BACKOFF.base * 2 ** (attempts - 1), BACKOFF.max);
      await this.repo.attemptFailed(
        d.id,
        reasonOf(error),
        attempts >= ALERT_MAX_ATTEMPTS ? null : new Date(this.clock() + wait),
      );
      return;
    }
    await this.repo.sent(d.id, new Date(this.clock()));
  }
}
