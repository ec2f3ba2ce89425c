import { API_BASE, type Tier, tokenCookieNames } from '@rampart/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_TOKEN_TTL_MS } from './token.service.js';

/**
 * The console's refresh token lives in a cookie that no script can read: `HttpOnly`,
 * `SameSite=Strict`, `Path=/api/v1/{tier}` (the narrowest path that holds the refresh and logout
 * calls, `PATCH` and `DELETE /api/v1/{tier}`), and `Secure` when the console is served over https
 * (`PUBLIC_URL` says so). Its name is the spec's (`u_refreshToken`, `c_`, `a_`); the access token
 * and token type stay in the cookies the console writes.
 *
 * The server sets it with every token set it hands out (sign-in, refresh, password change, switch
 * user) and reads it only on refresh and logout when the body carries no refresh token. A refresh
 * that took its token from the cookie answers the new one in the cookie only (`refreshToken: ''`
 * in the body), so a script in the page can never learn a refresh token.
 */
export class RefreshCookie {
  constructor(private readonly secure: boolean) {}

  private attributes(tier: Tier): string {
    return `Path=${API_BASE}/${tier}; HttpOnly; SameSite=Strict${this.secure ? '; Secure' : ''}`;
  }

  set(reply: FastifyReply, tier: Tier, token: string): void {
    const maxAge = Math.floor(REFRESH_TOKEN_TTL_MS / 1000);
    reply.header(
      'set-cookie',
      `${tokenCookieNames(tier).refreshToken}=${token}; Max-Age=${maxAge}; ${this.attributes(tier)}`,
    );
  }

  clear(reply: FastifyReply, tier: Tier): void {
    reply.header(
      'set-cookie',
      `${tokenCookieNames(tier).refreshToken}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${this.attributes(tier)}`,
    );
  }

  /** The tier's refresh token from the request's cookies (the first, i.e. the most specific path), if any. */
  read(request: FastifyRequest, tier: Tier): string | undefined {
    const header = request.headers.cookie;
    if (!header) return undefined;
    const name = tokenCookieNames(tier).refreshToken;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) {
        const value = part.slice(eq + 1).trim();
        if (value) return value;
      }
    }
    return undefined;
  }
}

/** Whether the console is served over https, so its cookies must be `Secure`. */
export function servedOverHttps(publicUrl: string | undefined): boolean {
  return publicUrl?.toLowerCase().startsWith('https://') ?? false;
}
