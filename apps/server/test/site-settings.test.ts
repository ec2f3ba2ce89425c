import { dataPlaneSchema, ERROR_PAGE_MAX_BYTES, GZIP_DEFAULT_TYPES, RATE_RULES_PER_SITE } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Method } from './helpers/auth.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Site settings (user/site/{id}/setting/gzip, rates, errorPages …) and what reaches the nodes.

let t: TestApp;
let f: SiteFixture;
let user: { accessToken: string };
let other: { accessToken: string };
let siteId: number;
let otherSiteId: number;

const call = (
  method: Method,
  url: string,
  payload?: Record<string, unknown>,
  token: { accessToken: string } = f.client,
) => f.call(method, url, payload, token);
const setting = (method: Method, url: string, payload?: Record<string, unknown>, token = user, site = siteId) =>
  call(method, `user/site/${site}/setting/${url}`, payload, token);
const fields = (res: { json(): { extra: { fields: { field: string }[] } } }) =>
  res.json().extra.fields.map((f) => f.field);

async function snapshot() {
  const { dataPlane } = await f.snapshot();
  expect(dataPlaneSchema.safeParse(dataPlane).success).toBe(true);
  return dataPlane;
}

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'blog');
  ({ user, other, siteId, otherSiteId } = f);
  await f.addDomains(['www.shop.example']);
  await f.addDomains(['www.blog.example'], 'other');
});
afterAll(async () => t.close());

const domainOf = (plane: { domains: { name: string; settingsId: number | null }[] }, name: string) =>
  plane.domains.find((d) => d.name === name);

describe('compression', () => {
  it('starts off with the default types, and sends no settings to the nodes', async () => {
    const res = await setting('GET', 'gzip');
    expect(res.json().data).toEqual({ enabled: false, types: GZIP_DEFAULT_TYPES, minLength: 1024, updatedAt: null });
    const plane = await snapshot();
    expect(plane.settings).toEqual([]);
    expect(domainOf(plane, 'www.shop.example')?.settingsId).toBeNull();
  });

  it('sets compression, reads it back and sends it to the nodes; turning it off removes it', async () => {
    const res = await setting('PUT', 'gzip', { enabled: true, types: ['text/html', 'text/css'], minLength: 2048 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ enabled: true, types: ['text/html', 'text/css'], minLength: 2048 });
    expect((await setting('GET', 'gzip')).json().data.updatedAt).not.toBeNull();
    let plane = await snapshot();
    expect(domainOf(plane, 'www.shop.example')?.settingsId).toBe(siteId);
    expect(domainOf(plane, 'www.blog.example')?.settingsId).toBeNull();
    expect(plane.settings).toEqual([
      {
        id: siteId,
        gzip: { types: ['text/html', 'text/css'], minLength: 2048 },
        rates: [],
        language: 'en_US',
        pages: [],
      },
    ]);

    await setting('PUT', 'gzip', { enabled: false });
    expect((await setting('GET', 'gzip')).json().data).toMatchObject({ enabled: false, types: GZIP_DEFAULT_TYPES });
    plane = await snapshot();
    expect(plane.settings).toEqual([]);
  });

  it.each([
    [{ enabled: 'yes' }, 'enabled'],
    [{ enabled: true, types: [] }, 'types'],
    [{ enabled: true, types: ['image/png'] }, 'types.0'],
    [{ enabled: true, types: ['text/css', 'text/css'] }, 'types'],
    [{ enabled: true, minLength: -1 }, 'minLength'],
    [{ enabled: true, minLength: 1.5 }, 'minLength'],
  ])('refuses %j with 101003 naming %s', async (body, field) => {
    const res = await setting('PUT', 'gzip', body);
    expect(res.json().code).toBe(101003);
    expect(fields(res)).toEqual([field]);
  });
});

