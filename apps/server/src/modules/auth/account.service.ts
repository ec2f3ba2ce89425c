import {
  type ChangePasswordIn,
  LOGIN_2FA_TYPES,
  type SelfInfo,
  type SetAccountPasswordIn,
  type SetupPhase0In,
  type SetupPhase2In,
  type Tier,
  type TokenSet,
  type UpdateSelfIn,
} from '@rampart/contract';
import QRCode from 'qrcode';
import type { Clock } from '../../platform/clock.js';
import { deriveKey, hmac, randomDigits, randomToken, safeEqual, sha256 } from '../../platform/crypto/keys.js';
import { hashPassword, isCommonPassword } from '../../platform/crypto/passwords.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { matchTotp, newTotpSecret, otpauthUri } from '../../platform/crypto/totp.js';
import { onUniqueViolation } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Caller } from '../../platform/http/bind-route.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { requireManaged } from '../../platform/tenancy/account-chain.js';
import type { L4AttackPageSettings } from '../analytics/l4-attack-page.setting.js';
import { presentSelf, type SelfOperator } from './account.presenter.js';
import type { AccountRow, AccountsRepository } from './accounts.repository.js';
import { setupCodeMail } from './auth.mails.js';
import type { CredentialGuard } from './credential-guard.js';
import { type RequestMeta, TICKET_MAX_SENDS } from './login.service.js';
import type { SessionsRepository } from './sessions.repository.js';
import type { TicketsRepository } from './tickets.repository.js';
import type { TokenService } from './token.service.js';

export const SETUP_TICKET_TTL_MS = 10 * 60 * 1000;
export const PASSWORD_TOKEN_TTL_MS = 24 * 3600 * 1000;
/** How long a code mailed for phase 0 works. */
export const SETUP_CODE_TTL_MS = 10 * 60 * 1000;

