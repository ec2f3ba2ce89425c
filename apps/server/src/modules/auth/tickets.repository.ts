import { and, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { authTickets, passwordTokens, secondFactorFailures, type TicketPurpose } from '../../platform/db/schema.js';

export type TicketRow = typeof authTickets.$inferSelect;

/** Second-factor tickets, wrong second-factor codes and create-password tokens. */
export class TicketsRepository {
  constructor(private readonly db: Db) {}

  async insertTicket(row: typeof authTickets.$inferInsert): Promise<void> {
    await this.db.insert(authTickets).values(row);
  }

  /** A live (unconsumed, unexpired) ticket of the purpose. */
  async findLiveTicket(keyHash: string, purpose: TicketPurpose, now: Date): Promise<TicketRow | undefined> {
    const rows = await this.db
      .select()
      .from(authTickets)
      .where(
        and(
          eq(authTickets.keyHash, keyHash),
          eq(authTickets.purpose, purpose),
          isNull(authTickets.consumedAt),
          gt(authTickets.expiresAt, now),
        ),
      );
    return rows[0];
  }

  /** The newest live ticket of the purpose for the account (tickets the client never holds a key of). */
  async findLiveTicketOf(accountId: number, purpose: TicketPurpose, now: Date): Promise<TicketRow | undefined> {
    const rows = await this.db
      .select()
      .from(authTickets)
      .where(
        and(
          eq(authTickets.accountId, accountId),
          eq(authTickets.purpose, purpose),
          isNull(authTickets.consumedAt),
          gt(authTickets.expiresAt, now),
        ),
      )
      .orderBy(desc(authTickets.expiresAt), desc(authTickets.createdAt))
      .limit(1);
    return rows[0];
  }

  async updateTicket(keyHash: string, values: Partial<typeof authTickets.$inferInsert>): Promise<void> {
    await this.db.update(authTickets).set(values).where(eq(authTickets.keyHash, keyHash));
  }

  /** Counts a wrong code; returns the attempts so far. */
  async countAttempt(keyHash: string): Promise<number> {
    const [row] = await this.db
      .update(authTickets)
      .set({ attempts: sql`${authTickets.attempts} + 1` })
      .where(eq(authTickets.keyHash, keyHash))
      .returning({ attempts: authTickets.attempts });
    return row?.attempts ?? 0;
  }

  /** Consumes a ticket once; false when it was already consumed. */
  async consumeTicket(keyHash: string): Promise<boolean> {
    const rows = await this.db
      .update(authTickets)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(authTickets.keyHash, keyHash), isNull(authTickets.consumedAt)))
      .returning({ keyHash: authTickets.keyHash });
    return rows.length === 1;
  }

  /** Records a wrong second-factor code of the account, dropping its records from before `keepSince`. */
  async recordCodeFailure(accountId: number, at: Date, keepSince: Date): Promise<void> {
    await this.db
      .delete(secondFactorFailures)
      .where(and(eq(secondFactorFailures.accountId, accountId), lte(secondFactorFailures.failedAt, keepSince)));
    await this.db.insert(secondFactorFailures).values({ accountId, failedAt: at });
  }

  /** The times of the account's latest wrong codes after `since`, newest first, at most `limit`. */
  async codeFailuresSince(accountId: number, since: Date, limit: number): Promise<Date[]> {
    const rows = await this.db
      .select({ at: secondFactorFailures.failedAt })
      .from(secondFactorFailures)
      .where(and(eq(secondFactorFailures.accountId, accountId), gt(secondFactorFailures.failedAt, since)))
      .orderBy(desc(secondFactorFailures.failedAt))
      .limit(limit);
    return rows.map((row) => row.at);
  }

  /** A right code: the account's wrong ones no longer count. */
  async clearCodeFailures(accountId: number): Promise<void> {
    await this.db.delete(secondFactorFailures).where(eq(secondFactorFailures.accountId, accountId));
  }

  async insertPasswordToken(row: typeof passwordTokens.$inferInsert): Promise<void> {
    await this.db.insert(passwordTokens).values(row);
  }

  async findLivePasswordToken(tokenHash: string, now: Date) {
    const rows = await this.db
      .select()
      .from(passwordTokens)
      .where(
        and(eq(passwordTokens.tokenHash, tokenHash), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, now)),
      );
    return rows[0];
  }

  async usePasswordToken(tokenHash: string): Promise<boolean> {
    const rows = await this.db
      .update(passwordTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordTokens.tokenHash, tokenHash), isNull(passwordTokens.usedAt)))
      .returning({ tokenHash: passwordTokens.tokenHash });
    return rows.length === 1;
  }

  /** Spends every open create-password link of the account (its e-mail changed, a newer link was sent, or it set its password). */
  async revokePasswordTokens(accountId: number): Promise<void> {
    await this.db
      .update(passwordTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordTokens.accountId, accountId), isNull(passwordTokens.usedAt)));
  }
}
