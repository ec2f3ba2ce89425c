import {
  type AccountDeleteRefusal,
  type CreateAccountIn,
  type CreatedAccount,
  type ListAccountsQuery,
  MANAGED_TIERS,
  type ManagedAccount,
  type Tier,
  type UpdateAccountIn,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto/keys.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Caller } from '../../platform/http/bind-route.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { MailContext } from '../../platform/mail/mail-context.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { parentForTier, requireManaged } from '../../platform/tenancy/account-chain.js';
import { PASSWORD_TOKEN_TTL_MS } from '../auth/account.service.js';
import type { AccountRow, AccountsRepository } from '../auth/accounts.repository.js';
import { createPasswordLink, createPasswordMail } from '../auth/auth.mails.js';
import { FailureThrottle, throttledError } from '../auth/login-throttle.js';
import type { SessionsRepository } from '../auth/sessions.repository.js';
import type { TicketsRepository } from '../auth/tickets.repository.js';
import { isOperator, presentAccount } from './accounts.presenter.js';

/** The zone limit is the admin's to set, and only an operator's (101003 on `zoneLimit` otherwise). */
function checkZoneLimit(caller: Caller, target: Pick<AccountRow, 'tier' | 'isRoot'>, zoneLimit: number | undefined) {
  if (zoneLimit === undefined) return;
  if (caller.tier !== 'admin' || !isOperator(target)) {
    throw invalidFields([{ field: 'zoneLimit', key: 'invalidValue' }]);
  }
}

type ListQuery = Pick<ListAccountsQuery, 'sortBy' | 'orderBy' | 'name' | 'page' | 'pageSize'> &
  Partial<Pick<ListAccountsQuery, 'auth'>>;

/**
 * Create-password mails: 5 an hour to one address (a new account's and `{auth}/account/resendEmail`,
 * so creating and deleting accounts cannot flood an address either), and 30 re-sends an hour by one
 * signed-in account (creating accounts is not limited here: each is a real account). Counted when a
 * mail is attempted.
 */
export const MAIL_LIMITS = {
  perAddress: { limit: 5, windowMs: 60 * 60 * 1000 },
  perSender: { limit: 30, windowMs: 60 * 60 * 1000 },
} as const;

function refuseDelete(reason: AccountDeleteRefusal, count: number, cause?: unknown): AppError {
  return new AppError(205003, { extra: { reason, count }, ...(cause === undefined ? {} : { cause }) });
}

/**
 * Accounts below the caller (spec part 1 §7 `{auth}/accounts`, `{auth}/account`): list, create
 * (the new account gets a link to create its password), edit, status, delete, resend, 2FA reset.
 * Who may touch which account is account-scope.ts.
 */
