import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from '../helpers/accounts.js';
import { bearer, manualClock, signIn } from '../helpers/auth.js';
import { decodedText, mailThrough, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/test-app.js';

/**
 * While the e-mail second factor is on, phase 0 of a second-factor change needs a code mailed by
 * `login2fa/phase0/code` besides the password: a session and the password alone cannot turn the
 * factor off or move it elsewhere (as a current code is needed while an authenticator is on).
 */
const clock = manualClock(1_800_000_000_000);
let t: TestApp;
let smtp: TestSmtp;
let rootUserId = 0;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ clock: clock.now });
  await mailThrough(t.app, smtp, 'Rampart <noreply@rampart.test>');
  rootUserId = await rootId(t.app, 'user');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Tokens = { accessToken: string };
const post = (url: string, tokens: Tokens, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/${url}`,
    headers: { ...bearer(tokens), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
const sendCode = (tokens: Tokens, headers: Record<string, string> = {}) =>
  post('user/login2fa/phase0/code', tokens, undefined, headers);
const phase0 = (tokens: Tokens, code?: string) =>
  post(
    'user/login2fa/phase0',
    tokens,
    code === undefined ? { password: TEST_PASSWORD } : { password: TEST_PASSWORD, code },
  );

let n = 0;
/** A fresh customer sub-account, signed in, with the e-mail second factor on. */
async function fresh() {
  n += 1;
  const account = `mail-factor-${n}`;
  const email = `${account}@rampart.test`;
  const id = await addAccount(t.app, 'user', account, rootUserId);
  const tokens = await signIn(t.app, 'user', account);
  await t.app.rampart.accounts.update(id, { email, login2FAType: 1 });
  return { id, email, tokens };
}

const codeIn = (raw: string) => /second factor is (\d{6})/.exec(raw)?.[1] ?? '';
async function mailedCode(tokens: Tokens, email: string): Promise<string> {
  const res = await sendCode(tokens);
  expect(res.json()).toEqual({ data: true });
  const code = codeIn(decodedText(await smtp.next(email)));
  expect(code).toMatch(/^\d{6}$/);
  return code;
}
/** A six-digit code other than `code`. */
const other = (code: string) => (code === '000000' ? '111111' : '000000');

const turnOff = (tokens: Tokens, onePassKey: string) =>
  post('user/login2fa/phase2', tokens, { onePassKey, login2FAType: 0 });

describe('turning an e-mail second factor off', () => {
  it('is refused without a code, even with the right password', async () => {
    const { id, tokens } = await fresh();
    const res = await phase0(tokens);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields[0]).toMatchObject({ field: 'code', key: 'required' });
    expect((await t.app.rampart.accounts.findById(id))?.login2FAType).toBe(1);
  });

  it('is refused with a wrong code (the code is mailed, not guessed)', async () => {
    const { tokens, email } = await fresh();
    const code = await mailedCode(tokens, email);
    const res = await phase0(tokens, other(code));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields[0]).toMatchObject({ field: 'code', key: 'wrongCode' });
  });

  it('works with the mailed code, once', async () => {
    const { id, tokens, email } = await fresh();
    const code = await mailedCode(tokens, email);
    const p0 = await phase0(tokens, code);
    expect(p0.statusCode).toBe(200);
    expect(p0.json().data.login2FAType).toBe(1);
    const again = await phase0(tokens, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().extra.fields[0]).toMatchObject({ field: 'code', key: 'wrongCode' });
    expect((await turnOff(tokens, p0.json().data.onePassKey)).json()).toEqual({ data: { login2FAType: 0 } });
    expect((await t.app.rampart.accounts.findById(id))?.login2FAType).toBe(0);
  });

  it('the code expires after 10 minutes', async () => {
    const { tokens, email } = await fresh();
    const code = await mailedCode(tokens, email);
    clock.advance(10 * 60 * 1000 + 1000);
    const res = await phase0(tokens, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().extra.fields[0]).toMatchObject({ field: 'code', key: 'wrongCode' });
  });

  it('a new code replaces the last; at most 5 mails per code (then 101029)', async () => {
    const { tokens, email } = await fresh();
    const first = await mailedCode(tokens, email);
    let last = first;
    for (let i = 0; i < 4; i++) last = await mailedCode(tokens, email);
    const sixth = await sendCode(tokens);
    expect(sixth.statusCode).toBe(422);
    expect(sixth.json().code).toBe(101029);
    if (first !== last) expect((await phase0(tokens, first)).statusCode).toBe(400);
    expect((await phase0(tokens, last)).statusCode).toBe(200);
    clock.advance(10 * 60 * 1000 + 1000);
  });

  it('10 wrong codes (over several mails), then even the right one is throttled (429, 101012)', async () => {
    const { tokens, email } = await fresh();
    for (let round = 0; round < 2; round++) {
      const code = await mailedCode(tokens, email);
      for (let i = 0; i < 5; i++) expect((await phase0(tokens, other(code))).statusCode).toBe(400);
    }
    const code = await mailedCode(tokens, email);
    const right = await phase0(tokens, code);
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe(101012);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(15 * 60 * 1000 + 1000);
    expect((await phase0(tokens, await mailedCode(tokens, email))).statusCode).toBe(200);
  });

  it('the code of one account does not confirm another', async () => {
    const a = await fresh();
    const b = await fresh();
    const code = await mailedCode(a.tokens, a.email);
    const res = await phase0(b.tokens, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().extra.fields[0]).toMatchObject({ field: 'code', key: 'wrongCode' });
    clock.advance(15 * 60 * 1000 + 1000);
  });

  it("mails in the caller's language", async () => {
    const { tokens, email } = await fresh();
    expect((await sendCode(tokens, { 'accept-language': 'zh-CN' })).statusCode).toBe(200);
    const raw = (await smtp.next(email)).raw;
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4).replace(/\s+/g, '');
    expect(Buffer.from(body, 'base64').toString('utf8')).toMatch(
      /更改 Rampart 双重验证的验证码是 \d{6}，10 分钟内有效/,
    );
  });

  it('is not for an account without the e-mail second factor (101003 login2FAType)', async () => {
    const { id, tokens } = await fresh();
    await t.app.rampart.accounts.update(id, { login2FAType: 0 });
    const res = await sendCode(tokens);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields[0]).toMatchObject({ field: 'login2FAType', key: 'invalidValue' });
    // Without a second factor the password alone is phase 0, as before.
    expect((await phase0(tokens)).statusCode).toBe(200);
  });
});
