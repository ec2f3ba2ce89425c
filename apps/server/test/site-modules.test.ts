import { dataPlaneSchema, REDIRECT_RULES_PER_SITE } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Method } from './helpers/auth.js';
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

const call = (method: Method, url: string, payload?: Record<string, unknown>, token = client) =>
  f.call(method, url, payload, token);
const mod = (method: Method, url: string, payload?: Record<string, unknown>, token = user, site = siteId) =>
  call(method, `user/site/${site}/module/${url}`, payload, token);
const bind = (type: string, payload: Record<string, unknown>, token = user, site = siteId) =>
  call('PUT', `user/site/${site}/domains/module/${type}`, payload, token);
const snapshot = () => f.snapshot();
async function domainRow(id = domainId) {
  const list = (await call('GET', `user/site/${siteId}/domains`, undefined, user)).json().data;
  return list.find((d: { id: number }) => d.id === id);
}
const fields = (res: { json(): { extra: { fields: { field: string }[] } } }) =>
  res.json().extra.fields.map((f) => f.field);

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
    const res = await mod('POST', 'customHeaders', {
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
    });
    expect(res.statusCode).toBe(200);
    headerId = res.json().data[0].id;
    expect(res.json().data[0]).toMatchObject({ name: 'security', siteID: siteId, domainIDs: [] });

    const list = await mod('GET', 'customHeaders?name=secu');
    expect(list.json()).toMatchObject({ total: 1, data: [{ id: headerId, name: 'security' }] });
    expect(list.json().data[0].headers).toHaveLength(3);
    expect((await mod('GET', 'customHeaders?name=nothing')).json()).toEqual({ data: [], total: 0 });

    const edited = await mod('PUT', 'customHeader', {
      id: headerId,
      name: 'security',
      headers: [
        { type: 'request', name: 'X-From-Edge', value: 'yes' },
        { type: 'response', name: 'X-Frame-Options', value: 'DENY' },
      ],
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
    const created = await mod('POST', 'customHeaders', { modules: [{ name: 'dup', headers }] });
    expect(created.json().code).toBe(10102502);
    const edited = await mod('PUT', 'customHeader', { id: headerId, name: 'security', headers });
    expect(edited.json().code).toBe(10102502);
    // The same name once per direction is fine.
    const both = await mod('POST', 'customHeaders', {
      modules: [
        {
          name: 'both ways',
          headers: [
            { type: 'request', name: 'X-A', value: '1' },
            { type: 'response', name: 'X-A', value: '2' },
          ],
        },
      ],
    });
    expect(both.statusCode).toBe(200);
    await mod('DELETE', 'customHeaders', { ids: [both.json().data[0].id] });
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
    const res = await mod('POST', 'customHeaders', { modules: [{ name: 'bad', headers: [header] }] });
    expect(res.json().code).toBe(101003);
    expect(fields(res)).toEqual([field]);
  });

  it('refuses an empty name (101003) and a name taken in the site (101025)', async () => {
    expect(fields(await mod('POST', 'customHeaders', { modules: [{ name: ' ' }] }))).toEqual(['modules.0.name']);
    expect((await mod('POST', 'customHeaders', { modules: [{ name: 'security' }] })).json().code).toBe(101025);
    const twice = await mod('POST', 'customHeaders', { modules: [{ name: 'x' }, { name: 'x' }] });
    expect(twice.json().code).toBe(101025);
    expect((await mod('GET', 'customHeaders')).json().total).toBe(1);
  });

  it('binds the module to domains, shows it in the domain list and sends it to the nodes', async () => {
    const res = await bind('customHeader', { domainIDs: [domainId], moduleID: headerId });
    expect(res.statusCode).toBe(200);
    expect(await domainRow()).toMatchObject({ customHeaderModuleID: headerId, customHeaderModuleName: 'security' });
    expect(await domainRow(secondDomainId)).toMatchObject({ customHeaderModuleID: 0, customHeaderModuleName: '' });
    expect((await mod('GET', 'customHeaders')).json().data[0].domainIDs).toEqual([domainId]);

    const snap = await snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    const served = snap.dataPlane.domains.find((d: { id: number }) => d.id === domainId);
    expect(served.modules).toEqual({ customHeader: headerId, urlRedirect: null, cors: null, proxyRewrite: null });
    expect(snap.dataPlane.domains.find((d: { id: number }) => d.id === secondDomainId).modules).toBeNull();
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
    const refused = await mod('DELETE', 'customHeaders', { ids: [headerId] });
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
    mine = (await mod('POST', 'customHeaders', { modules: [{ name: 'mine' }] })).json().data[0].id;
    theirs = (await mod('POST', 'customHeaders', { modules: [{ name: 'theirs' }] }, other, otherSiteId)).json().data[0]
      .id;
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
    expect(fields(await bind('cors', { domainIDs: [domainId], moduleID: 1 }))).toEqual(['corsID']);
    expect(fields(await bind('customHeader', { domainIDs: [], moduleID: 1 }))).toEqual(['domainIDs']);
    expect(fields(await bind('customHeader', { domainIDs: [domainId], moduleID: -1 }))).toEqual(['moduleID']);
  });

  it("keeps one customer out of another's modules (101018)", async () => {
    for (const [method, url, body] of [
      ['GET', 'customHeaders', undefined],
      ['POST', 'customHeaders', { modules: [{ name: 'intruder' }] }],
      ['PUT', 'customHeader', { id: mine, name: 'stolen' }],
      ['DELETE', 'customHeaders', { ids: [mine] }],
    ] as const) {
      const res = await mod(method, url, body, other);
      expect(res.json().code, `${method} ${url}`).toBe(101018);
    }
    // Their own site, our module's id: not found there either.
    expect((await mod('PUT', 'customHeader', { id: mine, name: 'x' }, other, otherSiteId)).json().code).toBe(101018);
    expect((await mod('DELETE', 'customHeaders', { ids: [mine] }, other, otherSiteId)).json().code).toBe(101018);
    expect((await bind('customHeader', { domainIDs: [domainId], moduleID: mine }, other)).json().code).toBe(101018);
  });

  it("drops a deleted domain's bindings, so its module can be deleted then", async () => {
    const temp = (
      await call(
        'POST',
        `user/site/${siteId}/domains`,
        { domains: [{ name: 'temp.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
        user,
      )
    ).json().data[0].id;
    const moduleId = (await mod('POST', 'customHeaders', { modules: [{ name: 'temp' }] })).json().data[0].id;
    await bind('customHeader', { domainIDs: [temp], moduleID: moduleId });
    expect((await mod('DELETE', 'customHeaders', { ids: [moduleId] })).json().code).toBe(101003);
    expect((await call('DELETE', `user/site/${siteId}/domains`, { ids: [temp] }, user)).statusCode).toBe(200);
    expect((await mod('DELETE', 'customHeaders', { ids: [moduleId] })).json().data).toBe(true);
  });

  it('deletes all or none', async () => {
    expect((await mod('DELETE', 'customHeaders', { ids: [mine, 999_999] })).json().code).toBe(101018);
    expect((await mod('GET', 'customHeaders?name=mine')).json().total).toBe(1);
    expect((await mod('DELETE', 'customHeaders', { ids: [mine] })).json().data).toBe(true);
    expect((await mod('GET', 'customHeaders?name=mine')).json().total).toBe(0);
  });
});

describe('URL redirect modules', () => {
  let redirectId: number;

  it('creates a module, adds rules with defaults and sends them to the nodes', async () => {
    redirectId = (await mod('POST', 'urlRedirects', { modules: [{ name: 'moves' }] })).json().data[0].id;
    const added = await mod('POST', `urlRedirect/${redirectId}/rules`, {
      items: [
        { source: '/old', target: '/new' },
        { matchType: 'prefix', source: '/docs/', target: 'https://docs.example.com/', statusCode: 302 },
        { matchType: 'regex', source: '^/item/(\\d+)$', target: '/items/$1', keepQuery: false, statusCode: 308 },
      ],
    });
    expect(added.statusCode).toBe(200);
    expect(added.json().data[0]).toMatchObject({
      moduleID: redirectId,
      matchType: 'exact',
      statusCode: 301,
      keepQuery: true,
    });
    const rules = await mod('GET', `urlRedirect/${redirectId}/rules?pageSize=2`);
    expect(rules.json().total).toBe(3);
    expect(rules.json().data).toHaveLength(2);
    expect((await mod('GET', 'urlRedirects')).json().data[0]).toMatchObject({ id: redirectId, ruleCount: 3 });

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
    const [first] = (await mod('GET', `urlRedirect/${redirectId}/rules`)).json().data;
    const edited = await mod('PUT', `urlRedirect/${redirectId}/rule`, {
      id: first.id,
      source: '/older',
      target: '/newer',
      statusCode: 307,
    });
    expect(edited.json().data).toMatchObject({ id: first.id, source: '/older', statusCode: 307 });
    expect((await mod('DELETE', `urlRedirect/${redirectId}/rules`, { ids: [first.id, 999_999] })).json().code).toBe(
      101018,
    );
    expect((await mod('GET', `urlRedirect/${redirectId}/rules`)).json().total).toBe(3);
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
    const res = await mod('POST', `urlRedirect/${redirectId}/rules`, { items: [rule] });
    expect(res.json().code).toBe(101003);
    expect(fields(res)).toEqual([field]);
  });

  it(`refuses more than ${REDIRECT_RULES_PER_SITE} rules per site over all modules with 205007, adding none`, async () => {
    const second = (await mod('POST', 'urlRedirects', { modules: [{ name: 'more moves' }] })).json().data[0].id;
    const items = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({ source: `/p${from + i}`, target: '/x' }));
    for (let i = 0; i < 6; i++) {
      const res = await mod('POST', `urlRedirect/${second}/rules`, { items: items(i < 5 ? 500 : 497, i * 500) });
      expect(res.statusCode).toBe(200);
    }
    // 3 + 2,997 = 3,000: one more is refused, in either module.
    expect((await mod('POST', `urlRedirect/${second}/rules`, { items: items(1, 9000) })).json().code).toBe(205007);
    expect((await mod('POST', `urlRedirect/${redirectId}/rules`, { items: items(1, 9000) })).json().code).toBe(205007);
    expect((await mod('GET', `urlRedirect/${second}/rules`)).json().total).toBe(2997);
    // Deleting the module frees its rules.
    expect((await mod('DELETE', 'urlRedirects', { ids: [second] })).json().data).toBe(true);
    expect((await mod('POST', `urlRedirect/${redirectId}/rules`, { items: items(1, 9000) })).statusCode).toBe(200);
  });

  it("keeps one customer out of another's rules (101018)", async () => {
    const [rule] = (await mod('GET', `urlRedirect/${redirectId}/rules`)).json().data;
    for (const [method, url, body] of [
      ['GET', `urlRedirect/${redirectId}/rules`, undefined],
      ['POST', `urlRedirect/${redirectId}/rules`, { items: [{ source: '/a', target: '/b' }] }],
      ['PUT', `urlRedirect/${redirectId}/rule`, { id: rule.id, source: '/a', target: '/b' }],
      ['DELETE', `urlRedirect/${redirectId}/rules`, { ids: [rule.id] }],
    ] as const) {
      expect((await mod(method, url, body, other)).json().code, `${method} ${url}`).toBe(101018);
      expect((await mod(method, url, body, other, otherSiteId)).json().code, `${method} ${url} (own site)`).toBe(
        101018,
      );
    }
  });
});

