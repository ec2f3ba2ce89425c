import type { AnyRoute, RouteInput } from '@rampart/contract';
import {
  assignRole,
  changePassword,
  createApiToken,
  createRole,
  deleteApiTokens,
  getSelf,
  listApiTokens,
  listUserSites,
  mintApiAccessToken,
  setUserSitesTags,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { manualClock, signIn, type TierName } from './helpers/auth.js';
import { send, sendAs, type Token } from './helpers/call.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

const clock = manualClock();
let t: TestApp;
let user: { accessToken: string };
let userId: number;
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  user = await signIn(t.app, 'user');
  userId = await rootId(t.app, 'user');
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, user, route, ...args);
}

async function mint(token: string, tier: TierName = 'user') {
  return send(t.app, mintApiAccessToken, { params: { auth: tier }, body: { token } });
}

async function createToken(body: RouteInput<typeof createApiToken>['body'], by = user) {
  const res = await call(createApiToken, { params: { auth: 'user' }, body }, by);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; token: string; lifetime: number; permissions: string[] | null };
}

describe('API tokens', () => {
  it('shows the secret once, stores it hashed, and lists the token without it', async () => {
    const created = await createToken({ name: 'CI', lifetime: 600 });
    expect(created.token).toMatch(/^rat_/);
    expect(created).toMatchObject({ name: 'CI', lifetime: 600, permissions: null, lastUsedAt: null });
    const list = (await call(listApiTokens, { params: { auth: 'user' } })).json();
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({ id: created.id, name: 'CI', lifetime: 600, revokedAt: null });
    expect(JSON.stringify(list)).not.toContain(created.token);
    const stored = await t.db.database.db.execute(`SELECT token_hash FROM api_tokens WHERE id = ${created.id}`);
    const hash = (stored as unknown as { rows: { token_hash: string }[] }).rows[0]?.token_hash;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(created.token);
  });

  it('mints access tokens of its lifetime that act as the owner, and stops at once when deleted', async () => {
    const created = await createToken({ name: 'deploy', lifetime: 120 });
    const minted = await mint(created.token);
    expect(minted.statusCode, minted.body).toBe(200);
    const access = minted.json().data as { accessToken: string; tokenType: string; expiresIn: number };
    expect(access).toMatchObject({ tokenType: 'Bearer', expiresIn: 120 });
    const self = (await call(getSelf, { params: { auth: 'user' } }, access)).json().data;
    expect(self.id).toBe(userId);
    expect((await call(listUserSites, undefined, access)).statusCode).toBe(200);
    expect(
      (await call(listApiTokens, { params: { auth: 'user' } }))
        .json()
        .data.find((x: { id: number }) => x.id === created.id),
    ).toMatchObject({ lastUsedAt: expect.any(String) });

    // The lifetime: 121 s later the access token has expired (101014); a new one can be minted.
    clock.advance(126_000);
    expect((await call(listUserSites, undefined, access)).json().code).toBe(101014);
    const again = (await mint(created.token)).json().data;
    expect((await call(listUserSites, undefined, again)).statusCode).toBe(200);

    expect((await call(deleteApiTokens, { params: { auth: 'user' }, body: { ids: [created.id] } })).json()).toEqual({
      data: true,
    });
    expect((await call(listUserSites, undefined, again)).json().code).toBe(101013);
    expect((await mint(created.token)).json().code).toBe(101013);
    expect(
      (await call(listApiTokens, { params: { auth: 'user' } })).json().data.map((x: { id: number }) => x.id),
    ).not.toContain(created.id);
  });

  it('limits the calls to its keys, within the owner', async () => {
    const created = await createToken({ name: 'reader', lifetime: 300, permissions: ['user.sites.read'] });
    expect(created.permissions).toEqual(['user.sites.read']);
    const access = (await mint(created.token)).json().data;
    expect((await call(listUserSites, undefined, access)).statusCode).toBe(200);
    expect((await call(setUserSitesTags, { body: { ids: [1], tags: [] } }, access)).json().code).toBe(101018);
    expect((await call(listApiTokens, { params: { auth: 'user' } }, access)).json().code).toBe(101018);
    expect((await call(getSelf, { params: { auth: 'user' } }, access)).json().data.permissions).toEqual([
      'account.self',
      'user.sites.read',
    ]);
  });

  it('never holds more than its owner: a key the owner lacks is 101018, a key of another tier 101003', async () => {
    const subId = await addAccount(t.app, 'user', 'token-sub', userId);
    const role = (
      await call(createRole, { params: { auth: 'user' }, body: { name: 'Tokens', permissions: ['apiTokens.write'] } })
    ).json().data;
    await call(assignRole, { params: { auth: 'user' }, body: { accountId: subId, roleId: role.id } });
    const sub = await signIn(t.app, 'user', 'token-sub');
    const more = await call(
      createApiToken,
      { params: { auth: 'user' }, body: { name: 'x', lifetime: 60, permissions: ['user.sites.read'] } },
      sub,
    );
    expect(more.json().code).toBe(101018);
    // Without a list of keys it holds all of the owner's keys, and no more.
    const all = await createToken({ name: 'sub-all', lifetime: 60 }, sub);
    const access = (await mint(all.token)).json().data;
    expect((await call(listUserSites, undefined, access)).json().code).toBe(101018);
    const foreign = await call(createApiToken, {
      params: { auth: 'user' },
      body: {
        name: 'x',
        lifetime: 60,
        permissions: ['client.nodes.read'],
      },
    });
    expect(foreign.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'permissions' }] } });
  });

  it('validates input naming the fields, and refuses tokens of another tier or another account', async () => {
    const bad = (await call(createApiToken, { params: { auth: 'user' }, body: { name: '', lifetime: 5 } })).json();
    expect(bad.code).toBe(101003);
    expect(bad.extra.fields.map((f: { field: string }) => f.field).sort()).toEqual(['lifetime', 'name']);
    expect(
      (await call(createApiToken, { params: { auth: 'user' }, body: { name: 'x', lifetime: 86_401 } })).json().code,
    ).toBe(101003);
    expect((await call(deleteApiTokens, { params: { auth: 'user' }, body: { ids: [] } })).json().code).toBe(101003);
    expect((await mint('rat_unknown')).json().code).toBe(101013);
    expect((await mint('')).json().code).toBe(101003);

    const created = await createToken({ name: 'mine', lifetime: 60 });
    expect((await mint(created.token, 'client')).json().code).toBe(101013);
    const other = await signIn(t.app, 'user', await otherCustomer());
    expect(
      (await call(deleteApiTokens, { params: { auth: 'user' }, body: { ids: [created.id] } }, other)).json().code,
    ).toBe(101018);
    expect((await call(listApiTokens, { params: { auth: 'user' } }, other)).json().total).toBe(0);
    // A mixed list deletes nothing.
    expect(
      (await call(deleteApiTokens, { params: { auth: 'user' }, body: { ids: [created.id, 999_999] } })).json().code,
    ).toBe(101018);
    expect((await mint(created.token)).statusCode).toBe(200);
  });
});

