import type { AnyRoute } from '@rampart/contract';
import { bindModuleRoutes, dataPlaneSchema, listDomains, tokenAuthRoutes } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactBody } from '../src/modules/audit/redact.js';
import { fieldNames, rawRequest, sendAs, sendWith, type Token } from './helpers/call.js';
import { expectModuleCrud } from './helpers/module-crud.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Token auth modules (user/site/{id}/module/tokenAuth…): modules, their auths (paged, added in
// batches, replaced, deleted), the binding to domains and what reaches the nodes; isolation per route.

let t: TestApp;
let f: SiteFixture;
let user: { accessToken: string };
let other: { accessToken: string };
let siteId: number;
let otherSiteId: number;
let domainId: number;
let otherDomainId: number;
let moduleId: number;
let theirs: number;

const mod = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);
const bind = (domainIDs: number[], moduleID: number, token = user, site = siteId) =>
  sendWith(t.app, bindModuleRoutes.tokenAuth, { params: { siteId: site }, body: { domainIDs, moduleID } }, { token });
const authParams = () => ({ siteId, moduleId });
const live = { scope: 'directory' as const, value: '/live', key: 'abc123', expire: 600, action: 'deny' as const };

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'rival');
  ({ user, other, siteId, otherSiteId } = f);
  [domainId = 0] = await f.addDomains(['www.token.example']);
  [otherDomainId = 0] = await f.addDomains(['www.rival-token.example'], 'other');
  theirs = (
    await mod(
      tokenAuthRoutes.create,
      { params: { siteId: otherSiteId }, body: { modules: [{ name: 'theirs' }] } },
      other,
    )
  ).json().data[0].id;
});
afterAll(async () => t.close());

