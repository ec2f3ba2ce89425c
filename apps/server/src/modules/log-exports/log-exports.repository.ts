import type { LogExportStatus, LogExportType } from '@rampart/contract';
import { and, asc, count, desc, eq, inArray, isNotNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { logExportDays, logExports } from '../../platform/db/schema.js';

export type LogExportRow = typeof logExports.$inferSelect;
export type LogExportSort = 'createdAt' | 'finishedAt' | 'records' | 'bytes' | 'status';

const SORT_COLUMNS = {
  createdAt: logExports.createdAt,
  finishedAt: logExports.finishedAt,
  records: logExports.records,
  bytes: logExports.bytes,
  status: logExports.status,
} as const;

/** Log exports (schema.ts `log_exports`) and the daily counts of the quota (`log_export_days`). */
export class LogExportsRepository {
  constructor(private readonly db: Db) {}

  async insert(values: typeof logExports.$inferInsert): Promise<LogExportRow> {
    const [row] = await this.db.insert(logExports).values(values).returning();
    if (!row) throw new Error('log export insert returned nothing');
    return row;
  }

  async find(id: number): Promise<LogExportRow | undefined> {
    const [row] = await this.db.select().from(logExports).where(eq(logExports.id, id));
    return row;
  }

  /** The account's exports among `ids`, locked until the transaction ends. */
  owned(accountId: number, ids: readonly number[]): Promise<LogExportRow[]> {
    return this.db
      .select()
      .from(logExports)
      .where(and(eq(logExports.accountId, accountId), inArray(logExports.id, [...ids])))
      .orderBy(logExports.id)
      .for('update');
  }

  page(
    accountId: number,
    query: { page: number; pageSize: number; sortBy: LogExportSort; orderBy: 'asc' | 'desc'; type?: LogExportType },
  ) {
    const where = and(
      eq(logExports.accountId, accountId),
      query.type === undefined ? undefined : eq(logExports.type, query.type),
    );
    const column = SORT_COLUMNS[query.sortBy];
    const order = query.orderBy === 'asc' ? asc : desc;
    return readPage(
      this.db.select().from(logExports).where(where).orderBy(order(column), order(logExports.id)),
      this.db.select({ n: count() }).from(logExports).where(where),
      query,
    );
  }

  /**
   * Adds one to the account's count of the day and answers the new count; the row stays locked
   * until the transaction ends, so two creates of one account are counted one after the other.
   */
  async countDay(accountId: number, day: string): Promise<number> {
    const [row] = await this.db
      .insert(logExportDays)
      .values({ accountId, day, count: 1 })
      .onConflictDoUpdate({
        target: [logExportDays.accountId, logExportDays.day],
        set: { count: sql`${logExportDays.count} + 1` },
      })
      .returning({ count: logExportDays.count });
    return row?.count ?? 1;
  }

  /** Drops the daily counts before `day` (YYYY-MM-DD). */
  async pruneDays(day: string): Promise<void> {
    await this.db.delete(logExportDays).where(sql`${logExportDays.day} < ${day}`);
  }

  /** The account's exports queued or running. */
  async activeCount(accountId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(logExports)
      .where(and(eq(logExports.accountId, accountId), inArray(logExports.status, ['queued', 'running'])));
    return row?.n ?? 0;
  }

  /**
   * Takes the oldest queued export for the job: running from `now`, counters reset. The update is
   * conditional on the row still being queued, so two takers never get the same export.
   */
  async claimNext(now: Date): Promise<LogExportRow | undefined> {
    for (;;) {
      const [next] = await this.db
        .select({ id: logExports.id })
        .from(logExports)
        .where(eq(logExports.status, 'queued'))
        .orderBy(logExports.id)
        .limit(1);
      if (!next) return undefined;
      const [row] = await this.db
        .update(logExports)
        .set({ status: 'running', startedAt: now, finishedAt: null, total: 0, records: 0, bytes: 0, error: null })
        .where(and(eq(logExports.id, next.id), eq(logExports.status, 'queued')))
        .returning();
      if (row) return row;
    }
  }

  /** The counts of a running export; false when it is no longer running (deleted meanwhile). */
  async progress(id: number, values: { total?: number; records: number }): Promise<boolean> {
    const rows = await this.db
      .update(logExports)
      .set(values)
      .where(and(eq(logExports.id, id), eq(logExports.status, 'running')))
      .returning({ id: logExports.id });
    return rows.length > 0;
  }

  /** A running export ends (done or failed); false when it is no longer running. */
  async finish(
    id: number,
    values: {
      status: 'done' | 'failed';
      records?: number;
      bytes?: number;
      error?: string | null;
      finishedAt: Date;
      expiresAt: Date | null;
    },
  ): Promise<boolean> {
    const rows = await this.db
      .update(logExports)
      .set(values)
      .where(and(eq(logExports.id, id), eq(logExports.status, 'running')))
      .returning({ id: logExports.id });
    return rows.length > 0;
  }

  /** Exports in these states go back to the queue (a restart's running ones, a retry's failed ones). */
  async requeue(ids: readonly number[] | null, from: LogExportStatus): Promise<LogExportRow[]> {
    return this.db
      .update(logExports)
      .set({ status: 'queued', total: 0, records: 0, bytes: 0, error: null, startedAt: null, finishedAt: null })
      .where(and(eq(logExports.status, from), ids === null ? undefined : inArray(logExports.id, [...ids])))
      .returning();
  }

  /** Done exports whose file is past its expiry. */
  /** Every finished export expires `days` after it finished (a new retention set by the operator). */
  async setRetention(days: number): Promise<void> {
    await this.db
      .update(logExports)
      .set({ expiresAt: sql`${logExports.finishedAt} + make_interval(days => ${days}::int)` })
      .where(and(eq(logExports.status, 'done'), isNotNull(logExports.finishedAt)));
  }

  expiredBy(now: Date): Promise<LogExportRow[]> {
    return this.db
      .select()
      .from(logExports)
      .where(and(eq(logExports.status, 'done'), isNotNull(logExports.expiresAt), lte(logExports.expiresAt, now)));
  }

  /** Done exports, oldest finished first (the space bound expires from the front). */
  doneOldestFirst(): Promise<Pick<LogExportRow, 'id' | 'bytes'>[]> {
    return this.db
      .select({ id: logExports.id, bytes: logExports.bytes })
      .from(logExports)
      .where(eq(logExports.status, 'done'))
      .orderBy(asc(logExports.finishedAt), asc(logExports.id));
  }

  /** Marks done exports expired (their files are gone); answers the ids it changed. */
  async expire(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .update(logExports)
      .set({ status: 'expired' })
      .where(and(eq(logExports.status, 'done'), inArray(logExports.id, [...ids])))
      .returning({ id: logExports.id });
    return rows.map((r) => r.id);
  }

  async delete(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.delete(logExports).where(inArray(logExports.id, [...ids]));
  }

  /** The ids of every export that may still have a file (done or running). */
  async withFiles(): Promise<Set<number>> {
    const where: SQL | undefined = inArray(logExports.status, ['done', 'running']);
    const rows = await this.db.select({ id: logExports.id }).from(logExports).where(where);
    return new Set(rows.map((r) => r.id));
  }
}
