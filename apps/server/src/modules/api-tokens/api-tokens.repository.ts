import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { accounts, apiTokens, authSessions } from '../../platform/db/schema.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** API tokens: one typed query per method, no rules. */
export class ApiTokensRepository {
  constructor(private readonly db: Db) {}

  /** A page of an account's tokens, newest first, each with its session's revocation. */
  async pageOf(accountId: number, page: number, pageSize: number) {
    const where = eq(apiTokens.accountId, accountId);
    return readPage(
      this.db
        .select({ token: apiTokens, revokedAt: authSessions.revokedAt })
        .from(apiTokens)
        .leftJoin(authSessions, eq(authSessions.id, apiTokens.sessionId))
        .where(where)
        .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id)),
      this.db.select({ n: count() }).from(apiTokens).where(where),
      { page, pageSize },
    );
  }

  async insert(values: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
    const [inserted] = await this.db.insert(apiTokens).values(values).returning();
    if (!inserted) throw new Error('api token insert returned nothing');
    return inserted;
  }

  /** The tokens among `ids` that the account owns, with their sessions. */
  async ownedOf(accountId: number, ids: readonly number[]) {
    return this.db
      .select({ id: apiTokens.id, sessionId: apiTokens.sessionId })
      .from(apiTokens)
      .where(and(eq(apiTokens.accountId, accountId), inArray(apiTokens.id, [...ids])));
  }

  /** The token of that hash with its session and its owner's status. */
  async findByHash(tokenHash: string) {
    const [found] = await this.db
      .select({ token: apiTokens, session: authSessions, status: accounts.status })
      .from(apiTokens)
      .innerJoin(authSessions, eq(authSessions.id, apiTokens.sessionId))
      .innerJoin(accounts, eq(accounts.id, apiTokens.accountId))
      .where(eq(apiTokens.tokenHash, tokenHash));
    return found;
  }

  async markUsed(id: number): Promise<void> {
    await this.db.update(apiTokens).set({ lastUsedAt: sql`now()` }).where(eq(apiTokens.id, id));
  }
}
