import type { AnyRoute } from '@rampart/contract';
import {
  addRateRules,
  dataPlaneSchema,
  deleteErrorPages,
  deleteRateRules,
  ERROR_PAGE_MAX_BYTES,
  GZIP_DEFAULT_TYPES,
  getErrorPages,
  getGzipSetting,
  listRateRules,
  RATE_RULES_PER_SITE,
  setErrorPage,
  setErrorPageLanguage,
  setGzipSetting,
  updateRateRule,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawInput, rawRequest, sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Site settings (user/site/{id}/setting/gzip, rates, errorPages …) and what reaches the nodes.

let t: TestApp;
let f: SiteFixture;
let user: { accessToken: string };
let other: { accessToken: string };
let siteId: number;
let otherSiteId: number;

const setting = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);

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
    const res = await setting(getGzipSetting, { params: { siteId } });
    expect(res.json().data).toEqual({ enabled: false, types: GZIP_DEFAULT_TYPES, minLength: 1024, updatedAt: null });
    const plane = await snapshot();
    expect(plane.settings).toEqual([]);
    expect(domainOf(plane, 'www.shop.example')?.settingsId).toBeNull();
  });

  it('sets compression, reads it back and sends it to the nodes; turning it off removes it', async () => {
    const res = await setting(setGzipSetting, {
      params: { siteId },
      body: { enabled: true, types: ['text/html', 'text/css'], minLength: 2048 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ enabled: true, types: ['text/html', 'text/css'], minLength: 2048 });
    expect((await setting(getGzipSetting, { params: { siteId } })).json().data.updatedAt).not.toBeNull();
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

    await setting(setGzipSetting, { params: { siteId }, body: { enabled: false } });
    expect((await setting(getGzipSetting, { params: { siteId } })).json().data).toMatchObject({
      enabled: false,
      types: GZIP_DEFAULT_TYPES,
    });
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
    const res = await setting(setGzipSetting, rawInput({ params: { siteId }, body }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });
});

describe('bandwidth rate limits', () => {
  it('adds rules, lists them oldest first, edits one, and sends them to the nodes in KB/s', async () => {
    const res = await setting(addRateRules, {
      params: { siteId },
      body: {
        data: [
          { url: '/downloads/*', rate: 16, memo: 'big files' },
          { url: '*.iso', rate: 1 },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { url: string }) => r.url)).toEqual(['/downloads/*', '*.iso']);
    const [first] = (await setting(listRateRules, { params: { siteId } })).json().data;
    expect(first).toMatchObject({ siteID: siteId, url: '/downloads/*', rate: 16, memo: 'big files' });

    const edited = await setting(updateRateRule, {
      params: { siteId, ruleId: first.id },
      body: { url: '/video/*.mp4', rate: 512 },
    });
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
    const res = await setting(addRateRules, { params: { siteId }, body: { data: [rule] } });
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it('refuses more than the per-site limit with 101029, adding none of the batch', async () => {
    const before = (await setting(listRateRules, { params: { siteId } })).json().data.length;
    const data = Array.from({ length: RATE_RULES_PER_SITE - before + 1 }, () => ({ url: '*', rate: 10 }));
    const res = await setting(addRateRules, { params: { siteId }, body: { data } });
    expect(res.json().code).toBe(101029);
    expect((await setting(listRateRules, { params: { siteId } })).json().data).toHaveLength(before);
  });

  it("keeps one customer out of another's site and rules (101018), deletes all or none", async () => {
    const rules = (await setting(listRateRules, { params: { siteId } })).json().data;
    for (const [route, input] of [
      [listRateRules, { params: { siteId } }],
      [addRateRules, { params: { siteId }, body: { data: [{ url: '*', rate: 1 }] } }],
      [updateRateRule, { params: { siteId, ruleId: rules[0].id }, body: { url: '*', rate: 1 } }],
      [deleteRateRules, { params: { siteId }, body: { ids: [rules[0].id] } }],
    ] as const) {
      const res = await rawRequest(t.app, route, input, { token: other });
      expect(res.json().code, route.id).toBe(101018);
    }
    // The neighbour's own site cannot reach this site's rule either.
    const viaOwnSite = await setting(
      updateRateRule,
      { params: { siteId: otherSiteId, ruleId: rules[0].id }, body: { url: '*', rate: 1 } },
      other,
    );
    expect(viaOwnSite.json().code).toBe(101018);
    expect((await setting(listRateRules, { params: { siteId: otherSiteId } }, other)).json().data).toEqual([]);

    const missing = await setting(deleteRateRules, { params: { siteId }, body: { ids: [rules[0].id, 999_999] } });
    expect(missing.json().code).toBe(101018);
    expect((await setting(listRateRules, { params: { siteId } })).json().data).toHaveLength(rules.length);

    const deleted = await setting(deleteRateRules, {
      params: { siteId },
      body: { ids: rules.map((r: { id: number }) => r.id) },
    });
    expect(deleted.json().data).toBe(true);
    expect((await snapshot()).settings).toEqual([]);
  });
});

describe('error pages', () => {
  it('starts in English without pages; sets, replaces and removes pages and the language', async () => {
    expect((await setting(getErrorPages, { params: { siteId } })).json().data).toEqual({
      language: 'en_US',
      pages: [],
    });
    await setting(setErrorPage, { params: { siteId }, body: { status: 404, body: '<h1>old</h1>' } });
    const replaced = await setting(setErrorPage, {
      params: { siteId },
      body: { status: 404, body: '<h1>nothing here</h1>' },
    });
    expect(replaced.json().data).toMatchObject({ status: 404, body: '<h1>nothing here</h1>' });
    await setting(setErrorPage, { params: { siteId }, body: { status: 929, body: '<h1>slow down</h1>' } });
    const language = await setting(setErrorPageLanguage, { params: { siteId }, body: { language: 'zh_TW' } });
    expect(language.json().data).toEqual({ language: 'zh_TW' });

    const read = (await setting(getErrorPages, { params: { siteId } })).json().data;
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

    expect((await setting(deleteErrorPages, { params: { siteId }, body: { statuses: [404, 929] } })).json().data).toBe(
      true,
    );
    await setting(setErrorPageLanguage, { params: { siteId }, body: { language: 'en_US' } });
    plane = await snapshot();
    expect(plane.settings).toEqual([]);
  });

  it.each([
    ['status 200', { status: 200, body: 'x' }, 'status'],
    ['an empty body', { status: 404, body: '' }, 'body'],
    ['a body over 64 KB of UTF-8', { status: 404, body: 'é'.repeat(ERROR_PAGE_MAX_BYTES / 2 + 1) }, 'body'],
    ['no body', { status: 404 }, 'body'],
  ])('refuses a page with %s (101003 naming the field)', async (_label, body, field) => {
    const res = await setting(setErrorPage, rawInput({ params: { siteId }, body }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it('refuses an unknown language and status list with 101003', async () => {
    const language = await setting(setErrorPageLanguage, rawInput({ params: { siteId }, body: { language: 'fr_FR' } }));
    expect(fieldNames(language)).toEqual(['language']);
    const statuses = await setting(deleteErrorPages, { params: { siteId }, body: { statuses: [] } });
    expect(fieldNames(statuses)).toEqual(['statuses']);
  });

  it("keeps one customer out of another's pages (101018); removing a page that is not there removes none", async () => {
    await setting(setErrorPage, { params: { siteId }, body: { status: 502, body: '<h1>resting</h1>' } });
    for (const [route, input] of [
      [getErrorPages, { params: { siteId } }],
      [setErrorPage, { params: { siteId }, body: { status: 502, body: 'mine now' } }],
      [deleteErrorPages, { params: { siteId }, body: { statuses: [502] } }],
      [setErrorPageLanguage, { params: { siteId }, body: { language: 'zh_CN' } }],
    ] as const) {
      const res = await rawRequest(t.app, route, input, { token: other });
      expect(res.json().code, route.id).toBe(101018);
    }
    expect((await setting(getErrorPages, { params: { siteId: otherSiteId } }, other)).json().data.pages).toEqual([]);
    const missing = await setting(deleteErrorPages, { params: { siteId }, body: { statuses: [502, 404] } });
    expect(missing.json().code).toBe(101018);
    expect((await setting(getErrorPages, { params: { siteId } })).json().data.pages).toHaveLength(1);
  });
});
