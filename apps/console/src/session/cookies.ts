import { type Tier, TOKEN_COOKIE_DAYS, tokenCookieNames } from '@rampart/contract';

/**
 * A console's token set lives in three cookies (spec part 1 §3: `u_accessToken`, `u_refreshToken`,
 * `u_tokenType`, likewise `c_` and `a_`). The console writes and reads the access token and the
 * token type, kept for TOKEN_COOKIE_DAYS; the API reads the bearer header, never these, so
 * SameSite=Lax is enough. The refresh token is the server's: an HttpOnly cookie scoped to the
 * refresh call's path that no script here can read or write (see the server's refresh-cookie.ts).
 */

/** What the console keeps of a token set. */
export interface StoredTokens {
  accessToken: string;
  tokenType: 'Bearer';
}

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CookieOptions {
  /** Add `Secure` (the page is served over https). */
  secure: boolean;
  /** Now, for the expiry date (tests). */
  now?: Date;
}

/** The `document.cookie` assignment that stores one token cookie. */
export function tokenCookieString(name: string, value: string, options: CookieOptions): string {
  const expires = new Date((options.now ?? new Date()).getTime() + TOKEN_COOKIE_DAYS * DAY_MS);
  const secure = options.secure ? '; Secure' : '';
  return `${name}=${encodeURIComponent(value)}; Expires=${expires.toUTCString()}; Path=/; SameSite=Lax${secure}`;
}

/** The `document.cookie` assignment that removes one token cookie. */
export function expiredCookieString(name: string, options: Pick<CookieOptions, 'secure'>): string {
  const secure = options.secure ? '; Secure' : '';
  return `${name}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax${secure}`;
}

/** Sets one cookie: the only place the console writes `document.cookie`. */
export function setCookie(assignment: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is asynchronous (the session checks cookies synchronously in route loaders) and missing from some supported browsers and from jsdom.
  document.cookie = assignment;
}

function pageIsSecure(): boolean {
  return window.location.protocol === 'https:';
}

/** The value of one cookie of this page, or undefined. */
export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** The tier's stored tokens; null unless the access token and token type cookies are present. */
export function readTokenSet(tier: Tier): StoredTokens | null {
  const names = tokenCookieNames(tier);
  const accessToken = readCookie(names.accessToken);
  const tokenType = readCookie(names.tokenType);
  if (!accessToken || !tokenType) return null;
  // The API knows one token type; a cookie with another value came from elsewhere and is ignored.
  return tokenType === 'Bearer' ? { accessToken, tokenType } : null;
}

/**
 * "A visitor holding all three auth cookies" (spec part 1 §2): the two this page can see; the
 * refresh token's is HttpOnly, and the server refuses a refresh when it is gone.
 */
export function hasTokenCookies(tier: Tier): boolean {
  return readTokenSet(tier) !== null;
}

/** Stores a token set's access token and type; its refresh token is the server's cookie already. */
export function writeTokenSet(tier: Tier, tokens: { accessToken: string; tokenType: string }) {
  const names = tokenCookieNames(tier);
  const options = { secure: pageIsSecure() };
  setCookie(tokenCookieString(names.accessToken, tokens.accessToken, options));
  setCookie(tokenCookieString(names.tokenType, tokens.tokenType, options));
  // A readable refresh token that an older console wrote (Path=/) is removed; the server's stays.
  setCookie(expiredCookieString(names.refreshToken, options));
}

/** Forgets the tokens this page holds (the server's logout clears the refresh cookie). */
export function clearTokenSet(tier: Tier): void {
  const options = { secure: pageIsSecure() };
  for (const name of Object.values(tokenCookieNames(tier))) setCookie(expiredCookieString(name, options));
}
