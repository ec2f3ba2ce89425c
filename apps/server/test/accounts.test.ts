import type { TokenSet } from '@rampart/contract';
import {
  checkRegisterToken,
  createAccount,
  createGroup,
  createProduct,
  createSite,
  createZone,
  deleteAccount,
  getSelf,
  listAccounts,
  listSubAccounts,
  registerPassword,
  requestLogin,
  resendAccountEmail,
  resetAccountTwoFactor,
  setSubAccountPassword,
  updateAccount,
} from '@rampart/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountApp, expectTakenRefused } from './helpers/account-app.js';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, send } from './helpers/call.js';
import { decodedText, mailThrough, type TestSmtp } from './helpers/smtp.js';
import type { TestApp } from './helpers/test-app.js';

// Account management in the three consoles (spec part 1 §7 `{auth}/accounts`, `{auth}/account`,
// `account/{userId}/subs`, `account/resendEmail`; security list items 27–33).
const app = accountApp();
let t: TestApp;
let smtp: TestSmtp;
let admin: TokenSet;
let client: TokenSet;
let rival: TokenSet;
let clientRoot: number;
let userRoot: number;

beforeAll(async () => {
  ({ t, smtp, admin, client, rival } = app);
  clientRoot = await rootId(t.app, 'client');
  userRoot = await rootId(t.app, 'user');
});
const as = app.as;

/** The one-time token of the next create-password mail to `to`. */
async function mailedToken(to: string, tier: string): Promise<string> {
  const text = decodedText(await smtp.next(to));
  const link = new RegExp(`http://127\\.0\\.0\\.1:9/${tier}/verifyMail\\?token=([^\\s&]+)`).exec(text);
  if (!link?.[1]) throw new Error(`no link in ${text}`);
  return decodeURIComponent(link[1]);
}