async function otherCustomer(): Promise<string> {
  const clientId = await rootId(t.app, 'client');
  await addAccount(t.app, 'user', 'stranger', clientId);
  return 'stranger';
}

describe('a password change', () => {
  it("stops the account's API tokens with its sessions", async () => {
    const clientId = await rootId(t.app, 'client');
    await addAccount(t.app, 'user', 'rotating', clientId);
    const owner = await signIn(t.app, 'user', 'rotating');
    const created = await createToken({ name: 'old', lifetime: 600 }, owner);
    const access = (await mint(created.token)).json().data;
    const changed = await call(
      changePassword,
      {
        params: { auth: 'user' },
        body: {
          oldPassword: TEST_PASSWORD,
          password: 'a new long passphrase 7',
          confirmPassword: 'a new long passphrase 7',
        },
      },
      owner,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call(listUserSites, undefined, access)).json().code).toBe(101013);
    expect((await mint(created.token)).json().code).toBe(101013);
    // The list says the token stopped, and when; signing in again does not revive it.
    const again = await signIn(t.app, 'user', 'rotating', 'a new long passphrase 7');
    const [listed] = (await call(listApiTokens, { params: { auth: 'user' } }, again)).json().data;
    expect(listed).toMatchObject({ id: created.id, name: 'old' });
    expect(Date.parse(listed.revokedAt)).toBeGreaterThan(Date.parse(listed.createdAt) - 1);
    expect((await mint(created.token)).json().code).toBe(101013);
  });
});

describe('API reference', () => {
  it('explains how to call the API with a token, and names each operation key', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.info.description).toContain('/api/v1/user/apiToken/accessToken');
    expect(doc.info.description).toContain('Authorization: Bearer');
    expect(doc.paths['/api/v1/user/sites'].get['x-permission']).toBe('user.sites.read');
    expect(doc.paths['/api/v1/{auth}/apiToken'].post['x-permission']).toBe('apiTokens.write');
  });
});
