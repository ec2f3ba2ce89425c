import { createHmac, generateKeyPairSync } from 'node:crypto';
import type { AnyRoute } from '@rampart/contract';
import {
  authCredentialRoutes as c,
  dataPlaneSchema,
  type EdgeDomainAuth,
  authGroupRoutes as g,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Auth groups (user/site/{id}/auth/…): groups, rules, basic/key/JWT credentials, 701001, what
// reaches the nodes, and isolation on every call.

let t: TestApp;
let f: SiteFixture;
let user: { accessToken: string };
let other: { accessToken: string };
let siteId: number;
let otherSiteId: number;
let domainId: number;
let secondDomainId: number;
let otherDomainId: number;
let groupId: number;
let theirGroup: number;

const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);
const gp = () => ({ siteId, groupId });
const pem = (key: { export(o: { type: 'spki'; format: 'pem' }): string | Buffer }) =>
  String(key.export({ type: 'spki', format: 'pem' }));
const rsaPem = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey);
const ecPem = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);
const smallRsa = pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey);
const secret = 's'.repeat(40);
const snapshot = () => f.snapshot();

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'rival');
  ({ user, other, siteId, otherSiteId } = f);
  [domainId = 0, secondDomainId = 0] = await f.addDomains(['www.auth.example', 'api.auth.example']);
  [otherDomainId = 0] = await f.addDomains(['www.rival-auth.example'], 'other');
  theirGroup = (await call(g.createGroup, { params: { siteId: otherSiteId }, body: { name: 'theirs' } }, other)).json()
    .data.id;
});
afterAll(async () => t.close());

