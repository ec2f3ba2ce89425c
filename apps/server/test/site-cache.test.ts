import type { AnyRoute } from '@rampart/contract';
import {
  addCacheRules,
  CACHE_RULES_PER_SITE,
  clearSiteCache,
  dataPlaneSchema,
  deleteCacheRules,
  listCacheRules,
  updateCacheRule,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawInput, rawRequest, sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Cache rules of a site (user/site/{id}/setting/caches …, currentCache) and what reaches the nodes.

let t: TestApp;
let f: SiteFixture;
let user: { accessToken: string };
let other: { accessToken: string };
let siteId: number;

const cache = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);
const snapshot = () => f.snapshot();

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t);
  ({ user, other, siteId } = f);
  await f.addDomains(['www.shop.example']);
});
afterAll(async () => t.close());

describe('site cache rules', () => {
  it('starts with no rule, generation 1, and sends no cache policy to the nodes', async () => {
    const res = await cache(listCacheRules, { params: { siteId } });
    expect(res.json().data).toEqual({ rules: [], generation: 1 });
    const snap = await snapshot();
    expect(snap.dataPlane.caches).toEqual([]);
    expect(snap.dataPlane.domains[0].cacheId).toBeNull();
  });

  it('adds rules with defaults, lists them by priority, and sends them to the nodes (file types expanded)', async () => {
    const res = await cache(addCacheRules, {
      params: { siteId },
      body: {
        data: [
          { scope: 'fileType', values: ['image', 'file'], ttl: 86400 },
          { scope: 'directory', values: ['/api'], bypass: true, priority: 10 },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(2);
    const listed = (await cache(listCacheRules, { params: { siteId } })).json().data.rules;
    expect(listed.map((r: { scope: string }) => r.scope)).toEqual(['directory', 'fileType']);
    expect(listed[1]).toMatchObject({
      ttl: 86400,
      queryString: 'include',
      bypass: false,
      respectOrigin: true,
      priority: 0,
    });

    const snap = await snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    expect(snap.dataPlane.domains[0].cacheId).toBe(siteId);
    expect(snap.dataPlane.caches).toEqual([
      {
        id: siteId,
        generation: 1,
        rules: [
          {
            scope: 'directory',
            values: ['/api'],
            ttl: 3600,
            queryString: 'include',
            bypass: true,
            respectOrigin: true,
          },
          {
            scope: 'suffix',
            values: ['gif', 'png', 'jpg', 'jpeg', 'bmp', 'ipa', 'apk'],
            ttl: 86400,
            queryString: 'include',
            bypass: false,
            respectOrigin: true,
          },
        ],
      },
    ]);
  });

  it('edits a rule and clears the cache with a new generation on the nodes', async () => {
    const [first] = (await cache(listCacheRules, { params: { siteId } })).json().data.rules;
    const edited = await cache(updateCacheRule, {
      params: { siteId, ruleId: first.id },
      body: { scope: 'path', values: ['/index.html'], ttl: 60 },
    });
    expect(edited.json().data).toMatchObject({ id: first.id, scope: 'path', values: ['/index.html'], ttl: 60 });

    const cleared = await cache(clearSiteCache, { params: { siteId } });
    expect(cleared.json().data).toEqual({ generation: 2 });
    expect((await snapshot()).dataPlane.caches[0].generation).toBe(2);
  });

  it.each([
    [{ scope: 'path', values: ['no-slash'] }, 'data.0.values.0'],
    [{ scope: 'path', values: ['/a b'] }, 'data.0.values.0'],
    [{ scope: 'suffix', values: ['.png'] }, 'data.0.values.0'],
    [{ scope: 'fileType', values: ['executables'] }, 'data.0.values.0'],
    [{ scope: 'directory', values: [] }, 'data.0.values'],
    [{ scope: 'all', values: ['/x'] }, 'data.0.values'],
    [{ scope: 'suffix', values: ['png', 'png'] }, 'data.0.values'],
    [{ scope: 'all', ttl: 61 }, 'data.0.ttl'],
    [{ scope: 'everything' }, 'data.0.scope'],
    [{ scope: 'all', queryString: 'sometimes' }, 'data.0.queryString'],
    [{ scope: 'all', priority: 1001 }, 'data.0.priority'],
  ])('refuses %j with 101003 naming %s', async (rule, field) => {
    const res = await cache(addCacheRules, rawInput({ params: { siteId }, body: { data: [rule] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it('refuses more than the per-site limit with 101029, adding none of the batch', async () => {
    const before = (await cache(listCacheRules, { params: { siteId } })).json().data.rules.length;
    const data = Array.from({ length: CACHE_RULES_PER_SITE - before + 1 }, () => ({ scope: 'all' as const }));
    const res = await cache(addCacheRules, { params: { siteId }, body: { data } });
    expect(res.json().code).toBe(101029);
    expect((await cache(listCacheRules, { params: { siteId } })).json().data.rules).toHaveLength(before);
  });

  it("keeps one customer out of another's site and rules (101018), deletes all or none", async () => {
    const rules = (await cache(listCacheRules, { params: { siteId } })).json().data.rules;
    for (const [route, input] of [
      [listCacheRules, { params: { siteId } }],
      [addCacheRules, { params: { siteId }, body: { data: [{ scope: 'all' }] } }],
      [updateCacheRule, { params: { siteId, ruleId: rules[0].id }, body: { scope: 'all' } }],
      [deleteCacheRules, { params: { siteId }, body: { ids: [rules[0].id] } }],
      [clearSiteCache, { params: { siteId } }],
    ] as const) {
      const res = await rawRequest(t.app, route, input, { token: other });
      expect(res.json().code, route.id).toBe(101018);
    }
    const missing = await cache(deleteCacheRules, { params: { siteId }, body: { ids: [rules[0].id, 999_999] } });
    expect(missing.json().code).toBe(101018);
    expect((await cache(listCacheRules, { params: { siteId } })).json().data.rules).toHaveLength(rules.length);
    expect((await cache(listCacheRules, { params: { siteId } })).json().data.generation).toBe(2);

    const deleted = await cache(deleteCacheRules, {
      params: { siteId },
      body: { ids: rules.map((r: { id: number }) => r.id) },
    });
    expect(deleted.json().data).toBe(true);
    expect((await snapshot()).dataPlane.caches).toEqual([]);
  });
});
