import type { AlertKind, CustomerAlertKind, Locale } from '@rampart/contract';
import { CUSTOMER_ALERT_KINDS } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import type { StatisticsReads } from '../analytics/store/statistics-reads.js';
import type { MonitorStatusRepository } from '../monitoring/monitor-status.repository.js';
import type { AlertsRepository, NewDelivery } from './alerts.repository.js';
import type { NotifySettingsService } from './notify-settings.service.js';

/**
 * Alerts (docs/decisions.md "Notifications and alerts"). Anything that notices a problem calls
 * {@link AlertsService.emit}; the alert and one delivery per recipient are written in the caller's
 * transaction (so an alert exists exactly when the change that caused it does), and the alerts job
 * delivers them with retries (alerts.job.ts), each attempt's outcome kept on the delivery row.
 *
 * Kinds raised here: `nodeDown` / `nodeUp` (from the monitors' state changes, one per node per
 * change of its state across the operator's groups) and `attackSpike` (blocked requests of a site
 * over the operator's threshold within its window, at most one per site per window).
 *
 * Kinds the other features raise through `ctx.alerts.emit` (params are the placeholders of
 * alerts.messages.ts):
 * - `certificateRenewalFailed` — an issue or renewal attempt failed (raised by the automatic
 *   certificates job, composition/auto-certificates.ts): `{ operatorId, customerId: site's user,
 *   kind, subject: 'certificate:<id>', dedupKey: 'certificate:<id>:<day>', params: { domain, reason } }`.
 * - `licenceExpiring` — the licence's expiry is near: `{ operatorId, kind, subject: 'licence',
 *   dedupKey: 'licence:<expiry day>:<days left bucket>', params: { expiresAt, days } }`.
 * - `trafficOverPlan` — a site went over its monthly allowance: `{ operatorId, customerId, kind,
 *   subject: 'site:<id>', dedupKey: 'traffic:<site id>:<yyyy-mm>', params: { site, used, plan } }`.
 */
export interface AlertInput {
  readonly operatorId: number;
  /** The customer the alert is about (its own recipients get it too, if it chose the kind). */
  readonly customerId?: number | null;
  readonly kind: AlertKind;
  /** What the alert is about, e.g. `node:12`. */
  readonly subject: string;
  /** The same key raised again is a no-op. */
  readonly dedupKey: string;
  readonly params: Record<string, string | number>;
}

/** The node-state kinds: the last of them about a node says what was last told. */
const NODE_KINDS: readonly AlertKind[] = ['nodeDown', 'nodeUp'];

export class AlertsService {
  constructor(
    private readonly repo: AlertsRepository,
    private readonly settings: NotifySettingsService,
    private readonly monitorStatus: MonitorStatusRepository,
    private readonly analytics: Pick<StatisticsReads, 'blockedPerSiteMinute'>,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    /** Wakes the delivery job once the alert's transaction committed. */
    private readonly wake: () => void,
  ) {}

  /** Raises an alert; false when its dedup key was raised before (or the customer is not the operator's). */
  async emit(input: AlertInput): Promise<boolean> {
    const customerId = input.customerId ?? null;
    if (customerId !== null && !(await this.repo.isCustomerOf(input.operatorId, customerId))) return false;
    return this.transactions.run(async () => {
      const id = await this.repo.insert({ ...input, customerId });
      if (id === null) return false;
      const deliveries = await this.recipients(input.operatorId, customerId, input.kind);
      await this.repo.insertDeliveries(id, deliveries, new Date(this.clock()));
      this.transactions.afterCommit(this.wake);
      return true;
    });
  }

