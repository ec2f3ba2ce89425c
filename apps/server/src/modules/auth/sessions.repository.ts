import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { accounts, apiTokens, authSessions, refreshTokens } from '../../platform/db/schema.js';

export type SessionRow = typeof authSessions.$inferSelect;

/** Sessions (refresh-token families) and their refresh tokens. */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async insertSession(row: typeof authSessions.$inferInsert): Promise<void> {
    await this.db.insert(authSessions).values(row);
  }

  async insertRefreshToken(row: typeof refreshTokens.$inferInsert): Promise<void> {
    await this.db.insert(refreshTokens).values(row);
  }

  /** The session, its account and the API token it belongs to (if any), for checking an access token. */
  async findSessionWithAccount(sessionId: string) {
    const rows = await this.db
      .select({
        session: authSessions,
        account: accounts,
        apiToken: { id: apiTokens.id, permissions: apiTokens.permissions },
      })
      .from(authSessions)
      .innerJoin(accounts, eq(accounts.id, authSessions.accountId))
      .leftJoin(apiTokens, eq(apiTokens.sessionId, authSessions.id))
      .where(eq(authSessions.id, sessionId));
    return rows[0];
  }

  async findRefreshToken(tokenHash: string) {
    const rows = await this.db
      .select({ token: refreshTokens, session: authSessions })
      .from(refreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, tokenHash));
    return rows[0];
  }

  /**
   * Adds a refresh token unless it exists already: the successor of a spent token is derived from
   * it, so two refreshes with one token (within the grace window) write the same row.
   */
  async ensureRefreshToken(row: typeof refreshTokens.$inferInsert): Promise<void> {
    await this.db.insert(refreshTokens).values(row).onConflictDoNothing({ target: refreshTokens.tokenHash });
  }

  /** Marks a refresh token spent at `at`. Only one caller can win; false means it was already spent. */
  async spendRefreshToken(tokenHash: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(refreshTokens)
      .set({ usedAt: at })
      .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt)))
      .returning({ tokenHash: refreshTokens.tokenHash });
    return rows.length === 1;
  }

  async revokeSession(sessionId: string, reason: string): Promise<void> {
    await this.db
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
  }

  /** Ends every live session of an account (password change, disabled account). */
  async revokeAccountSessions(accountId: number, reason: string): Promise<void> {
    await this.db
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(eq(authSessions.accountId, accountId), isNull(authSessions.revokedAt)));
  }

  /** Deletes sessions outright (an API token's: the token row goes with it by cascade). */
  async deleteSessions(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await this.db.delete(authSessions).where(inArray(authSessions.id, [...sessionIds]));
  }
}
