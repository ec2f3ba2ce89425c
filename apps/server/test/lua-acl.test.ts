import type { AnyRoute } from '@rampart/contract';
import { bindModuleRoutes, dataPlaneSchema, listDomains, luaAclRoutes } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawRequest, sendAs, sendWith, type Token } from './helpers/call.js';
import { expectModuleCrud } from './helpers/module-crud.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Lua ACL modules (user/site/{id}/module/luaAcl…): modules, their rules (one per POST, sorted,
// enabled and disabled), the binding to domains and what reaches the nodes; isolation per route.

let t: TestApp;
let f: SiteFixture;
let user: { accessToken: string };
let other: { accessToken: string };
let siteId: number;
let otherSiteId: number;
let domainId: number;
let otherDomainId: number;
let aclId: number;
let theirs: number;

const mod = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);
const bind = (domainIDs: number[], moduleID: number, token = user, site = siteId) =>
  sendWith(t.app, bindModuleRoutes.luaAcl, { params: { siteId: site }, body: { domainIDs, moduleID } }, { token });
const ruleParams = () => ({ siteId, moduleId: aclId });
/** The rule ids of the ACL module in a snapshot. */
const sentRules = (snap: { dataPlane: { modules: { id: number }[] } }) =>
  (snap.dataPlane.modules.find((m) => m.id === aclId) as unknown as { rules: { id: number }[] }).rules.map((r) => r.id);
const ipDeny = {
  name: 'no bad net',
  priority: 5,
  action: 'deny' as const,
  conditions: [{ field: 'ip' as const, operator: 'in' as const, values: ['192.0.2.0/24', '2001:db8::1'] }],
};

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'rival');
  ({ user, other, siteId, otherSiteId } = f);
  [domainId = 0] = await f.addDomains(['www.acl.example']);
  [otherDomainId = 0] = await f.addDomains(['www.rival-acl.example'], 'other');
  theirs = (
    await mod(luaAclRoutes.create, { params: { siteId: otherSiteId }, body: { modules: [{ name: 'theirs' }] } }, other)
  ).json().data[0].id;
});
afterAll(async () => t.close());

