import type { AnyRoute } from '@rampart/contract';
import {
  bindModuleRoutes,
  dataPlaneSchema,
  edgeWafModuleSchema,
  listDomains,
  luaAclRoutes,
  WAF_EXCLUSIONS_PER_MODULE,
  WAF_GROUPS,
  wafRoutes,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawRequest, sendAs, sendWith, type Token } from './helpers/call.js';
import { expectModuleCrud } from './helpers/module-crud.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// WAF modules (user/site/{id}/module/waf…, user/module/wafs/defaultRules,
// firewall/setting/adv/exists): modules with their settings and exclusions, the binding to domains
// and what reaches the nodes; isolation per route.

let t: TestApp;
let f: SiteFixture;
let user: { accessToken: string };
let other: { accessToken: string };
let siteId: number;
let otherSiteId: number;
let domainId: number;
let otherDomainId: number;
let wafId: number;
let theirs: number;

const mod = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);
const bind = (domainIDs: number[], moduleID: number, token = user, site = siteId) =>
  sendWith(t.app, bindModuleRoutes.waf, { params: { siteId: site }, body: { domainIDs, moduleID } }, { token });
const DEFAULTS = { mode: 'block', groups: [...WAF_GROUPS], sensitivity: 'medium', failMode: 'open', exclusions: [] };
const searchExclusion = { ruleId: 100_012, group: null, part: 'query', name: 'q', path: '/search' } as const;
/** The settings the PUT test leaves on the module, as stored and as sent to the nodes. */
const EDITED = {
  mode: 'detect',
  groups: ['sqli', 'xss'],
  sensitivity: 'high',
  failMode: 'closed',
  exclusions: [
    searchExclusion,
    { ruleId: null, group: 'xss', part: 'body', name: 'comment', path: '' },
    { ruleId: null, group: 'traversal', part: 'path', name: '', path: '/files/' },
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'rival');
  ({ user, other, siteId, otherSiteId } = f);
  [domainId = 0] = await f.addDomains(['www.waf.example']);
  [otherDomainId = 0] = await f.addDomains(['www.rival-waf.example'], 'other');
  theirs = (
    await mod(wafRoutes.create, { params: { siteId: otherSiteId }, body: { modules: [{ name: 'theirs' }] } }, other)
  ).json().data[0].id;
});
afterAll(async () => t.close());

