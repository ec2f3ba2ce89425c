import { SWITCH_USER_SESSION_SECONDS, type Tier, type TokenSet } from '@rampart/contract';
import { AppError } from '../../platform/errors/app-error.js';
import type { Caller } from '../../platform/http/bind-route.js';
import type { AccountsRepository } from '../auth/accounts.repository.js';
import type { SessionMeta, TokenService } from '../auth/token.service.js';

/**
 * The tier each tier may switch into: the admin opens its operators' console, an operator its
 * customers', a customer (or a sub-user) its own sub-users' — the same console, so the switched
 * session takes the place of the caller's in that browser.
 */
const SWITCHES_TO: Record<Tier, Tier> = { admin: 'client', client: 'user', user: 'user' };

/**
 * Switch user (`POST {auth}/proxy`): a session of the target account that remembers who opened it.
 * It lives {@link SWITCH_USER_SESSION_SECONDS} however often it is refreshed; every call made with
 * it is audited with the caller as the real actor. A switched session cannot switch again.
 */
export class SwitchUserService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly tokens: TokenService,
  ) {}

  async switchTo(caller: Caller, targetId: number, meta: SessionMeta): Promise<TokenSet & { auth: Tier }> {
    const tier = SWITCHES_TO[caller.tier];
    if (caller.realAccountId) throw new AppError(101018);
    // An operator's sub-account acts for its operator: the customers are below the operator, not below it.
    // A customer's sub-user switches only to accounts below itself, never to its parent or siblings.
    const owner = caller.tier === 'client' && caller.operatorId !== null ? caller.operatorId : caller.accountId;
    const target = await this.accounts.findById(targetId);
    // A missing account and one outside the caller's owner chain answer alike, so ids cannot be probed.
    if (!target || target.tier !== tier || !(await this.accounts.isDescendant(owner, target.id))) {
      throw new AppError(101018);
    }
    if (target.status !== 'normal') throw new AppError(101008);
    const tokens = await this.tokens.startSession(target, meta, {
      realAccountId: caller.realAccountId ?? caller.accountId,
      lifetimeMs: SWITCH_USER_SESSION_SECONDS * 1000,
    });
    return { ...tokens, auth: tier };
  }
}