describe('Lua ACL modules', () => {
  it('creates, lists (paged, by name), renames and deletes modules', async () => {
    aclId = await expectModuleCrud(t.app, user, luaAclRoutes, siteId, 'edge rules');
  });

  it('adds a rule with defaults (enabled, no redirect URL) and counts it on the module', async () => {
    const added = await mod(luaAclRoutes.addRule, { params: ruleParams(), body: ipDeny });
    expect(added.statusCode).toBe(200);
    expect(added.json().data).toMatchObject({
      moduleID: aclId,
      name: 'no bad net',
      priority: 5,
      enabled: true,
      action: 'deny',
      redirectUrl: '',
      conditions: [{ field: 'ip', operator: 'in', negate: false, values: ['192.0.2.0/24', '2001:db8::1'] }],
    });
    expect((await mod(luaAclRoutes.list, { params: { siteId } })).json().data[0].ruleCount).toBe(1);
  });

  it('refuses bad conditions and actions with 101003, naming the field, and stores nothing', async () => {
    const bad = async (body: unknown) => {
      const res = await rawRequest(t.app, luaAclRoutes.addRule, { params: ruleParams(), body }, { token: user });
      expect(res.json().code).toBe(101003);
      return fieldNames(res);
    };
    const rule = (condition: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      name: 'r',
      action: 'deny',
      conditions: [condition],
      ...extra,
    });
    expect(await bad(rule({ field: 'userAgent', operator: 'regex', value: '(?=bot)x' }))).toEqual([
      'conditions.0.value',
    ]);
    expect(await bad(rule({ field: 'userAgent', operator: 'regex', value: 'a{1,100000}' }))).toEqual([
      'conditions.0.value',
    ]);
    expect(await bad(rule({ field: 'ip', operator: 'in', values: ['10.0.0.300'] }))).toEqual(['conditions.0.values.0']);
    expect(await bad(rule({ field: 'country', operator: 'in', values: ['XX'] }))).toEqual(['conditions.0.values.0']);
    expect(await bad(rule({ field: 'method', operator: 'in', values: ['TRACE'] }))).toEqual(['conditions.0.values.0']);
    expect(await bad(rule({ field: 'ip', operator: 'contains', values: ['10.0.0.1'] }))).toEqual([
      'conditions.0.operator',
    ]);
    expect(await bad(rule({ field: 'header', operator: 'exact', name: 'X A', value: '1' }))).toEqual([
      'conditions.0.name',
    ]);
    expect(await bad(rule({ field: 'cookie', operator: 'exact', value: 'a\r\nb' }))).toEqual(['conditions.0.value']);
    expect(await bad(rule({ field: 'frequency', operator: 'gt', count: 10, seconds: 0 }))).toEqual([
      'conditions.0.seconds',
    ]);
    expect(await bad({ name: 'r', action: 'deny', conditions: [] })).toEqual(['conditions']);
    expect(await bad(rule({ field: 'method', operator: 'in', values: ['GET'] }, { action: 'redirect' }))).toEqual([
      'redirectUrl',
    ]);
    expect(await bad(rule({ field: 'method', operator: 'in', values: ['GET'] }, { action: 'exec' }))).toEqual([
      'action',
    ]);
    expect(
      await bad(rule({ field: 'method', operator: 'in', values: ['GET'] }, { action: 'deny', redirectUrl: '/x' })),
    ).toEqual(['redirectUrl']);
    expect((await mod(luaAclRoutes.listRules, { params: ruleParams() })).json().total).toBe(1);
  });

  it('lists rules by priority (higher first) by default, or by age; edits one', async () => {
    const low = (
      await mod(luaAclRoutes.addRule, {
        params: ruleParams(),
        body: {
          name: 'old paths',
          priority: 1,
          action: 'redirect',
          redirectUrl: 'https://new.acl.example/',
          conditions: [{ field: 'uriPath', operator: 'prefix', value: '/old/' }],
        },
      })
    ).json().data.id;
    const high = (
      await mod(luaAclRoutes.addRule, {
        params: ruleParams(),
        body: {
          name: 'trusted office',
          priority: 100,
          action: 'allow',
          conditions: [
            { field: 'ip', operator: 'in', values: ['198.51.100.7'] },
            { field: 'header', operator: 'exact', name: 'X-Office', value: 'yes' },
          ],
        },
      })
    ).json().data.id;
    const names = async (query: Record<string, unknown> = {}) =>
      (await mod(luaAclRoutes.listRules, { params: ruleParams(), query })).json().data.map((r: { id: number }) => r.id);
    const ipRule: number = (await names()).find((id: number) => id !== low && id !== high) ?? 0;
    expect(await names()).toEqual([high, ipRule, low]);
    expect(await names({ orderBy: 'asc' })).toEqual([low, ipRule, high]);
    expect(await names({ sortBy: 'createdAt', orderBy: 'asc' })).toEqual([ipRule, low, high]);

    const edited = await mod(luaAclRoutes.updateRule, {
      params: ruleParams(),
      body: { ...ipDeny, id: ipRule, priority: 200, action: 'dropBlacklist' },
    });
    expect(edited.json().data).toMatchObject({ id: ipRule, priority: 200, action: 'dropBlacklist' });
    expect(await names()).toEqual([ipRule, high, low]);
  });

  it('binds the module and sends its enabled rules to the nodes in priority order; disabled ones stay home', async () => {
    expect((await bind([domainId], aclId)).statusCode).toBe(200);
    const domains = (await mod(listDomains, { params: { siteId } })).json().data;
    expect(domains.find((d: { id: number }) => d.id === domainId)).toMatchObject({
      luaAclModuleID: aclId,
      luaAclModuleName: 'edge rules',
    });
    const rules = (await mod(luaAclRoutes.listRules, { params: ruleParams() })).json().data;
    const [first = 0, second = 0, third = 0]: number[] = rules.map((r: { id: number }) => r.id);

    let snap = await f.snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    expect(snap.dataPlane.domains.find((d: { id: number }) => d.id === domainId)!.modules).toMatchObject({
      luaAcl: aclId,
    });
    const sent = snap.dataPlane.modules.find((m: { id: number }) => m.id === aclId);
    expect(sent).toEqual({
      id: aclId,
      type: 'luaAcl',
      siteId,
      rules: [
        {
          id: first,
          action: 'dropBlacklist',
          target: null,
          conditions: [
            {
              field: 'ip',
              negate: false,
              v4: [['c0000200', 'c00002ff']],
              v6: [['20010db8000000000000000000000001', '20010db8000000000000000000000001']],
            },
          ],
        },
        {
          id: second,
          action: 'allow',
          target: null,
          conditions: [
            { field: 'ip', negate: false, v4: [['c6336407', 'c6336407']], v6: [] },
            { field: 'header', op: 'exact', negate: false, name: 'X-Office', value: 'yes' },
          ],
        },
        {
          id: third,
          action: 'redirect',
          target: 'https://new.acl.example/',
          conditions: [{ field: 'uriPath', op: 'prefix', negate: false, name: '', value: '/old/' }],
        },
      ],
    });

    const off = await mod(luaAclRoutes.enableRules, {
      params: ruleParams(),
      body: { ids: [first, third], enabled: false },
    });
    expect(off.statusCode).toBe(200);
    expect(
      (await mod(luaAclRoutes.listRules, { params: ruleParams() }))
        .json()
        .data.map((r: { enabled: boolean }) => r.enabled),
    ).toEqual([false, true, false]);
    snap = await f.snapshot();
    expect(sentRules(snap)).toEqual([second]);
    await mod(luaAclRoutes.enableRules, { params: ruleParams(), body: { ids: [first], enabled: true } });
    snap = await f.snapshot();
    expect(sentRules(snap)).toEqual([first, second]);
  });

  it('refuses to delete a bound module (moduleInUse); enabling or deleting rules is all or none', async () => {
    const refused = await mod(luaAclRoutes.delete, { params: { siteId }, body: { ids: [aclId] } });
    expect(refused.json().code).toBe(101003);
    expect(refused.json().extra.fields).toMatchObject([{ field: 'ids.0', key: 'moduleInUse' }]);

    const rules = (await mod(luaAclRoutes.listRules, { params: ruleParams() })).json().data;
    const [firstId = 0]: number[] = rules.map((r: { id: number }) => r.id);
    expect(
      (
        await mod(luaAclRoutes.enableRules, { params: ruleParams(), body: { ids: [firstId, 999_999], enabled: false } })
      ).json().code,
    ).toBe(101018);
    expect((await mod(luaAclRoutes.listRules, { params: ruleParams() })).json().data[0].enabled).toBe(true);
    expect(
      (await mod(luaAclRoutes.deleteRules, { params: ruleParams(), body: { ids: [firstId, 999_999] } })).json().code,
    ).toBe(101018);
    expect((await mod(luaAclRoutes.deleteRules, { params: ruleParams(), body: { ids: [firstId] } })).statusCode).toBe(
      200,
    );
    expect((await mod(luaAclRoutes.listRules, { params: ruleParams() })).json().total).toBe(2);

    expect((await bind([domainId], 0)).statusCode).toBe(200);
    expect((await mod(luaAclRoutes.delete, { params: { siteId }, body: { ids: [aclId] } })).statusCode).toBe(200);
    // Its rules went with it.
    expect((await mod(luaAclRoutes.listRules, { params: ruleParams() })).json().code).toBe(101018);
  });
});