describe('CORS modules', () => {
  it('creates a module with defaults, binds it with corsID and sends it to the nodes', async () => {
    const res = await mod('POST', 'corsSettings', {
      modules: [{ name: 'app', origins: ['https://app.example.com', 'https://*.example.net'] }],
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
    const res = await mod('POST', 'corsSettings', { modules: [{ name: 'bad', ...settings }] });
    expect(res.json().code).toBe(101003);
    expect(fields(res)).toEqual([field]);
  });
});

describe('hosts in CORS origins and redirect targets', () => {
  it('maps fullwidth and zero-width forms to the ASCII host (UTS #46) before storing and sending them', async () => {
    const cors = await mod('POST', 'corsSettings', {
      modules: [
        {
          name: 'idn',
          origins: ['https://ａｐｐ.example.com:8443', 'https://ex\u200Bample.org', 'https://münchen.de'],
        },
      ],
    });
    expect(cors.statusCode, cors.body).toBe(200);
    expect(cors.json().data[0].origins).toEqual([
      'https://app.example.com:8443',
      'https://example.org',
      'https://xn--mnchen-3ya.de',
    ]);
    const redirect = (await mod('POST', 'urlRedirects', { modules: [{ name: 'idn' }] })).json().data[0];
    const rules = await mod('POST', `urlRedirect/${redirect.id}/rules`, {
      items: [{ source: '/x', target: 'https://ｄｏｃｓ.example.com:8080/y' }],
    });
    expect(rules.statusCode, rules.body).toBe(200);
    expect(rules.json().data[0].target).toBe('https://docs.example.com:8080/y');
  });
});

describe('proxy rewrite modules', () => {
  it('creates a module with a host and headers, adds rules and sends them to the nodes', async () => {
    const res = await mod('POST', 'proxyRewrites', {
      modules: [
        {
          name: 'legacy',
          hostHeader: 'legacy.internal.example',
          setHeaders: [{ name: 'X-Api-Key', value: 'k' }],
          removeHeaders: ['Cookie'],
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().data[0].id;
    const rules = await mod('POST', `proxyRewrite/${id}/rules`, {
      items: [
        { matchType: 'prefix', source: '/api/', target: '/v2/' },
        { matchType: 'regex', source: '^/u/(\\w+)$', target: '/users/$1' },
      ],
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
    const res = await mod('POST', 'proxyRewrites', { modules: [{ name: 'bad', ...settings }] });
    expect(res.json().code).toBe(101003);
    expect(fields(res)).toEqual([field]);
  });

  it('refuses a rewrite target that is not a path (101003) and more than 100 rules per module (101029)', async () => {
    const id = (await mod('POST', 'proxyRewrites', { modules: [{ name: 'many' }] })).json().data[0].id;
    const bad = await mod('POST', `proxyRewrite/${id}/rules`, {
      items: [{ source: '/a', target: 'https://elsewhere.example/' }],
    });
    expect(fields(bad)).toEqual(['items.0.target']);
    // Patterns JavaScript compiles and the edge's PCRE2 does not.
    for (const source of ['^/[]', '^/[^]', '^/[a-\\d]', '^/a{1,100000}']) {
      const refused = await mod('POST', `proxyRewrite/${id}/rules`, {
        items: [{ matchType: 'regex', source, target: '/x' }],
      });
      expect(fields(refused), source).toEqual(['items.0.source']);
    }
    const items = Array.from({ length: 101 }, (_, i) => ({ source: `/r${i}`, target: '/x' }));
    expect((await mod('POST', `proxyRewrite/${id}/rules`, { items })).json().code).toBe(101029);
    expect((await mod('GET', `proxyRewrite/${id}/rules`)).json().total).toBe(0);
  });
});