describe('bandwidth rate limits', () => {
  it('adds rules, lists them oldest first, edits one, and sends them to the nodes in KB/s', async () => {
    const res = await setting('POST', 'rates', {
      data: [
        { url: '/downloads/*', rate: 16, memo: 'big files' },
        { url: '*.iso', rate: 1 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { url: string }) => r.url)).toEqual(['/downloads/*', '*.iso']);
    const [first] = (await setting('GET', 'rates')).json().data;
    expect(first).toMatchObject({ siteID: siteId, url: '/downloads/*', rate: 16, memo: 'big files' });

    const edited = await setting('PUT', `rate/${first.id}`, { url: '/video/*.mp4', rate: 512 });
    expect(edited.json().data).toMatchObject({ id: first.id, url: '/video/*.mp4', rate: 512, memo: '' });

    const plane = await snapshot();
    expect(plane.settings).toEqual([
      {
        id: siteId,
        gzip: null,
        rates: [
          { pattern: '/video/*.mp4', kbps: 512 },
          { pattern: '*.iso', kbps: 1 },
        ],
        language: 'en_US',
        pages: [],
      },
    ]);
  });

  it.each([
    ['no leading slash', { url: 'downloads', rate: 1 }, 'data.0.url'],
    ['two stars', { url: '/a/*/b/*', rate: 1 }, 'data.0.url'],
    ['a space', { url: '/a b', rate: 1 }, 'data.0.url'],
    ['257 characters', { url: `/${'a'.repeat(256)}`, rate: 1 }, 'data.0.url'],
    ['rate 0', { url: '/a', rate: 0 }, 'data.0.rate'],
    ['rate above 1 GB/s', { url: '/a', rate: 1024 * 1024 + 1 }, 'data.0.rate'],
    ['a long memo', { url: '/a', rate: 1, memo: 'm'.repeat(257) }, 'data.0.memo'],
  ])('refuses a rule with %s (101003 naming the field)', async (_label, rule, field) => {
    const res = await setting('POST', 'rates', { data: [rule] });
    expect(res.json().code).toBe(101003);
    expect(fields(res)).toEqual([field]);
  });

  it('refuses more than the per-site limit with 101029, adding none of the batch', async () => {
    const before = (await setting('GET', 'rates')).json().data.length;
    const data = Array.from({ length: RATE_RULES_PER_SITE - before + 1 }, () => ({ url: '*', rate: 10 }));
    const res = await setting('POST', 'rates', { data });
    expect(res.json().code).toBe(101029);
    expect((await setting('GET', 'rates')).json().data).toHaveLength(before);
  });

  it("keeps one customer out of another's site and rules (101018), deletes all or none", async () => {
    const rules = (await setting('GET', 'rates')).json().data;
    for (const [method, url, body] of [
      ['GET', 'rates', undefined],
      ['POST', 'rates', { data: [{ url: '*', rate: 1 }] }],
      ['PUT', `rate/${rules[0].id}`, { url: '*', rate: 1 }],
      ['DELETE', 'rates', { ids: [rules[0].id] }],
    ] as const) {
      const res = await setting(method, url, body, other);
      expect(res.json().code, `${method} ${url}`).toBe(101018);
    }
    // The neighbour's own site cannot reach this site's rule either.
    const viaOwnSite = await setting('PUT', `rate/${rules[0].id}`, { url: '*', rate: 1 }, other, otherSiteId);
    expect(viaOwnSite.json().code).toBe(101018);
    expect((await setting('GET', 'rates', undefined, other, otherSiteId)).json().data).toEqual([]);

    const missing = await setting('DELETE', 'rates', { ids: [rules[0].id, 999_999] });
    expect(missing.json().code).toBe(101018);
    expect((await setting('GET', 'rates')).json().data).toHaveLength(rules.length);

    const deleted = await setting('DELETE', 'rates', { ids: rules.map((r: { id: number }) => r.id) });
    expect(deleted.json().data).toBe(true);
    expect((await snapshot()).settings).toEqual([]);
  });
});

describe('error pages', () => {
  it('starts in English without pages; sets, replaces and removes pages and the language', async () => {
    expect((await setting('GET', 'errorPages')).json().data).toEqual({ language: 'en_US', pages: [] });
    await setting('PUT', 'errorPage', { status: 404, body: '<h1>old</h1>' });
    const replaced = await setting('PUT', 'errorPage', { status: 404, body: '<h1>nothing here</h1>' });
    expect(replaced.json().data).toMatchObject({ status: 404, body: '<h1>nothing here</h1>' });
    await setting('PUT', 'errorPage', { status: 929, body: '<h1>slow down</h1>' });
    const language = await setting('PUT', 'errorPages/language', { language: 'zh_TW' });
    expect(language.json().data).toEqual({ language: 'zh_TW' });

    const read = (await setting('GET', 'errorPages')).json().data;
    expect(read.language).toBe('zh_TW');
    expect(read.pages.map((p: { status: number }) => p.status)).toEqual([404, 929]);
    let plane = await snapshot();
    expect(plane.settings).toEqual([
      {
        id: siteId,
        gzip: null,
        rates: [],
        language: 'zh_TW',
        pages: [
          { status: 404, body: '<h1>nothing here</h1>' },
          { status: 929, body: '<h1>slow down</h1>' },
        ],
      },
    ]);

    expect((await setting('DELETE', 'errorPages', { statuses: [404, 929] })).json().data).toBe(true);
    await setting('PUT', 'errorPages/language', { language: 'en_US' });
    plane = await snapshot();
    expect(plane.settings).toEqual([]);
  });

  it.each([
    ['status 200', { status: 200, body: 'x' }, 'status'],
    ['an empty body', { status: 404, body: '' }, 'body'],
    ['a body over 64 KB of UTF-8', { status: 404, body: 'é'.repeat(ERROR_PAGE_MAX_BYTES / 2 + 1) }, 'body'],
    ['no body', { status: 404 }, 'body'],
  ])('refuses a page with %s (101003 naming the field)', async (_label, body, field) => {
    const res = await setting('PUT', 'errorPage', body);
    expect(res.json().code).toBe(101003);
    expect(fields(res)).toEqual([field]);
  });

  it('refuses an unknown language and status list with 101003', async () => {
    const language = await setting('PUT', 'errorPages/language', { language: 'fr_FR' });
    expect(fields(language)).toEqual(['language']);
    const statuses = await setting('DELETE', 'errorPages', { statuses: [] });
    expect(fields(statuses)).toEqual(['statuses']);
  });

  it("keeps one customer out of another's pages (101018); removing a page that is not there removes none", async () => {
    await setting('PUT', 'errorPage', { status: 502, body: '<h1>resting</h1>' });
    for (const [method, url, body] of [
      ['GET', 'errorPages', undefined],
      ['PUT', 'errorPage', { status: 502, body: 'mine now' }],
      ['DELETE', 'errorPages', { statuses: [502] }],
      ['PUT', 'errorPages/language', { language: 'zh_CN' }],
    ] as const) {
      const res = await setting(method, url, body, other);
      expect(res.json().code, `${method} ${url}`).toBe(101018);
    }
    expect((await setting('GET', 'errorPages', undefined, other, otherSiteId)).json().data.pages).toEqual([]);
    const missing = await setting('DELETE', 'errorPages', { statuses: [502, 404] });
    expect(missing.json().code).toBe(101018);
    expect((await setting('GET', 'errorPages')).json().data.pages).toHaveLength(1);
  });
});
