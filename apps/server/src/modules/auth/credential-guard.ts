import type { Tier } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { verifyPassword } from '../../platform/crypto/passwords.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { AccountRow } from './accounts.repository.js';
import { FailureThrottle, throttledError } from './login-throttle.js';
import type { TicketsRepository } from './tickets.repository.js';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Wrong second-factor codes an account may enter in the window before every code is refused. */
export const SECOND_FACTOR_LIMIT = { limit: 10, windowMs: FIFTEEN_MINUTES } as const;

/**
 * One set of throttles for every check of a password or a second-factor code, signed in or not:
 * the login form, the password change, the second-factor set-up, a new e-mail address. A wrong
 * password anywhere counts towards the same limits (10 per account and address, 30 per address,
 * 100 per account, in a sliding 15 minutes), wrong codes towards one per-account limit (10 per 15
 * minutes); while a limit holds, even the right password or code is refused with 101012 / 429,
 * so a session cannot be used to guess the password the login form protects.
 *
 * Wrong codes are kept in the database (`second_factor_failures`), written after the refused
 * call's transaction rolled back: every control plane counts them, and no rollback undoes one.
 * The password counts stay in memory (login-throttle.ts).
 */
export class CredentialGuard {
  private readonly perAccountAndIp: FailureThrottle;
  private readonly perIp: FailureThrottle;
  private readonly perAccount: FailureThrottle;

  constructor(
    private readonly clock: Clock,
    private readonly tickets: TicketsRepository,
    private readonly transactions: Pick<Transactions, 'afterEnd'>,
  ) {
    this.perAccountAndIp = new FailureThrottle({ limit: 10, windowMs: FIFTEEN_MINUTES }, clock);
    this.perIp = new FailureThrottle({ limit: 30, windowMs: FIFTEEN_MINUTES }, clock);
    this.perAccount = new FailureThrottle({ limit: 100, windowMs: FIFTEEN_MINUTES }, clock);
  }

  private keys(tier: Tier, account: string, ip: string) {
    const name = `${tier}:${account.toLowerCase()}`;
    return { accountIp: `${name}@${ip}`, ip, account: name };
  }

  /** Refuses while any password throttle holds, before the password is even looked at. */
  checkPasswordThrottles(tier: Tier, account: string, ip: string): void {
    const k = this.keys(tier, account, ip);
    const wait = Math.max(
      this.perAccountAndIp.retryAfterMs(k.accountIp),
      this.perIp.retryAfterMs(k.ip),
      this.perAccount.retryAfterMs(k.account),
    );
    if (wait > 0) throw throttledError(wait);
  }

  passwordFailed(tier: Tier, account: string, ip: string): void {
    const k = this.keys(tier, account, ip);
    this.perAccountAndIp.fail(k.accountIp);
    this.perIp.fail(k.ip);
    this.perAccount.fail(k.account);
  }

  passwordSucceeded(tier: Tier, account: string, ip: string): void {
    this.perAccountAndIp.reset(this.keys(tier, account, ip).accountIp);
  }

  private async checkSecondFactorThrottle(row: Pick<AccountRow, 'id'>): Promise<void> {
    const { limit, windowMs } = SECOND_FACTOR_LIMIT;
    const now = this.clock();
    const recent = await this.tickets.codeFailuresSince(row.id, new Date(now - windowMs), limit);
    const oldest = recent[limit - 1];
    if (oldest) throw throttledError(oldest.getTime() + windowMs - now);
  }

  /**
   * Counts a wrong code, and runs what the caller counts with it (a ticket's attempts), once the
   * call's transaction ended, so that its rollback cannot undo them; at once outside a transaction
   * (the sign-in), where what `onMiss` throws is the answer.
   */
  private async secondFactorFailed(row: Pick<AccountRow, 'id'>, onMiss?: () => Promise<void>): Promise<void> {
    const now = this.clock();
    await this.transactions.afterEnd(async () => {
      await this.tickets.recordCodeFailure(row.id, new Date(now), new Date(now - SECOND_FACTOR_LIMIT.windowMs));
      await onMiss?.();
    });
  }

  /**
   * The signed-in account proves its password again (password change, second-factor set-up, a new
   * e-mail address): throttled as sign-in is; a wrong one is 101003 naming `field` (`wrongPassword`).
   */
  async requirePassword(
    row: AccountRow,
    password: string | undefined,
    field: string,
    meta: { ip: string },
  ): Promise<void> {
    if (!password) throw invalidFields([{ field, key: 'required' }]);
    this.checkPasswordThrottles(row.tier, row.account, meta.ip);
    if (!(await verifyPassword(row.passwordHash, password)).ok) {
      this.passwordFailed(row.tier, row.account, meta.ip);
      throw invalidFields([{ field, key: 'wrongPassword' }]);
    }
    this.passwordSucceeded(row.tier, row.account, meta.ip);
  }

  /**
   * Checks a second-factor code under the per-account code throttle: `matches` runs only while the
   * throttle lets it; a miss counts and is 101003 naming `field` (`wrongCode`).
   */
  async requireCode(
    row: AccountRow,
    field: string,
    matches: () => Promise<boolean>,
    onMiss?: () => Promise<void>,
  ): Promise<void> {
    await this.checkSecondFactorThrottle(row);
    if (!(await matches())) {
      await this.secondFactorFailed(row, onMiss);
      throw invalidFields([{ field, key: 'wrongCode' }]);
    }
    await this.tickets.clearCodeFailures(row.id);
  }
}
