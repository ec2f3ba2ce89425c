import {
  type AnyRoute,
  changePassword,
  login as loginRoute,
  requestLogin,
  totpPhase0,
  totpPhase1,
  totpPhase2,
  updateSelf,
} from '@rampart/contract';
import type { CallInput } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeStep, totpAt } from '../../src/platform/crypto/totp.js';
import { addAccount, rootId } from '../helpers/accounts.js';
import { manualClock, signIn } from '../helpers/auth.js';
import { rawRequest, send, sendWith } from '../helpers/call.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/test-app.js';

/**
 * Every check of a password or a second-factor code made with a session is throttled as the login
 * form is, with the same counters: a stolen session is no oracle for the password or the code.
 */
const clock = manualClock(1_800_000_000_000);
let t: TestApp;
let rootUserId = 0;
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  rootUserId = await rootId(t.app, 'user');
});
afterAll(async () => t.close());

type Payload = Record<string, unknown>;
const asUser = <R extends AnyRoute>(route: R, input: CallInput<R>, accessToken: string, ip: string) =>
  sendWith(t.app, route, input, { token: { accessToken }, remoteAddress: ip });
/** A password check as the customer, from `ip`: the three routes take differently shaped bodies. */
const attempt = (route: AnyRoute, accessToken: string, body: Payload, ip: string) =>
  rawRequest(t.app, route, { params: { auth: 'user' }, body }, { token: { accessToken }, remoteAddress: ip });
const login = (account: string, password: string, ip: string) =>
  send(t.app, requestLogin, { params: { auth: 'user' }, body: { account, password } }, { remoteAddress: ip });

let n = 0;
/** A fresh customer sub-account, signed in, and an address of its own to guess from. */
async function fresh() {
  n += 1;
  const account = `guess-target-${n}`;
  await addAccount(t.app, 'user', account, rootUserId);
  const tokens = await signIn(t.app, 'user', account);
  return { account, tokens, ip: `198.51.100.${n}` };
}

const PASSWORD_CHECKS: {
  name: string;
  route: AnyRoute;
  field: string;
  body: (password: string, account: string) => Payload;
}[] = [
  {
    name: 'PATCH user/password',
    route: changePassword,
    field: 'oldPassword',
    body: (oldPassword) => ({ oldPassword, password: 'a brand new secret', confirmPassword: 'a brand new secret' }),
  },
  {
    name: 'POST user/login2fa/phase0',
    route: totpPhase0,
    field: 'password',
    body: (password) => ({ password }),
  },
  {
    name: 'PUT user/account/self (a new e-mail address)',
    route: updateSelf,
    field: 'password',
    body: (password, account) => ({ name: account, email: `${account}@moved.example`, password }),
  },
];

describe('password checks made with a session', () => {
  for (const route of PASSWORD_CHECKS) {
    it(`${route.name}: 10 wrong passwords, then even the right one is throttled (429, 101012), and sign-in too`, async () => {
      const { account, tokens, ip } = await fresh();
      for (let i = 0; i < 10; i++) {
        const wrong = await attempt(route.route, tokens.accessToken, route.body(`wrong-${i}`, account), ip);
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json().extra.fields[0]).toMatchObject({ field: route.field, key: 'wrongPassword' });
      }
      const right = await attempt(route.route, tokens.accessToken, route.body(TEST_PASSWORD, account), ip);
      expect(right.statusCode).toBe(429);
      expect(right.json().code).toBe(101012);
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      // The same counters as the login form: the account is blocked there from that address too.
      expect((await login(account, TEST_PASSWORD, ip)).statusCode).toBe(429);
      clock.advance(15 * 60 * 1000 + 1000);
      const later = await attempt(route.route, tokens.accessToken, route.body(TEST_PASSWORD, account), ip);
      expect(later.statusCode).toBe(200);
    });
  }

  it('failures at the login form count against the password change too', async () => {
    const { account, tokens, ip } = await fresh();
    for (let i = 0; i < 10; i++) expect((await login(account, `nope-${i}`, ip)).statusCode).toBe(401);
    const change = await asUser(
      changePassword,
      {
        params: { auth: 'user' },
        body: { oldPassword: TEST_PASSWORD, password: 'a brand new secret', confirmPassword: 'a brand new secret' },
      },
      tokens.accessToken,
      ip,
    );
    expect(change.statusCode).toBe(429);
    clock.advance(15 * 60 * 1000 + 1000);
  });

  it('the per-account limit holds across addresses (100 failures)', async () => {
    const { tokens } = await fresh();
    for (let i = 0; i < 100; i++) {
      const ip = `10.9.${Math.floor(i / 9)}.${i % 9}`;
      const res = await asUser(
        totpPhase0,
        { params: { auth: 'user' }, body: { password: `w-${i}` } },
        tokens.accessToken,
        ip,
      );
      expect(res.statusCode).toBe(400);
    }
    const right = await asUser(
      totpPhase0,
      { params: { auth: 'user' }, body: { password: TEST_PASSWORD } },
      tokens.accessToken,
      '10.99.0.1',
    );
    expect(right.statusCode).toBe(429);
    clock.advance(15 * 60 * 1000 + 1000);
  });
});

