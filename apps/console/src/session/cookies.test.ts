import { afterEach, describe, expect, it } from 'vitest';
import { resetBrowserSession } from '../test/fake-api';
import {
  clearTokenSet,
  expiredCookieString,
  hasTokenCookies,
  readTokenSet,
  setCookie,
  tokenCookieString,
  writeTokenSet,
} from './cookies';

afterEach(() => resetBrowserSession());

describe('token cookies', () => {
  it('are kept for TOKEN_COOKIE_DAYS (730 days: two years) on the whole site, SameSite=Lax, Secure only over https', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    expect(tokenCookieString('u_accessToken', 'a b', { secure: false, now })).toBe(
      'u_accessToken=a%20b; Expires=Tue, 29 Feb 2028 00:00:00 GMT; Path=/; SameSite=Lax',
    );
    expect(tokenCookieString('c_refreshToken', 'r', { secure: true, now })).toMatch(/; Secure$/);
    expect(expiredCookieString('a_tokenType', { secure: false })).toBe(
      'a_tokenType=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax',
    );
  });

  it('are named per console (u_, c_, a_) and read back; the refresh token is never written by the page', () => {
    writeTokenSet('client', { accessToken: 'acc', tokenType: 'Bearer' });
    expect(document.cookie).toContain('c_accessToken=acc');
    expect(document.cookie).toContain('c_tokenType=Bearer');
    expect(document.cookie).not.toContain('refreshToken');
    expect(readTokenSet('client')).toEqual({ accessToken: 'acc', tokenType: 'Bearer' });
    expect(hasTokenCookies('client')).toBe(true);
    expect(readTokenSet('user')).toBeNull();
    expect(hasTokenCookies('user')).toBe(false);
  });

  it('count as a session only when the access token and its type are present', () => {
    setCookie('a_accessToken=acc; Path=/');
    expect(hasTokenCookies('admin')).toBe(false);
    expect(readTokenSet('admin')).toBeNull();
  });

  it('remove a readable refresh token an older console wrote', () => {
    setCookie('u_refreshToken=legacy; Path=/');
    writeTokenSet('user', { accessToken: 'u', tokenType: 'Bearer' });
    expect(document.cookie).not.toContain('refreshToken');
  });

  it('are removed by clearTokenSet, leaving the other consoles’ cookies', () => {
    writeTokenSet('user', { accessToken: 'u', tokenType: 'Bearer' });
    writeTokenSet('admin', { accessToken: 'a', tokenType: 'Bearer' });
    clearTokenSet('user');
    expect(document.cookie).not.toContain('u_');
    expect(readTokenSet('admin')?.accessToken).toBe('a');
  });
});
