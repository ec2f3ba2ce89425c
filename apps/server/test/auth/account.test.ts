import {
  type AnyRoute,
  changePassword,
  checkRegisterToken,
  createAccount,
  getSelf,
  type RouteInput,
  registerPassword,
  requestLogin,
  setSubAccountPassword,
  updateSelf,
} from '@rampart/contract';
import type { CallInput } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/platform/crypto/passwords.js';
import { rootId } from '../helpers/accounts.js';
import { bearer, signIn } from '../helpers/auth.js';
import { rawInput, send, sendWith, type Token } from '../helpers/call.js';
import { decodedText, mailThrough, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp();
  await mailThrough(t.app, smtp);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const call = <R extends AnyRoute>(route: R, input: CallInput<R>, headers: Record<string, string>) =>
  sendWith(t.app, route, input, { headers });
/** The customer's own profile change (name, e-mail, the password that allows a new e-mail). */
const updateOwn = (tokens: Token, body: RouteInput<typeof updateSelf>['body']) =>
  call(updateSelf, { params: { auth: 'user' }, body }, bearer(tokens));

/** An account below `parentTier`'s root, with a known password. */
async function makeAccount(tier: 'user' | 'client', account: string, password: string | null = 'sub account pass 1') {
  const parent = await t.app.rampart.accounts.findRoot(tier === 'user' ? 'user' : 'client');
  return t.app.rampart.accounts.insert({
    tier,
    parentId: parent?.id ?? null,
    account,
    name: account,
    email: `${account}@rampart.test`,
    passwordHash: password ? await hashPassword(password) : null,
  });
}

describe('own account', () => {
  it('updates the name without a password and ignores fields it does not own', async () => {
    const tokens = await signIn(t.app, 'user');
    const res = await call(
      updateSelf,
      rawInput({
        params: { auth: 'user' },
        body: {
          name: 'Alice Example',
          email: '',
          isRoot: false,
          tier: 'admin',
          status: 'lock',
          parentId: 1,
        },
      }),
      bearer(tokens),
    );
    // email '' is not a valid address: the whole update is refused, nothing is written.
    expect(res.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'email', key: 'required' }] } });
    const ok = await call(
      updateSelf,
      rawInput({
        params: { auth: 'user' },
        body: {
          name: 'Alice Example',
          email: 'alice@rampart.test',
          password: TEST_PASSWORD,
          isRoot: false,
          status: 'lock',
        },
      }),
      bearer(tokens),
    );
    expect(ok.json().data).toMatchObject({
      name: 'Alice Example',
      email: 'alice@rampart.test',
      isRoot: true,
      status: 'normal',
      auth: 'user',
    });
    const rename = await updateOwn(tokens, { name: 'Alice', email: 'alice@rampart.test' });
    expect(rename.json().data.name).toBe('Alice');
  });

  it('needs the current password to change the e-mail', async () => {
    const tokens = await signIn(t.app, 'user');
    const without = await updateOwn(tokens, { name: 'Alice', email: 'new@rampart.test' });
    expect(without.json().extra.fields).toEqual([expect.objectContaining({ field: 'password', key: 'required' })]);
    const wrong = await updateOwn(tokens, { name: 'Alice', email: 'new@rampart.test', password: 'bad-password' });
    expect(wrong.json().extra.fields).toEqual([expect.objectContaining({ field: 'password', key: 'wrongPassword' })]);
    expect((await t.app.rampart.accounts.findRoot('user'))?.email).toBe('alice@rampart.test');
  });

  it('refuses an e-mail another account of the tier uses with 101017', async () => {
    await makeAccount('user', 'bob');
    const tokens = await signIn(t.app, 'user');
    const res = await updateOwn(tokens, { name: 'Alice', email: 'BOB@rampart.test', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe(101017);
  });
});

describe('password change', () => {
  it('needs the current password, refuses common ones and mismatches, and logs out the other sessions', async () => {
    await makeAccount('user', 'carol', 'carol first pass');
    const other = await signIn(t.app, 'user', 'carol', 'carol first pass');
    const mine = await signIn(t.app, 'user', 'carol', 'carol first pass');
    const change = (body: RouteInput<typeof changePassword>['body']) =>
      call(changePassword, { params: { auth: 'user' }, body }, bearer(mine));

    expect(
      (
        await change({ oldPassword: 'wrong-old', password: 'carol second pass', confirmPassword: 'carol second pass' })
      ).json().extra.fields[0],
    ).toMatchObject({ field: 'oldPassword', key: 'wrongPassword' });
    expect(
      (await change({ oldPassword: 'carol first pass', password: 'password', confirmPassword: 'password' })).json()
        .extra.fields[0],
    ).toMatchObject({ field: 'password', key: 'passwordTooCommon' });
    expect(
      (await change({ oldPassword: 'carol first pass', password: 'short', confirmPassword: 'short' })).json().extra
        .fields[0],
    ).toMatchObject({ field: 'password', key: 'passwordTooShort' });
    expect(
      (
        await change({ oldPassword: 'carol first pass', password: 'carol second pass', confirmPassword: 'carol other' })
      ).json().extra.fields[0],
    ).toMatchObject({ field: 'confirmPassword', key: 'passwordNotMatch' });

    const ok = await change({
      oldPassword: 'carol first pass',
      password: 'lower case words only',
      confirmPassword: 'lower case words only',
    });
    expect(ok.statusCode).toBe(200);
    const fresh = ok.json().data;
    expect((await call(getSelf, { params: { auth: 'user' } }, bearer(other))).json().code).toBe(101013);
    expect((await call(getSelf, { params: { auth: 'user' } }, bearer(mine))).json().code).toBe(101013);
    expect((await call(getSelf, { params: { auth: 'user' } }, bearer(fresh))).statusCode).toBe(200);
    expect(
      (
        await send(t.app, requestLogin, {
          params: { auth: 'user' },
          body: { account: 'carol', password: 'carol first pass' },
        })
      ).json().code,
    ).toBe(101012);
    await signIn(t.app, 'user', 'carol', 'lower case words only');
  });
});

