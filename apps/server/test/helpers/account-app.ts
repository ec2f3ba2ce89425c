import { type AnyRoute, createAccount, type TokenSet } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import { signInOtherOperator } from './accounts.js';
import { signIn } from './auth.js';
import { type RouteResponse, sendAs } from './call.js';
import { mailThrough, startSmtp, type TestSmtp } from './smtp.js';
import { createTestApp, type TestApp } from './test-app.js';

export interface AccountApp {
  t: TestApp;
  smtp: TestSmtp;
  admin: TokenSet;
  /** The seeded operator (login name `client`). */
  client: TokenSet;
  /** A second operator (login name `rival`). */
  rival: TokenSet;
  /** A call signed by `tokens`. */
  as: <R extends AnyRoute>(tokens: TokenSet, route: R, ...args: CallArgs<R>) => Promise<RouteResponse<R>>;
}

/**
 * The account tests' app, started before the file's tests and closed after them: it mails through a
 * test SMTP server, and the admin, the seeded operator and a second operator are signed in. The
 * fields are set once the file's first `beforeAll` (this one, registered first) has run.
 */
export function accountApp(): AccountApp {
  const app = {
    as: (tokens, route, ...args) => sendAs(app.t.app, tokens, route, ...args),
  } as AccountApp;
  beforeAll(async () => {
    app.smtp = await startSmtp();
    app.t = await createTestApp();
    await mailThrough(app.t.app, app.smtp);
    app.admin = await signIn(app.t.app, 'admin');
    app.client = await signIn(app.t.app, 'client');
    app.rival = await signInOtherOperator(app.t.app);
  });
  afterAll(async () => {
    await app.t.close();
    await app.smtp.close();
  });
  return app;
}

/**
 * An operator's new customer with a taken account name is refused with 101025 on `account`, and one
 * with a taken e-mail (in other letters' case) with 101017.
 */
export async function expectTakenRefused(app: AccountApp, by: TokenSet, taken: { account: string; email: string }) {
  const create = (account: string, email: string) =>
    app.as(by, createAccount, { params: { auth: 'client' }, body: { auth: 'user', account, name: 'Other', email } });
  const name = await create(taken.account, `other-${taken.account}@free.test`);
  expect(name.json()).toMatchObject({ code: 101025, extra: { field: 'account' } });
  const mail = await create(`${taken.account}-two`, taken.email.toUpperCase());
  expect(mail.json().code).toBe(101017);
}