describe('auth groups', () => {
  it('creates, lists (paged, by name, searched), renames groups; names are unique per site', async () => {
    expect((await call(g.settingExists, { params: { siteId } })).json().data).toBe(false);
    const created = await call(g.createGroup, { params: { siteId }, body: { name: 'staff', remark: 'office' } });
    expect(created.statusCode).toBe(200);
    expect(created.json().data).toMatchObject({ name: 'staff', remark: 'office', siteID: siteId, basicCount: 0 });
    groupId = created.json().data.id;
    const spare = (await call(g.createGroup, { params: { siteId }, body: { name: 'alpha' } })).json().data.id;
    expect((await call(g.createGroup, { params: { siteId }, body: { name: 'staff' } })).json().code).toBe(101025);
    const page = await call(g.listGroups, { params: { siteId }, query: { pageSize: 1 } });
    expect(page.json()).toMatchObject({ total: 2, data: [{ name: 'alpha' }] });
    expect((await call(g.listGroups, { params: { siteId }, query: { name: 'sta' } })).json().total).toBe(1);
    const renamed = await call(g.updateGroup, { params: { siteId }, body: { id: spare, name: 'beta' } });
    expect(renamed.json().data).toMatchObject({ id: spare, name: 'beta' });
    expect((await call(g.updateGroup, { params: { siteId }, body: { id: spare, name: 'staff' } })).json().code).toBe(
      101025,
    );
    expect((await call(g.settingExists, { params: { siteId } })).json().data).toBe(true);
  });

  it('keeps a basic password only as its salted HMAC and never sends it back', async () => {
    const added = await call(c.createBasicAuth, { params: gp(), body: { username: 'alice', password: 'wonderland' } });
    expect(added.statusCode).toBe(200);
    expect(added.json().data).toEqual({
      id: expect.any(Number),
      groupID: groupId,
      username: 'alice',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const stored = await t.db.database.db.execute(
      `SELECT data FROM site_auth_credentials WHERE id = ${added.json().data.id}`,
    );
    const row = (stored as unknown as { rows: { data: Record<string, string> }[] }).rows[0];
    expect(JSON.stringify(row)).not.toContain('wonderland');
    const { passwordSalt, passwordHash } = row!.data;
    expect(passwordHash).toBe(
      createHmac('sha256', Buffer.from(passwordSalt!, 'hex')).update('wonderland').digest('hex'),
    );
    expect(
      (await call(c.createBasicAuth, { params: gp(), body: { username: 'alice', password: 'another one' } })).json()
        .code,
    ).toBe(101025);
    // An update without a password keeps it.
    const id = added.json().data.id;
    expect(
      (await call(c.updateBasicAuth, { params: gp(), body: { id, username: 'alice2', password: '' } })).json().data,
    ).toMatchObject({ id, username: 'alice2' });
    await call(c.updateBasicAuth, { params: gp(), body: { id, username: 'alice', password: '' } });
    const list = await call(c.listBasicAuths, { params: gp(), query: { page: 1, pageSize: 10 } });
    expect(list.json()).toMatchObject({ total: 1, data: [{ id, username: 'alice' }] });
    expect(
      (await call(c.createBasicAuth, { params: gp(), body: { username: 'bob', password: 'short' } })).json().code,
    ).toBe(101003);
  });

  it('adds key and JWT credentials; checks public keys; never returns an HS256 secret', async () => {
    const key = await call(c.createKeyAuth, {
      params: gp(),
      body: { name: 'ci', location: 'header', param: 'X-Api-Key', key: 'k'.repeat(24) },
    });
    expect(key.json().data).toMatchObject({ name: 'ci', location: 'header', param: 'X-Api-Key' });
    const hs = await call(c.createJwtAuth, { params: gp(), body: { name: 'hs', alg: 'HS256', secret, issuer: 'idp' } });
    expect(hs.json().data).toMatchObject({
      alg: 'HS256',
      hasSecret: true,
      issuer: 'idp',
      publicKey: '',
      requireExp: true,
    });
    expect(JSON.stringify(hs.json())).not.toContain(secret);
    const rs = await call(c.createJwtAuth, {
      params: gp(),
      body: { name: 'rs', alg: 'RS256', publicKey: rsaPem, requireExp: false },
    });
    expect(rs.json().data).toMatchObject({ alg: 'RS256', hasSecret: false, publicKey: rsaPem, requireExp: false });
    expect(
      (await call(c.createJwtAuth, { params: gp(), body: { name: 'es', alg: 'ES256', publicKey: ecPem } })).statusCode,
    ).toBe(200);
    // An RSA key for ES256, or a weak RSA key, is refused on its field.
    for (const [alg, publicKey] of [
      ['ES256', rsaPem],
      ['RS256', smallRsa],
      ['RS256', ecPem],
    ] as const) {
      const bad = await call(c.createJwtAuth, { params: gp(), body: { name: 'x', alg, publicKey } });
      expect(bad.json().code, alg).toBe(101003);
      expect(bad.json().extra.fields).toMatchObject([{ field: 'publicKey' }]);
    }
    // Updating an HS256 credential without a secret keeps it.
    const id = hs.json().data.id;
    const kept = await call(c.updateJwtAuth, { params: gp(), body: { id, name: 'hs', alg: 'HS256', audience: 'app' } });
    expect(kept.json().data).toMatchObject({ hasSecret: true, audience: 'app' });
    expect((await call(c.listJwtAuths, { params: gp() })).json().total).toBe(3);
    const meta = await call(g.metaGroups, { params: { siteId }, query: { type: 'jwt' } });
    expect(meta.json().data).toEqual([{ id: groupId, name: 'staff' }]);
    expect((await call(g.metaGroups, { params: { siteId } })).json().data.map((x: { name: string }) => x.name)).toEqual(
      ['beta', 'staff'],
    );
    const groups = (await call(g.listGroups, { params: { siteId }, query: { name: 'staff' } })).json().data;
    expect(groups[0]).toMatchObject({ basicCount: 1, keyCount: 1, jwtCount: 3, ruleCount: 0 });
  });

  it('adds rules (paged, by priority) and sends the covered domains their rules and groups', async () => {
    const admin = await call(g.createRule, {
      params: { siteId },
      body: { name: 'admin', groupID: groupId, match: 'prefix', path: '/admin', priority: 10 },
    });
    expect(admin.statusCode).toBe(200);
    expect(admin.json().data).toMatchObject({ groupName: 'staff', domainIDs: [], enabled: true });
    const api = await call(g.createRule, {
      params: { siteId },
      body: { name: 'api', groupID: groupId, match: 'regex', path: '^/v[0-9]+/', domainIDs: [secondDomainId] },
    });
    expect(api.statusCode).toBe(200);
    expect(
      (
        await call(g.createRule, {
          params: { siteId },
          body: { name: 'x', groupID: theirGroup, match: 'exact', path: '/' },
        })
      ).json().code,
    ).toBe(101018);
    expect(
      (
        await call(g.createRule, {
          params: { siteId },
          body: { name: 'x', groupID: groupId, match: 'exact', path: '/', domainIDs: [otherDomainId] },
        })
      ).json().code,
    ).toBe(101018);
    const list = await call(g.listRules, { params: { siteId }, query: { pageSize: 1 } });
    expect(list.json()).toMatchObject({ total: 2, data: [{ name: 'admin' }] });

    const snap = await snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    const of = (id: number) => snap.dataPlane.domains.find((d: { id: number }) => d.id === id)?.auth as EdgeDomainAuth;
    const www = of(domainId);
    expect(www.rules).toEqual([{ id: admin.json().data.id, match: 'prefix', path: '/admin', group: groupId }]);
    expect(www.groups[0]?.basic[0]).toMatchObject({ user: 'alice', salt: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(www.groups[0]?.key[0]).toMatchObject({ in: 'header', name: 'x-api-key', key: 'k'.repeat(24) });
    expect(www.groups[0]?.jwt.map((j: { alg: string }) => j.alg)).toEqual(['HS256', 'RS256', 'ES256']);
    expect(www.groups[0]?.jwt[0]).toMatchObject({ key: secret, iss: '', aud: 'app', requireExp: true });
    expect(www.groups[0]?.jwt[1]).toMatchObject({ requireExp: false });
    expect(of(secondDomainId).rules.map((r: { id: number }) => r.id)).toEqual([
      admin.json().data.id,
      api.json().data.id,
    ]);
    // A disabled rule stays home.
    const off = await call(g.updateRule, {
      params: { siteId },
      body: {
        id: api.json().data.id,
        name: 'api',
        groupID: groupId,
        match: 'regex',
        path: '^/v[0-9]+/',
        enabled: false,
      },
    });
    expect(off.json().data).toMatchObject({ enabled: false, domainIDs: [] });
    expect(
      (await snapshot()).dataPlane.domains.find((d: { id: number }) => d.id === secondDomainId)?.auth?.rules,
    ).toHaveLength(1);
  });

  it('refuses to delete a group a rule uses (701001); deletes are all or none', async () => {
    const refused = await call(g.deleteGroups, { params: { siteId }, body: { ids: [groupId] } });
    expect(refused.json()).toMatchObject({ code: 701001 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 701001, extra: { targets: ['admin', 'api'] } });
    expect((await call(g.deleteRules, { params: { siteId }, body: { ids: [999_999] } })).json().code).toBe(101018);
    const rules = (await call(g.listRules, { params: { siteId } })).json().data.map((r: { id: number }) => r.id);
    expect((await call(g.deleteRules, { params: { siteId }, body: { ids: rules } })).statusCode).toBe(200);
    expect((await snapshot()).dataPlane.domains.find((d: { id: number }) => d.id === domainId)?.auth).toBeUndefined();
    const keys = (await call(c.listKeyAuths, { params: gp() })).json().data.map((k: { id: number }) => k.id);
    expect((await call(c.deleteKeyAuths, { params: gp(), body: { ids: [...keys, 999_999] } })).json().code).toBe(
      101018,
    );
    expect((await call(c.deleteKeyAuths, { params: gp(), body: { ids: keys } })).statusCode).toBe(200);
    expect((await call(g.deleteGroups, { params: { siteId }, body: { ids: [groupId] } })).statusCode).toBe(200);
    expect((await call(c.listBasicAuths, { params: gp() })).json().code).toBe(101018);
  });
});

describe('auth group isolation', () => {
  let mine: number;
  let basicId: number;
  let ruleId: number;

  beforeAll(async () => {
    mine = (await call(g.createGroup, { params: { siteId }, body: { name: 'mine' } })).json().data.id;
    basicId = (
      await call(c.createBasicAuth, {
        params: { siteId, groupId: mine },
        body: { username: 'u', password: 'password1' },
      })
    ).json().data.id;
    ruleId = (
      await call(g.createRule, { params: { siteId }, body: { name: 'r', groupID: mine, match: 'exact', path: '/x' } })
    ).json().data.id;
  });

  it("keeps one customer out of another's groups, rules and credentials (101018), through their site or their own", async () => {
    const params = { siteId, groupId: mine };
    const rule = { name: 'r', groupID: mine, match: 'exact' as const, path: '/y' };
    const cases = [
      [g.settingExists, { params: { siteId } }],
      [g.metaGroups, { params: { siteId } }],
      [g.listGroups, { params: { siteId } }],
      [g.createGroup, { params: { siteId }, body: { name: 'intruder' } }],
      [g.updateGroup, { params: { siteId }, body: { id: mine, name: 'stolen' } }],
      [g.deleteGroups, { params: { siteId }, body: { ids: [mine] } }],
      [g.listRules, { params: { siteId } }],
      [g.createRule, { params: { siteId }, body: rule }],
      [g.updateRule, { params: { siteId }, body: { ...rule, id: ruleId } }],
      [g.deleteRules, { params: { siteId }, body: { ids: [ruleId] } }],
      [c.listBasicAuths, { params }],
      [c.createBasicAuth, { params, body: { username: 'x', password: 'password1' } }],
      [c.updateBasicAuth, { params, body: { id: basicId, username: 'x', password: 'password2' } }],
      [c.deleteBasicAuths, { params, body: { ids: [basicId] } }],
      [c.listKeyAuths, { params }],
      [c.createKeyAuth, { params, body: { name: 'k', location: 'query', param: 'k', key: 'x'.repeat(16) } }],
      [c.listJwtAuths, { params }],
      [c.createJwtAuth, { params, body: { name: 'j', alg: 'HS256', secret } }],
    ] as const;
    for (const [route, input] of cases) {
      expect((await rawRequest(t.app, route, input, { token: other })).json().code, route.id).toBe(101018);
      if ('groupId' in input.params) {
        const ownSite = { ...input, params: { ...input.params, siteId: otherSiteId } };
        expect((await rawRequest(t.app, route, ownSite, { token: other })).json().code, `${route.id} (own site)`).toBe(
          101018,
        );
      }
    }
    // Their own rule cannot point at my group either.
    const theirRule = { name: 'r', groupID: mine, match: 'exact' as const, path: '/z' };
    expect((await call(g.createRule, { params: { siteId: otherSiteId }, body: theirRule }, other)).json().code).toBe(
      101018,
    );
    expect((await call(c.listBasicAuths, { params })).json().data).toMatchObject([{ id: basicId, username: 'u' }]);
    expect((await call(g.listRules, { params: { siteId } })).json().data).toMatchObject([{ id: ruleId, path: '/x' }]);
  });
});

describe('auth groups and their site', () => {
  it("go with a deleted site, rules and credentials included (the group's foreign key is checked at the end)", async () => {
    const params = { siteId: otherSiteId };
    const rule = { name: 'r', groupID: theirGroup, match: 'prefix' as const, path: '/' };
    expect((await call(g.createRule, { params, body: rule }, other)).statusCode).toBe(200);
    const creds = { siteId: otherSiteId, groupId: theirGroup };
    const basic = { username: 'u', password: 'password1' };
    expect((await call(c.createBasicAuth, { params: creds, body: basic }, other)).statusCode).toBe(200);
    const db = t.db.database.db;
    await db.execute(`DELETE FROM domains WHERE site_id = ${otherSiteId}`);
    await db.execute(`DELETE FROM sites WHERE id = ${otherSiteId}`);
    const left = await db.execute(
      `SELECT (SELECT count(*) FROM site_auth_groups WHERE site_id = ${otherSiteId}) AS g,
              (SELECT count(*) FROM site_auth_rules WHERE site_id = ${otherSiteId}) AS r,
              (SELECT count(*) FROM site_auth_credentials WHERE group_id = ${theirGroup}) AS c`,
    );
    const row = (left as unknown as { rows: { g: unknown; r: unknown; c: unknown }[] }).rows[0];
    expect([Number(row?.g), Number(row?.r), Number(row?.c)]).toEqual([0, 0, 0]);
  });
});