describe('setting the password of an owned account', () => {
  it('lets a parent set it and signs that account out', async () => {
    const dave = await makeAccount('user', 'dave', 'dave first pass');
    const daveTokens = await signIn(t.app, 'user', 'dave', 'dave first pass');
    const parent = await signIn(t.app, 'user');
    const res = await call(
      setSubAccountPassword,
      {
        params: { auth: 'user' },
        body: {
          id: dave.id,
          password: 'dave second pass',
          confirmPassword: 'dave second pass',
        },
      },
      bearer(parent),
    );
    expect(res.statusCode).toBe(200);
    expect((await call(getSelf, { params: { auth: 'user' } }, bearer(daveTokens))).json().code).toBe(101013);
    await signIn(t.app, 'user', 'dave', 'dave second pass');
  });

  it('refuses an account that is not below the caller, and a missing one, alike', async () => {
    await makeAccount('user', 'erin', 'erin first pass');
    const erinTokens = await signIn(t.app, 'user', 'erin', 'erin first pass');
    const up = await call(
      setSubAccountPassword,
      {
        params: { auth: 'user' },
        body: {
          id: await rootId(t.app, 'user'),
          password: 'taken over pass',
          confirmPassword: 'taken over pass',
        },
      },
      bearer(erinTokens),
    );
    const missing = await call(
      setSubAccountPassword,
      {
        params: { auth: 'user' },
        body: {
          id: 999_999,
          password: 'taken over pass',
          confirmPassword: 'taken over pass',
        },
      },
      bearer(erinTokens),
    );
    expect(up.statusCode).toBe(403);
    expect(up.json().code).toBe(101018);
    expect(missing.body).toBe(up.body);
    await signIn(t.app, 'user'); // the root's password is unchanged
  });
});

describe('create password from the e-mailed link', () => {
  it('checks the token, sets the password once, and refuses reuse', async () => {
    const client = await signIn(t.app, 'client');
    const created = await call(
      createAccount,
      {
        params: { auth: 'client' },
        body: { auth: 'user', account: 'frank', name: 'frank', email: 'frank@rampart.test' },
      },
      bearer(client),
    );
    expect(created.statusCode, created.body).toBe(200);
    const frank = created.json().data as { id: number };
    expect(
      (
        await send(t.app, requestLogin, {
          params: { auth: 'user' },
          body: { account: 'frank', password: 'anything at all' },
        })
      ).json().code,
    ).toBe(101012);
    const mail = await smtp.next('frank@rampart.test');
    const link = /\/user\/verifyMail\?token=([^\s&]+)/.exec(decodedText(mail));
    const token = decodeURIComponent(link?.[1] ?? '');
    expect(token).toMatch(/^cp_/);

    const check = await send(t.app, checkRegisterToken, { body: { token } });
    expect(check.json().data).toEqual({ auth: 'user', email: 'frank@rampart.test', id: frank.id, name: 'frank' });
    const common = await send(t.app, registerPassword, {
      body: { token, password: 'qwerty123', confirmPassword: 'qwerty123' },
    });
    expect(common.json().extra.fields[0].key).toBe('passwordTooCommon');
    const ok = await send(t.app, registerPassword, {
      body: { token, password: 'a fifteen char pw', confirmPassword: 'a fifteen char pw' },
    });
    expect(ok.statusCode).toBe(200);
    await signIn(t.app, 'user', 'frank', 'a fifteen char pw');
    const reuse = await send(t.app, registerPassword, {
      body: { token, password: 'another long pass', confirmPassword: 'another long pass' },
    });
    expect(reuse.json().code).toBe(101013);
    expect((await send(t.app, checkRegisterToken, { body: { token } })).json().code).toBe(101013);
  });
});

describe('cross-origin requests', () => {
  it('never answers with CORS headers', async () => {
    const res = await send(
      t.app,
      requestLogin,
      { params: { auth: 'user' }, body: { account: 'user', password: TEST_PASSWORD } },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
