import { formatBytesText } from '@rampart/contract';
import type { ConfigChanges } from '../../platform/changes.js';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { PassLoop } from '../../platform/pass-loop.js';
import type { AlertInput } from '../alerts/alerts.service.js';
import type { TrafficRepository, UsageSite } from './traffic.repository.js';

/** How often the traffic check runs by default. */
export const TRAFFIC_CHECK_TICK_MS = 60_000;

/** Bytes each of the sites served in a calendar month (UTC), from the analytics store. */
export type MonthBytes = (siteIds: readonly number[], year: number, month: number) => Promise<Map<number, number>>;

/** The calendar month (UTC) of `ms`, and its 'YYYY-MM' key. */
export function monthOf(ms: number): { year: number; month: number; key: string } {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  return { year, month, key: `${year}-${String(month).padStart(2, '0')}` };
}

/** A site's allowance for the month: the product's plus the extra plans', or null when unlimited. */
export function allowanceOf(site: Pick<UsageSite, 'monthlyTraffic'>, extra: number): number | null {
  return site.monthlyTraffic > 0 ? site.monthlyTraffic + extra : null;
}

/**
 * The traffic check (docs/decisions.md "Traffic packages"): a site whose bytes served this month
 * (UTC) went over its allowance is restricted as its product says and the operator (and the
 * customer, if it chose the kind) gets the `trafficOverPlan` alert; a restricted site that is
 * under its allowance again (an extra plan, a larger product allowance, a new month) is lifted.
 * A site the operator lifted by hand is left alone for the rest of that month.
 */
export class TrafficCheck {
  private readonly loop: PassLoop;

  constructor(
    private readonly repo: TrafficRepository,
    private readonly monthBytes: MonthBytes,
    private readonly emit: (alert: AlertInput) => Promise<boolean>,
    private readonly transactions: Transactions,
    private readonly changes: ConfigChanges,
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

  /** Every watched site: on a product with an allowance, or restricted now. */
  async pass(): Promise<void> {
    await this.review(await this.repo.watched());
  }

  /** These sites only (after their extra plans changed). */
  async reviewSites(siteIds: readonly number[]): Promise<void> {
    await this.review(await this.repo.usageSitesByIds([...new Set(siteIds)]));
  }

  private async review(rows: UsageSite[]): Promise<void> {
    if (rows.length === 0) return;
    const { year, month, key } = monthOf(this.clock());
    const ids = rows.map((row) => row.siteId);
    const [used, extra] = await Promise.all([
      this.monthBytes(ids, year, month),
      this.repo.extraBytes(ids, year, month),
    ]);
    let changed = false;
    for (const row of rows) {
      const allowance = allowanceOf(row, extra.get(row.siteId) ?? 0);
      const bytes = used.get(row.siteId) ?? 0;
      const over = allowance !== null && bytes > allowance;
      if (over && row.restriction === null && row.liftedMonth !== key) {
        changed =
          (await this.transactions.run(async () => {
            if (!(await this.repo.restrict(row.siteId, row.overTraffic))) return false;
            await this.emit({
              operatorId: row.ownerId,
              customerId: row.userId,
              kind: 'trafficOverPlan',
              subject: `site:${row.siteId}`,
              dedupKey: `traffic:${row.siteId}:${key}`,
              params: { site: row.siteName, used: formatBytesText(bytes), plan: formatBytesText(allowance) },
            });
            return true;
          })) || changed;
      } else if (!over && row.restriction !== null) {
        const lifted = await this.transactions.run(() => this.repo.lift({ ownerId: row.ownerId }, [row.siteId], null));
        changed = lifted.length > 0 || changed;
      }
    }
    // What the nodes serve changed: their snapshot polls wake.
    if (changed) this.changes.bump();
  }
}