/** Phases 0 → 1 → 2 for an authenticator; returns the seed. */
async function enableTotp(token: string, ip: string): Promise<string> {
  const { onePassKey } = (
    await asUser(totpPhase0, { params: { auth: 'user' }, body: { password: TEST_PASSWORD } }, token, ip)
  ).json().data;
  const { qrCodeData } = (
    await asUser(totpPhase1, { params: { auth: 'user' }, body: { onePassKey } }, token, ip)
  ).json().data;
  const secret = new URL(qrCodeData).searchParams.get('secret') ?? '';
  const code = totpAt(secret, timeStep(clock.now()));
  const p2 = await asUser(
    totpPhase2,
    { params: { auth: 'user' }, body: { onePassKey, login2FAType: 3, code } },
    token,
    ip,
  );
  expect(p2.json()).toEqual({ data: { login2FAType: 3 } });
  clock.advance(30_000);
  return secret;
}

/** A code that is not the authenticator's for now (nor the steps around it). */
function wrongCode(secret: string): string {
  const near = [-1, 0, 1].map((d) => totpAt(secret, timeStep(clock.now()) + d));
  for (let i = 0; ; i++) {
    const code = String(100000 + i);
    if (!near.includes(code)) return code;
  }
}

describe('second-factor codes checked with a session', () => {
  it('turning the authenticator off needs a current code besides the password', async () => {
    const { tokens, ip } = await fresh();
    const secret = await enableTotp(tokens.accessToken, ip);
    const noCode = await asUser(
      totpPhase0,
      { params: { auth: 'user' }, body: { password: TEST_PASSWORD } },
      tokens.accessToken,
      ip,
    );
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().extra.fields[0]).toMatchObject({ field: 'code', key: 'required' });
    const wrong = await asUser(
      totpPhase0,
      { params: { auth: 'user' }, body: { password: TEST_PASSWORD, code: wrongCode(secret) } },
      tokens.accessToken,
      ip,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().extra.fields[0]).toMatchObject({ field: 'code', key: 'wrongCode' });
    const code = totpAt(secret, timeStep(clock.now()));
    const p0 = await asUser(
      totpPhase0,
      { params: { auth: 'user' }, body: { password: TEST_PASSWORD, code } },
      tokens.accessToken,
      ip,
    );
    expect(p0.statusCode).toBe(200);
    const off = await asUser(
      totpPhase2,
      { params: { auth: 'user' }, body: { onePassKey: p0.json().data.onePassKey, login2FAType: 0 } },
      tokens.accessToken,
      ip,
    );
    expect(off.json()).toEqual({ data: { login2FAType: 0 } });
  });

  it('phase 0: 10 wrong authenticator codes, then even the right code is throttled', async () => {
    const { account, tokens, ip } = await fresh();
    const secret = await enableTotp(tokens.accessToken, ip);
    for (let i = 0; i < 10; i++) {
      const res = await asUser(
        totpPhase0,
        { params: { auth: 'user' }, body: { password: TEST_PASSWORD, code: wrongCode(secret) } },
        tokens.accessToken,
        ip,
      );
      expect(res.statusCode).toBe(400);
    }
    const code = totpAt(secret, timeStep(clock.now()));
    const right = await asUser(
      totpPhase0,
      { params: { auth: 'user' }, body: { password: TEST_PASSWORD, code } },
      tokens.accessToken,
      ip,
    );
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe(101012);
    // The login form's second step shares the limit: the account's codes are blocked there too.
    const step1 = await login(account, TEST_PASSWORD, ip);
    expect(step1.json().data.login2FAType).toBe(3);
    const step2 = await send(
      t.app,
      loginRoute,
      {
        params: { auth: 'user' },
        body: { account, password: TEST_PASSWORD, onePassKey: step1.json().data.onePassKey, login2FAType: 3, code },
      },
      { remoteAddress: ip },
    );
    expect(step2.statusCode).toBe(429);
    clock.advance(15 * 60 * 1000 + 1000);
  });

  it('phase 2: 10 wrong codes for the new authenticator (over several tickets), then the right one is throttled', async () => {
    const { tokens, ip } = await fresh();
    const ticket = async () => {
      const { onePassKey } = (
        await asUser(
          totpPhase0,
          { params: { auth: 'user' }, body: { password: TEST_PASSWORD } },
          tokens.accessToken,
          ip,
        )
      ).json().data;
      const { qrCodeData } = (
        await asUser(totpPhase1, { params: { auth: 'user' }, body: { onePassKey } }, tokens.accessToken, ip)
      ).json().data;
      return { onePassKey, secret: new URL(qrCodeData).searchParams.get('secret') ?? '' };
    };
    for (let round = 0; round < 2; round++) {
      const { onePassKey, secret } = await ticket();
      for (let i = 0; i < 5; i++) {
        const res = await asUser(
          totpPhase2,
          { params: { auth: 'user' }, body: { onePassKey, login2FAType: 3, code: wrongCode(secret) } },
          tokens.accessToken,
          ip,
        );
        expect(res.statusCode).toBe(400);
      }
    }
    const { onePassKey, secret } = await ticket();
    const code = totpAt(secret, timeStep(clock.now()));
    const right = await asUser(
      totpPhase2,
      { params: { auth: 'user' }, body: { onePassKey, login2FAType: 3, code } },
      tokens.accessToken,
      ip,
    );
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe(101012);
    clock.advance(15 * 60 * 1000 + 1000);
  });
});
