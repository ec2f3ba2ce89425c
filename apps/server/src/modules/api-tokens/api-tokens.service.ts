import { randomUUID } from 'node:crypto';
import type { ApiToken, Locale, Tier } from '@rampart/contract';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto/keys.js';
import type { Db } from '../../platform/db/database.js';
import { accounts, apiTokens, authSessions } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Caller } from '../../platform/http/bind-route.js';
import type { TokenService } from '../auth/token.service.js';
import { checkGrantable } from '../roles/roles.service.js';

/** An API token's session never ends by itself: the token lives until it is deleted. */
const API_TOKEN_SESSION_TTL_MS = 100 * 365 * 24 * 3600 * 1000;
const TOKEN_PREFIX = 'rat_';

type ApiTokenRow = typeof apiTokens.$inferSelect;

function present(row: ApiTokenRow, revokedAt: Date | null): ApiToken {
  return {
    id: row.id,
    name: row.name,
    lifetime: row.lifetimeS,
    permissions: row.permissions ? [...row.permissions].sort() : null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: revokedAt?.toISOString() ?? null,
  };
}

/**
 * API tokens. A token is a secret shown once and stored as its SHA-256; it is exchanged
 * for access tokens of its lifetime (`POST {auth}/apiToken/accessToken`) that act as its owner
 * within its keys. Each token has a session of its own, named by the access tokens it mints:
 * deleting the token deletes that session, so they stop at once.
 */
export class ApiTokensService {
  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
  ) {}

  async list(caller: Caller, page: number, pageSize: number) {
    const where = eq(apiTokens.accountId, caller.accountId);
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ token: apiTokens, revokedAt: authSessions.revokedAt })
        .from(apiTokens)
        .leftJoin(authSessions, eq(authSessions.id, apiTokens.sessionId))
        .where(where)
        .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ n: count() }).from(apiTokens).where(where),
    ]);
    return { data: rows.map((r) => present(r.token, r.revokedAt)), total: total?.n ?? 0 };
  }

  async create(
    caller: Caller,
    body: { name: string; lifetime: number; permissions: string[] | null },
    locale: Locale,
  ): Promise<ApiToken & { token: string }> {
    if (body.permissions) checkGrantable(caller, body.permissions, locale);
    const token = randomToken(TOKEN_PREFIX);
    const sessionId = randomUUID();
    const row = await this.db.transaction(async (tx) => {
      await tx.insert(authSessions).values({
        id: sessionId,
        accountId: caller.accountId,
        tier: caller.tier,
        absoluteExpiresAt: new Date(this.clock() + API_TOKEN_SESSION_TTL_MS),
        userAgent: 'api-token',
      });
      const [inserted] = await tx
        .insert(apiTokens)
        .values({
          accountId: caller.accountId,
          name: body.name.trim(),
          tokenHash: sha256(token),
          lifetimeS: body.lifetime,
          permissions: body.permissions,
          sessionId,
        })
        .returning();
      if (!inserted) throw new Error('api token insert returned nothing');
      return inserted;
    });
    return { ...present(row, null), token };
  }

  /** Deletes tokens of the caller's (one not its own: 101018, nothing deleted) and their sessions. */
  async delete(caller: Caller, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      const owned = await tx
        .select({ id: apiTokens.id, sessionId: apiTokens.sessionId })
        .from(apiTokens)
        .where(and(eq(apiTokens.accountId, caller.accountId), inArray(apiTokens.id, unique)));
      if (owned.length !== unique.length) throw new AppError(101018);
      // The session's deletion cascades to the token row; access tokens naming it fail at once.
      await tx.delete(authSessions).where(
        inArray(
          authSessions.id,
          owned.map((t) => t.sessionId),
        ),
      );
    });
  }

  /** Exchanges a token for an access token: unknown, deleted or of another tier → 101013; a disabled owner → 101008. */
  async mint(tier: Tier, token: string) {
    if (!token.startsWith(TOKEN_PREFIX)) throw new AppError(101013);
    const [found] = await this.db
      .select({ token: apiTokens, session: authSessions, status: accounts.status })
      .from(apiTokens)
      .innerJoin(authSessions, eq(authSessions.id, apiTokens.sessionId))
      .innerJoin(accounts, eq(accounts.id, apiTokens.accountId))
      .where(eq(apiTokens.tokenHash, sha256(token)));
    if (!found || found.session.tier !== tier || found.session.revokedAt !== null) throw new AppError(101013);
    if (found.status !== 'normal') throw new AppError(101008);
    await this.db.update(apiTokens).set({ lastUsedAt: sql`now()` }).where(eq(apiTokens.id, found.token.id));
    const accessToken = await this.tokens.mintApiAccess(
      { tier, accountId: found.token.accountId, sessionId: found.session.id },
      found.token.lifetimeS,
    );
    return { accessToken, tokenType: 'Bearer' as const, expiresIn: found.token.lifetimeS };
  }
}
