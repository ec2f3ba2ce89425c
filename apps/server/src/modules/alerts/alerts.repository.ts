import type { AlertKind, Locale } from '@rampart/contract';
import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { accounts, alertDeliveries, alerts, nodes, sites } from '../../platform/db/schema.js';

export interface NewAlert {
  readonly operatorId: number;
  readonly customerId: number | null;
  readonly kind: AlertKind;
  readonly subject: string;
  readonly params: Record<string, string | number>;
  readonly dedupKey: string;
}

export interface NewDelivery {
  readonly channel: 'email' | 'telegram';
  readonly target: string;
  readonly language: Locale;
}

/** A delivery the job has claimed, with what it needs to word and send it. */
export interface DueDelivery {
  id: number;
  channel: 'email' | 'telegram';
  target: string;
  language: Locale;
  attempts: number;
  operatorId: number;
  kind: AlertKind;
  params: Record<string, string | number>;
}

export class AlertsRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the alert unless its dedup key was raised before; its id, or null when it was. */
  async insert(alert: NewAlert): Promise<number | null> {
    const rows = await this.db
      .insert(alerts)
      .values({
        ownerId: alert.operatorId,
        customerId: alert.customerId,
        kind: alert.kind,
        subject: alert.subject,
        params: alert.params,
        dedupKey: alert.dedupKey,
      })
      .onConflictDoNothing({ target: [alerts.ownerId, alerts.dedupKey] })
      .returning({ id: alerts.id });
    return rows[0]?.id ?? null;
  }

  async insertDeliveries(alertId: number, deliveries: readonly NewDelivery[], at: Date): Promise<void> {
    if (deliveries.length === 0) return;
    await this.db.insert(alertDeliveries).values(deliveries.map((d) => ({ ...d, alertId, nextAttemptAt: at })));
  }

  /** The kind of the last alert among `kinds` about `subject`, if any. */
  async lastKind(operatorId: number, subject: string, kinds: readonly AlertKind[]): Promise<AlertKind | null> {
    const rows = await this.db
      .select({ kind: alerts.kind })
      .from(alerts)
      .where(and(eq(alerts.ownerId, operatorId), eq(alerts.subject, subject), inArray(alerts.kind, [...kinds])))
      .orderBy(desc(alerts.id))
      .limit(1);
    return rows[0]?.kind ?? null;
  }

  /** Serialises the alerts about one subject of one operator until the transaction ends. */
  async lock(operatorId: number, subject: string): Promise<void> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`alert:${operatorId}:${subject}`}))`);
  }

  /** Whether `customerId` is a customer account of `operatorId` (an alert never crosses operators). */
  async isCustomerOf(operatorId: number, customerId: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.id, customerId), eq(accounts.operatorId, operatorId), eq(accounts.tier, 'user')));
    return rows.length > 0;
  }

  async node(operatorId: number, nodeId: number): Promise<{ name: string; ips: string[] } | undefined> {
    const rows = await this.db
      .select({ name: nodes.name, ips: nodes.ips })
      .from(nodes)
      .where(and(eq(nodes.id, nodeId), eq(nodes.ownerId, operatorId)));
    return rows[0];
  }

  /** The sites among `siteIds` with their operator and customer. */
  async sitesOf(
    siteIds: readonly number[],
  ): Promise<{ id: number; name: string; operatorId: number; customerId: number }[]> {
    if (siteIds.length === 0) return [];
    return this.db
      .select({ id: sites.id, name: sites.name, operatorId: sites.ownerId, customerId: sites.userId })
      .from(sites)
      .where(inArray(sites.id, [...siteIds]));
  }

  /**
   * Claims up to `limit` due deliveries: their next attempt moves `leaseMs` ahead, so another pass
   * (or another control plane) does not take them while they are being sent.
   */
  async claimDue(now: Date, leaseMs: number, limit: number): Promise<DueDelivery[]> {
    const due = this.db
      .select({ id: alertDeliveries.id })
      .from(alertDeliveries)
      .where(and(eq(alertDeliveries.status, 'pending'), lte(alertDeliveries.nextAttemptAt, now)))
      .orderBy(alertDeliveries.nextAttemptAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    const claimed = await this.db
      .update(alertDeliveries)
      .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
      .where(inArray(alertDeliveries.id, due))
      .returning({ id: alertDeliveries.id });
    if (claimed.length === 0) return [];
    return this.db
      .select({
        id: alertDeliveries.id,
        channel: alertDeliveries.channel,
        target: alertDeliveries.target,
        language: alertDeliveries.language,
        attempts: alertDeliveries.attempts,
        operatorId: alerts.ownerId,
        kind: alerts.kind,
        params: alerts.params,
      })
      .from(alertDeliveries)
      .innerJoin(alerts, eq(alerts.id, alertDeliveries.alertId))
      .where(
        inArray(
          alertDeliveries.id,
          claimed.map((c) => c.id),
        ),
      );
  }

  async sent(id: number, at: Date): Promise<void> {
    await this.db
      .update(alertDeliveries)
      .set({ status: 'sent', sentAt: at, attempts: sql`${alertDeliveries.attempts} + 1`, lastError: '' })
      .where(eq(alertDeliveries.id, id));
  }

  /** A failed attempt: retried at `retryAt`, or failed for good when that is null. */
  async attemptFailed(id: number, error: string, retryAt: Date | null): Promise<void> {
    await this.db
      .update(alertDeliveries)
      .set({
        attempts: sql`${alertDeliveries.attempts} + 1`,
        lastError: error,
        ...(retryAt ? { nextAttemptAt: retryAt } : { status: 'failed' as const }),
      })
      .where(eq(alertDeliveries.id, id));
  }

  /** An operator's alerts with their deliveries, newest first (tests and the health page read them). */
  async recent(operatorId: number, limit: number) {
    return this.db
      .select({
        id: alerts.id,
        kind: alerts.kind,
        customerId: alerts.customerId,
        params: alerts.params,
        channel: alertDeliveries.channel,
        target: alertDeliveries.target,
        status: alertDeliveries.status,
        attempts: alertDeliveries.attempts,
        lastError: alertDeliveries.lastError,
      })
      .from(alerts)
      .leftJoin(alertDeliveries, eq(alertDeliveries.alertId, alerts.id))
      .where(eq(alerts.ownerId, operatorId))
      .orderBy(desc(alerts.id), alertDeliveries.id)
      .limit(limit);
  }
}
