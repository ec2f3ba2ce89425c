import type { AnyRoute } from '@rampart/contract';
import {
  assignRole,
  deleteRole,
  getSelf,
  listAccounts,
  listRoles,
  listUserSites,
  metaRoles,
  roleRoutes,
  setUserSitesTags,
  tierPermissions,
  updateRole,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawInput, send, sendAs, type Token } from './helpers/call.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let user: { accessToken: string };
let userId: number;
let subId: number;
let otherSubId: number;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t.app, 'user');
  userId = await rootId(t.app, 'user');
  // A sub-user of the root customer, and a customer of the same operator with its own sub-user.
  subId = await addAccount(t.app, 'user', 'sub', userId);
  const clientId = await rootId(t.app, 'client');
  const otherId = await addAccount(t.app, 'user', 'other', clientId);
  otherSubId = await addAccount(t.app, 'user', 'other-sub', otherId);
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, user, route, ...args);
}

async function createRole(name: string, permissions: string[], token = user) {
  const res = await call(roleRoutes.createRole, { params: { auth: 'user' }, body: { name, permissions } }, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; permissions: string[] };
}

describe('self information', () => {
  it('carries every key of the tier for a root account, and only the self key for a sub-account without a role', async () => {
    const self = (await call(getSelf, { params: { auth: 'user' } })).json().data;
    expect(self.permissions).toEqual([...tierPermissions('user')].sort());
    const sub = await signIn(t.app, 'user', 'sub');
    expect((await call(getSelf, { params: { auth: 'user' } }, sub)).json().data.permissions).toEqual(['account.self']);
    expect((await call(listUserSites, undefined, sub)).json().code).toBe(101018);
  });
});

describe('meta roles', () => {
  it('lists the keys grouped by menu, named in the caller language', async () => {
    const res = await send(
      t.app,
      metaRoles,
      { params: { auth: 'user' } },
      { headers: { authorization: `Bearer ${user.accessToken}`, 'accept-language': 'zh-CN' } },
    );
    const groups = res.json().data as { key: string; name: string; permissions: { key: string; name: string }[] }[];
    expect(groups.map((g) => g.key)).toEqual([
      'dashboard',
      'sitesManagement',
      'dataAnalysis',
      'trafficPkgManagement',
      'systemManagement',
      'userManagement',
    ]);
    expect(groups[1]?.name).toBe('网站管理');
    expect(groups[1]?.permissions[0]).toEqual({ key: 'user.sites.read', name: '查看网站' });
    expect(groups[3]?.permissions).toEqual([{ key: 'user.traffic.read', name: '查看流量包和用量' }]);
    expect(res.json().total).toBe(6);
    const admin = await signIn(t.app, 'admin');
    const adminGroups = (await call(metaRoles, { params: { auth: 'admin' } }, admin)).json().data;
    expect(adminGroups.map((g: { key: string }) => g.key)).toEqual(['licenses', 'userManagement']);
  });
});

describe('roles', () => {
  it('creates, lists, searches, updates and deletes a role', async () => {
    const role = await createRole('Readers', ['user.sites.read', 'user.domains.read', 'user.sites.read']);
    expect(role.permissions).toEqual(['user.domains.read', 'user.sites.read']);
    const list = (await call(listRoles, { params: { auth: 'user' }, query: { name: 'read' } })).json();
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({ id: role.id, name: 'Readers', remark: '', accounts: 0 });
    expect((await call(listRoles, { params: { auth: 'user' }, query: { name: 'zzz' } })).json().total).toBe(0);

    const updated = await call(updateRole, {
      params: { auth: 'user', roleId: role.id },
      body: {
        name: 'Site readers',
        remark: 'read only',
        permissions: ['user.sites.read'],
      },
    });
    expect(updated.json().data).toMatchObject({
      name: 'Site readers',
      remark: 'read only',
      permissions: ['user.sites.read'],
    });
    expect((await call(deleteRole, { params: { auth: 'user', roleId: role.id } })).json()).toEqual({ data: true });
    expect((await call(listRoles, { params: { auth: 'user' } })).json().total).toBe(0);
    expect((await call(deleteRole, { params: { auth: 'user', roleId: role.id } })).json().code).toBe(101018);
  });

  it('refuses a duplicate name (101025), keys of another tier (101003) and bad input naming the fields', async () => {
    await createRole('Dup', []);
    expect(
      (await call(roleRoutes.createRole, { params: { auth: 'user' }, body: { name: 'Dup', permissions: [] } })).json()
        .code,
    ).toBe(101025);
    const foreign = (
      await call(roleRoutes.createRole, {
        params: { auth: 'user' },
        body: { name: 'Nodes', permissions: ['client.nodes.read'] },
      })
    ).json();
    expect(foreign.code).toBe(101003);
    expect(foreign.extra.fields[0]).toMatchObject({ field: 'permissions', key: 'invalidValue' });
    const self = (
      await call(roleRoutes.createRole, {
        params: { auth: 'user' },
        body: { name: 'Self', permissions: ['account.self'] },
      })
    ).json();
    expect(self.code).toBe(101003);
    const bad = (
      await call(roleRoutes.createRole, rawInput({ params: { auth: 'user' }, body: { name: '', permissions: 'x' } }))
    ).json();
    expect(bad.code).toBe(101003);
    expect(bad.extra.fields.map((f: { field: string }) => f.field).sort()).toEqual(['name', 'permissions']);
    expect(
      (await call(updateRole, { params: { auth: 'user', roleId: 'abc' }, body: { name: 'x', permissions: [] } })).json()
        .code,
    ).toBe(101003);
  });

  it("keeps roles per owner: another account's role is 101018 and never listed", async () => {
    const mine = await createRole('Mine', ['user.sites.read']);
    const other = await signIn(t.app, 'user', 'other');
    expect((await call(listRoles, { params: { auth: 'user' } }, other)).json().total).toBe(0);
    const body = { name: 'Stolen', permissions: [] };
    expect((await call(updateRole, { params: { auth: 'user', roleId: mine.id }, body }, other)).json().code).toBe(
      101018,
    );
    expect((await call(deleteRole, { params: { auth: 'user', roleId: mine.id } }, other)).json().code).toBe(101018);
    expect(
      (await call(assignRole, { params: { auth: 'user' }, body: { accountId: subId, roleId: mine.id } }, other)).json()
        .code,
    ).toBe(101018);
  });
});

