import { randomUUID } from 'node:crypto';
import type { ApiToken, ApiTokenIn, Tier } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto/keys.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Caller } from '../../platform/http/bind-route.js';
import type { SessionsRepository } from '../auth/sessions.repository.js';
import type { TokenService } from '../auth/token.service.js';
import { checkGrantable } from '../roles/roles.service.js';
import { presentApiToken } from './api-tokens.presenter.js';
import type { ApiTokensRepository } from './api-tokens.repository.js';

/** An API token's session never ends by itself: the token lives until it is deleted. */
const API_TOKEN_SESSION_TTL_MS = 100 * 365 * 24 * 3600 * 1000;
const TOKEN_PREFIX = 'rat_';

/**
 * API tokens. A token is a secret shown once and stored as its SHA-256; it is exchanged
 * for access tokens of its lifetime (`POST {auth}/apiToken/accessToken`) that act as its owner
 * within its keys. Each token has a session of its own, named by the access tokens it mints:
 * deleting the token deletes that session, so they stop at once.
 */
export class ApiTokensService {
  constructor(
    private readonly repo: ApiTokensRepository,
    private readonly sessions: SessionsRepository,
    private readonly transactions: Transactions,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
  ) {}

  async list(caller: Caller, page: number, pageSize: number) {
    const { rows, total } = await this.repo.pageOf(caller.accountId, page, pageSize);
    return { data: rows.map((r) => presentApiToken(r.token, r.revokedAt)), total };
  }

  async create(caller: Caller, body: ApiTokenIn): Promise<ApiToken & { token: string }> {
    if (body.permissions) checkGrantable(caller, body.permissions);
    const token = randomToken(TOKEN_PREFIX);
    const sessionId = randomUUID();
    const row = await this.transactions.run(async () => {
      await this.sessions.insertSession({
        id: sessionId,
        accountId: caller.accountId,
        tier: caller.tier,
        absoluteExpiresAt: new Date(this.clock() + API_TOKEN_SESSION_TTL_MS),
        userAgent: 'api-token',
      });
      return this.repo.insert({
        accountId: caller.accountId,
        name: body.name.trim(),
        tokenHash: sha256(token),
        lifetimeS: body.lifetime,
        permissions: body.permissions,
        sessionId,
      });
    });
    return { ...presentApiToken(row, null), token };
  }

  /** Deletes tokens of the caller's (one not its own: 101018, nothing deleted) and their sessions. */
  async delete(caller: Caller, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      const owned = await this.repo.ownedOf(caller.accountId, unique);
      requireEvery(owned, unique);
      // The session's deletion cascades to the token row; access tokens naming it fail at once.
      await this.sessions.deleteSessions(owned.map((t) => t.sessionId));
    });
  }

  /** Exchanges a token for an access token: unknown, deleted or of another tier → 101013; a disabled owner → 101008. */
  async mint(tier: Tier, token: string) {
    if (!token.startsWith(TOKEN_PREFIX)) throw new AppError(101013);
    const found = await this.repo.findByHash(sha256(token));
    if (!found || found.session.tier !== tier || found.session.revokedAt !== null) throw new AppError(101013);
    if (found.status !== 'normal') throw new AppError(101008);
    await this.repo.markUsed(found.token.id);
    const accessToken = await this.tokens.mintApiAccess(
      { tier, accountId: found.token.accountId, sessionId: found.session.id },
      found.token.lifetimeS,
    );
    return { accessToken, tokenType: 'Bearer' as const, expiresIn: found.token.lifetimeS };
  }
}
