import { LOGIN_2FA_TYPES, type Locale, type Tier, type TokenSet } from '@rampart/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { deriveKey, hmac, randomDigits, randomToken, safeEqual, sha256 } from '../../platform/crypto/keys.js';
import { hashPassword, verifyPassword } from '../../platform/crypto/passwords.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { matchTotp } from '../../platform/crypto/totp.js';
import { AppError } from '../../platform/errors/app-error.js';
import { type Mailer, MailNotConfiguredError } from '../../platform/mail/mailer.js';
import type { AccountPolicy } from './account-policy.js';
import type { AccountRow, AccountsRepository } from './accounts.repository.js';
import { loginCodeMail } from './auth.mails.js';
import type { CredentialGuard } from './credential-guard.js';
import type { TicketRow, TicketsRepository } from './tickets.repository.js';
import type { SessionMeta, TokenService } from './token.service.js';

export interface RequestMeta extends SessionMeta {
  /** The language of the request: the language of the mails the call sends (sign-in codes, links). */
  readonly locale: Locale;
}

export const LOGIN_TICKET_TTL_MS = 10 * 60 * 1000;
/** Wrong codes on one ticket before it is void and the password must be entered again. */
export const TICKET_MAX_ATTEMPTS = 5;
/** Codes mailed for one ticket at most (the first and four re-sends). */
export const TICKET_MAX_SENDS = 5;

type LoginStep = ({ login2FAType: 0 } & TokenSet) | { login2FAType: 1 | 3; onePassKey: string };

/**
 * Sign-in: step 1 checks the password and either starts a session or opens a ticket for the
 * second factor; step 2 checks the password again and the code. Failures of either step count
 * towards throttles per account and address, per address, and per account; the answer to a wrong
 * account and to a wrong password is the same, in the same time.
 */
