import { LICENSE_WARN_DAYS } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { PassLoop } from '../../platform/pass-loop.js';
import type { AlertInput } from '../alerts/alerts.service.js';
import type { LicensesRepository } from './licenses.repository.js';

const DAY_MS = 86_400_000;
/** How often the licences are looked at by default: hourly (the warning counts days). */
export const LICENCE_EXPIRY_TICK_MS = 3_600_000;
/** The days-left marks at which the operator is told again: 30, 7 and 1 day before the expiry. */
const MARKS = [1, 7, LICENSE_WARN_DAYS] as const;

/** The smallest mark at or above the days left, or null when the expiry is further away. */
export function expiryMark(daysLeft: number): number | null {
  return MARKS.find((mark) => daysLeft <= mark) ?? null;
}

/**
 * The "licence about to expire" alert (docs/decisions.md "Licences"): for each operator whose
 * applicable licence expires within LICENSE_WARN_DAYS, `licenceExpiring` is raised once per mark
 * (30, 7 and 1 day left) of that expiry: a renewed licence (a new expiry) starts again.
 */
export class LicenceExpiryCheck {
  private readonly loop: PassLoop;

  constructor(
    private readonly licenses: LicensesRepository,
    private readonly emit: (alert: AlertInput) => Promise<boolean>,
    private readonly clock: Clock,
    onError: (error: unknown) => void,
  ) {
    this.loop = new PassLoop(() => this.pass(), onError);
  }

  start(tickMs: number): void {
    this.loop.start(tickMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async pass(): Promise<void> {
    const now = this.clock();
    for (const operatorId of await this.licenses.licensedOperators()) {
      const licence = await this.licenses.current(operatorId);
      if (!licence) continue;
      const msLeft = licence.expiresAt.getTime() - now;
      if (msLeft <= 0) continue;
      const days = Math.floor(msLeft / DAY_MS);
      const mark = expiryMark(days);
      if (mark === null) continue;
      const expiresAt = licence.expiresAt.toISOString().slice(0, 10);
      await this.emit({
        operatorId,
        kind: 'licenceExpiring',
        subject: 'licence',
        dedupKey: `licence:${expiresAt}:${mark}`,
        params: { expiresAt, days },
      });
    }
  }
}
