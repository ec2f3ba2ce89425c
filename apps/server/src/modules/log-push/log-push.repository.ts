import type { LogPushLogsQuery } from '@rampart/contract';
import { and, asc, count, desc, eq, gt, gte, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { accounts, auditLogs, logPushEvents, logPushLogs, logPushManuals, zones } from '../../platform/db/schema.js';

export type LogPushEventRow = typeof logPushEvents.$inferSelect;
export type LogPushLogRow = typeof logPushLogs.$inferSelect;
export type LogPushManualRow = typeof logPushManuals.$inferSelect;

/** Whose events a call acts on: a customer's (tier user) or an operator's (tier client, its root account). */
export interface PushOwner {
  tier: 'user' | 'client';
  accountId: number;
  /** An operator sub-account's zones, when it is restricted to some (null: every zone). */
  zoneScope?: ReadonlySet<number> | null;
}

/**
 * The owner's events; for an operator sub-account restricted to some zones (`zoneScope`), only the
 * events over named zones that are all within them: an event over every zone (none named) or over
 * another zone is not its to see, edit or push.
 */
const ownedBy = (owner: PushOwner) =>
  and(
    eq(logPushEvents.tier, owner.tier),
    eq(logPushEvents.accountId, owner.accountId),
    owner.zoneScope ? withinZones(owner.zoneScope) : undefined,
  );
const withinZones = (scope: ReadonlySet<number>) =>
  sql`(jsonb_array_length(${logPushEvents.zoneIds}) > 0 and ${logPushEvents.zoneIds} <@ ${JSON.stringify(
    [...scope].sort((a, b) => a - b),
  )}::jsonb)`;

/** Log push events, their manual pushes and their delivery log (schema.ts `log_push_*`). */
export class LogPushRepository {
  constructor(private readonly db: Db) {}

  async insert(values: typeof logPushEvents.$inferInsert): Promise<LogPushEventRow> {
    const [row] = await this.db.insert(logPushEvents).values(values).returning();
    if (!row) throw new Error('log push insert returned nothing');
    return row;
  }

  async find(id: number): Promise<LogPushEventRow | undefined> {
    const [row] = await this.db.select().from(logPushEvents).where(eq(logPushEvents.id, id));
    return row;
  }

  /** The owner's events among `ids`, locked until the transaction ends. */
  owned(owner: PushOwner, ids: readonly number[]): Promise<LogPushEventRow[]> {
    return this.db
      .select()
      .from(logPushEvents)
      .where(and(ownedBy(owner), inArray(logPushEvents.id, [...ids])))
      .orderBy(logPushEvents.id)
      .for('update');
  }

  /** Locks the owner's account row until the transaction ends: two creates of one owner count one after the other. */
  async lockOwner(owner: PushOwner): Promise<void> {
    await this.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, owner.accountId)).for('update');
  }

  async countOwned(owner: PushOwner): Promise<number> {
    // The quota is the owner's, whatever part of it a restricted sub-account sees.
    const [row] = await this.db
      .select({ n: count() })
      .from(logPushEvents)
      .where(ownedBy({ tier: owner.tier, accountId: owner.accountId }));
    return row?.n ?? 0;
  }

  page(owner: PushOwner, query: { page: number; pageSize: number }) {
    const where = ownedBy(owner);
    return readPage(
      this.db.select().from(logPushEvents).where(where).orderBy(desc(logPushEvents.id)),
      this.db.select({ n: count() }).from(logPushEvents).where(where),
      query,
    );
  }

  async update(id: number, values: Partial<typeof logPushEvents.$inferInsert>): Promise<LogPushEventRow> {
    const [row] = await this.db
      .update(logPushEvents)
      .set({ updatedAt: new Date(), ...values })
      .where(eq(logPushEvents.id, id))
      .returning();
    if (!row) throw new Error('log push event vanished');
    return row;
  }

  async delete(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.delete(logPushEvents).where(inArray(logPushEvents.id, [...ids]));
  }

  /** Enabled events that are not dead (the job's work), oldest first. */
  active(): Promise<LogPushEventRow[]> {
    return this.db
      .select()
      .from(logPushEvents)
      .where(and(eq(logPushEvents.enabled, true), ne(logPushEvents.state, 'dead')))
      .orderBy(asc(logPushEvents.id));
  }

  /**
   * The job's state change of an event after an attempt, unless the event was changed meanwhile
   * (an update resets the delivery state: the job's answer about the old version is dropped).
   */
  async afterAttempt(
    id: number,
    seenUpdatedAt: Date,
    values: Partial<
      Pick<
        LogPushEventRow,
        | 'state'
        | 'lastError'
        | 'lastDeliveredAt'
        | 'cursorReceivedAt'
        | 'cursorBatch'
        | 'cursorRequest'
        | 'cursorAudit'
        | 'attempt'
        | 'nextAttemptAt'
        | 'failingSince'
      >
    >,
  ): Promise<boolean> {
    const rows = await this.db
      .update(logPushEvents)
      .set(values)
      .where(and(eq(logPushEvents.id, id), eq(logPushEvents.updatedAt, seenUpdatedAt)))
      .returning({ id: logPushEvents.id });
    return rows.length > 0;
  }

  async insertLog(values: typeof logPushLogs.$inferInsert): Promise<void> {
    await this.db.insert(logPushLogs).values(values);
  }

  /**
   * Delivery log rows, newest first: a customer's (and an operator's own) by owner account; the
   * operator's list (`operatorId`) covers its own events and those of its customers.
   */
  logs(
    scope: { accountId: number } | { operatorId: number; zoneScope?: ReadonlySet<number> | null },
    query: LogPushLogsQuery,
  ) {
    const where: (SQL | undefined)[] = [
      'accountId' in scope ? eq(logPushLogs.accountId, scope.accountId) : eq(logPushLogs.operatorId, scope.operatorId),
    ];
    // A zone-restricted sub-account reads the delivery of the operator's events it can see, and
    // no customer's (a customer's sites may be in any zone).
    if ('operatorId' in scope && scope.zoneScope) {
      where.push(
        inArray(
          logPushLogs.eventId,
          this.db
            .select({ id: logPushEvents.id })
            .from(logPushEvents)
            .where(
              and(
                eq(logPushEvents.tier, 'client'),
                eq(logPushEvents.accountId, scope.operatorId),
                withinZones(scope.zoneScope),
              ),
            ),
        ),
      );
    }
    if (query.eventID !== undefined) where.push(eq(logPushLogs.eventId, query.eventID));
    if (query.userID !== undefined) where.push(eq(logPushLogs.accountId, query.userID));
    if (query.ID !== undefined) where.push(eq(logPushLogs.id, query.ID));
    if (query.status !== undefined) where.push(eq(logPushLogs.status, query.status));
    if (query.createdAtStart !== undefined) where.push(gte(logPushLogs.createdAt, new Date(query.createdAtStart)));
    if (query.createdAtEnd !== undefined) where.push(lte(logPushLogs.createdAt, new Date(query.createdAtEnd)));
    const clause = and(...where);
    return readPage(
      this.db.select().from(logPushLogs).where(clause).orderBy(desc(logPushLogs.id)),
      this.db.select({ n: count() }).from(logPushLogs).where(clause),
      query,
    );
  }

  /** Drops delivery log rows older than `before`. */
  async pruneLogs(before: Date): Promise<void> {
    await this.db.delete(logPushLogs).where(lte(logPushLogs.createdAt, before));
  }

  async insertManual(values: typeof logPushManuals.$inferInsert): Promise<void> {
    await this.db.insert(logPushManuals).values(values);
  }

  /** The events with a manual push to send. */
  async withManuals(): Promise<Set<number>> {
    const rows = await this.db.selectDistinct({ id: logPushManuals.eventId }).from(logPushManuals);
    return new Set(rows.map((r) => r.id));
  }

  /** The oldest manual push of an event still to send. */
  async nextManual(eventId: number): Promise<LogPushManualRow | undefined> {
    const [row] = await this.db
      .select()
      .from(logPushManuals)
      .where(eq(logPushManuals.eventId, eventId))
      .orderBy(asc(logPushManuals.id))
      .limit(1);
    return row;
  }

  async advanceManual(
    id: number,
    cursor: { cursorTs: number; cursorMs: number; cursorRequest: string },
  ): Promise<void> {
    await this.db.update(logPushManuals).set(cursor).where(eq(logPushManuals.id, id));
  }

  async deleteManual(id: number): Promise<void> {
    await this.db.delete(logPushManuals).where(eq(logPushManuals.id, id));
  }

  /** The operator's zones among `ids`. */
  async ownedZones(operatorId: number, ids: readonly number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: zones.id })
      .from(zones)
      .where(and(eq(zones.ownerId, operatorId), inArray(zones.id, [...ids])));
    return rows.map((r) => r.id);
  }

  /** The newest audit row id. */
  async auditHead(): Promise<number> {
    const [row] = await this.db.select({ id: sql<string>`coalesce(max(${auditLogs.id}), 0)` }).from(auditLogs);
    return Number(row?.id ?? 0);
  }

  /** Audit rows the account's audit log shows (`visible_to`) after `afterId`, written up to `before`, oldest first. */
  auditAfter(accountId: number, afterId: number, before: Date, limit: number) {
    return this.db
      .select()
      .from(auditLogs)
      .where(
        and(
          gt(auditLogs.id, afterId),
          sql`${auditLogs.visibleTo} @> ARRAY[${accountId}]::bigint[]`,
          lte(auditLogs.createdAt, before),
        ),
      )
      .orderBy(asc(auditLogs.id))
      .limit(limit);
  }
}