describe('WAF rule groups', () => {
  it('answers every group in order with its rule ids, named in the caller’s language', async () => {
    const en = (await mod(wafRoutes.defaultRules)).json().data;
    expect(en.map((g: { key: string }) => g.key)).toEqual([...WAF_GROUPS]);
    expect(en[0]).toEqual({
      key: 'sqli',
      ruleIdMin: 100_000,
      ruleIdMax: 100_999,
      name: 'SQL injection',
      description: 'SQL fragments in parameters, cookies, headers and bodies that change a query',
    });
    expect(en[1]).toMatchObject({ key: 'xss', ruleIdMin: 101_000, ruleIdMax: 101_999 });
    const zhTW = await rawRequest(
      t.app,
      wafRoutes.defaultRules,
      {},
      { token: user, headers: { 'accept-language': 'zh-TW' } },
    );
    expect(zhTW.json().data[1]).toMatchObject({ key: 'xss', name: '跨站指令碼' });
    const zhCN = await rawRequest(
      t.app,
      wafRoutes.defaultRules,
      {},
      { token: user, headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zhCN.json().data[1]).toMatchObject({ key: 'xss', name: '跨站脚本' });
  });

  it('is for signed-in customers', async () => {
    expect((await rawRequest(t.app, wafRoutes.defaultRules)).statusCode).toBe(401);
  });
});

describe('WAF modules', () => {
  it('says whether the site has advanced firewall settings (none yet)', async () => {
    expect((await mod(wafRoutes.advExists, { params: { siteId } })).json().data).toBe(false);
  });

  it('creates modules with the defaults, lists them (paged, by name), renames and deletes', async () => {
    wafId = await expectModuleCrud(t.app, user, wafRoutes, siteId, 'shop', DEFAULTS);
    expect((await mod(wafRoutes.advExists, { params: { siteId } })).json().data).toBe(true);
  });

  it('replaces the settings with PUT: mode, groups (kept in their order), sensitivity, fail mode, exclusions', async () => {
    const res = await mod(wafRoutes.update, {
      params: { siteId },
      body: {
        id: wafId,
        name: 'shop',
        mode: 'detect',
        groups: ['xss', 'sqli', 'xss'],
        sensitivity: 'high',
        failMode: 'closed',
        exclusions: [
          searchExclusion,
          { ruleId: null, group: 'xss', part: 'body', name: 'comment', path: '' },
          // The same exclusion twice is kept once; a name on `path` or `any` is dropped.
          searchExclusion,
          { ruleId: null, group: 'traversal', part: 'path', name: 'ignored', path: '/files/' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: wafId,
      name: 'shop',
      ...EDITED,
    });
    const listed = (await mod(wafRoutes.list, { params: { siteId } })).json().data[0];
    expect(listed).toMatchObject({ id: wafId, mode: 'detect', groups: ['sqli', 'xss'] });
    expect(listed.exclusions).toHaveLength(3);
  });

  it('refuses bad settings with 101003, naming each field, and changes nothing', async () => {
    const bad = async (settings: Record<string, unknown>) => {
      const res = await rawRequest(
        t.app,
        wafRoutes.update,
        { params: { siteId }, body: { id: wafId, name: 'shop', ...settings } },
        { token: user },
      );
      expect(res.json().code, JSON.stringify(settings)).toBe(101003);
      return fieldNames(res);
    };
    const ex = (e: Record<string, unknown>) => ({ exclusions: [searchExclusion, { ...searchExclusion, ...e }] });
    expect(await bad({ name: '' })).toEqual(['name']);
    expect(await bad({ name: 'x'.repeat(65) })).toEqual(['name']);
    expect(await bad({ mode: 'off' })).toEqual(['mode']);
    expect(await bad({ groups: ['sqli', 'lfi'] })).toEqual(['groups.1']);
    expect(await bad({ groups: 'sqli' })).toEqual(['groups']);
    expect(await bad({ sensitivity: 'paranoid' })).toEqual(['sensitivity']);
    expect(await bad({ failMode: 'maybe' })).toEqual(['failMode']);
    expect(await bad({ exclusions: {} })).toEqual(['exclusions']);
    expect(await bad(ex({ ruleId: 99_999 }))).toEqual(['exclusions.1.ruleId']);
    expect(await bad(ex({ ruleId: 100_000 + WAF_GROUPS.length * 1000 }))).toEqual(['exclusions.1.ruleId']);
    expect(await bad(ex({ ruleId: 100_012.5 }))).toEqual(['exclusions.1.ruleId']);
    // One rule or one group: neither, or both, is refused.
    expect(await bad(ex({ ruleId: null, group: null }))).toEqual(['exclusions.1.ruleId']);
    expect(await bad(ex({ group: 'xss' }))).toEqual(['exclusions.1.ruleId']);
    expect(await bad(ex({ ruleId: null, group: 'nope' }))).toEqual(['exclusions.1.group']);
    expect(await bad(ex({ part: 'url' }))).toEqual(['exclusions.1.part']);
    expect(await bad(ex({ name: 'two words' }))).toEqual(['exclusions.1.name']);
    expect(await bad(ex({ name: 'x'.repeat(129) }))).toEqual(['exclusions.1.name']);
    expect(await bad(ex({ path: 'search' }))).toEqual(['exclusions.1.path']);
    expect(await bad(ex({ path: '/a b' }))).toEqual(['exclusions.1.path']);
    expect(await bad(ex({ path: `/${'x'.repeat(512)}` }))).toEqual(['exclusions.1.path']);
    expect(await bad(ex({ extra: 1 }))).toEqual(['exclusions.1']);
    const many = Array.from({ length: WAF_EXCLUSIONS_PER_MODULE + 1 }, (_, i) => ({
      ...searchExclusion,
      name: `a${i}`,
    }));
    expect(await bad({ exclusions: many })).toEqual(['exclusions']);
    // Creating is checked the same way, all or none.
    const created = await rawRequest(
      t.app,
      wafRoutes.create,
      { params: { siteId }, body: { modules: [{ name: 'ok' }, { name: 'bad', mode: 'off' }] } },
      { token: user },
    );
    expect(fieldNames(created)).toEqual(['modules.1.mode']);
    const listed = (await mod(wafRoutes.list, { params: { siteId } })).json();
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toMatchObject({ mode: 'detect', sensitivity: 'high' });
  });

  it('takes as many exclusions as the limit', async () => {
    const exclusions = Array.from({ length: WAF_EXCLUSIONS_PER_MODULE }, (_, i) => ({
      ...searchExclusion,
      name: `a${i}`,
    }));
    const res = await mod(wafRoutes.create, { params: { siteId }, body: { modules: [{ name: 'full', exclusions }] } });
    expect(res.json().data[0].exclusions).toHaveLength(WAF_EXCLUSIONS_PER_MODULE);
    expect(
      (await mod(wafRoutes.delete, { params: { siteId }, body: { ids: [res.json().data[0].id] } })).statusCode,
    ).toBe(200);
  });

  it('binds the module and sends it to the nodes as the edge reads it', async () => {
    expect((await bind([domainId], wafId)).statusCode).toBe(200);
    const domains = (await mod(listDomains, { params: { siteId } })).json().data;
    expect(domains.find((d: { id: number }) => d.id === domainId)).toMatchObject({
      wafModuleID: wafId,
      wafModuleName: 'shop',
    });
    expect((await mod(wafRoutes.list, { params: { siteId } })).json().data[0].domainIDs).toEqual([domainId]);

    const snap = await f.snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    expect(snap.dataPlane.domains.find((d: { id: number }) => d.id === domainId)!.modules).toMatchObject({
      waf: wafId,
    });
    const sent = snap.dataPlane.modules.find((m: { id: number }) => m.id === wafId);
    expect(edgeWafModuleSchema.parse(sent)).toEqual({
      id: wafId,
      type: 'waf',
      siteId,
      ...EDITED,
    });

    // A change reaches the nodes with the next snapshot.
    await mod(wafRoutes.update, { params: { siteId }, body: { id: wafId, name: 'shop', groups: ['rce'] } });
    const next = (await f.snapshot()).dataPlane.modules.find((m: { id: number }) => m.id === wafId);
    expect(next).toMatchObject({ mode: 'block', groups: ['rce'], exclusions: [] });
  });

  it('refuses to delete a bound module (moduleInUse, naming the domain); unbound, it goes', async () => {
    const refused = await mod(wafRoutes.delete, { params: { siteId }, body: { ids: [wafId] } });
    expect(refused.json().code).toBe(101003);
    expect(refused.json().extra.fields).toMatchObject([{ field: 'ids.0', key: 'moduleInUse' }]);
    expect(refused.json().extra.fields[0].message).toContain('www.waf.example');
    expect((await mod(wafRoutes.list, { params: { siteId } })).json().total).toBe(1);

    expect((await bind([domainId], 0)).statusCode).toBe(200);
    const snap = await f.snapshot();
    expect(snap.dataPlane.domains.find((d: { id: number }) => d.id === domainId)!.modules?.waf ?? null).toBeNull();
    expect(snap.dataPlane.modules.some((m: { id: number }) => m.id === wafId)).toBe(false);
    expect((await mod(wafRoutes.delete, { params: { siteId }, body: { ids: [wafId] } })).statusCode).toBe(200);
    expect((await mod(wafRoutes.list, { params: { siteId } })).json().total).toBe(0);
    expect((await mod(wafRoutes.advExists, { params: { siteId } })).json().data).toBe(false);
  });

  it('counts a Lua ACL module as advanced firewall settings too', async () => {
    const acl = (await mod(luaAclRoutes.create, { params: { siteId }, body: { modules: [{ name: 'acl' }] } })).json()
      .data[0].id;
    expect((await mod(wafRoutes.advExists, { params: { siteId } })).json().data).toBe(true);
    await mod(luaAclRoutes.delete, { params: { siteId }, body: { ids: [acl] } });
    expect((await mod(wafRoutes.advExists, { params: { siteId } })).json().data).toBe(false);
  });
});

describe('WAF isolation', () => {
  let mine: number;

  beforeAll(async () => {
    mine = (await mod(wafRoutes.create, { params: { siteId }, body: { modules: [{ name: 'mine' }] } })).json().data[0]
      .id;
  });

  it("keeps one customer out of another's site and modules (101018)", async () => {
    for (const [route, input] of [
      [wafRoutes.list, { params: { siteId } }],
      [wafRoutes.create, { params: { siteId }, body: { modules: [{ name: 'intruder' }] } }],
      [wafRoutes.update, { params: { siteId }, body: { id: mine, name: 'stolen', mode: 'detect' } }],
      [wafRoutes.delete, { params: { siteId }, body: { ids: [mine] } }],
      [wafRoutes.advExists, { params: { siteId } }],
    ] as const) {
      expect((await rawRequest(t.app, route, input, { token: other })).json().code, route.id).toBe(101018);
    }
    // Through their own site, my module is not theirs either.
    expect(
      (
        await rawRequest(
          t.app,
          wafRoutes.update,
          { params: { siteId: otherSiteId }, body: { id: mine, name: 'stolen' } },
          { token: other },
        )
      ).json().code,
    ).toBe(101018);
    expect(
      (
        await rawRequest(
          t.app,
          wafRoutes.delete,
          { params: { siteId: otherSiteId }, body: { ids: [mine] } },
          { token: other },
        )
      ).json().code,
    ).toBe(101018);
    expect((await mod(wafRoutes.list, { params: { siteId } })).json().data[0]).toMatchObject({
      id: mine,
      name: 'mine',
      mode: 'block',
    });
    // Nor is theirs mine: listing my site does not show it, and I cannot change it through my site.
    expect((await mod(wafRoutes.list, { params: { siteId } })).json().total).toBe(1);
    expect((await mod(wafRoutes.update, { params: { siteId }, body: { id: theirs, name: 'x' } })).json().code).toBe(
      101018,
    );
  });

  it("cannot bind another customer's module, nor one's own to their domain (101018)", async () => {
    expect((await bind([domainId], theirs)).json().code).toBe(101018);
    expect((await bind([otherDomainId], mine)).json().code).toBe(101018);
    expect((await bind([otherDomainId], mine, user, otherSiteId)).json().code).toBe(101018);
    const domains = (await mod(listDomains, { params: { siteId } })).json().data;
    expect(domains.find((d: { id: number }) => d.id === domainId)).toMatchObject({ wafModuleID: 0 });
  });
});
