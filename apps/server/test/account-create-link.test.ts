import type { AnyRoute, TokenSet } from '@rampart/contract';
import {
  accountCreatePasswordLink,
  checkRegisterToken,
  createAccount,
  listAccounts,
  registerPassword,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, send, sendAs } from './helpers/call.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// An installation without a mail server (docs/decisions "new-harden-create-password-link"): the
// operator creates a customer with `delivery: link` and hands the create-password link over, or
// takes a new one later from `{auth}/account/createPasswordLink`. The invitation rules hold: a link
// is spent once used, a newer one supersedes it, and a registered account gets none.

let t: TestApp;
let client: TokenSet;
let admin: TokenSet;

beforeAll(async () => {
  // No mailThrough: the installation has no mail server.
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  admin = await signIn(t.app, 'admin');
});
afterAll(async () => t.close());

const as = <R extends AnyRoute>(tokens: TokenSet, route: R, ...args: CallArgs<R>) =>
  sendAs(t.app, tokens, route, ...args);

const customer = (account: string, delivery?: 'mail' | 'link') => ({
  params: { auth: 'client' as const },
  body: { auth: 'user' as const, account, name: `${account} Ltd`, email: `${account}@rampart.test`, delivery },
});

/** The token of a create-password link as the console's verifyMail page reads it. */
function tokenOf(link: string, tier: string): string {
  const url = new URL(link);
  expect(url.pathname).toBe(`/${tier}/verifyMail`);
  return url.searchParams.get('token') ?? '';
}

async function register(token: string, password: string) {
  return send(t.app, registerPassword, { body: { token, password, confirmPassword: password } });
}

describe('a customer created without a mail server', () => {
  it('is refused by mail (101020, nothing created) and created with its link answered once', async () => {
    const byMail = await as(client, createAccount, customer('nomail'));
    expect(byMail.json().code).toBe(101020);
    expect((await as(client, createAccount, customer('nomail-default'))).json().code).toBe(101020);
    const none = await as(client, listAccounts, { params: { auth: 'client' }, query: { name: 'nomail' } });
    expect(none.json().total).toBe(0);

    const res = await as(client, createAccount, customer('linked', 'link'));
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().data;
    expect(created).toMatchObject({ account: 'linked', hasPassword: false });
    const token = tokenOf(created.createPasswordLink, 'user');
    expect((await send(t.app, checkRegisterToken, { body: { token } })).statusCode).toBe(200);
    expect((await register(token, 'linked first password')).statusCode).toBe(200);
    await signIn(t.app, 'user', 'linked', 'linked first password');
    // Spent once used.
    expect((await register(token, 'linked second password')).json().code).toBe(101013);
    // The listing never carries a link.
    const listed = await as(client, listAccounts, { params: { auth: 'client' }, query: { name: 'linked' } });
    expect(listed.json().data[0]).toMatchObject({ hasPassword: true });
    expect(listed.json().data[0]).not.toHaveProperty('createPasswordLink');
  });

  it('hands a new link that supersedes the earlier one, and none for a registered account', async () => {
    const created = (await as(client, createAccount, customer('relinked', 'link'))).json().data;
    const first = tokenOf(created.createPasswordLink, 'user');
    const again = await as(client, accountCreatePasswordLink, { params: { auth: 'client' }, body: { id: created.id } });
    expect(again.statusCode, again.body).toBe(200);
    const second = tokenOf(again.json().data.link, 'user');
    expect(second).not.toBe(first);
    expect((await register(first, 'stale link password')).json().code).toBe(101013);
    expect((await register(second, 'relinked password')).statusCode).toBe(200);
    const registered = await as(client, accountCreatePasswordLink, {
      params: { auth: 'client' },
      body: { id: created.id },
    });
    expect(registered.json().code).toBe(101018);
    expect((await register(second, 'hijacked password')).json().code).toBe(101013);
    await signIn(t.app, 'user', 'relinked', 'relinked password');
  });

  it("names its operator in an operator's sub-account link, and refuses others' accounts and bad input", async () => {
    const sub = await as(client, createAccount, {
      params: { auth: 'client' },
      body: { auth: 'client', account: 'helper', name: 'Helper', email: 'helper@rampart.test', delivery: 'link' },
    });
    expect(sub.statusCode, sub.body).toBe(200);
    const link = new URL(sub.json().data.createPasswordLink);
    expect(link.pathname).toBe('/client/verifyMail');
    expect(link.searchParams.get('operator')).toBe('client');

    const target = (await as(client, createAccount, customer('guarded', 'link'))).json().data.id;
    const rival = await signInOtherOperator(t.app, 'operator-links');
    const body = { id: target };
    expect((await as(rival, accountCreatePasswordLink, { params: { auth: 'client' }, body })).json().code).toBe(101018);
    expect((await as(admin, accountCreatePasswordLink, { params: { auth: 'admin' }, body })).json().code).toBe(101018);

    const bad = await as(
      client,
      createAccount,
      rawInput({ params: { auth: 'client' }, body: { ...customer('badway').body, delivery: 'sms' } }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['delivery']);
    const noId = await as(client, accountCreatePasswordLink, rawInput({ params: { auth: 'client' }, body: {} }));
    expect(fieldNames(noId)).toEqual(['id']);
  });
});
