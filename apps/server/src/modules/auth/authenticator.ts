import { SELF_PERMISSION } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Authenticator, Caller } from '../../platform/http/bind-route.js';
import { operatorOf } from '../../platform/tenancy/operator.js';
import type { PermissionResolver } from '../roles/permission-resolver.js';
import type { AccountPolicy } from './account-policy.js';
import type { AccountsRepository } from './accounts.repository.js';
import type { SessionsRepository } from './sessions.repository.js';
import type { TokenService } from './token.service.js';

/**
 * Checks the bearer token of a non-public route. The token is read from the Authorization header
 * only (the console copies it there from its cookie), so a cross-site request carries no
 * credentials and needs no CSRF token. A token of another tier, or for another console than the
 * path's `{auth}`, is 101018. The caller's permission keys are resolved here (the binder checks
 * them); an access token minted from an API token holds only the token's keys among its owner's.
 */
export function createAuthenticator(
  tokens: TokenService,
  sessions: SessionsRepository,
  permissions: PermissionResolver,
  accounts: AccountsRepository,
  clock: Clock,
  zoneScopeOf: (accountId: number) => Promise<ReadonlySet<number> | null>,
  policy: AccountPolicy,
): Authenticator {
  return async (request: FastifyRequest, access): Promise<Caller> => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/.exec(header);
    if (!match?.[1]) throw new AppError(101013);
    const claims = await tokens.verifyAccess(match[1]);

    const pathTier = (request.params as Record<string, unknown> | undefined)?.auth;
    if (!access.tiers.includes(claims.tier) || (pathTier !== undefined && pathTier !== claims.tier)) {
      throw new AppError(101018);
    }
    const found = await sessions.findSessionWithAccount(claims.sessionId);
    if (
      !found ||
      found.session.revokedAt !== null ||
      found.session.absoluteExpiresAt.getTime() <= clock() ||
      found.account.id !== claims.accountId
    ) {
      throw new AppError(101013);
    }
    if (found.account.status !== 'normal') throw new AppError(101008);
    // A sub-account stops at once with the account above it (a paused customer's sub-users).
    if (!found.account.isRoot && (await accounts.disabledAbove(found.account.id))) throw new AppError(101008);
    // The operator's CIDR list and second-factor requirement; the account's own calls (`{auth}/...`
    // with the self key) stay open so that an account without a second factor can set one up.
    const selfCall = access.permission === SELF_PERMISSION && pathTier !== undefined;
    const switched = found.session.realAccountId !== null && found.session.realAccountId !== found.account.id;
    await policy.checkCall(found.account, request.ip, selfCall, switched);
    let keys = await permissions.keysOf(found.account);
    const limit = found.apiToken?.permissions;
    if (limit) keys = new Set([SELF_PERMISSION, ...limit.filter((key) => keys.has(key))]);
    return {
      tier: claims.tier,
      accountId: claims.accountId,
      operatorId: operatorOf(found.account),
      sessionId: claims.sessionId,
      account: found.account,
      realAccountId: found.session.realAccountId,
      permissions: keys,
      apiTokenId: found.apiToken?.id ?? null,
      // Only an operator's sub-accounts can have zones assigned.
      zoneScope: claims.tier === 'client' && !found.account.isRoot ? await zoneScopeOf(found.account.id) : null,
    };
  };
}