  /** The operator's recipients of `kind`, and the customer's if it chose the kind. */
  private async recipients(operatorId: number, customerId: number | null, kind: AlertKind): Promise<NewDelivery[]> {
    const out: NewDelivery[] = [];
    const add = (channel: NewDelivery['channel'], target: string, language: Locale) => {
      if (!out.some((d) => d.channel === channel && d.target === target)) out.push({ channel, target, language });
    };
    const operator = await this.settings.operatorNotify(operatorId);
    if (operator.kinds.includes(kind)) {
      for (const email of operator.emails) add('email', email, operator.language);
      const bot = operator.telegram ? await this.settings.botOf(operatorId) : null;
      if (bot && bot.chatId !== '') add('telegram', bot.chatId, operator.language);
    }
    if (customerId !== null && (CUSTOMER_ALERT_KINDS as readonly string[]).includes(kind)) {
      const customer = await this.settings.customerNotify(customerId);
      if (customer.kinds.includes(kind as CustomerAlertKind)) {
        for (const email of customer.emails) add('email', email, customer.language);
        if (customer.telegramChatId !== '') add('telegram', customer.telegramChatId, customer.language);
      }
    }
    return out;
  }

  /** An operator's latest alerts with their deliveries (tests, and a later alert history page). */
  recent(operatorId: number, limit: number) {
    return this.repo.recent(operatorId, limit);
  }

  /**
   * A monitor group changed its verdict on a node (called in the probe report's transaction): the
   * node's state across the operator's groups is compared with the last node alert, so a node in
   * several groups, or reported by several monitors at once, raises one alert per change. A node's
   * first `up` (from unknown) raises nothing.
   */
  async nodeStateChanged(operatorId: number, nodeId: number, at: Date, reason: string): Promise<void> {
    const subject = `node:${nodeId}`;
    await this.repo.lock(operatorId, subject);
    const [state] = await this.monitorStatus.statesOf(operatorId, [nodeId]);
    if (!state || (state.state !== 'down' && state.state !== 'up')) return;
    const last = await this.repo.lastKind(operatorId, subject, NODE_KINDS);
    const kind: AlertKind = state.state === 'down' ? 'nodeDown' : 'nodeUp';
    if (kind === last || (kind === 'nodeUp' && last === null)) return;
    const node = await this.repo.node(operatorId, nodeId);
    if (!node) return;
    await this.emit({
      operatorId,
      kind,
      subject,
      dedupKey: `${subject}:${kind}:${at.toISOString()}`,
      params: { node: node.name, ip: node.ips[0] ?? '', at: at.toISOString(), reason: reason || '-' },
    });
  }

  /**
   * Looks for attack spikes: each site's blocked requests (firewall and WAF) within its operator's
   * window, against its operator's threshold. One alert per site per window (the window's number
   * since the epoch is in the dedup key), to the operator and the site's customer.
   */
  async scanSpikes(): Promise<void> {
    const now = Math.floor(this.clock() / 1000);
    // The longest window any operator may choose; each site is then judged by its own operator's.
    // Per minute from the rollup: it counts the nodes' aggregates (refusals a node tallied or
    // collapsed are no raw events) as well as raw events, each request once.
    const rows = await this.analytics.blockedPerSiteMinute(now - 1440 * 60 - 60, now);
    if (rows.length === 0) return;
    const bySite = new Map<number, { minute: number; n: number }[]>();
    for (const row of rows) {
      const list = bySite.get(row.siteId) ?? [];
      list.push({ minute: row.minute, n: row.blocked });
      bySite.set(row.siteId, list);
    }
    for (const site of await this.repo.sitesOf([...bySite.keys()])) {
      const notify = await this.settings.frequency(site.operatorId);
      const window = notify.spikeWindowMinutes * 60;
      const blocked = (bySite.get(site.id) ?? [])
        .filter((m) => m.minute > now - window - 60)
        .reduce((sum, m) => sum + m.n, 0);
      if (blocked < notify.spikeThreshold) continue;
      await this.emit({
        operatorId: site.operatorId,
        customerId: site.customerId,
        kind: 'attackSpike',
        subject: `site:${site.id}`,
        dedupKey: `spike:${site.id}:${Math.floor(now / window)}`,
        params: { site: site.name, blocked, minutes: notify.spikeWindowMinutes, threshold: notify.spikeThreshold },
      });
    }
  }
}