describe('assigning a role', () => {
  it('gives the role keys to the sub-account at once, and takes them back', async () => {
    const role = await createRole('Site reader', ['user.sites.read']);
    expect(
      (await call(assignRole, { params: { auth: 'user' }, body: { accountId: subId, roleId: role.id } })).json(),
    ).toEqual({
      data: true,
    });
    const sub = await signIn(t.app, 'user', 'sub');
    expect((await call(getSelf, { params: { auth: 'user' } }, sub)).json().data.permissions).toEqual([
      'account.self',
      'user.sites.read',
    ]);
    expect((await call(listUserSites, undefined, sub)).statusCode).toBe(200);
    // A read-only role calling a write route.
    expect((await call(setUserSitesTags, { body: { ids: [1], tags: [] } }, sub)).json().code).toBe(101018);
    expect((await call(listRoles, { params: { auth: 'user' } }, user)).json().data[0]).toMatchObject({ accounts: 1 });
    // The accounts list says which role each sub-account holds.
    const listed = (
      await call(listAccounts, { params: { auth: 'user' }, query: { page: 1, pageSize: 10 } }, user)
    ).json().data;
    expect(listed.find((a: { id: number }) => a.id === subId)?.role).toEqual({ id: role.id, name: 'Site reader' });

    await call(updateRole, {
      params: { auth: 'user', roleId: role.id },
      body: { name: 'Site reader', permissions: [] },
    });
    expect((await call(listUserSites, undefined, sub)).json().code).toBe(101018);
    await call(updateRole, {
      params: { auth: 'user', roleId: role.id },
      body: { name: 'Site reader', permissions: ['user.sites.read'] },
    });
    expect(
      (await call(assignRole, { params: { auth: 'user' }, body: { accountId: subId, roleId: null } })).json(),
    ).toEqual({ data: true });
    expect((await call(listUserSites, undefined, sub)).json().code).toBe(101018);
    const after = (
      await call(listAccounts, { params: { auth: 'user' }, query: { page: 1, pageSize: 10 } }, user)
    ).json().data;
    expect(after.find((a: { id: number }) => a.id === subId)?.role).toBeNull();
  });

  it('only to its own sub-accounts, and a sub-account never holds a key its parent lacks', async () => {
    const role = await createRole('Everything', ['user.sites.read', 'roles.read', 'roles.write', 'accounts.write']);
    // Not a sub-account of the caller: another customer's sub-user, the caller itself, an unknown id.
    for (const accountId of [otherSubId, userId, 999_999]) {
      expect(
        (await call(assignRole, { params: { auth: 'user' }, body: { accountId, roleId: role.id } })).json().code,
      ).toBe(101018);
    }
    expect(
      (await call(assignRole, { params: { auth: 'user' }, body: { accountId: subId, roleId: 999_999 } })).json().code,
    ).toBe(101018);

    // The sub-user may manage roles for its own sub-user, but only with keys it holds.
    await call(assignRole, { params: { auth: 'user' }, body: { accountId: subId, roleId: role.id } });
    const sub = await signIn(t.app, 'user', 'sub');
    const subSubId = await addAccount(t.app, 'user', 'sub-sub', subId);
    const tooMuch = await call(
      roleRoutes.createRole,
      { params: { auth: 'user' }, body: { name: 'More', permissions: ['user.domains.write'] } },
      sub,
    );
    expect(tooMuch.json().code).toBe(101018);
    const subRole = (
      await call(
        roleRoutes.createRole,
        { params: { auth: 'user' }, body: { name: 'Sub reader', permissions: ['user.sites.read'] } },
        sub,
      )
    ).json().data;
    expect(
      (
        await call(assignRole, { params: { auth: 'user' }, body: { accountId: subSubId, roleId: subRole.id } }, sub)
      ).json(),
    ).toEqual({
      data: true,
    });
    const subSub = await signIn(t.app, 'user', 'sub-sub');
    expect((await call(listUserSites, undefined, subSub)).statusCode).toBe(200);
    // The parent loses the key: its sub-account loses it too, whatever its own role says.
    await call(updateRole, {
      params: { auth: 'user', roleId: role.id },
      body: { name: 'Everything', permissions: ['roles.read', 'accounts.write'] },
    });
    expect((await call(listUserSites, undefined, subSub)).json().code).toBe(101018);
    expect((await call(getSelf, { params: { auth: 'user' } }, subSub)).json().data.permissions).toEqual([
      'account.self',
    ]);
    // ... and cannot hand out a role holding a key it has lost.
    expect(
      (
        await call(assignRole, { params: { auth: 'user' }, body: { accountId: subSubId, roleId: subRole.id } }, sub)
      ).json().code,
    ).toBe(101018);
  });

  it('validates its body, naming the fields', async () => {
    const bad = (await call(assignRole, rawInput({ params: { auth: 'user' }, body: { accountId: 'x' } }))).json();
    expect(bad.code).toBe(101003);
    expect(bad.extra.fields.map((f: { field: string }) => f.field).sort()).toEqual(['accountId', 'roleId']);
  });
});
