import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { RouteInput, TokenSet } from '@rampart/contract';
import { createAccount, getSelf, requestLogin, setSubAccountPassword } from '@rampart/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/platform/db/database.js';
import { accountApp, expectTakenRefused } from './helpers/account-app.js';
import { signIn, type TierName } from './helpers/auth.js';
import { send } from './helpers/call.js';
import { decodedText, type TestSmtp } from './helpers/smtp.js';
import { TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

// Account names are unique per tier within one operator: a name another operator's account uses is
// free, and neither creating an account nor signing in tells anyone that it exists elsewhere.
const app = accountApp();
let t: TestApp;
let smtp: TestSmtp;
let admin: TokenSet;
let acme: TokenSet; // the seeded operator, login name `client`
let rival: TokenSet; // a second operator, login name `rival`
beforeAll(() => {
  ({ t, smtp, admin, client: acme, rival } = app);
});
const as = app.as;

/** Creates an account below the caller through the API and gives it `password`. */
async function create(
  by: TokenSet,
  byTier: 'admin' | 'client' | 'user',
  tier: 'client' | 'user',
  account: string,
  email: string,
  password = TEST_PASSWORD,
) {
  const res = await as(by, createAccount, {
    params: { auth: byTier },
    body: { auth: tier, account, name: account, email },
  });
  expect(res.statusCode, res.body).toBe(200);
  await smtp.next(email);
  const id = res.json().data.id as number;
  const set = await as(by, setSubAccountPassword, {
    params: { auth: byTier },
    body: { id, password, confirmPassword: password },
  });
  expect(set.statusCode, set.body).toBe(200);
  return id;
}

function login(tier: TierName, payload: RouteInput<typeof requestLogin>['body']) {
  return send(t.app, requestLogin, { params: { auth: tier }, body: payload });
}

async function selfOf(tier: TierName, res: Awaited<ReturnType<typeof login>>) {
  expect(res.statusCode, res.body).toBe(200);
  const self = await send(
    t.app,
    getSelf,
    { params: { auth: tier } },
    { headers: { authorization: `Bearer ${res.json().data.accessToken}` } },
  );
  return self.json().data as { id: number; account: string; operator: string };
}

/** What a login answers for an account that does not exist: the reply every failed login must equal. */
async function wrongCredentials(tier: TierName) {
  const res = await login(tier, { account: `nobody-${tier}`, password: 'wrong password 1' });
  expect(res.statusCode).toBe(401);
  return { status: res.statusCode, body: res.json() };
}

describe('customers of two operators with the same name', () => {
  let acmeAlice: number;
  let rivalAlice: number;

  beforeAll(async () => {
    acmeAlice = await create(acme, 'client', 'user', 'alice', 'alice@acme.test', 'acme alice password 1');
    rivalAlice = await create(rival, 'client', 'user', 'alice', 'alice@rival.test', 'rival alice password 1');
  });

  it('are both created, each in its own operator', async () => {
    expect(acmeAlice).not.toBe(rivalAlice);
    expect((await t.app.rampart.accounts.findById(acmeAlice))?.operatorId).toBe(
      (await t.app.rampart.accounts.operatorNamed('client'))?.id,
    );
    expect((await t.app.rampart.accounts.findById(rivalAlice))?.operatorId).toBe(
      (await t.app.rampart.accounts.operatorNamed('rival'))?.id,
    );
  });

  it('each sign in through their operator and get their own account', async () => {
    const a = await selfOf(
      'user',
      await login('user', { account: 'alice', password: 'acme alice password 1', operator: 'client' }),
    );
    expect(a).toMatchObject({ id: acmeAlice, operator: 'client' });
    const r = await selfOf(
      'user',
      await login('user', { account: 'alice', password: 'rival alice password 1', operator: 'rival' }),
    );
    expect(r).toMatchObject({ id: rivalAlice, operator: 'rival' });
    // One alice's password through the other operator is a wrong password.
    const crossed = await login('user', { account: 'alice', password: 'acme alice password 1', operator: 'rival' });
    expect({ status: crossed.statusCode, body: crossed.json() }).toEqual(await wrongCredentials('user'));
  });

  it('answer a login without an operator exactly like a wrong password, whoever the password fits', async () => {
    const expected = await wrongCredentials('user');
    for (const password of ['acme alice password 1', 'rival alice password 1', 'wrong password 1']) {
      const res = await login('user', { account: 'alice', password });
      expect({ status: res.statusCode, body: res.json() }).toEqual(expected);
      // An unknown operator is no operator.
      const unknown = await login('user', { account: 'alice', password, operator: 'no-such-operator' });
      expect({ status: unknown.statusCode, body: unknown.json() }).toEqual(expected);
    }
  });

  it('a name only one operator uses still signs in without naming the operator', async () => {
    const only = await create(acme, 'client', 'user', 'solo', 'solo@acme.test');
    expect(await selfOf('user', await login('user', { account: 'solo', password: TEST_PASSWORD }))).toMatchObject({
      id: only,
    });
    // ... and through a login page that names another operator (a remembered one), too.
    expect(
      await selfOf('user', await login('user', { account: 'solo', password: TEST_PASSWORD, operator: 'rival' })),
    ).toMatchObject({ id: only });
  });

  it('a duplicate inside one operator is refused with 101025, and an e-mail with 101017', async () => {
    await expectTakenRefused(app, acme, { account: 'alice', email: 'alice@acme.test' });
    // Another operator's customer's e-mail is free.
    await create(rival, 'client', 'user', 'mail-twin', 'alice@acme.test');
  });
});

describe("a customer's sub-users", () => {
  it("may take a name another operator's customer has; not one of their own operator", async () => {
    await create(rival, 'client', 'user', 'bob', 'bob@rival.test', 'rival bob password 1');
    const carol = await create(acme, 'client', 'user', 'carol', 'carol@acme.test');
    const carolTokens = await signIn(t.app, 'user', 'carol');
    const bob = await create(carolTokens, 'user', 'user', 'bob', 'bob@carol.test', 'carol bob password 1');
    expect(
      await selfOf(
        'user',
        await login('user', { account: 'bob', password: 'carol bob password 1', operator: 'client' }),
      ),
    ).toMatchObject({ id: bob, operator: 'client' });
    expect((await t.app.rampart.accounts.findById(bob))?.parentId).toBe(carol);
    // A name a customer of the same operator holds is taken.
    const dup = await as(carolTokens, createAccount, {
      params: { auth: 'user' },
      body: {
        auth: 'user',
        account: 'solo',
        name: 'x',
        email: 'x@carol.test',
      },
    });
    expect(dup.json()).toMatchObject({ code: 101025, extra: { field: 'account' } });
  });
});

describe("operators' sub-accounts", () => {
  it('are unique within their operator, sign in naming it, and are never named like it', async () => {
    const acmeStaff = await create(acme, 'client', 'client', 'staff', 'staff@acme.test', 'acme staff password 1');
    const rivalStaff = await create(rival, 'client', 'client', 'staff', 'staff@rival.test', 'rival staff password 1');
    expect(
      await selfOf(
        'client',
        await login('client', { account: 'staff', password: 'acme staff password 1', operator: 'client' }),
      ),
    ).toMatchObject({ id: acmeStaff, operator: 'client' });
    expect(
      await selfOf(
        'client',
        await login('client', { account: 'staff', password: 'rival staff password 1', operator: 'rival' }),
      ),
    ).toMatchObject({ id: rivalStaff, operator: 'rival' });
    const ambiguous = await login('client', { account: 'staff', password: 'acme staff password 1' });
    expect({ status: ambiguous.statusCode, body: ambiguous.json() }).toEqual(await wrongCredentials('client'));

    const again = await as(acme, createAccount, {
      params: { auth: 'client' },
      body: {
        auth: 'client',
        account: 'staff',
        name: 'x',
        email: 'x3@acme.test',
      },
    });
    expect(again.json()).toMatchObject({ code: 101025, extra: { field: 'account' } });
    const ownName = await as(acme, createAccount, {
      params: { auth: 'client' },
      body: {
        auth: 'client',
        account: 'client',
        name: 'x',
        email: 'x4@acme.test',
      },
    });
    expect(ownName.json()).toMatchObject({ code: 101025, extra: { field: 'account' } });
    // The other operator's login name is free for a sub-account; it signs in naming its operator.
    const named = await create(acme, 'client', 'client', 'rival', 'rival@acme.test', 'acme rival password 1');
    expect(
      await selfOf(
        'client',
        await login('client', { account: 'rival', password: 'acme rival password 1', operator: 'client' }),
      ),
    ).toMatchObject({ id: named });
    // The operator itself still signs in by its name alone, and through a page naming another operator.
    expect(await selfOf('client', await login('client', { account: 'rival', password: TEST_PASSWORD }))).toMatchObject({
      account: 'rival',
      operator: 'rival',
    });
    expect(
      await selfOf('client', await login('client', { account: 'client', password: TEST_PASSWORD, operator: 'rival' })),
    ).toMatchObject({ account: 'client', operator: 'client' });
  });

  it('a new operator (the admin sees all) is not named like any client-tier account', async () => {
    const res = await as(admin, createAccount, {
      params: { auth: 'admin' },
      body: {
        auth: 'client',
        account: 'staff',
        name: 'x',
        email: 'x5@op.test',
      },
    });
    expect(res.json()).toMatchObject({ code: 101025, extra: { field: 'account' } });
    const taken = await as(admin, createAccount, {
      params: { auth: 'admin' },
      body: {
        auth: 'client',
        account: 'rival',
        name: 'x',
        email: 'x6@op.test',
      },
    });
    expect(taken.json()).toMatchObject({ code: 101025, extra: { field: 'account' } });
  });
});

describe('the database', () => {
  it('holds names unique per tier and operator, not only the code', async () => {
    const repo = t.app.rampart.accounts;
    const operator = (await repo.operatorNamed('client'))?.id ?? 0;
    await expect(repo.insert({ tier: 'user', parentId: operator, account: 'alice', name: 'again' })).rejects.toThrow();
    const other = await repo.insert({ tier: 'client', account: 'third-op', name: 'third' });
    const row = await repo.insert({ tier: 'user', parentId: other.id, account: 'alice', name: 'third alice' });
    expect(row.operatorId).toBe(other.id);
  });
});

describe('create-password mails', () => {
  it("name the account's operator in the link, for the login after it", async () => {
    const res = await as(rival, createAccount, {
      params: { auth: 'client' },
      body: {
        auth: 'user',
        account: 'linked',
        name: 'linked',
        email: 'linked@rival.test',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const text = decodedText(await smtp.next('linked@rival.test'));
    expect(text).toMatch(/\/user\/verifyMail\?token=[^\s&]+&operator=rival(\s|$)/);
  });
});

describe('the migration to names per operator', () => {
  it('gives every existing account its operator', async () => {
    const db = new PGlite();
    const folder = migrationsFolder();
    const files = readdirSync(folder)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    const run = async (file: string) => {
      for (const statement of readFileSync(join(folder, file), 'utf8').split('--> statement-breakpoint')) {
        if (statement.trim()) await db.exec(statement);
      }
    };
    const last = files.indexOf('0031_account_name_scope.sql');
    for (const file of files.slice(0, last)) await run(file);
    const add = async (tier: string, account: string, parent: number | null) =>
      (
        await db.query<{ id: number }>(
          'INSERT INTO accounts (tier, parent_id, account, name) VALUES ($1, $2, $3, $3) RETURNING id',
          [tier, parent, account],
        )
      ).rows[0]?.id as number;
    const adminRoot = await add('admin', 'admin', null);
    const adminUser = await add('admin', 'admin2', adminRoot);
    const operator = await add('client', 'op', adminRoot);
    const staff = await add('client', 'staff', operator);
    const staffSub = await add('client', 'staff2', staff);
    const customer = await add('user', 'cust', operator);
    const subUser = await add('user', 'sub', customer);
    const lone = await add('client', 'lone', null);
    await run(files[last] as string);
    const rows = (await db.query<{ id: number; operator_id: number | null }>('SELECT id, operator_id FROM accounts'))
      .rows;
    const operatorOf = Object.fromEntries(
      rows.map((r) => [Number(r.id), r.operator_id === null ? null : Number(r.operator_id)]),
    );
    expect(operatorOf).toEqual({
      [adminRoot]: null,
      [adminUser]: null,
      [operator]: null,
      [staff]: operator,
      [staffSub]: operator,
      [customer]: operator,
      [subUser]: operator,
      [lone]: null,
    });
    await db.close();
  });
});
