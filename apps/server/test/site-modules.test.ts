import type { AnyRoute } from '@rampart/contract';
import {
  bindModuleRoutes,
  corsRoutes,
  createDomains,
  customHeaderRoutes,
  dataPlaneSchema,
  deleteDomains,
  listDomains,
  proxyRewriteRoutes,
  REDIRECT_RULES_PER_SITE,
  type RouteInput,
  urlRedirectRoutes,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawInput, rawRequest, sendAs, sendWith, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Site modules (user/site/{id}/module/…), their binding to domains (PUT domains/module/{type}) and
// what reaches the nodes.

let t: TestApp;
let f: SiteFixture;
let client: { accessToken: string };
let user: { accessToken: string };
let other: { accessToken: string };
let siteId: number;
let otherSiteId: number;
let domainId: number;
let secondDomainId: number;
let otherDomainId: number;

const call = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, client, route, ...args);
const mod = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);
const bind = <T extends keyof typeof bindModuleRoutes>(
  type: T,
  body: RouteInput<(typeof bindModuleRoutes)[T]>['body'],
  token = user,
  site = siteId,
) =>
  sendWith(
    t.app,
    bindModuleRoutes[type],
    // The body is the route's own (typed by T); TypeScript cannot resolve a generic route's whole input.
    { params: { siteId: site }, body } as unknown as RouteInput<(typeof bindModuleRoutes)[T]>,
    { token },
  );
const snapshot = () => f.snapshot();
async function domainRow(id = domainId) {
  const list = (await call(listDomains, { params: { siteId } }, user)).json().data;
  return list.find((d: { id: number }) => d.id === id);
}

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'rival');
  ({ client, user, other, siteId, otherSiteId } = f);
  [domainId = 0, secondDomainId = 0] = await f.addDomains(['www.shop.example', 'api.shop.example']);
  [otherDomainId = 0] = await f.addDomains(['www.rival.example'], 'other');
});
afterAll(async () => t.close());

