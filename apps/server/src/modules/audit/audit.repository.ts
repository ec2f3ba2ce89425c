import type { auditQuery } from '@rampart/contract';
import { and, asc, count, desc, eq, gte, ilike, inArray, lte, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { accountChain } from '../../platform/db/account-chain.js';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { rowsOf } from '../../platform/db/rows.js';
import { type AuditLogRow, auditLogs, auditRowChanges } from '../../platform/db/schema.js';

export type NewAuditLog = typeof auditLogs.$inferInsert;
export type AuditRowChangeRow = typeof auditRowChanges.$inferSelect;

/** Audit rows: inserted, completed once, read by the accounts on their `visibleTo` list. Nothing else. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  async insert(values: NewAuditLog): Promise<number> {
    const [row] = await this.db.insert(auditLogs).values(values).returning({ id: auditLogs.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** Records the outcome of a pending row (once: a completed row is never changed again). */
  async complete(id: number, status: number, code: number): Promise<void> {
    await this.db
      .update(auditLogs)
      .set({ pending: false, status, code })
      .where(and(eq(auditLogs.id, id), eq(auditLogs.pending, true)));
  }

  async list(viewerId: number, query: z.output<typeof auditQuery>) {
    const name = query.accountName ? containsPattern(query.accountName) : undefined;
    const url = query.url ? containsPattern(query.url) : undefined;
    const where = and(
      sql`${auditLogs.visibleTo} @> ARRAY[${viewerId}]::bigint[]`,
      name
        ? or(ilike(auditLogs.accountName, name), ilike(sql`coalesce(${auditLogs.realAccountName}, '')`, name))
        : undefined,
      query.startTime ? gte(auditLogs.createdAt, new Date(query.startTime)) : undefined,
      query.endTime ? lte(auditLogs.createdAt, new Date(query.endTime)) : undefined,
      query.method ? eq(auditLogs.method, query.method) : undefined,
      url ? or(ilike(auditLogs.url, url), ilike(auditLogs.action, url)) : undefined,
      query.reqID ? eq(auditLogs.reqId, query.reqID) : undefined,
    );
    return readPage(
      this.db.select().from(auditLogs).where(where).orderBy(desc(auditLogs.createdAt), desc(auditLogs.id)),
      this.db.select({ n: count() }).from(auditLogs).where(where),
      query,
    );
  }

  /** The row changes of the given calls' transactions, in the order they were made. */
  async rowChanges(txIds: number[]) {
    if (txIds.length === 0) return [];
    return this.db
      .select()
      .from(auditRowChanges)
      .where(inArray(auditRowChanges.txId, txIds))
      .orderBy(asc(auditRowChanges.id));
  }

  /** Turns row-change capture on for the rest of the current transaction; answers its id. */
  async captureRowChanges(): Promise<number> {
    const result = rowsOf<{ tx: number | string }>(
      await this.db.execute(sql`SELECT set_config('rampart.audit', 'on', true) AS on, txid_current() AS tx`),
    );
    return Number(result[0]?.tx);
  }

  /** The account and every account above it: who may read its records. */
  async chainOf(accountId: number): Promise<number[]> {
    const result = rowsOf<{ id: number | string }>(
      await this.db.execute(sql`
      ${accountChain(accountId)} SELECT id FROM chain
    `),
    );
    return result.map((row) => Number(row.id));
  }

  async accountName(accountId: number): Promise<string> {
    const result = rowsOf<{ account: string }>(
      await this.db.execute(sql`SELECT account FROM accounts WHERE id = ${accountId}`),
    );
    return result[0]?.account ?? '';
  }
}

export type { AuditLogRow };
