import { and, count, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import {
  alertDeliveries,
  alerts,
  autoCertificateAttempts,
  autoCertificates,
  dnsUnprocessed,
  logExports,
  nodeCommands,
  nodes,
  sites,
} from '../../platform/db/schema.js';

export interface StatusCount {
  readonly status: string;
  readonly count: number;
}

/**
 * Counts of the work and state the control plane keeps, for `/metrics` (the installation's, no
 * operator given) and the operator's `client/health` (one operator's). Counts only: never a row.
 */
export class SystemStateRepository {
  constructor(private readonly db: Db) {}

  /** Node commands (purge, preheat, upgrade, ...) by status: the job queue the nodes work off. */
  async nodeCommands(operatorId?: number): Promise<StatusCount[]> {
    const rows = await this.db
      .select({ status: nodeCommands.status, count: count() })
      .from(nodeCommands)
      .where(operatorId === undefined ? undefined : eq(nodeCommands.ownerId, operatorId))
      .groupBy(nodeCommands.status);
    return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
  }

  /** Log export files by status (the control plane's own queue of work). */
  async logExports(): Promise<StatusCount[]> {
    const rows = await this.db
      .select({ status: logExports.status, count: count() })
      .from(logExports)
      .groupBy(logExports.status);
    return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
  }

  /** Alert deliveries by channel and status. */
  async alertDeliveries(operatorId?: number): Promise<Array<StatusCount & { channel: string }>> {
    const rows = await this.db
      .select({ channel: alertDeliveries.channel, status: alertDeliveries.status, count: count() })
      .from(alertDeliveries)
      .innerJoin(alerts, eq(alerts.id, alertDeliveries.alertId))
      .where(operatorId === undefined ? undefined : eq(alerts.ownerId, operatorId))
      .groupBy(alertDeliveries.channel, alertDeliveries.status);
    return rows.map((r) => ({ channel: r.channel, status: r.status, count: Number(r.count) }));
  }

  /** Automatic certificates by status. */
  async autoCertificates(operatorId?: number): Promise<StatusCount[]> {
    const rows = await this.db
      .select({ status: autoCertificates.status, count: count() })
      .from(autoCertificates)
      .innerJoin(sites, eq(sites.id, autoCertificates.siteId))
      .where(operatorId === undefined ? undefined : eq(sites.ownerId, operatorId))
      .groupBy(autoCertificates.status);
    return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
  }

  /** ACME issuing attempts kept, by outcome (`ok`, `failed`, `running`). */
  async acmeAttempts(): Promise<StatusCount[]> {
    const outcome = sql<string>`case when ${autoCertificateAttempts.ok} is null then 'running' when ${autoCertificateAttempts.ok} then 'ok' else 'failed' end`;
    const rows = await this.db
      .select({ status: outcome, count: count() })
      .from(autoCertificateAttempts)
      .groupBy(outcome);
    return rows.map((r) => ({ status: String(r.status), count: Number(r.count) }));
  }

  /** Valid automatic certificates of the operator that expire before `before`. */
  async autoCertificatesExpiring(operatorId: number, before: Date): Promise<number> {
    const [row] = await this.db
      .select({ count: count() })
      .from(autoCertificates)
      .innerJoin(sites, eq(sites.id, autoCertificates.siteId))
      .where(
        and(
          eq(sites.ownerId, operatorId),
          eq(autoCertificates.status, 'valid'),
          lte(autoCertificates.notAfter, before),
        ),
      );
    return Number(row?.count ?? 0);
  }

  /** DNS record changes the provider refused, waiting for a retry. */
  async dnsUnprocessed(operatorId?: number): Promise<number> {
    const [row] = await this.db
      .select({ count: count() })
      .from(dnsUnprocessed)
      .where(operatorId === undefined ? undefined : eq(dnsUnprocessed.ownerId, operatorId));
    return Number(row?.count ?? 0);
  }

  /** Initialised nodes up (reported after `onlineSince`) and down; uninitialised ones apart. */
  async nodeCounts(operatorId: number | undefined, onlineSince: Date) {
    const since = sql`${onlineSince.toISOString()}::timestamptz`;
    const [row] = await this.db
      .select({
        up: sql<number>`count(*) filter (where ${nodes.status} = 'initialized' and ${nodes.lastSeenAt} > ${since})`.mapWith(
          Number,
        ),
        down: sql<number>`count(*) filter (where ${nodes.status} = 'initialized' and (${nodes.lastSeenAt} is null or ${nodes.lastSeenAt} <= ${since}))`.mapWith(
          Number,
        ),
        uninitialized: sql<number>`count(*) filter (where ${nodes.status} <> 'initialized')`.mapWith(Number),
      })
      .from(nodes)
      .where(operatorId === undefined ? undefined : eq(nodes.ownerId, operatorId));
    return { up: row?.up ?? 0, down: row?.down ?? 0, uninitialized: row?.uninitialized ?? 0 };
  }
}