describe('token auth modules', () => {
  it('creates, lists (paged, by name), renames and deletes modules', async () => {
    moduleId = await expectModuleCrud(t.app, user, tokenAuthRoutes, siteId, 'videos');
  });

  it('adds auths in a batch with defaults and counts them on the module; the key is shown to the owner', async () => {
    const added = await mod(tokenAuthRoutes.addRules, {
      params: authParams(),
      body: {
        items: [live, { key: 'IamKey' }, { scope: 'fileTypes', value: 'FLV mp4', key: 'k3y-2024', action: 'drop' }],
      },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json().data).toMatchObject([
      { moduleID: moduleId, scope: 'directory', value: '/live', key: 'abc123', expire: 600, action: 'deny' },
      { scope: 'all', value: '', key: 'IamKey', expire: 600, action: 'deny' },
      { scope: 'fileTypes', value: 'flv mp4', key: 'k3y-2024', expire: 600, action: 'drop' },
    ]);
    expect((await mod(tokenAuthRoutes.list, { params: { siteId } })).json().data[0].ruleCount).toBe(3);
  });

  it('refuses bad auths with 101003, naming the field, and stores none of the batch', async () => {
    const bad = async (item: Record<string, unknown>) => {
      const res = await rawRequest(
        t.app,
        tokenAuthRoutes.addRules,
        { params: authParams(), body: { items: [live, item] } },
        { token: user },
      );
      expect(res.json().code).toBe(101003);
      return fieldNames(res);
    };
    expect(await bad({ ...live, scope: 'regex', value: '(?=x)y' })).toEqual(['items.1.value']);
    expect(await bad({ ...live, scope: 'regex', value: 'a{1,100000}' })).toEqual(['items.1.value']);
    expect(await bad({ ...live, scope: 'path', value: 'no-slash' })).toEqual(['items.1.value']);
    expect(await bad({ ...live, scope: 'path', value: '' })).toEqual(['items.1.value']);
    expect(await bad({ ...live, scope: 'all', value: '/x' })).toEqual(['items.1.value']);
    expect(await bad({ ...live, scope: 'fileTypes', value: '.flv' })).toEqual(['items.1.value']);
    expect(await bad({ ...live, key: 'short' })).toEqual(['items.1.key']);
    expect(await bad({ ...live, key: 'with space' })).toEqual(['items.1.key']);
    expect(await bad({ ...live, expire: -1 })).toEqual(['items.1.expire']);
    expect(await bad({ ...live, action: 'redirect' })).toEqual(['items.1.action']);
    expect((await mod(tokenAuthRoutes.listRules, { params: authParams() })).json().total).toBe(3);
  });

  it('lists auths paged, oldest first; replaces one', async () => {
    const page = (await mod(tokenAuthRoutes.listRules, { params: authParams(), query: { pageSize: 2 } })).json();
    expect(page.total).toBe(3);
    expect(page.data.map((a: { key: string }) => a.key)).toEqual(['abc123', 'IamKey']);
    const second = page.data[1].id;
    const edited = await mod(tokenAuthRoutes.updateRule, {
      params: authParams(),
      body: { id: second, scope: 'regex', value: '\\/abc[1-2]', key: 'IamKey2', expire: 0, action: 'drop' },
    });
    expect(edited.json().data).toMatchObject({ id: second, scope: 'regex', key: 'IamKey2', expire: 0, action: 'drop' });
    expect(
      (await mod(tokenAuthRoutes.updateRule, { params: authParams(), body: { ...live, id: 999_999 } })).json().code,
    ).toBe(101018);
  });

  it('binds the module and sends its auths, keys included, to the nodes oldest first', async () => {
    expect((await bind([domainId], moduleId)).statusCode).toBe(200);
    const domains = (await mod(listDomains, { params: { siteId } })).json().data;
    expect(domains.find((d: { id: number }) => d.id === domainId)).toMatchObject({
      tokenAuthModuleID: moduleId,
      tokenAuthModuleName: 'videos',
    });
    const ids: number[] = (await mod(tokenAuthRoutes.listRules, { params: authParams() }))
      .json()
      .data.map((a: { id: number }) => a.id);
    const snap = await f.snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    expect(snap.dataPlane.domains.find((d: { id: number }) => d.id === domainId)!.modules).toMatchObject({
      tokenAuth: moduleId,
    });
    expect(snap.dataPlane.modules.find((m: { id: number }) => m.id === moduleId)).toEqual({
      id: moduleId,
      type: 'tokenAuth',
      auths: [
        { id: ids[0], scope: 'directory', value: '/live', key: 'abc123', expire: 600, action: 'deny' },
        { id: ids[1], scope: 'regex', value: '\\/abc[1-2]', key: 'IamKey2', expire: 0, action: 'drop' },
        { id: ids[2], scope: 'fileTypes', value: 'flv mp4', key: 'k3y-2024', expire: 600, action: 'drop' },
      ],
    });
  });

  it('keeps keys out of the audit log (the field name `key` is redacted)', () => {
    expect(redactBody({ items: [{ ...live }] })).toEqual({ items: [{ ...live, key: '[redacted]' }] });
  });

  it('refuses to delete a bound module (moduleInUse); deleting auths is all or none', async () => {
    const refused = await mod(tokenAuthRoutes.delete, { params: { siteId }, body: { ids: [moduleId] } });
    expect(refused.json().code).toBe(101003);
    expect(refused.json().extra.fields).toMatchObject([{ field: 'ids.0', key: 'moduleInUse' }]);

    const [firstId = 0]: number[] = (await mod(tokenAuthRoutes.listRules, { params: authParams() }))
      .json()
      .data.map((a: { id: number }) => a.id);
    expect(
      (await mod(tokenAuthRoutes.deleteRules, { params: authParams(), body: { ids: [firstId, 999_999] } })).json().code,
    ).toBe(101018);
    expect((await mod(tokenAuthRoutes.listRules, { params: authParams() })).json().total).toBe(3);
    expect(
      (await mod(tokenAuthRoutes.deleteRules, { params: authParams(), body: { ids: [firstId] } })).statusCode,
    ).toBe(200);
    expect((await mod(tokenAuthRoutes.listRules, { params: authParams() })).json().total).toBe(2);

    expect((await bind([domainId], 0)).statusCode).toBe(200);
    expect((await mod(tokenAuthRoutes.delete, { params: { siteId }, body: { ids: [moduleId] } })).statusCode).toBe(200);
    expect((await mod(tokenAuthRoutes.listRules, { params: authParams() })).json().code).toBe(101018);
  });

  it('refuses more than 100 auths in one module (101029), all or none', async () => {
    const id = (await mod(tokenAuthRoutes.create, { params: { siteId }, body: { modules: [{ name: 'full' }] } })).json()
      .data[0].id;
    const items = Array.from({ length: 101 }, (_, i) => ({ ...live, key: `key-${i}-xyz` }));
    const res = await mod(tokenAuthRoutes.addRules, { params: { siteId, moduleId: id }, body: { items } });
    expect(res.json().code).toBe(101029);
    expect((await mod(tokenAuthRoutes.listRules, { params: { siteId, moduleId: id } })).json().total).toBe(0);
  });
});

describe('token auth isolation', () => {
  let mine: number;
  let authId: number;

  beforeAll(async () => {
    mine = (await mod(tokenAuthRoutes.create, { params: { siteId }, body: { modules: [{ name: 'mine' }] } })).json()
      .data[0].id;
    authId = (
      await mod(tokenAuthRoutes.addRules, { params: { siteId, moduleId: mine }, body: { items: [live] } })
    ).json().data[0].id;
  });

  it("keeps one customer out of another's modules and auths (101018), through their site or their own", async () => {
    const params = { siteId, moduleId: mine };
    for (const [route, input] of [
      [tokenAuthRoutes.list, { params: { siteId } }],
      [tokenAuthRoutes.create, { params: { siteId }, body: { modules: [{ name: 'intruder' }] } }],
      [tokenAuthRoutes.update, { params: { siteId }, body: { id: mine, name: 'stolen' } }],
      [tokenAuthRoutes.delete, { params: { siteId }, body: { ids: [mine] } }],
      [tokenAuthRoutes.listRules, { params }],
      [tokenAuthRoutes.addRules, { params, body: { items: [live] } }],
      [tokenAuthRoutes.updateRule, { params, body: { ...live, id: authId } }],
      [tokenAuthRoutes.deleteRules, { params, body: { ids: [authId] } }],
    ] as const) {
      expect((await rawRequest(t.app, route, input, { token: other })).json().code, route.id).toBe(101018);
      if ('moduleId' in input.params) {
        const ownSite = { ...input, params: { ...input.params, siteId: otherSiteId } };
        expect((await rawRequest(t.app, route, ownSite, { token: other })).json().code, `${route.id} (own site)`).toBe(
          101018,
        );
      }
    }
    const auth = (await mod(tokenAuthRoutes.listRules, { params })).json().data[0];
    expect(auth).toMatchObject({ id: authId, key: 'abc123' });
  });

  it("cannot bind another customer's module, nor one's own to their domain (101018)", async () => {
    expect((await bind([domainId], theirs)).json().code).toBe(101018);
    expect((await bind([otherDomainId], mine)).json().code).toBe(101018);
    expect((await bind([otherDomainId], mine, user, otherSiteId)).json().code).toBe(101018);
  });
});
