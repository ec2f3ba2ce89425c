import { createHmac, randomUUID } from 'node:crypto';
import type { Tier, TokenSet } from '@rampart/contract';
import type { FastifyBaseLogger } from 'fastify';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../platform/clock.js';
import { deriveKey, randomToken, sha256 } from '../../platform/crypto/keys.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { AccountRow } from './accounts.repository.js';
import type { SessionsRepository } from './sessions.repository.js';

/** Lifetimes (documented in docs/decisions.md). */
export const DEFAULT_ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 14 * 24 * 3600 * 1000;
export const SESSION_ABSOLUTE_TTL_MS = 30 * 24 * 3600 * 1000;
/**
 * How long a spent refresh token may be presented again and answer the same successor: a page
 * reloaded while its refresh was in flight never saw the reply and presents the old token again.
 */
export const REFRESH_GRACE_MS = 10_000;
/** Clock skew tolerated on access tokens: they are made and checked by the control planes, whose clocks agree. */
export const CLOCK_TOLERANCE_S = 5;
const ISSUER = 'rampart';

/** A key's public name: the first 16 hex digits of its SHA-256 (says nothing of the key). */
function keyId(key: Uint8Array): string {
  return sha256(Buffer.from(key).toString('hex')).slice(0, 16);
}

export interface AccessClaims {
  readonly tier: Tier;
  readonly accountId: number;
  readonly sessionId: string;
}

export interface SessionMeta {
  readonly ip: string;
  readonly userAgent: string;
}

/**
 * Access tokens are JWTs (HS256 only, issuer and audience pinned; the audience is the tier) that
 * name their session; every request also checks that the session is alive, so logout and a
 * password change end them at once. Refresh tokens are opaque, stored hashed, spent on use; a
 * spent one presented again revokes the whole session (reuse detection).
 */
export class TokenService {
  private readonly key: Uint8Array;
  private readonly kid: string;
  /** Derives a refresh token's successor (see {@link successorOf}). */
  private readonly successorKey: Buffer;
  /** Every key that verifies, by key id: the current one and those of a rotation's overlap. */
  private readonly keys = new Map<string, Uint8Array>();

  /**
   * `secret` signs; `previousSecrets` only verify (tokens signed before a rotation, until they are
   * removed from the configuration). Each token names its key (`kid`, a hash of the key, not the key).
   */
  constructor(
    secret: string,
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly accessTtlS = DEFAULT_ACCESS_TOKEN_TTL_S,
    previousSecrets: readonly string[] = [],
  ) {
    this.key = deriveKey(secret, 'access-token/v1');
    this.successorKey = deriveKey(secret, 'refresh-successor/v1');
    this.kid = keyId(this.key);
    this.keys.set(this.kid, this.key);
    for (const previous of previousSecrets) {
      const key = deriveKey(previous, 'access-token/v1');
      this.keys.set(keyId(key), key);
    }
  }

  private async signAccess(claims: AccessClaims, ttlS = this.accessTtlS): Promise<string> {
    const now = Math.floor(this.clock() / 1000);
    return new SignJWT({ typ: 'access', sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: this.kid })
      .setIssuer(ISSUER)
      .setAudience(`rampart:${claims.tier}`)
      .setSubject(String(claims.accountId))
      .setIssuedAt(now)
      .setExpirationTime(now + ttlS)
      .sign(this.key);
  }

  private async issueRefresh(sessionId: string): Promise<string> {
    const token = randomToken('rt_');
    await this.sessions.insertRefreshToken({
      tokenHash: sha256(token),
      sessionId,
      expiresAt: new Date(this.clock() + REFRESH_TOKEN_TTL_MS),
    });
    return token;
  }

  /** Starts a session for an account that has just proved who it is. */
  async startSession(
    account: AccountRow,
    meta: SessionMeta,
    /** Switch user: who really acts, and the session's shorter life. */
    switched?: { readonly realAccountId: number; readonly lifetimeMs: number },
  ): Promise<TokenSet> {
    const sessionId = randomUUID();
    await this.sessions.insertSession({
      id: sessionId,
      accountId: account.id,
      tier: account.tier,
      realAccountId: switched?.realAccountId ?? null,
      absoluteExpiresAt: new Date(this.clock() + (switched?.lifetimeMs ?? SESSION_ABSOLUTE_TTL_MS)),
      ip: meta.ip.slice(0, 64),
      userAgent: meta.userAgent.slice(0, 256),
    });
    return {
      accessToken: await this.signAccess({ tier: account.tier, accountId: account.id, sessionId }),
      refreshToken: await this.issueRefresh(sessionId),
      tokenType: 'Bearer',
    };
  }