/** The caller's own account: profile, password, second factor; and first passwords from e-mailed links. */
export class AccountService {
  private readonly codeKey: Buffer;

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly sessions: SessionsRepository,
    private readonly tickets: TicketsRepository,
    private readonly tokens: TokenService,
    private readonly mailer: Mailer,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly productName: () => Promise<string>,
    private readonly guard: CredentialGuard,
    private readonly l4AttackPage: L4AttackPageSettings,
    secret: string,
  ) {
    this.codeKey = deriveKey(secret, 'setup-code/v1');
  }

  private refuseCommon(password: string): void {
    if (isCommonPassword(password)) throw invalidFields([{ field: 'password', key: 'passwordTooCommon' }]);
  }

  async self(caller: Caller): Promise<SelfInfo> {
    return presentSelf(caller.account, caller.permissions, await this.operatorOf(caller.account.id));
  }

  /** The operator above an account (none for admin accounts) with its switches the consoles read. */
  private async operatorOf(accountId: number): Promise<SelfOperator | null> {
    const operator = await this.accounts.operatorAbove(accountId);
    if (!operator) return null;
    return { account: operator.account, l4AttackPage: (await this.l4AttackPage.setting(operator.id)).enabled };
  }

  async updateSelf(caller: Caller, input: UpdateSelfIn, meta: RequestMeta) {
    const row = caller.account;
    const emailChanged = input.email.toLowerCase() !== row.email.toLowerCase();
    if (emailChanged) {
      // A new e-mail redirects sign-in codes and password mails: prove it is the owner.
      await this.guard.requirePassword(row, input.password, 'password', meta);
      if (await this.accounts.emailTaken(row.tier, row.operatorId, input.email, row.id)) throw new AppError(101017);
    }
    return onUniqueViolation(101017, async () => {
      const updated = await this.accounts.update(row.id, { name: input.name.trim(), email: input.email });
      if (!updated) throw new AppError(101013);
      return presentSelf(updated, caller.permissions, await this.operatorOf(updated.id));
    });
  }

  /** Changes the caller's password, ends every session of the account and starts a new one for the caller. */
  async changePassword(caller: Caller, input: ChangePasswordIn, meta: RequestMeta): Promise<TokenSet> {
    await this.guard.requirePassword(caller.account, input.oldPassword, 'oldPassword', meta);
    this.refuseCommon(input.password);
    await this.accounts.update(caller.accountId, { passwordHash: await hashPassword(input.password) });
    await this.sessions.revokeAccountSessions(caller.accountId, 'password-changed');
    return this.tokens.startSession(caller.account, meta);
  }

  /** A parent sets the password of an account below it; that account is signed out everywhere. */
  async setPasswordOf(caller: Caller, input: SetAccountPasswordIn): Promise<void> {
    // Not found and not yours answer the same, so ids of other tenants cannot be probed.
    await requireManaged(this.accounts, caller, input.id);
    this.refuseCommon(input.password);
    await this.accounts.update(input.id, { passwordHash: await hashPassword(input.password) });
    await this.sessions.revokeAccountSessions(input.id, 'password-set-by-parent');
  }

  // --- second factor set-up: phase 0 (password) → 1 (new seed) → 2 (choice, confirmed) ---

  /**
   * Before phase 0, while the e-mail second factor is on: mails a code to the account's address.
   * One live code per account; asking again mails a new one that replaces it, at most
   * TICKET_MAX_SENDS times in the code's lifetime (then 101029).
   */
  async sendSetupCode(caller: Caller, meta: RequestMeta): Promise<void> {
    const row = caller.account;
    // Nothing to confirm with a mailed code: the account's second factor is not e-mail.
    if (row.login2FAType !== LOGIN_2FA_TYPES.email)
      throw invalidFields([{ field: 'login2FAType', key: 'invalidValue' }]);
    if (!row.email || !(await this.mailer.configured())) throw new AppError(101020);
    const live = await this.tickets.findLiveTicketOf(row.id, 'setup-code', new Date(this.clock()));
    if (live && live.sends >= TICKET_MAX_SENDS) throw new AppError(101029, { extra: { max: TICKET_MAX_SENDS } });
    const keyHash = live?.keyHash ?? sha256(randomToken('sc_'));
    const code = randomDigits(6);
    const codeHash = hmac(this.codeKey, `${keyHash}:${code}`);
    if (live) {
      await this.tickets.updateTicket(keyHash, { codeHash, sends: live.sends + 1 });
    } else {
      await this.tickets.insertTicket({
        keyHash,
        purpose: 'setup-code',
        accountId: row.id,
        login2FAType: LOGIN_2FA_TYPES.email,
        codeHash,
        sends: 1,
        expiresAt: new Date(this.clock() + SETUP_CODE_TTL_MS),
      });
    }
    try {
      await this.mailer.send(setupCodeMail(row.email, code, meta.locale, await this.productName()));
    } catch (error) {
      throw new AppError(101020, { cause: error });
    }
  }

  /**
   * Whether `code` is the live mailed phase-0 code of the account; a match spends it. Guessing is
   * bounded by the per-account code throttle (the caller's `requireCode`), which keeps its count
   * outside the refused call's transaction.
   */
  private async spendSetupCode(row: AccountRow, code: string): Promise<boolean> {
    const ticket = await this.tickets.findLiveTicketOf(row.id, 'setup-code', new Date(this.clock()));
    if (!ticket?.codeHash || !safeEqual(ticket.codeHash, hmac(this.codeKey, `${ticket.keyHash}:${code}`))) return false;
    return this.tickets.consumeTicket(ticket.keyHash);
  }

  /**
   * Phase 0: the password and, while a second factor is on, a code of it (a current one from the
   * authenticator, or the one mailed by `sendSetupCode`): a session and the password alone must
   * not be enough to turn the factor off or move it elsewhere.
   */
  async setupPhase0(caller: Caller, input: SetupPhase0In, meta: RequestMeta) {
    const row = caller.account;
    await this.guard.requirePassword(row, input.password, 'password', meta);
    if (row.login2FAType === LOGIN_2FA_TYPES.totp && row.totpSecret) {
      const secret = row.totpSecret;
      if (!input.code) throw invalidFields([{ field: 'code', key: 'required' }]);
      await this.guard.requireCode(row, 'code', async () => {
        const step = matchTotp(this.box.open(secret), input.code ?? '', this.clock());
        return step !== null && (await this.accounts.acceptTotpStep(row.id, step));
      });
    } else if (row.login2FAType === LOGIN_2FA_TYPES.email) {
      const code = input.code;
      if (!code) throw invalidFields([{ field: 'code', key: 'required' }]);
      await this.guard.requireCode(row, 'code', () => this.spendSetupCode(row, code));
    }
    const onePassKey = randomToken('sk_');
    await this.tickets.insertTicket({
      keyHash: sha256(onePassKey),
      purpose: 'setup',
      accountId: caller.accountId,
      login2FAType: caller.account.login2FAType,
      expiresAt: new Date(this.clock() + SETUP_TICKET_TTL_MS),
    });
    return { onePassKey, login2FAType: caller.account.login2FAType as SelfInfo['login2FAType'] };
  }

  private async setupTicket(caller: Caller, onePassKey: string) {
    const ticket = await this.tickets.findLiveTicket(sha256(onePassKey), 'setup', new Date(this.clock()));
    if (!ticket || ticket.accountId !== caller.accountId) throw new AppError(101013);
    return ticket;
  }

  async setupPhase1(caller: Caller, onePassKey: string) {
    const ticket = await this.setupTicket(caller, onePassKey);
    const secret = newTotpSecret();
    await this.tickets.updateTicket(ticket.keyHash, { pendingSecret: this.box.seal(secret) });
    const qrCodeData = otpauthUri(secret, await this.productName(), caller.account.account);
    const qrCode = await QRCode.toDataURL(qrCodeData, { errorCorrectionLevel: 'M', margin: 2, width: 220 });
    return { qrCode, qrCodeData };
  }

  async setupPhase2(caller: Caller, input: SetupPhase2In) {
    const ticket = await this.setupTicket(caller, input.onePassKey);
    let values: Partial<AccountRow>;
    if (input.login2FAType === LOGIN_2FA_TYPES.totp) {
      if (!ticket.pendingSecret) throw new AppError(101013);
      if (!input.code) throw invalidFields([{ field: 'code', key: 'required' }]);
      const pending = ticket.pendingSecret;
      const code = input.code;
      const matched: { step: number | null } = { step: null };
      await this.guard.requireCode(
        caller.account,
        'code',
        async () => {
          matched.step = matchTotp(this.box.open(pending), code, this.clock());
          return matched.step !== null;
        },
        async () => {
          const attempts = await this.tickets.countAttempt(ticket.keyHash);
          if (attempts >= 5) await this.tickets.consumeTicket(ticket.keyHash);
        },
      );
      if (matched.step === null) throw new AppError(101013);
      values = { login2FAType: 3, totpSecret: pending, totpLastStep: matched.step };
    } else if (input.login2FAType === LOGIN_2FA_TYPES.email) {
      if (!caller.account.email || !(await this.mailer.configured())) throw new AppError(101020);
      values = { login2FAType: 1, totpSecret: null };
    } else {
      values = { login2FAType: 0, totpSecret: null };
    }
    if (!(await this.tickets.consumeTicket(ticket.keyHash))) throw new AppError(101013);
    await this.accounts.update(caller.accountId, values);
    return { login2FAType: input.login2FAType };
  }

  // --- first password from an e-mailed link (mailed when the account is made: accounts.service.ts) ---

  async checkPasswordToken(token: string): Promise<{ auth: Tier; email: string; id: number; name: string }> {
    const row = await this.unregisteredAccountOf(token);
    return { auth: row.tier, email: row.email, id: row.id, name: row.name };
  }

  /**
   * Sets the first password. The link is spent with every other open link of the account, and an
   * account that already has a password is refused: its password changes only by the account
   * itself or its parent, never by a create-password link.
   */
  async registerPassword(token: string, password: string): Promise<void> {
    const row = await this.unregisteredAccountOf(token);
    this.refuseCommon(password);
    if (!(await this.tickets.usePasswordToken(sha256(token)))) throw new AppError(101013);
    await this.tickets.revokePasswordTokens(row.id);
    await this.accounts.update(row.id, { passwordHash: await hashPassword(password) });
    await this.sessions.revokeAccountSessions(row.id, 'password-created');
  }

  /** The account of a live create-password link, while it has no password yet (101013 otherwise). */
  private async unregisteredAccountOf(token: string): Promise<AccountRow> {
    const found = await this.tickets.findLivePasswordToken(sha256(token), new Date(this.clock()));
    const row = found ? await this.accounts.findById(found.accountId) : undefined;
    if (!row || row.passwordHash !== null) throw new AppError(101013);
    return row;
  }
}