describe('custom header modules', () => {
  let headerId: number;

  it('creates, lists and edits a module with request and response headers', async () => {
    const res = await mod(customHeaderRoutes.create, {
      params: { siteId },
      body: {
        modules: [
          {
            name: 'security',
            headers: [
              { type: 'request', name: 'X-From-Edge', value: 'yes' },
              { type: 'response', name: 'Strict-Transport-Security', value: 'max-age=600' },
              { type: 'response', name: 'Server', value: '' },
            ],
          },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    headerId = res.json().data[0].id;
    expect(res.json().data[0]).toMatchObject({ name: 'security', siteID: siteId, domainIDs: [] });

    const list = await mod(customHeaderRoutes.list, { params: { siteId }, query: { name: 'secu' } });
    expect(list.json()).toMatchObject({ total: 1, data: [{ id: headerId, name: 'security' }] });
    expect(list.json().data[0].headers).toHaveLength(3);
    expect((await mod(customHeaderRoutes.list, { params: { siteId }, query: { name: 'nothing' } })).json()).toEqual({
      data: [],
      total: 0,
    });

    const edited = await mod(customHeaderRoutes.update, {
      params: { siteId },
      body: {
        id: headerId,
        name: 'security',
        headers: [
          { type: 'request', name: 'X-From-Edge', value: 'yes' },
          { type: 'response', name: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    });
    expect(edited.json().data.headers).toEqual([
      { type: 'request', name: 'X-From-Edge', value: 'yes' },
      { type: 'response', name: 'X-Frame-Options', value: 'DENY' },
    ]);
  });

  it('refuses a header name twice in one direction with 10102502 (case-insensitive), both on create and edit', async () => {
    const headers = [
      { type: 'response', name: 'X-A', value: '1' },
      { type: 'response', name: 'x-a', value: '2' },
    ];
    const created = await mod(customHeaderRoutes.create, {
      params: { siteId },
      body: { modules: [{ name: 'dup', headers }] },
    });
    expect(created.json().code).toBe(10102502);
    const edited = await mod(customHeaderRoutes.update, {
      params: { siteId },
      body: { id: headerId, name: 'security', headers },
    });
    expect(edited.json().code).toBe(10102502);
    // The same name once per direction is fine.
    const both = await mod(customHeaderRoutes.create, {
      params: { siteId },
      body: {
        modules: [
          {
            name: 'both ways',
            headers: [
              { type: 'request', name: 'X-A', value: '1' },
              { type: 'response', name: 'X-A', value: '2' },
            ],
          },
        ],
      },
    });
    expect(both.statusCode).toBe(200);
    await mod(customHeaderRoutes.delete, { params: { siteId }, body: { ids: [both.json().data[0].id] } });
  });

  it.each([
    [{ type: 'request', name: 'X-A', value: 'a\r\nInjected: 1' }, 'modules.0.headers.0.value'],
    [{ type: 'request', name: 'X A', value: 'a' }, 'modules.0.headers.0.name'],
    [{ type: 'request', name: 'Host', value: 'evil.example' }, 'modules.0.headers.0.name'],
    [{ type: 'request', name: 'X-Forwarded-For', value: '1.2.3.4' }, 'modules.0.headers.0.name'],
    [{ type: 'response', name: 'Content-Length', value: '1' }, 'modules.0.headers.0.name'],
    [{ type: 'response', name: 'Connection', value: 'close' }, 'modules.0.headers.0.name'],
    [{ type: 'sideways', name: 'X-A', value: 'a' }, 'modules.0.headers.0.type'],
  ])('refuses header %j with 101003 naming %s', async (header, field) => {
    const res = await mod(customHeaderRoutes.create, {
      params: { siteId },
      body: { modules: [{ name: 'bad', headers: [header] }] },
    });
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it('refuses an empty name (101003) and a name taken in the site (101025)', async () => {
    expect(
      fieldNames(await mod(customHeaderRoutes.create, { params: { siteId }, body: { modules: [{ name: ' ' }] } })),
    ).toEqual(['modules.0.name']);
    expect(
      (await mod(customHeaderRoutes.create, { params: { siteId }, body: { modules: [{ name: 'security' }] } })).json()
        .code,
    ).toBe(101025);
    const twice = await mod(customHeaderRoutes.create, {
      params: { siteId },
      body: { modules: [{ name: 'x' }, { name: 'x' }] },
    });
    expect(twice.json().code).toBe(101025);
    expect((await mod(customHeaderRoutes.list, { params: { siteId } })).json().total).toBe(1);
  });

  it('binds the module to domains, shows it in the domain list and sends it to the nodes', async () => {
    const res = await bind('customHeader', { domainIDs: [domainId], moduleID: headerId });
    expect(res.statusCode).toBe(200);
    expect(await domainRow()).toMatchObject({ customHeaderModuleID: headerId, customHeaderModuleName: 'security' });
    expect(await domainRow(secondDomainId)).toMatchObject({ customHeaderModuleID: 0, customHeaderModuleName: '' });
    expect((await mod(customHeaderRoutes.list, { params: { siteId } })).json().data[0].domainIDs).toEqual([domainId]);

    const snap = await snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    const served = snap.dataPlane.domains.find((d: { id: number }) => d.id === domainId);
    expect(served!.modules).toEqual({
      customHeader: headerId,
      urlRedirect: null,
      cors: null,
      proxyRewrite: null,
      luaAcl: null,
      tokenAuth: null,
      waf: null,
    });
    expect(snap.dataPlane.domains.find((d: { id: number }) => d.id === secondDomainId)!.modules).toBeNull();
    expect(snap.dataPlane.modules).toEqual([
      {
        id: headerId,
        type: 'customHeader',
        request: [{ name: 'X-From-Edge', value: 'yes' }],
        response: [{ name: 'X-Frame-Options', value: 'DENY' }],
      },
    ]);
  });

  it('refuses to delete a bound module, naming its domains; "None" (0) unbinds', async () => {
    const refused = await mod(customHeaderRoutes.delete, { params: { siteId }, body: { ids: [headerId] } });
    expect(refused.json().code).toBe(101003);
    expect(refused.json().extra.fields).toMatchObject([{ field: 'ids.0', key: 'moduleInUse' }]);
    expect(refused.json().extra.fields[0].message).toContain('www.shop.example');

    expect((await bind('customHeader', { domainIDs: [domainId], moduleID: 0 })).statusCode).toBe(200);
    expect(await domainRow()).toMatchObject({ customHeaderModuleID: 0 });
    expect((await snapshot()).dataPlane.modules).toEqual([]);
  });
});

describe('binding and isolation', () => {
  let mine: number;
  let theirs: number;

  beforeAll(async () => {
    mine = (await mod(customHeaderRoutes.create, { params: { siteId }, body: { modules: [{ name: 'mine' }] } })).json()
      .data[0].id;
    theirs = (
      await mod(
        customHeaderRoutes.create,
        { params: { siteId: otherSiteId }, body: { modules: [{ name: 'theirs' }] } },
        other,
      )
    ).json().data[0].id;
  });

  it("cannot bind another customer's module to one's own domain, nor one's module to their domain (101018)", async () => {
    const foreignModule = await bind('customHeader', { domainIDs: [domainId], moduleID: theirs });
    expect(foreignModule.json().code).toBe(101018);
    const foreignDomain = await bind('customHeader', { domainIDs: [domainId, otherDomainId], moduleID: mine });
    expect(foreignDomain.json().code).toBe(101018);
    const viaTheirSite = await bind('customHeader', { domainIDs: [otherDomainId], moduleID: mine }, user, otherSiteId);
    expect(viaTheirSite.json().code).toBe(101018);
    expect(await domainRow()).toMatchObject({ customHeaderModuleID: 0 });
  });

  it('cannot bind a module under another type (101018)', async () => {
    expect((await bind('cors', { domainIDs: [domainId], corsID: mine })).json().code).toBe(101018);
    expect((await bind('urlRedirect', { domainIDs: [domainId], moduleID: mine })).json().code).toBe(101018);
  });

  it('names the CORS field corsID and validates the binding body (101003)', async () => {
    expect(fieldNames(await bind('cors', { domainIDs: [domainId], moduleID: 1 }))).toEqual(['corsID']);
    expect(fieldNames(await bind('customHeader', { domainIDs: [], moduleID: 1 }))).toEqual(['domainIDs']);
    expect(fieldNames(await bind('customHeader', { domainIDs: [domainId], moduleID: -1 }))).toEqual(['moduleID']);
  });

  it("keeps one customer out of another's modules (101018)", async () => {
    for (const [route, input] of [
      [customHeaderRoutes.list, { params: { siteId } }],
      [customHeaderRoutes.create, { params: { siteId }, body: { modules: [{ name: 'intruder' }] } }],
      [customHeaderRoutes.update, { params: { siteId }, body: { id: mine, name: 'stolen' } }],
      [customHeaderRoutes.delete, { params: { siteId }, body: { ids: [mine] } }],
    ] as const) {
      const res = await rawRequest(t.app, route, input, { token: other });
      expect(res.json().code, route.id).toBe(101018);
    }
    // Their own site, our module's id: not found there either.
    expect(
      (
        await mod(customHeaderRoutes.update, { params: { siteId: otherSiteId }, body: { id: mine, name: 'x' } }, other)
      ).json().code,
    ).toBe(101018);
    expect(
      (await mod(customHeaderRoutes.delete, { params: { siteId: otherSiteId }, body: { ids: [mine] } }, other)).json()
        .code,
    ).toBe(101018);
    expect((await bind('customHeader', { domainIDs: [domainId], moduleID: mine }, other)).json().code).toBe(101018);
  });

  it("drops a deleted domain's bindings, so its module can be deleted then", async () => {
    const temp = (
      await call(
        createDomains,
        {
          params: { siteId },
          body: { domains: [{ name: 'temp.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
        },
        user,
      )
    ).json().data[0].id;
    const moduleId = (
      await mod(customHeaderRoutes.create, { params: { siteId }, body: { modules: [{ name: 'temp' }] } })
    ).json().data[0].id;
    await bind('customHeader', { domainIDs: [temp], moduleID: moduleId });
    expect((await mod(customHeaderRoutes.delete, { params: { siteId }, body: { ids: [moduleId] } })).json().code).toBe(
      101003,
    );
    expect((await call(deleteDomains, { params: { siteId }, body: { ids: [temp] } }, user)).statusCode).toBe(200);
    expect((await mod(customHeaderRoutes.delete, { params: { siteId }, body: { ids: [moduleId] } })).json().data).toBe(
      true,
    );
  });

  it('deletes all or none', async () => {
    expect(
      (await mod(customHeaderRoutes.delete, { params: { siteId }, body: { ids: [mine, 999_999] } })).json().code,
    ).toBe(101018);
    expect((await mod(customHeaderRoutes.list, { params: { siteId }, query: { name: 'mine' } })).json().total).toBe(1);
    expect((await mod(customHeaderRoutes.delete, { params: { siteId }, body: { ids: [mine] } })).json().data).toBe(
      true,
    );
    expect((await mod(customHeaderRoutes.list, { params: { siteId }, query: { name: 'mine' } })).json().total).toBe(0);
  });
});

describe('URL redirect modules', () => {
  let redirectId: number;

  it('creates a module, adds rules with defaults and sends them to the nodes', async () => {
    redirectId = (
      await mod(urlRedirectRoutes.create, { params: { siteId }, body: { modules: [{ name: 'moves' }] } })
    ).json().data[0].id;
    const added = await mod(urlRedirectRoutes.addRules, {
      params: { siteId, moduleId: redirectId },
      body: {
        items: [
          { source: '/old', target: '/new' },
          { matchType: 'prefix', source: '/docs/', target: 'https://docs.example.com/', statusCode: 302 },
          { matchType: 'regex', source: '^/item/(\\d+)$', target: '/items/$1', keepQuery: false, statusCode: 308 },
        ],
      },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json().data[0]).toMatchObject({
      moduleID: redirectId,
      matchType: 'exact',
      statusCode: 301,
      keepQuery: true,
    });
    const rules = await mod(urlRedirectRoutes.listRules, {
      params: { siteId, moduleId: redirectId },
      query: { pageSize: 2 },
    });
    expect(rules.json().total).toBe(3);
    expect(rules.json().data).toHaveLength(2);
    expect((await mod(urlRedirectRoutes.list, { params: { siteId } })).json().data[0]).toMatchObject({
      id: redirectId,
      ruleCount: 3,
    });

    await bind('urlRedirect', { domainIDs: [domainId, secondDomainId], moduleID: redirectId });
    expect(await domainRow(secondDomainId)).toMatchObject({
      urlRedirectModuleID: redirectId,
      urlRedirectModuleName: 'moves',
    });
    const snap = await snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    expect(snap.dataPlane.modules).toEqual([
      {
        id: redirectId,
        type: 'urlRedirect',
        rules: [
          { match: 'exact', source: '/old', target: '/new', code: 301, keepQuery: true },
          { match: 'prefix', source: '/docs/', target: 'https://docs.example.com/', code: 302, keepQuery: true },
          { match: 'regex', source: '^/item/(\\d+)$', target: '/items/$1', code: 308, keepQuery: false },
        ],
      },
    ]);
  });

  it('edits and deletes rules (all or none)', async () => {
    const [first] = (await mod(urlRedirectRoutes.listRules, { params: { siteId, moduleId: redirectId } })).json().data;
    const edited = await mod(urlRedirectRoutes.updateRule, {
      params: { siteId, moduleId: redirectId },
      body: {
        id: first.id,
        source: '/older',
        target: '/newer',
        statusCode: 307,
      },
    });
    expect(edited.json().data).toMatchObject({ id: first.id, source: '/older', statusCode: 307 });
    expect(
      (
        await mod(urlRedirectRoutes.deleteRules, {
          params: { siteId, moduleId: redirectId },
          body: { ids: [first.id, 999_999] },
        })
      ).json().code,
    ).toBe(101018);
    expect((await mod(urlRedirectRoutes.listRules, { params: { siteId, moduleId: redirectId } })).json().total).toBe(3);
  });

  it.each([
    [{ source: 'old', target: '/new' }, 'items.0.source'],
    [{ matchType: 'regex', source: '^/(?<name>a)$', target: '/new' }, 'items.0.source'],
    [{ matchType: 'regex', source: '^/(a)\\1$', target: '/new' }, 'items.0.source'],
    [{ matchType: 'regex', source: '^/(a$', target: '/new' }, 'items.0.source'],
    // Valid JavaScript, refused by the edge's PCRE2.
    [{ matchType: 'regex', source: '^/[]', target: '/new' }, 'items.0.source'],
    [{ matchType: 'regex', source: '^/[^]', target: '/new' }, 'items.0.source'],
    [{ matchType: 'regex', source: '^/[a-\\d]', target: '/new' }, 'items.0.source'],
    [{ matchType: 'regex', source: '^/a{1,100000}', target: '/new' }, 'items.0.source'],
    [{ matchType: 'regex', source: '^/[:alpha:]', target: '/new' }, 'items.0.source'],
    [{ source: '/old', target: 'javascript:alert(1)' }, 'items.0.target'],
    [{ source: '/old', target: 'https://example.com:99999/' }, 'items.0.target'],
    [{ source: '/old', target: '/new\r\nSet-Cookie: a=1' }, 'items.0.target'],
    [{ source: '/old', target: '/new', statusCode: 303 }, 'items.0.statusCode'],
    [{ source: '/old', target: '/new', matchType: 'glob' }, 'items.0.matchType'],
  ])('refuses rule %j with 101003 naming %s', async (rule, field) => {
    const res = await mod(
      urlRedirectRoutes.addRules,
      rawInput({ params: { siteId, moduleId: redirectId }, body: { items: [rule] } }),
    );
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it(`refuses more than ${REDIRECT_RULES_PER_SITE} rules per site over all modules with 205007, adding none`, async () => {
    const second = (
      await mod(urlRedirectRoutes.create, { params: { siteId }, body: { modules: [{ name: 'more moves' }] } })
    ).json().data[0].id;
    const items = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({ source: `/p${from + i}`, target: '/x' }));
    for (let i = 0; i < 6; i++) {
      const res = await mod(urlRedirectRoutes.addRules, {
        params: { siteId, moduleId: second },
        body: { items: items(i < 5 ? 500 : 497, i * 500) },
      });
      expect(res.statusCode).toBe(200);
    }
    // 3 + 2,997 = 3,000: one more is refused, in either module.
    expect(
      (
        await mod(urlRedirectRoutes.addRules, { params: { siteId, moduleId: second }, body: { items: items(1, 9000) } })
      ).json().code,
    ).toBe(205007);
    expect(
      (
        await mod(urlRedirectRoutes.addRules, {
          params: { siteId, moduleId: redirectId },
          body: { items: items(1, 9000) },
        })
      ).json().code,
    ).toBe(205007);
    expect((await mod(urlRedirectRoutes.listRules, { params: { siteId, moduleId: second } })).json().total).toBe(2997);
    // Deleting the module frees its rules.
    expect((await mod(urlRedirectRoutes.delete, { params: { siteId }, body: { ids: [second] } })).json().data).toBe(
      true,
    );
    expect(
      (
        await mod(urlRedirectRoutes.addRules, {
          params: { siteId, moduleId: redirectId },
          body: { items: items(1, 9000) },
        })
      ).statusCode,
    ).toBe(200);
  });

  it("keeps one customer out of another's rules (101018)", async () => {
    const [rule] = (await mod(urlRedirectRoutes.listRules, { params: { siteId, moduleId: redirectId } })).json().data;
    for (const [route, input] of [
      [urlRedirectRoutes.listRules, { params: { siteId, moduleId: redirectId } }],
      [
        urlRedirectRoutes.addRules,
        { params: { siteId, moduleId: redirectId }, body: { items: [{ source: '/a', target: '/b' }] } },
      ],
      [
        urlRedirectRoutes.updateRule,
        { params: { siteId, moduleId: redirectId }, body: { id: rule.id, source: '/a', target: '/b' } },
      ],
      [urlRedirectRoutes.deleteRules, { params: { siteId, moduleId: redirectId }, body: { ids: [rule.id] } }],
    ] as const) {
      expect((await rawRequest(t.app, route, input, { token: other })).json().code, route.id).toBe(101018);
      const ownSite = { ...input, params: { ...input.params, siteId: otherSiteId } };
      expect((await rawRequest(t.app, route, ownSite, { token: other })).json().code, `${route.id} (own site)`).toBe(
        101018,
      );
    }
  });
});

describe('CORS modules', () => {
  it('creates a module with defaults, binds it with corsID and sends it to the nodes', async () => {
    const res = await mod(corsRoutes.create, {
      params: { siteId },
      body: {
        modules: [{ name: 'app', origins: ['https://app.example.com', 'https://*.example.net'] }],
      },
    });
    expect(res.statusCode).toBe(200);
    const cors = res.json().data[0];
    expect(cors).toMatchObject({
      methods: ['GET', 'HEAD', 'POST'],
      allowHeaders: [],
      exposeHeaders: [],
      credentials: false,
      maxAge: 600,
    });
    await bind('cors', { domainIDs: [domainId], corsID: cors.id });
    expect(await domainRow()).toMatchObject({ corsID: cors.id, corsName: 'app' });
    const snap = await snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    expect(snap.dataPlane.modules.find((m: { id: number }) => m.id === cors.id)).toEqual({
      id: cors.id,
      type: 'cors',
      origins: ['https://app.example.com', 'https://*.example.net'],
      methods: ['GET', 'HEAD', 'POST'],
      allowHeaders: [],
      exposeHeaders: [],
      credentials: false,
      maxAge: 600,
    });
  });

  it.each([
    [{ origins: [] }, 'modules.0.origins'],
    [{ origins: ['app.example.com'] }, 'modules.0.origins.0'],
    [{ origins: ['https://a.example.com/path'] }, 'modules.0.origins.0'],
    [{ origins: ['*'], methods: ['TRACE'] }, 'modules.0.methods.0'],
    [{ origins: ['*'], allowHeaders: ['X Y'] }, 'modules.0.allowHeaders.0'],
    [{ origins: ['*'], maxAge: 86_401 }, 'modules.0.maxAge'],
    [{ origins: ['https://a.example.com:99999'] }, 'modules.0.origins.0'],
    [{ origins: ['https://a.example.com:0'] }, 'modules.0.origins.0'],
    [{ origins: ['https://a\u200Db.example.com'] }, 'modules.0.origins.0'],
  ])('refuses %j with 101003 naming %s', async (settings, field) => {
    const res = await mod(corsRoutes.create, { params: { siteId }, body: { modules: [{ name: 'bad', ...settings }] } });
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });
});

describe('hosts in CORS origins and redirect targets', () => {
  it('maps fullwidth and zero-width forms to the ASCII host (UTS #46) before storing and sending them', async () => {
    const cors = await mod(corsRoutes.create, {
      params: { siteId },
      body: {
        modules: [
          {
            name: 'idn',
            origins: ['https://ａｐｐ.example.com:8443', 'https://ex\u200Bample.org', 'https://münchen.de'],
          },
        ],
      },
    });
    expect(cors.statusCode, cors.body).toBe(200);
    expect(cors.json().data[0].origins).toEqual([
      'https://app.example.com:8443',
      'https://example.org',
      'https://xn--mnchen-3ya.de',
    ]);
    const redirect = (
      await mod(urlRedirectRoutes.create, { params: { siteId }, body: { modules: [{ name: 'idn' }] } })
    ).json().data[0];
    const rules = await mod(urlRedirectRoutes.addRules, {
      params: { siteId, moduleId: redirect.id },
      body: {
        items: [{ source: '/x', target: 'https://ｄｏｃｓ.example.com:8080/y' }],
      },
    });
    expect(rules.statusCode, rules.body).toBe(200);
    expect(rules.json().data[0].target).toBe('https://docs.example.com:8080/y');
  });
});

describe('proxy rewrite modules', () => {
  it('creates a module with a host and headers, adds rules and sends them to the nodes', async () => {
    const res = await mod(proxyRewriteRoutes.create, {
      params: { siteId },
      body: {
        modules: [
          {
            name: 'legacy',
            hostHeader: 'legacy.internal.example',
            setHeaders: [{ name: 'X-Api-Key', value: 'k' }],
            removeHeaders: ['Cookie'],
          },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().data[0].id;
    const rules = await mod(proxyRewriteRoutes.addRules, {
      params: { siteId, moduleId: id },
      body: {
        items: [
          { matchType: 'prefix', source: '/api/', target: '/v2/' },
          { matchType: 'regex', source: '^/u/(\\w+)$', target: '/users/$1' },
        ],
      },
    });
    expect(rules.statusCode).toBe(200);
    await bind('proxyRewrite', { domainIDs: [domainId], moduleID: id });
    expect(await domainRow()).toMatchObject({ proxyRewriteModuleID: id, proxyRewriteModuleName: 'legacy' });
    const snap = await snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    expect(snap.dataPlane.modules.find((m: { id: number }) => m.id === id)).toEqual({
      id,
      type: 'proxyRewrite',
      host: 'legacy.internal.example',
      setHeaders: [{ name: 'X-Api-Key', value: 'k' }],
      removeHeaders: ['Cookie'],
      rules: [
        { match: 'prefix', source: '/api/', target: '/v2/' },
        { match: 'regex', source: '^/u/(\\w+)$', target: '/users/$1' },
      ],
    });
  });

  it.each([
    [{ hostHeader: 'not a host' }, 'modules.0.hostHeader'],
    [{ setHeaders: [{ name: 'Host', value: 'x.example' }] }, 'modules.0.setHeaders.0.name'],
    [{ setHeaders: [{ name: 'X-A', value: 'a\nb' }] }, 'modules.0.setHeaders.0.value'],
    [{ removeHeaders: ['X-Request-Id'] }, 'modules.0.removeHeaders.0'],
  ])('refuses %j with 101003 naming %s', async (settings, field) => {
    const res = await mod(proxyRewriteRoutes.create, {
      params: { siteId },
      body: { modules: [{ name: 'bad', ...settings }] },
    });
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it('refuses a rewrite target that is not a path (101003) and more than 100 rules per module (101029)', async () => {
    const id = (
      await mod(proxyRewriteRoutes.create, { params: { siteId }, body: { modules: [{ name: 'many' }] } })
    ).json().data[0].id;
    const bad = await mod(proxyRewriteRoutes.addRules, {
      params: { siteId, moduleId: id },
      body: {
        items: [{ source: '/a', target: 'https://elsewhere.example/' }],
      },
    });
    expect(fieldNames(bad)).toEqual(['items.0.target']);
    // Patterns JavaScript compiles and the edge's PCRE2 does not.
    for (const source of ['^/[]', '^/[^]', '^/[a-\\d]', '^/a{1,100000}']) {
      const refused = await mod(proxyRewriteRoutes.addRules, {
        params: { siteId, moduleId: id },
        body: {
          items: [{ matchType: 'regex', source, target: '/x' }],
        },
      });
      expect(fieldNames(refused), source).toEqual(['items.0.source']);
    }
    const items = Array.from({ length: 101 }, (_, i) => ({ source: `/r${i}`, target: '/x' }));
    expect(
      (await mod(proxyRewriteRoutes.addRules, { params: { siteId, moduleId: id }, body: { items } })).json().code,
    ).toBe(101029);
    expect((await mod(proxyRewriteRoutes.listRules, { params: { siteId, moduleId: id } })).json().total).toBe(0);
  });
});
