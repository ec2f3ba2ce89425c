import {
  type AnyRoute,
  getSelf,
  login as loginRoute,
  type RouteInput,
  refresh,
  requestLogin,
  resendLoginCode,
  type Tier,
  totpPhase0,
  totpPhase1,
  totpPhase2,
  updateSelf,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeStep, totpAt } from '../../src/platform/crypto/totp.js';
import { bearer, manualClock, signIn } from '../helpers/auth.js';
import { send, sendWith } from '../helpers/call.js';
import { decodedText, mailThrough, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/test-app.js';

const clock = manualClock(1_800_000_000_000);
let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ clock: clock.now });
  await mailThrough(t.app, smtp, 'Rampart <noreply@rampart.test>');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** A POST of the sign-in and second-factor calls, all under `/{auth}`. */
const post = <R extends AnyRoute>(route: R, input: RouteInput<R>, headers: Record<string, string> = {}) =>
  sendWith(t.app, route, input, { headers });

/** Phases 0 → 1 → 2 for an authenticator; returns the seed. */
async function enableTotp(tier: 'user' | 'client' | 'admin'): Promise<string> {
  const tokens = await signIn(t.app, tier);
  const p0 = await post(totpPhase0, { params: { auth: tier }, body: { password: TEST_PASSWORD } }, bearer(tokens));
  expect(p0.statusCode).toBe(200);
  const { onePassKey } = p0.json().data;
  const p1 = await post(totpPhase1, { params: { auth: tier }, body: { onePassKey } }, bearer(tokens));
  const { qrCode, qrCodeData } = p1.json().data;
  expect(qrCode).toMatch(/^data:image\/png;base64,/);
  const secret = new URL(qrCodeData).searchParams.get('secret') ?? '';
  expect(qrCodeData).toMatch(/^otpauth:\/\/totp\//);
  const code = totpAt(secret, timeStep(clock.now()));
  const p2 = await post(
    totpPhase2,
    { params: { auth: tier }, body: { onePassKey, login2FAType: 3, code } },
    bearer(tokens),
  );
  expect(p2.json()).toEqual({ data: { login2FAType: 3 } });
  clock.advance(30_000); // the set-up code's step is spent; sign-ins use later steps
  return secret;
}

async function startLogin(tier: Tier) {
  const res = await post(requestLogin, { params: { auth: tier }, body: { account: tier, password: TEST_PASSWORD } });
  expect(res.statusCode).toBe(200);
  return res.json().data as { login2FAType: number; onePassKey: string; accessToken?: string };
}

const finish = (tier: Tier, onePassKey: string, code: string, login2FAType: 1 | 3 = 3) =>
  post(loginRoute, {
    params: { auth: tier },
    body: { account: tier, password: TEST_PASSWORD, onePassKey, login2FAType, code },
  });

describe('authenticator (TOTP)', () => {
  let secret = '';
  beforeAll(async () => {
    secret = await enableTotp('user');
  });

  it('asks for the code after the password and stores the seed encrypted', async () => {
    const step = await startLogin('user');
    expect(step).toMatchObject({ login2FAType: 3 });
    expect(step.accessToken).toBeUndefined();
    const row = await t.app.rampart.accounts.findRoot('user');
    expect(row?.totpSecret).toMatch(/^v1\./);
    expect(row?.totpSecret).not.toContain(secret);
  });

  it('accepts a code once: the same code is refused the second time, even on another ticket', async () => {
    const code = totpAt(secret, timeStep(clock.now()));
    const a = await startLogin('user');
    expect((await finish('user', a.onePassKey, code)).statusCode).toBe(200);
    const b = await startLogin('user');
    const replay = await finish('user', b.onePassKey, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().extra.fields[0]).toMatchObject({ field: 'code', key: 'wrongCode' });
  });

  it('accepts the previous step and refuses t-2 and t+2', async () => {
    clock.advance(120_000);
    const now = timeStep(clock.now());
    for (const d of [-2, 2]) {
      const s = await startLogin('user');
      expect((await finish('user', s.onePassKey, totpAt(secret, now + d))).statusCode).toBe(400);
    }
    const s = await startLogin('user');
    expect((await finish('user', s.onePassKey, totpAt(secret, now - 1))).statusCode).toBe(200);
  });

  it('voids the ticket after 5 wrong codes: the right code then needs a new sign-in', async () => {
    clock.advance(60_000);
    const s = await startLogin('user');
    for (let i = 0; i < 4; i++) expect((await finish('user', s.onePassKey, '000000')).statusCode).toBe(400);
    const fifth = await finish('user', s.onePassKey, '000000');
    expect(fifth.json().code).toBe(101012);
    const right = totpAt(secret, timeStep(clock.now()));
    expect((await finish('user', s.onePassKey, right)).json().code).toBe(101012);
    const again = await startLogin('user');
    expect((await finish('user', again.onePassKey, right)).statusCode).toBe(200);
  });

  it('does not let a pending second factor call anything', async () => {
    const s = await startLogin('user');
    const res = await send(
      t.app,
      getSelf,
      { params: { auth: 'user' } },
      { headers: { authorization: `Bearer ${s.onePassKey}` } },
    );
    expect(res.json().code).toBe(101013);
    expect(
      (await send(t.app, refresh, { params: { auth: 'user' }, body: { refreshToken: s.onePassKey } })).json().code,
    ).toBe(101016);
  });

  it('refuses set-up phases without a fresh password ticket', async () => {
    const tokens = await signInWithTotp();
    const wrong = await post(
      totpPhase0,
      { params: { auth: 'user' }, body: { password: 'not-it-at-all' } },
      bearer(tokens),
    );
    expect(wrong.json().extra.fields[0]).toMatchObject({ field: 'password', key: 'wrongPassword' });
    const noTicket = await post(
      totpPhase1,
      { params: { auth: 'user' }, body: { onePassKey: 'sk_forged' } },
      bearer(tokens),
    );
    expect(noTicket.json().code).toBe(101013);
  });

  async function signInWithTotp() {
    clock.advance(30_000);
    const s = await startLogin('user');
    const res = await finish('user', s.onePassKey, totpAt(secret, timeStep(clock.now())));
    return res.json().data;
  }

  it('turns the authenticator off through phase 0 (password and a current code) and 2', async () => {
    const tokens = await signInWithTotp();
    clock.advance(30_000); // the sign-in's step is spent
    const code = totpAt(secret, timeStep(clock.now()));
    const { onePassKey } = (
      await post(totpPhase0, { params: { auth: 'user' }, body: { password: TEST_PASSWORD, code } }, bearer(tokens))
    ).json().data;
    expect(
      (
        await post(totpPhase2, { params: { auth: 'user' }, body: { onePassKey, login2FAType: 0 } }, bearer(tokens))
      ).json().data,
    ).toEqual({
      login2FAType: 0,
    });
    expect(await startLogin('user')).toMatchObject({ login2FAType: 0, tokenType: 'Bearer' });
    expect((await t.app.rampart.accounts.findRoot('user'))?.totpSecret).toBeNull();
  });
});

describe('code by e-mail', () => {
  beforeAll(async () => {
    const tokens = await signIn(t.app, 'client');
    await send(
      t.app,
      updateSelf,
      { params: { auth: 'client' }, body: { name: 'Operator', email: 'ops@rampart.test', password: TEST_PASSWORD } },
      { headers: bearer(tokens) },
    );
    const { onePassKey } = (
      await post(totpPhase0, { params: { auth: 'client' }, body: { password: TEST_PASSWORD } }, bearer(tokens))
    ).json().data;
    expect(
      (await post(totpPhase2, { params: { auth: 'client' }, body: { onePassKey, login2FAType: 1 } }, bearer(tokens)))
        .statusCode,
    ).toBe(200);
  });

  const codeIn = (raw: string) => /sign-in code is (\d{6})/.exec(raw)?.[1] ?? '';

  it('mails a code and signs in with it, once', async () => {
    const s = await startLogin('client');
    expect(s.login2FAType).toBe(1);
    const code = codeIn(decodedText(await smtp.next('ops@rampart.test')));
    expect(code).toMatch(/^\d{6}$/);
    const ok = await finish('client', s.onePassKey, code, 1);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.tokenType).toBe('Bearer');
    expect((await finish('client', s.onePassKey, code, 1)).json().code).toBe(101012);
  });

  it('re-sends a new code; the old one no longer works', async () => {
    const s = await startLogin('client');
    const first = codeIn(decodedText(await smtp.next('ops@rampart.test')));
    const resend = await post(resendLoginCode, {
      params: { auth: 'client' },
      body: {
        account: 'client',
        password: TEST_PASSWORD,
        onePassKey: s.onePassKey,
      },
    });
    expect(resend.statusCode).toBe(200);
    const second = codeIn(decodedText(await smtp.next('ops@rampart.test')));
    if (first !== second) expect((await finish('client', s.onePassKey, first, 1)).statusCode).toBe(400);
    expect((await finish('client', s.onePassKey, second, 1)).statusCode).toBe(200);
  });

  it('never writes the code, the password or tokens into the log', async () => {
    const s = await startLogin('client');
    const code = codeIn(decodedText(await smtp.next('ops@rampart.test')));
    const tokens = (await finish('client', s.onePassKey, code, 1)).json().data;
    const log = JSON.stringify(t.logs);
    for (const secret of [TEST_PASSWORD, code, tokens.refreshToken, tokens.accessToken, s.onePassKey]) {
      expect(log).not.toContain(secret);
    }
  });
});