export class LoginService {
  private readonly codeKey: Buffer;

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly tickets: TicketsRepository,
    private readonly tokens: TokenService,
    private readonly mailer: Mailer,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    secret: string,
    private readonly productName: () => Promise<string>,
    private readonly guard: CredentialGuard,
    private readonly policy: AccountPolicy,
  ) {
    this.codeKey = deriveKey(secret, 'login-code/v1');
  }

  /** Account and password, or 101012. Rehashes with current parameters when needed. */
  private async checkPassword(
    tier: Tier,
    input: { account: string; password: string; operator?: string | undefined },
    meta: RequestMeta,
  ): Promise<AccountRow> {
    const { account, password } = input;
    this.guard.checkPasswordThrottles(tier, account, meta.ip);
    const row = await this.accounts.findForLogin(tier, account, input.operator);
    const result = await verifyPassword(row?.passwordHash ?? null, password);
    if (!row || !result.ok) {
      this.log.info({ event: 'auth.login.failed', tier, accountId: row?.id ?? null }, 'sign-in failed');
      this.guard.passwordFailed(tier, account, meta.ip);
      throw new AppError(101012);
    }
    if (result.needsRehash) await this.accounts.update(row.id, { passwordHash: await hashPassword(password) });
    if (row.status !== 'normal') throw new AppError(101008);
    if (!row.isRoot && (await this.accounts.disabledAbove(row.id))) throw new AppError(101008);
    await this.policy.checkSignIn(row, meta.ip);
    return row;
  }

  private async succeed(row: AccountRow, meta: RequestMeta): Promise<TokenSet> {
    this.guard.passwordSucceeded(row.tier, row.account, meta.ip);
    this.log.info({ event: 'auth.login.succeeded', tier: row.tier, accountId: row.id }, 'signed in');
    return this.tokens.startSession(row, meta);
  }

  private async mailCode(row: AccountRow, keyHash: string, locale: Locale): Promise<void> {
    const code = randomDigits(6);
    await this.tickets.updateTicket(keyHash, { codeHash: hmac(this.codeKey, `${keyHash}:${code}`) });
    try {
      await this.mailer.send(loginCodeMail(row.email, code, locale, await this.productName()));
    } catch (error) {
      this.log.error({ err: error, event: 'auth.mail.failed', accountId: row.id }, 'sign-in code mail not sent');
      throw new AppError(101020, { cause: error });
    }
  }

  /** `POST {auth}/code` */
  async start(
    tier: Tier,
    input: { account: string; password: string; operator?: string | undefined },
    meta: RequestMeta,
  ): Promise<LoginStep> {
    const row = await this.checkPassword(tier, input, meta);
    const type = row.login2FAType;
    if (type === LOGIN_2FA_TYPES.none || (type === LOGIN_2FA_TYPES.totp && !row.totpSecret)) {
      return { login2FAType: 0, ...(await this.succeed(row, meta)) };
    }
    if (type === LOGIN_2FA_TYPES.email && (!row.email || !(await this.mailer.configured()))) {
      throw new AppError(101020, { cause: new MailNotConfiguredError('e-mail second factor without SMTP or address') });
    }
    const onePassKey = randomToken('pk_');
    const keyHash = sha256(onePassKey);
    await this.tickets.insertTicket({
      keyHash,
      purpose: 'login',
      accountId: row.id,
      login2FAType: type,
      expiresAt: new Date(this.clock() + LOGIN_TICKET_TTL_MS),
      sends: type === LOGIN_2FA_TYPES.email ? 1 : 0,
    });
    if (type === LOGIN_2FA_TYPES.email) await this.mailCode(row, keyHash, meta.locale);
    return { login2FAType: type === LOGIN_2FA_TYPES.email ? 1 : 3, onePassKey };
  }

  private async liveTicket(row: AccountRow, onePassKey: string): Promise<TicketRow> {
    const ticket = await this.tickets.findLiveTicket(sha256(onePassKey), 'login', new Date(this.clock()));
    if (!ticket || ticket.accountId !== row.id || ticket.attempts >= TICKET_MAX_ATTEMPTS) throw new AppError(101012);
    return ticket;
  }

  private async codeMatches(row: AccountRow, ticket: TicketRow, code: string): Promise<boolean> {
    if (ticket.login2FAType === LOGIN_2FA_TYPES.email) {
      return ticket.codeHash !== null && safeEqual(ticket.codeHash, hmac(this.codeKey, `${ticket.keyHash}:${code}`));
    }
    if (!row.totpSecret) return false;
    const step = matchTotp(this.box.open(row.totpSecret), code, this.clock());
    // A code is good once: its step must be later than the last one accepted for the account.
    return step !== null && (await this.accounts.acceptTotpStep(row.id, step));
  }

  /** `POST {auth}/login` */
  async finish(
    tier: Tier,
    input: { account: string; password: string; operator?: string | undefined; onePassKey: string; code: string },
    meta: RequestMeta,
  ): Promise<TokenSet> {
    const row = await this.checkPassword(tier, input, meta);
    const ticket = await this.liveTicket(row, input.onePassKey);
    await this.guard.requireCode(
      row,
      'code',
      () => this.codeMatches(row, ticket, input.code),
      async () => {
        const attempts = await this.tickets.countAttempt(ticket.keyHash);
        this.log.info({ event: 'auth.2fa.failed', tier, accountId: row.id, attempts }, 'second factor failed');
        if (attempts >= TICKET_MAX_ATTEMPTS) {
          await this.tickets.consumeTicket(ticket.keyHash);
          throw new AppError(101012, { extra: { reason: 'too many wrong codes; sign in again' } });
        }
      },
    );
    if (!(await this.tickets.consumeTicket(ticket.keyHash))) throw new AppError(101012);
    return this.succeed(row, meta);
  }

  /** `POST {auth}/verify`: a new e-mailed code for a pending login. */
  async resend(
    tier: Tier,
    input: { account: string; password: string; operator?: string | undefined; onePassKey: string },
    meta: RequestMeta,
  ) {
    const row = await this.checkPassword(tier, input, meta);
    const ticket = await this.liveTicket(row, input.onePassKey);
    if (ticket.login2FAType !== LOGIN_2FA_TYPES.email) throw new AppError(101012);
    if (ticket.sends >= TICKET_MAX_SENDS) throw new AppError(101029, { extra: { max: TICKET_MAX_SENDS } });
    await this.tickets.updateTicket(ticket.keyHash, { sends: ticket.sends + 1 });
    await this.mailCode(row, ticket.keyHash, meta.locale);
  }
}
