import { type Tier, TOKEN_COOKIE_DAYS, type TokenSet, tokenCookieNames } from '@rampart/contract';

/**
 * A console's token set lives in three cookies (spec part 1 §3: `u_accessToken`, `u_refreshToken`,
 * `u_tokenType`, likewise `c_` and `a_`), kept for TOKEN_COOKIE_DAYS. Cookies rather than
 * localStorage because the spec's switchUser flow and the other consoles of the same origin share
 * them; the API itself reads the bearer header, never these cookies, so SameSite=Lax is enough.
 */

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

/** The tier's stored token set; null unless all three cookies are present and non-empty. */
export function readTokenSet(tier: Tier): TokenSet | null {
  const names = tokenCookieNames(tier);
  const accessToken = readCookie(names.accessToken);
  const refreshToken = readCookie(names.refreshToken);
  const tokenType = readCookie(names.tokenType);
  if (!accessToken || !refreshToken || !tokenType) return null;
  // The API knows one token type; a cookie with another value came from elsewhere and is ignored.
  return tokenType === 'Bearer' ? { accessToken, refreshToken, tokenType } : null;
}

/** "A visitor holding all three auth cookies" (spec part 1 §2). */
export function hasTokenCookies(tier: Tier): boolean {
  const names = tokenCookieNames(tier);
  return Boolean(readCookie(names.accessToken) && readCookie(names.refreshToken) && readCookie(names.tokenType));
}

export function writeTokenSet(tier: Tier, tokens: { accessToken: string; refreshToken: string; tokenType: string }) {
  const names = tokenCookieNames(tier);
  const options = { secure: pageIsSecure() };
  setCookie(tokenCookieString(names.accessToken, tokens.accessToken, options));
  setCookie(tokenCookieString(names.refreshToken, tokens.refreshToken, options));
  setCookie(tokenCookieString(names.tokenType, tokens.tokenType, options));
}

export function clearTokenSet(tier: Tier): void {
  const options = { secure: pageIsSecure() };
  for (const name of Object.values(tokenCookieNames(tier))) setCookie(expiredCookieString(name, options));
}