export class AccountsService {
  /** Create-password mails per address and per sending account (see {@link MAIL_LIMITS}). */
  private readonly mailsPerAddress: FailureThrottle;
  private readonly mailsPerSender: FailureThrottle;

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly sessions: SessionsRepository,
    private readonly tickets: TicketsRepository,
    private readonly transactions: Transactions,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly productName: () => Promise<string>,
  ) {
    this.mailsPerAddress = new FailureThrottle(MAIL_LIMITS.perAddress, clock);
    this.mailsPerSender = new FailureThrottle(MAIL_LIMITS.perSender, clock);
  }

  /**
   * Refuses (101012, HTTP 429, as a throttled login) while the address, or for a re-send the
   * sending account, has had its share of mails, else counts one: nobody can turn Rampart into a
   * mail cannon.
   */
  private countMail(caller: Caller, email: string, resend: boolean): void {
    const address = email.toLowerCase();
    const sender = String(caller.accountId);
    const wait = Math.max(
      this.mailsPerAddress.retryAfterMs(address),
      resend ? this.mailsPerSender.retryAfterMs(sender) : 0,
    );
    if (wait > 0) throw throttledError(wait);
    this.mailsPerAddress.fail(address);
    if (resend) this.mailsPerSender.fail(sender);
  }

  async list(caller: Caller, query: ListQuery) {
    const tier = query.auth ?? MANAGED_TIERS[caller.tier][0];
    const parentId = await parentForTier(this.accounts, caller, tier);
    return this.page(parentId, tier, query);
  }

  async subs(caller: Caller, userId: number, page: number, pageSize: number) {
    const parent = userId === caller.accountId ? caller.account : await requireManaged(this.accounts, caller, userId);
    return this.page(parent.id, parent.tier, { sortBy: 'createdAt', orderBy: 'desc', page, pageSize });
  }

  private async page(parentId: number, tier: Tier, query: ListQuery) {
    const { rows, total } = await this.accounts.listChildren({
      parentId,
      tier,
      search: query.name,
      sortBy: query.sortBy,
      orderBy: query.orderBy,
      page: query.page,
      pageSize: query.pageSize,
    });
    return { data: rows.map((r) => presentAccount(r.row, r.subCount, r.role)), total };
  }

  /**
   * Creates the account without a password and mails it a one-time create-password link, or (with
   * `delivery: link`) answers the link for the caller to hand over, without a mail server. The
   * account and the link are written together; if the mail cannot be sent both are removed again.
   */
  async create(caller: Caller, input: CreateAccountIn, mail: MailContext): Promise<CreatedAccount> {
    const parentId = await parentForTier(this.accounts, caller, input.auth);
    checkZoneLimit(caller, { tier: input.auth, isRoot: input.auth !== caller.tier }, input.zoneLimit);
    const byMail = input.delivery === 'mail';
    if (byMail && !(await this.mailer.configured())) throw new AppError(101020);
    // Names and e-mails are unique per tier within the operator the account will belong to.
    const operatorId = await this.accounts.operatorIdFor(parentId);
    await this.refuseOperatorName(input.auth, operatorId, input.account);
    if (await this.accounts.emailTaken(input.auth, operatorId, input.email, 0)) throw new AppError(101017);
    if (byMail) this.countMail(caller, input.email, false);
    const token = randomToken('cp_');
    let row: AccountRow;
    try {
      row = await this.transactions.run(async () => {
        const created = await this.accounts.insert({
          tier: input.auth,
          parentId,
          operatorId,
          account: input.account,
          name: input.name.trim(),
          email: input.email,
          // The top account of a tier (an operator, a customer) is a root; one of the caller's own tier is a sub-account.
          isRoot: input.auth !== caller.tier,
          ...(input.maxLogExportTimes === undefined ? {} : { maxLogExportTimes: input.maxLogExportTimes }),
          ...(input.zoneLimit === undefined ? {} : { zoneLimit: input.zoneLimit }),
        });
        await this.tickets.insertPasswordToken({
          tokenHash: sha256(token),
          accountId: created.id,
          purpose: 'create',
          expiresAt: new Date(this.clock() + PASSWORD_TOKEN_TTL_MS),
        });
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        if (await this.accounts.emailTaken(input.auth, operatorId, input.email, 0)) {
          throw new AppError(101017, { cause: error });
        }
        throw new AppError(101025, { extra: { field: 'account' }, cause: error });
      }
      throw error;
    }
    if (!byMail) return { ...presentAccount(row, 0), createPasswordLink: await this.linkOf(row, token, mail) };
    try {
      await this.mailCreateLink(row, token, mail);
    } catch (error) {
      await this.accounts.delete(row.id);
      throw error;
    }
    return { ...presentAccount(row, 0), createPasswordLink: null };
  }

  /**
   * Client-tier names the database does not hold unique on its own (101025): an operator's
   * sub-account is not named like its operator (a login naming the operator then means the
   * operator), and a new operator (created by the admin, who sees every operator's accounts) is
   * not named like any client-tier account, so sub-accounts of existing installs keep signing in
   * without naming their operator.
   */
  private async refuseOperatorName(tier: Tier, operatorId: number | null, account: string): Promise<void> {
    if (tier !== 'client') return;
    const clash =
      operatorId === null
        ? await this.accounts.clientNameUsed(account)
        : (await this.accounts.findById(operatorId))?.account === account;
    if (clash) throw new AppError(101025, { extra: { field: 'account' } });
  }

  /** The create-password link of `token` for the account `row` (its operator named for a sub-tier login). */
  private async linkOf(row: AccountRow, token: string, mail: MailContext): Promise<string> {
    const operator = row.operatorId === null ? undefined : (await this.accounts.findById(row.operatorId))?.account;
    return createPasswordLink(mail.baseUrl, row.tier, token, operator);
  }

  private async mailCreateLink(row: AccountRow, token: string, mail: MailContext): Promise<void> {
    const link = await this.linkOf(row, token, mail);
    try {
      await this.mailer.send(createPasswordMail(row.email, link, mail.locale, await this.productName()));
    } catch (error) {
      throw new AppError(101020, { cause: error });
    }
  }

  async update(caller: Caller, input: UpdateAccountIn): Promise<ManagedAccount> {
    const target = await requireManaged(this.accounts, caller, input.id);
    checkZoneLimit(caller, target, input.zoneLimit);
    if (await this.accounts.emailTaken(target.tier, target.operatorId, input.email, target.id))
      throw new AppError(101017);
    const disabled = input.status !== undefined && input.status !== 'normal' && target.status !== input.status;
    const emailChanged = input.email.toLowerCase() !== target.email.toLowerCase();
    try {
      const updated = await this.transactions.run(async () => {
        const row = await this.accounts.update(target.id, {
          name: input.name.trim(),
          email: input.email,
          ...(input.status === undefined ? {} : { status: input.status }),
          ...(input.maxLogExportTimes === undefined ? {} : { maxLogExportTimes: input.maxLogExportTimes }),
          ...(input.zoneLimit === undefined ? {} : { zoneLimit: input.zoneLimit }),
        });
        if (!row) throw new AppError(101018);
        // A paused, locked or expired account is signed out at once, not when its token runs out.
        if (disabled) await this.sessions.revokeAccountSessions(target.id, `status-${input.status}`);
        // A link mailed to the old address must not work once the address changed.
        if (emailChanged) await this.tickets.revokePasswordTokens(target.id);
        return row;
      });
      return presentAccount(
        updated,
        await this.accounts.countChildren(updated.id),
        await this.accounts.roleOf(updated.id),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(101017, { cause: error });
      throw error;
    }
  }

  /** Refused while the account has sites, sub-accounts (or customers), or other objects (nodes, zones...). */
  async delete(caller: Caller, id: number): Promise<void> {
    const target = await requireManaged(this.accounts, caller, id);
    const sites = await this.accounts.countSites(target.id);
    if (sites > 0) throw refuseDelete('accountHasSites', sites);
    const children = await this.accounts.countChildren(target.id);
    if (children > 0) throw refuseDelete('accountHasSubAccounts', children);
    try {
      await this.accounts.delete(target.id);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw refuseDelete('accountInUse', 0, error);
      throw error;
    }
  }

  /**
   * Mails a new create-password link, only to an account that has no password yet (101018 for a
   * registered one: its password changes through the account itself or its parent's
   * `{auth}/account/password`). The new link replaces every earlier one.
   */
  async resendEmail(caller: Caller, id: number, mail: MailContext): Promise<void> {
    const target = await requireManaged(this.accounts, caller, id);
    if (target.passwordHash !== null) throw new AppError(101018);
    if (!target.email) throw new AppError(101020);
    if (!(await this.mailer.configured())) throw new AppError(101020);
    this.countMail(caller, target.email, true);
    const token = await this.replaceCreateToken(target.id);
    try {
      await this.mailCreateLink(target, token, mail);
    } catch (error) {
      await this.tickets.usePasswordToken(sha256(token));
      throw error;
    }
  }

  /**
   * A new create-password link answered to the caller, for an account that has no password yet
   * (101018 for a registered one, as for resendEmail); it replaces every earlier link.
   */
  async createPasswordLink(caller: Caller, id: number, mail: MailContext): Promise<string> {
    const target = await requireManaged(this.accounts, caller, id);
    if (target.passwordHash !== null) throw new AppError(101018);
    return this.linkOf(target, await this.replaceCreateToken(target.id), mail);
  }

  /** Revokes the account's password links and writes a new create link; answers its token. */
  private async replaceCreateToken(accountId: number): Promise<string> {
    const token = randomToken('cp_');
    await this.transactions.run(async () => {
      await this.tickets.revokePasswordTokens(accountId);
      await this.tickets.insertPasswordToken({
        tokenHash: sha256(token),
        accountId,
        purpose: 'create',
        expiresAt: new Date(this.clock() + PASSWORD_TOKEN_TTL_MS),
      });
    });
    return token;
  }

  /** Turns the second factor off (a lost authenticator) and signs the account out everywhere. */
  async resetTwoFactor(caller: Caller, id: number): Promise<void> {
    const target = await requireManaged(this.accounts, caller, id);
    await this.transactions.run(async () => {
      await this.accounts.update(target.id, { login2FAType: 0, totpSecret: null, totpLastStep: 0 });
      await this.sessions.revokeAccountSessions(target.id, 'login2fa-reset-by-parent');
    });
  }
}