async function createCustomer(account: string, by = client) {
  const res = await as(by, createAccount, {
    params: { auth: 'client' },
    body: {
      auth: 'user',
      account,
      name: `${account} Ltd`,
      email: `${account}@rampart.test`,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number };
}

async function setPassword(token: string, password: string) {
  const res = await send(t.app, registerPassword, { body: { token, password, confirmPassword: password } });
  expect(res.statusCode, res.body).toBe(200);
}

describe('POST {auth}/account', () => {
  it('creates a customer without a password and mails it a link to create one', async () => {
    const res = await as(
      client,
      createAccount,
      rawInput({
        params: { auth: 'client' },
        body: {
          auth: 'user',
          account: 'acme',
          name: ' Acme Ltd ',
          email: 'ops@acme.test',
          maxLogExportTimes: 3,
          // Mass assignment: none of these is the caller's to choose.
          isRoot: false,
          parentId: userRoot,
          status: 'lock',
          passwordHash: 'x',
        },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().data;
    expect(created).toMatchObject({
      auth: 'user',
      account: 'acme',
      name: 'Acme Ltd',
      email: 'ops@acme.test',
      status: 'normal',
      isRoot: true,
      hasPassword: false,
      maxLogExportTimes: 3,
      subCount: 0,
    });
    const row = await t.app.rampart.accounts.findById(created.id);
    expect(row?.parentId).toBe(clientRoot);
    expect(row?.passwordHash).toBeNull();

    const token = await mailedToken('ops@acme.test', 'user');
    await setPassword(token, 'acme first password');
    await signIn(t.app, 'user', 'acme', 'acme first password');
    const listed = await as(client, listAccounts, { params: { auth: 'client' }, query: { name: 'acme' } });
    expect(listed.json().data[0]).toMatchObject({ id: created.id, hasPassword: true });
  });

  it('lets each console create only the tiers it manages', async () => {
    const operator = await as(admin, createAccount, {
      params: { auth: 'admin' },
      body: {
        auth: 'client',
        account: 'op-two',
        name: 'Operator Two',
        email: 'op2@rampart.test',
      },
    });
    expect(operator.json().data).toMatchObject({ auth: 'client', isRoot: true });
    const adminUser = await as(admin, createAccount, {
      params: { auth: 'admin' },
      body: {
        auth: 'admin',
        account: 'ada',
        name: 'Ada',
        email: 'ada@rampart.test',
      },
    });
    expect(adminUser.json().data).toMatchObject({ auth: 'admin', isRoot: false });
    await mailedToken('op2@rampart.test', 'client');
    await mailedToken('ada@rampart.test', 'admin');

    const body = { account: 'nope', name: 'Nope', email: 'nope@rampart.test' };
    expect(
      (await as(client, createAccount, { params: { auth: 'client' }, body: { ...body, auth: 'admin' } })).json().code,
    ).toBe(101018);
    const user = await signIn(t.app, 'user');
    expect(
      (await as(user, createAccount, { params: { auth: 'user' }, body: { ...body, auth: 'client' } })).json().code,
    ).toBe(101018);
    expect(
      (await as(admin, createAccount, { params: { auth: 'admin' }, body: { ...body, auth: 'user' } })).json().code,
    ).toBe(101018);
    // A token of one console on another console's path.
    expect(
      (await as(client, createAccount, { params: { auth: 'user' }, body: { ...body, auth: 'user' } })).json().code,
    ).toBe(101018);
    expect((await as(client, listAccounts, { params: { auth: 'client' }, query: { name: 'nope' } })).json().total).toBe(
      0,
    );
  });

  it('names every invalid field', async () => {
    const res = await as(
      client,
      createAccount,
      rawInput({
        params: { auth: 'client' },
        body: {
          auth: 'operator',
          account: 'bad name',
          name: '',
          email: 'not-an-email',
          maxLogExportTimes: -1,
        },
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(101003);
    const fields = fieldNames(res);
    expect(fields).toEqual(expect.arrayContaining(['auth', 'account', 'name', 'email', 'maxLogExportTimes']));
  });

  it('refuses a taken account name (101025) or e-mail (101017)', async () => {
    await createCustomer('dup');
    await smtp.next('dup@rampart.test');
    await expectTakenRefused(app, client, { account: 'dup', email: 'dup@rampart.test' });
  });

  it('writes nothing when the mail cannot be sent (101020)', async () => {
    await t.app.rampart.settings.put('smtp', { host: '127.0.0.1', port: 9, from: 'noreply@rampart.test' });
    try {
      const res = await as(client, createAccount, {
        params: { auth: 'client' },
        body: {
          auth: 'user',
          account: 'unmailed',
          name: 'Unmailed',
          email: 'unmailed@rampart.test',
        },
      });
      expect(res.json().code).toBe(101020);
      expect(await t.app.rampart.accounts.findForLogin('user', 'unmailed')).toBeUndefined();
    } finally {
      await mailThrough(t.app, smtp);
    }
    // The name is free again.
    await createCustomer('unmailed');
    await smtp.next('unmailed@rampart.test');
  });
});

describe('GET {auth}/accounts and account/{userId}/subs', () => {
  let rivalCustomer: number;
  beforeAll(async () => {
    for (const name of ['list-b', 'list-a', 'list-c']) {
      await createCustomer(name);
      await smtp.next(`${name}@rampart.test`);
    }
    rivalCustomer = await createCustomer('list-rival', rival).then((c) => c.id);
    await smtp.next('list-rival@rampart.test');
  });

  it('pages, sorts and searches the customers of the operator only', async () => {
    const res = await as(client, listAccounts, {
      params: { auth: 'client' },
      query: { name: 'LIST-', sortBy: 'account', orderBy: 'asc', page: 1, pageSize: 2 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().total).toBe(3);
    expect(res.json().data.map((a: { account: string }) => a.account)).toEqual(['list-a', 'list-b']);
    const second = await as(client, listAccounts, {
      params: { auth: 'client' },
      query: { name: 'list-', sortBy: 'account', orderBy: 'asc', page: 2, pageSize: 2 },
    });
    expect(second.json().data.map((a: { account: string }) => a.account)).toEqual(['list-c']);
    // The other operator sees its own customer only, whatever it searches for.
    const theirs = await as(rival, listAccounts, {
      params: { auth: 'client' },
      query: { name: 'list-', pageSize: 100 },
    });
    expect(theirs.json().data.map((a: { id: number }) => a.id)).toEqual([rivalCustomer]);
    const bad = await as(
      client,
      listAccounts,
      rawInput({ params: { auth: 'client' }, query: { sortBy: 'password', orderBy: 'up', pageSize: 100000 } }),
    );
    expect(fieldNames(bad).sort()).toEqual(['orderBy', 'pageSize', 'sortBy']);
  });

  it('lists each console its tabs', async () => {
    const operators = (
      await as(admin, listAccounts, { params: { auth: 'admin' }, query: { auth: 'client', pageSize: 100 } })
    ).json();
    const names = operators.data.map((a: { account: string }) => a.account);
    expect(names).toContain('client');
    expect(names).toContain('op-two');
    // The second operator was made outside the admin's tree by the test helper.
    expect(names).not.toContain('rival');
    const admins = (await as(admin, listAccounts, { params: { auth: 'admin' }, query: { auth: 'admin' } })).json();
    expect(admins.data.map((a: { account: string }) => a.account)).toEqual(['ada']);
    expect((await as(admin, listAccounts, { params: { auth: 'admin' }, query: { auth: 'user' } })).json().code).toBe(
      101018,
    );

    const subAccount = await addAccount(t.app, 'client', 'client-helper', clientRoot);
    const subs = (await as(client, listAccounts, { params: { auth: 'client' }, query: { auth: 'client' } })).json();
    expect(subs.data.map((a: { id: number }) => a.id)).toEqual([subAccount]);
    expect(
      (await as(rival, listAccounts, { params: { auth: 'client' }, query: { auth: 'client' } })).json().total,
    ).toBe(0);

    const user = await signIn(t.app, 'user');
    const subUser = await addAccount(t.app, 'user', 'user-helper', userRoot);
    const subUsers = (await as(user, listAccounts, { params: { auth: 'user' } })).json();
    expect(subUsers.data.map((a: { id: number }) => a.id)).toEqual([subUser]);
    expect((await as(user, listAccounts, { params: { auth: 'user' }, query: { auth: 'client' } })).json().code).toBe(
      101018,
    );
  });

  it("lists a customer's sub-users to its operator, never to another", async () => {
    const parent = await createCustomer('with-subs');
    await smtp.next('with-subs@rampart.test');
    const sub = await addAccount(t.app, 'user', 'with-subs-1', parent.id);
    const res = await as(client, listSubAccounts, { params: { auth: 'client', userId: parent.id } });
    expect(res.json()).toMatchObject({ total: 1, data: [{ id: sub, auth: 'user', isRoot: false }] });
    const listed = (
      await as(client, listAccounts, { params: { auth: 'client' }, query: { name: 'with-subs' } })
    ).json();
    expect(listed.data).toEqual([expect.objectContaining({ id: parent.id, subCount: 1 })]);
    const denied = await as(rival, listSubAccounts, { params: { auth: 'client', userId: parent.id } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe(101018);
    const missing = await as(rival, listSubAccounts, { params: { auth: 'client', userId: 999999 } });
    expect(missing.body).toBe(denied.body);
    expect(
      (await as(client, listSubAccounts, { params: { auth: 'client', userId: 'abc' } })).json().extra.fields[0].field,
    ).toBe('userId');
  });
});

describe('PUT {auth}/account', () => {
  it('edits name, e-mail, log export limit and status; a paused account is signed out at once', async () => {
    const { id } = await createCustomer('editme');
    const token = await mailedToken('editme@rampart.test', 'user');
    await setPassword(token, 'editme first password');
    const session = await signIn(t.app, 'user', 'editme', 'editme first password');

    const res = await as(
      client,
      updateAccount,
      rawInput({
        params: { auth: 'client' },
        body: {
          id,
          name: 'Edited',
          email: 'edited@rampart.test',
          maxLogExportTimes: 7,
          status: 'pause',
          isRoot: false,
          auth: 'admin',
          parentId: null,
        },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Edited',
      email: 'edited@rampart.test',
      maxLogExportTimes: 7,
      status: 'pause',
      isRoot: true,
      auth: 'user',
    });
    expect((await t.app.rampart.accounts.findById(id))?.parentId).toBe(clientRoot);
    expect((await as(session, getSelf, { params: { auth: 'user' } })).json().code).toBe(101013);
    const login = await send(t.app, requestLogin, {
      params: { auth: 'user' },
      body: { account: 'editme', password: 'editme first password' },
    });
    expect(login.json().code).toBe(101008);

    await as(client, updateAccount, {
      params: { auth: 'client' },
      body: { id, name: 'Edited', email: 'edited@rampart.test', status: 'normal' },
    });
    await signIn(t.app, 'user', 'editme', 'editme first password');
  });

  it("stops a customer's sub-users while the customer is paused", async () => {
    const { id } = await createCustomer('paused-parent');
    await smtp.next('paused-parent@rampart.test');
    await addAccount(t.app, 'user', 'paused-child', id);
    const child = await signIn(t.app, 'user', 'paused-child');
    await as(client, updateAccount, {
      params: { auth: 'client' },
      body: { id, name: 'P', email: 'paused-parent@rampart.test', status: 'pause' },
    });
    expect((await as(child, getSelf, { params: { auth: 'user' } })).json().code).toBe(101008);
    await expect(signIn(t.app, 'user', 'paused-child')).rejects.toThrow(/101008/);
    await as(client, updateAccount, {
      params: { auth: 'client' },
      body: { id, name: 'P', email: 'paused-parent@rampart.test', status: 'normal' },
    });
    expect((await as(child, getSelf, { params: { auth: 'user' } })).statusCode).toBe(200);
  });

  it('spends the link mailed to an old address when the e-mail changes', async () => {
    const { id } = await createCustomer('moving');
    const token = await mailedToken('moving@rampart.test', 'user');
    await as(client, updateAccount, {
      params: { auth: 'client' },
      body: { id, name: 'Moving', email: 'moved@rampart.test' },
    });
    const check = await send(t.app, checkRegisterToken, { body: { token } });
    expect(check.json().code).toBe(101013);
  });

  it("refuses another tenant's account, a parent and a taken e-mail, and changes nothing", async () => {
    const { id } = await createCustomer('guarded');
    await smtp.next('guarded@rampart.test');
    const before = await t.app.rampart.accounts.findById(id);
    const edit = { id, name: 'Hijacked', email: 'hijack@rampart.test', status: 'lock' as const };
    const denied = await as(rival, updateAccount, { params: { auth: 'client' }, body: edit });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe(101018);
    expect((await as(rival, updateAccount, { params: { auth: 'client' }, body: { ...edit, id: 999999 } })).body).toBe(
      denied.body,
    );
    expect(await t.app.rampart.accounts.findById(id)).toEqual(before);

    // A sub-account cannot change the account it belongs to, nor itself through this call.
    await addAccount(t.app, 'client', 'client-sub-2', clientRoot);
    const sub = await signIn(t.app, 'client', 'client-sub-2');
    const up = await as(sub, updateAccount, {
      params: { auth: 'client' },
      body: { id: clientRoot, name: 'x', email: 'x@rampart.test' },
    });
    expect(up.json().code).toBe(101018);
    const user = await signIn(t.app, 'user');
    const customerParent = await as(user, updateAccount, {
      params: { auth: 'user' },
      body: { id: clientRoot, name: 'x', email: 'x@x.test' },
    });
    expect(customerParent.json().code).toBe(101018);

    await createCustomer('other-mail');
    await smtp.next('other-mail@rampart.test');
    const taken = await as(client, updateAccount, {
      params: { auth: 'client' },
      body: { id, name: 'G', email: 'other-mail@rampart.test' },
    });
    expect(taken.json().code).toBe(101017);
  });
});

describe('self information', () => {
  it("names the account's operator, whose branding the console shows", async () => {
    const operatorName = (await t.app.rampart.accounts.findRoot('client'))?.account;
    expect((await as(client, getSelf, { params: { auth: 'client' } })).json().data.operator).toBe(operatorName);
    expect((await as(rival, getSelf, { params: { auth: 'client' } })).json().data.operator).toBe('rival');
    const customer = await signIn(t.app, 'user');
    expect((await as(customer, getSelf, { params: { auth: 'user' } })).json().data.operator).toBe(operatorName);
    expect((await as(admin, getSelf, { params: { auth: 'admin' } })).json().data.operator).toBeNull();
  });
});

describe("an operator's zone limit", () => {
  it('is set by the admin on an operator only, and holds the operator to it (201003)', async () => {
    const adminRoot = await rootId(t.app, 'admin');
    const limited = await addAccount(t.app, 'client', 'limited-op', adminRoot);
    await t.app.rampart.accounts.update(limited, { isRoot: true });
    const edit = (zoneLimit: number, by = admin, id = limited) =>
      as(by, updateAccount, {
        params: { auth: by === admin ? 'admin' : 'client' },
        body: {
          id,
          name: 'Limited',
          email: 'limited@op.test',
          zoneLimit,
        },
      });
    const set = await edit(1);
    expect(set.json().data, set.body).toMatchObject({ id: limited, zoneLimit: 1 });
    const listed = (
      await as(admin, listAccounts, { params: { auth: 'admin' }, query: { auth: 'client', name: 'limited-op' } })
    ).json().data;
    expect(listed[0]).toMatchObject({ account: 'limited-op', zoneLimit: 1 });

    const op = await signIn(t.app, 'client', 'limited-op');
    expect((await as(op, createZone, { body: { name: 'first' } })).statusCode).toBe(200);
    expect((await as(op, createZone, { body: { name: 'second' } })).json()).toMatchObject({
      code: 201003,
      extra: { limit: 1 },
    });
    expect((await edit(0)).json().data.zoneLimit).toBe(0);
    expect((await as(op, createZone, { body: { name: 'second' } })).statusCode).toBe(200);

    // Out of range, an operator setting it (even on its customer), the admin on an admin user.
    expect((await edit(-1)).json().extra.fields[0].field).toBe('zoneLimit');
    expect((await edit(10_001)).json().extra.fields[0].field).toBe('zoneLimit');
    const customer = await addAccount(t.app, 'user', 'limit-customer', clientRoot);
    const byOperator = await as(client, updateAccount, {
      params: { auth: 'client' },
      body: {
        id: customer,
        name: 'C',
        email: 'c@limit.test',
        zoneLimit: 3,
      },
    });
    expect(byOperator.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'zoneLimit' }] } });
    const created = await as(client, createAccount, {
      params: { auth: 'client' },
      body: {
        auth: 'user',
        account: 'limit-new',
        name: 'N',
        email: 'n@limit.test',
        zoneLimit: 3,
      },
    });
    expect(created.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'zoneLimit' }] } });
    // A customer shows no limit of its own.
    const customers = (
      await as(client, listAccounts, { params: { auth: 'client' }, query: { name: 'limit-customer' } })
    ).json().data;
    expect(customers[0]).toMatchObject({ account: 'limit-customer', zoneLimit: 0 });
  });
});

describe('DELETE {auth}/account', () => {
  it('deletes an account that owns nothing', async () => {
    const { id } = await createCustomer('deleteme');
    await smtp.next('deleteme@rampart.test');
    expect((await as(rival, deleteAccount, { params: { auth: 'client' }, body: { id } })).json().code).toBe(101018);
    expect(await t.app.rampart.accounts.findById(id)).toBeDefined();
    const res = await as(client, deleteAccount, { params: { auth: 'client' }, body: { id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.app.rampart.accounts.findById(id)).toBeUndefined();
    expect((await as(client, deleteAccount, { params: { auth: 'client' }, body: { id } })).json().code).toBe(101018);
  });

  it('refuses while the account has sites or sub-accounts, saying which', async () => {
    const { id } = await createCustomer('site-owner');
    await smtp.next('site-owner@rampart.test');
    const zoneId = (await as(client, createZone, { body: { name: 'Accounts zone' } })).json().data.id;
    const groupId = (
      await as(client, createGroup, { params: { zoneID: zoneId }, body: { name: 'g', portType: 7 } })
    ).json().data.id;
    const productId = (
      await as(client, createProduct, { body: { name: 'Accounts product', portType: 7, mainGroupIDs: [groupId] } })
    ).json().data.id;
    const site = await as(client, createSite, { body: { siteName: 'owned', userID: id, productID: productId } });
    expect(site.statusCode, site.body).toBe(200);

    const refused = await as(client, deleteAccount, { params: { auth: 'client' }, body: { id } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 205003, extra: { reason: 'accountHasSites', count: 1 } });
    expect(await t.app.rampart.accounts.findById(id)).toBeDefined();

    const parent = await createCustomer('has-subs');
    await smtp.next('has-subs@rampart.test');
    await addAccount(t.app, 'user', 'has-subs-1', parent.id);
    const withSubs = await as(client, deleteAccount, { params: { auth: 'client' }, body: { id: parent.id } });
    expect(withSubs.json()).toMatchObject({ code: 205003, extra: { reason: 'accountHasSubAccounts', count: 1 } });

    // The operator itself owns zones and products: the admin cannot delete it from under them.
    const operator = await as(admin, deleteAccount, { params: { auth: 'admin' }, body: { id: clientRoot } });
    expect(operator.json().code).toBe(205003);
  });
});

describe('resend e-mail, password and second factor of a managed account', () => {
  it('mails a new create-password link', async () => {
    const { id } = await createCustomer('resend');
    const first = await mailedToken('resend@rampart.test', 'user');
    const res = await as(client, resendAccountEmail, { params: { auth: 'client' }, body: { id } });
    expect(res.statusCode, res.body).toBe(200);
    const second = await mailedToken('resend@rampart.test', 'user');
    expect(second).not.toBe(first);
    await setPassword(second, 'resent password ok');
    await signIn(t.app, 'user', 'resend', 'resent password ok');
    expect((await as(rival, resendAccountEmail, { params: { auth: 'client' }, body: { id } })).json().code).toBe(
      101018,
    );
    expect(
      (await as(client, resendAccountEmail, rawInput({ params: { auth: 'client' }, body: {} }))).json().extra.fields[0]
        .field,
    ).toBe('id');
  });

  it('spends the earlier link when a newer one is sent, and a link once used', async () => {
    const { id } = await createCustomer('relink');
    const first = await mailedToken('relink@rampart.test', 'user');
    expect((await as(client, resendAccountEmail, { params: { auth: 'client' }, body: { id } })).statusCode).toBe(200);
    const second = await mailedToken('relink@rampart.test', 'user');
    expect((await send(t.app, checkRegisterToken, { body: { token: first } })).json().code).toBe(101013);
    const stale = await send(t.app, registerPassword, {
      body: { token: first, password: 'stale link password', confirmPassword: 'stale link password' },
    });
    expect(stale.json().code).toBe(101013);
    expect((await t.app.rampart.accounts.findById(id))?.passwordHash).toBeNull();
    await setPassword(second, 'relink first password');
    const again = await send(t.app, registerPassword, {
      body: { token: second, password: 'relink second password', confirmPassword: 'relink second password' },
    });
    expect(again.json().code).toBe(101013);
    await signIn(t.app, 'user', 'relink', 'relink first password');
  });

  it('mails no create-password link to an account that has a password, and no open link replaces it', async () => {
    const { id } = await createCustomer('registered');
    const first = await mailedToken('registered@rampart.test', 'user');
    // A second link sent while the account had no password yet, then the first one used.
    const pending = await as(client, resendAccountEmail, { params: { auth: 'client' }, body: { id } });
    expect(pending.statusCode).toBe(200);
    const second = await mailedToken('registered@rampart.test', 'user');
    await setPassword(second, 'registered password');
    const mailsBefore = smtp.mails.length;
    const refused = await as(client, resendAccountEmail, { params: { auth: 'client' }, body: { id } });
    expect(refused.json().code).toBe(101018);
    expect(smtp.mails.length).toBe(mailsBefore);
    // The parent's password set-up is the way to change it; afterwards no link of the account works.
    const body = { id, password: 'parent reset this', confirmPassword: 'parent reset this' };
    expect((await as(client, setSubAccountPassword, { params: { auth: 'client' }, body })).statusCode).toBe(200);
    for (const token of [first, second]) {
      const res = await send(t.app, registerPassword, {
        body: { token, password: 'hijacked password', confirmPassword: 'hijacked password' },
      });
      expect(res.json().code).toBe(101013);
    }
    await signIn(t.app, 'user', 'registered', 'parent reset this');
  });

  it('refuses a create-password link of an account whose password was set another way', async () => {
    const { id } = await createCustomer('set-by-parent');
    const token = await mailedToken('set-by-parent@rampart.test', 'user');
    const body = { id, password: 'parent chose this', confirmPassword: 'parent chose this' };
    expect((await as(client, setSubAccountPassword, { params: { auth: 'client' }, body })).statusCode).toBe(200);
    expect((await send(t.app, checkRegisterToken, { body: { token } })).json().code).toBe(101013);
    const res = await send(t.app, registerPassword, {
      body: { token, password: 'link chose this', confirmPassword: 'link chose this' },
    });
    expect(res.json().code).toBe(101013);
    await signIn(t.app, 'user', 'set-by-parent', 'parent chose this');
  });

  it("lets the operator set a customer's password, never another operator", async () => {
    const { id } = await createCustomer('pw-set');
    await smtp.next('pw-set@rampart.test');
    const body = { id, password: 'operator set this', confirmPassword: 'operator set this' };
    expect((await as(rival, setSubAccountPassword, { params: { auth: 'client' }, body })).json().code).toBe(101018);
    expect((await as(client, setSubAccountPassword, { params: { auth: 'client' }, body })).statusCode).toBe(200);
    await signIn(t.app, 'user', 'pw-set', 'operator set this');
  });

  it('turns a lost second factor off and signs the account out', async () => {
    const { id } = await createCustomer('lost-phone');
    await setPassword(await mailedToken('lost-phone@rampart.test', 'user'), 'lost phone password');
    const session = await signIn(t.app, 'user', 'lost-phone', 'lost phone password');
    await t.app.rampart.accounts.update(id, { login2FAType: 3, totpSecret: 'sealed-seed' });

    expect((await as(rival, resetAccountTwoFactor, { params: { auth: 'client' }, body: { id } })).json().code).toBe(
      101018,
    );
    expect((await t.app.rampart.accounts.findById(id))?.login2FAType).toBe(3);
    const res = await as(client, resetAccountTwoFactor, { params: { auth: 'client' }, body: { id } });
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.app.rampart.accounts.findById(id);
    expect(row).toMatchObject({ login2FAType: 0, totpSecret: null });
    expect((await as(session, getSelf, { params: { auth: 'user' } })).json().code).toBe(101013);
    await signIn(t.app, 'user', 'lost-phone', 'lost phone password');
  });
});
