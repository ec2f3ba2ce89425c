import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { changePassword, getSelf, logout, refresh, requestLogin, switchUser, type Tier } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, DOCS_CSP } from '../../src/platform/http/security-headers.js';
import { rootId } from '../helpers/accounts.js';
import { bearer, signIn } from '../helpers/auth.js';
import { send } from '../helpers/call.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/test-app.js';

/** The refresh token in an HttpOnly cookie, and the security headers of the console, docs and API. */
let t: TestApp;
let secure: TestApp;
let consoleDir: string;
beforeAll(async () => {
  consoleDir = mkdtempSync(path.join(tmpdir(), 'rampart-console-'));
  writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><div id="root"></div>');
  t = await createTestApp({ config: { consoleDir } });
  secure = await createTestApp({ config: { publicUrl: 'https://cdn.example.com' } });
});
afterAll(async () => {
  await t.close();
  await secure.close();
  rmSync(consoleDir, { recursive: true, force: true });
});

/** The one Set-Cookie header of a reply. */
function setCookie(res: { headers: Record<string, unknown> }): string {
  const header = res.headers['set-cookie'];
  expect(typeof header, 'one set-cookie header').toBe('string');
  return header as string;
}
function cookieValue(header: string): string {
  return header.slice(header.indexOf('=') + 1, header.indexOf(';'));
}
const attrs = (header: string) =>
  header
    .split(';')
    .slice(1)
    .map((a) => a.trim());

const refreshWithCookie = (app: TestApp, tier: Tier, token: string) =>
  send(
    app.app,
    refresh,
    { params: { auth: tier }, body: {} },
    { headers: { cookie: `${tier[0]}_refreshToken=${token}` } },
  );

describe('the refresh token cookie', () => {
  it('is set on sign-in: HttpOnly, SameSite=Strict, scoped to the refresh path, not Secure over http', async () => {
    const res = await send(t.app, requestLogin, {
      params: { auth: 'user' },
      body: { account: 'user', password: TEST_PASSWORD },
    });
    const header = setCookie(res);
    expect(header.startsWith('u_refreshToken=')).toBe(true);
    expect(cookieValue(header)).toBe(res.json().data.refreshToken);
    expect(attrs(header)).toEqual(
      expect.arrayContaining(['Path=/api/v1/user', 'HttpOnly', 'SameSite=Strict', `Max-Age=${14 * 24 * 3600}`]),
    );
    expect(attrs(header)).not.toContain('Secure');
  });

  it('is Secure when PUBLIC_URL is https', async () => {
    const res = await send(secure.app, requestLogin, {
      params: { auth: 'client' },
      body: { account: 'client', password: TEST_PASSWORD },
    });
    const header = setCookie(res);
    expect(header.startsWith('c_refreshToken=')).toBe(true);
    expect(attrs(header)).toEqual(
      expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Strict', 'Path=/api/v1/client']),
    );
  });

  it('refreshes from the cookie and answers the new token in the cookie only', async () => {
    const tokens = await signIn(t.app, 'user');
    const res = await refreshWithCookie(t, 'user', tokens.refreshToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.refreshToken).toBe('');
    expect(res.json().data.accessToken).toBeTruthy();
    const next = cookieValue(setCookie(res));
    expect(next).toMatch(/^rt_/);
    expect(res.body).not.toContain(next);
    // The cookie's new token is the live one.
    expect((await refreshWithCookie(t, 'user', next)).statusCode).toBe(200);
    expect(
      (await send(t.app, getSelf, { params: { auth: 'user' } }, { headers: bearer(res.json().data) })).statusCode,
    ).toBe(200);
  });

  it('refuses a refresh with neither body nor cookie (101016), and clears a cookie that failed', async () => {
    const none = await send(t.app, refresh, { params: { auth: 'user' }, body: {} });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe(101016);
    const bad = await refreshWithCookie(t, 'user', 'rt_not-a-token');
    expect(bad.json().code).toBe(101016);
    expect(attrs(setCookie(bad))).toContain('Max-Age=0');
  });

  it('logs out with the cookie and clears it', async () => {
    const tokens = await signIn(t.app, 'user');
    const out = await send(
      t.app,
      logout,
      { params: { auth: 'user' }, body: { accessToken: tokens.accessToken } },
      { headers: { cookie: `u_refreshToken=${tokens.refreshToken}` } },
    );
    expect(out.statusCode, out.body).toBe(200);
    const header = setCookie(out);
    expect(cookieValue(header)).toBe('');
    expect(attrs(header)).toEqual(expect.arrayContaining(['Max-Age=0', 'Path=/api/v1/user', 'HttpOnly']));
    expect((await send(t.app, getSelf, { params: { auth: 'user' } }, { headers: bearer(tokens) })).json().code).toBe(
      101013,
    );
    const nothing = await send(t.app, logout, { params: { auth: 'user' }, body: {} });
    expect(nothing.json().code).toBe(101015);
  });

  it('is set by a password change and by switch user (for the target console)', async () => {
    const client = await signIn(t.app, 'client');
    const userId = await rootId(t.app, 'user');
    const sw = await send(
      t.app,
      switchUser,
      { params: { auth: 'client' }, body: { id: userId } },
      { headers: bearer(client) },
    );
    expect(sw.statusCode, sw.body).toBe(200);
    const header = setCookie(sw);
    expect(header.startsWith('u_refreshToken=')).toBe(true);
    expect(attrs(header)).toContain('Path=/api/v1/user');
    expect(cookieValue(header)).toBe(sw.json().data.refreshToken);

    const change = await send(
      t.app,
      changePassword,
      {
        params: { auth: 'client' },
        body: { oldPassword: TEST_PASSWORD, password: 'another client pass', confirmPassword: 'another client pass' },
      },
      { headers: bearer(client) },
    );
    expect(change.statusCode, change.body).toBe(200);
    expect(cookieValue(setCookie(change))).toBe(change.json().data.refreshToken);
  });
});

describe('security headers', () => {
  const common = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  };

  it('sends the console a strict policy: scripts from this origin only, no framing', async () => {
    for (const url of ['/', '/user/login', '/client/dashboard']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers).toMatchObject({ ...common, 'content-security-policy': CONSOLE_CSP });
      expect(res.headers['permissions-policy']).toContain('camera=()');
    }
    const csp = CONSOLE_CSP.split('; ');
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('sends the docs page its own policy, and the API a policy that allows nothing', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/api/v1/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers).toMatchObject({ ...common, 'content-security-policy': DOCS_CSP });
    expect(docs.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    for (const url of ['/api/v1/openapi.json', '/api/v1/no-such-call']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers, url).toMatchObject({
        ...common,
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      });
    }
  });
});