  /**
   * An access token of an API token's session, living `ttlS` seconds. The session is the API
   * token's own: deleting the token deletes it, which ends every access token minted from it.
   */
  async mintApiAccess(claims: AccessClaims, ttlS: number): Promise<string> {
    return this.signAccess(claims, ttlS);
  }

  /** Verifies an access token's signature and claims: 101014 expired, 101013 anything else wrong. */
  async verifyAccess(token: string): Promise<AccessClaims> {
    try {
      // The key the token names; a token without one (made before key ids) is checked with the current key.
      const { kid } = decodeProtectedHeader(token);
      const key = kid === undefined ? this.key : this.keys.get(kid);
      if (!key) throw new AppError(101013);
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(this.clock()),
        requiredClaims: ['exp', 'iat', 'sub', 'aud'],
      });
      const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
      const tier = aud?.startsWith('rampart:') ? aud.slice('rampart:'.length) : '';
      const accountId = Number(payload.sub);
      if (
        payload.typ !== 'access' ||
        typeof payload.sid !== 'string' ||
        !['admin', 'client', 'user'].includes(tier) ||
        !Number.isSafeInteger(accountId)
      ) {
        throw new AppError(101013);
      }
      return { tier: tier as Tier, accountId, sessionId: payload.sid };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new AppError(101014);
      throw new AppError(101013);
    }
  }

  /**
   * The refresh token that replaces `token`: a keyed hash of it, so unpredictable without both, and
   * the same every time `token` is spent. Two refreshes with one token therefore hand out one
   * successor, never two live descendants.
   */
  private successorOf(token: string): string {
    return `rt_${createHmac('sha256', this.successorKey).update(token).digest('base64url')}`;
  }

  /**
   * Rotates a refresh token. Unknown, expired or revoked → 101016. A token already spent is a
   * reuse: the whole session is revoked, including what the first use obtained, → 101016 — except
   * within {@link REFRESH_GRACE_MS} of its first use while its successor is still unspent: then it
   * answers that same successor (a page reloaded mid-refresh, or a second tab racing the first).
   */
  async refresh(tier: Tier, refreshToken: string): Promise<{ tokens: TokenSet; accountId: number }> {
    const hash = sha256(refreshToken);
    const found = await this.sessions.findRefreshToken(hash);
    const now = this.clock();
    if (!found || found.session.tier !== tier || found.session.revokedAt) throw new AppError(101016);
    const session = found.session;
    const successor = this.successorOf(refreshToken);
    const spentBefore = found.token.usedAt !== null || !(await this.sessions.spendRefreshToken(hash, new Date(now)));
    if (spentBefore && !(await this.withinGrace(hash, successor, now))) {
      await this.sessions.revokeSession(session.id, 'refresh-token-reuse');
      this.log.warn(
        { event: 'auth.refresh.reuse', tier, accountId: session.accountId, sessionId: session.id },
        'refresh token reused: session revoked',
      );
      throw new AppError(101016, { extra: { reason: 'session revoked: refresh token reused' } });
    }
    if (found.token.expiresAt.getTime() <= now || session.absoluteExpiresAt.getTime() <= now) {
      await this.sessions.revokeSession(session.id, 'expired');
      throw new AppError(101016);
    }
    await this.sessions.ensureRefreshToken({
      tokenHash: sha256(successor),
      sessionId: session.id,
      expiresAt: new Date(now + REFRESH_TOKEN_TTL_MS),
    });
    if (spentBefore) {
      this.log.info(
        { event: 'auth.refresh.grace', tier, accountId: session.accountId, sessionId: session.id },
        'refresh replayed within the grace window',
      );
    }
    return {
      accountId: session.accountId,
      tokens: {
        accessToken: await this.signAccess({ tier, accountId: session.accountId, sessionId: session.id }),
        refreshToken: successor,
        tokenType: 'Bearer',
      },
    };
  }

  /** A spent token is still good for its own successor: spent moments ago, and the successor not spent yet. */
  private async withinGrace(hash: string, successor: string, now: number): Promise<boolean> {
    const usedAt = (await this.sessions.findRefreshToken(hash))?.token.usedAt;
    if (!usedAt || now - usedAt.getTime() > REFRESH_GRACE_MS) return false;
    const next = await this.sessions.findRefreshToken(sha256(successor));
    return !next?.token.usedAt;
  }

  /** Logout: revokes the session the refresh token belongs to; 101015 when it names none of this tier. */
  async revoke(tier: Tier, refreshToken: string): Promise<void> {
    const found = await this.sessions.findRefreshToken(sha256(refreshToken));
    if (!found || found.session.tier !== tier) throw new AppError(101015);
    await this.sessions.revokeSession(found.session.id, 'logout');
  }
}