describe('Lua ACL isolation', () => {
  let mine: number;
  let ruleId: number;

  beforeAll(async () => {
    mine = (await mod(luaAclRoutes.create, { params: { siteId }, body: { modules: [{ name: 'mine' }] } })).json()
      .data[0].id;
    ruleId = (await mod(luaAclRoutes.addRule, { params: { siteId, moduleId: mine }, body: ipDeny })).json().data.id;
  });

  it("keeps one customer out of another's modules and rules (101018), through their site or their own", async () => {
    const params = { siteId, moduleId: mine };
    for (const [route, input] of [
      [luaAclRoutes.list, { params: { siteId } }],
      [luaAclRoutes.create, { params: { siteId }, body: { modules: [{ name: 'intruder' }] } }],
      [luaAclRoutes.update, { params: { siteId }, body: { id: mine, name: 'stolen' } }],
      [luaAclRoutes.delete, { params: { siteId }, body: { ids: [mine] } }],
      [luaAclRoutes.listRules, { params }],
      [luaAclRoutes.addRule, { params, body: ipDeny }],
      [luaAclRoutes.updateRule, { params, body: { ...ipDeny, id: ruleId } }],
      [luaAclRoutes.enableRules, { params, body: { ids: [ruleId], enabled: false } }],
      [luaAclRoutes.deleteRules, { params, body: { ids: [ruleId] } }],
    ] as const) {
      expect((await rawRequest(t.app, route, input, { token: other })).json().code, route.id).toBe(101018);
      if ('moduleId' in input.params) {
        const ownSite = { ...input, params: { ...input.params, siteId: otherSiteId } };
        expect((await rawRequest(t.app, route, ownSite, { token: other })).json().code, `${route.id} (own site)`).toBe(
          101018,
        );
      }
    }
    const rule = (await mod(luaAclRoutes.listRules, { params })).json().data[0];
    expect(rule).toMatchObject({ id: ruleId, enabled: true, name: 'no bad net' });
  });

  it("cannot bind another customer's module, nor one's own to their domain (101018)", async () => {
    expect((await bind([domainId], theirs)).json().code).toBe(101018);
    expect((await bind([otherDomainId], mine)).json().code).toBe(101018);
    expect((await bind([otherDomainId], mine, user, otherSiteId)).json().code).toBe(101018);
  });
});
