import { CACHE_RULES_PER_SITE, dataPlaneSchema } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Method } from './helpers/auth.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Cache rules of a site (user/site/{id}/setting/caches …, currentCache) and what reaches the nodes.

let t: TestApp;
let f: SiteFixture;
let user: { accessToken: string };
let other: { accessToken: string };
let siteId: number;

const call = (
  method: Method,
  url: string,
  payload?: Record<string, unknown>,
  token: { accessToken: string } = f.client,
) => f.call(method, url, payload, token);
const cache = (method: Method, url: string, payload?: Record<string, unknown>, token = user) =>
  call(method, `user/site/${siteId}/setting/${url}`, payload, token);
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
    const res = await cache('GET', 'caches');
    expect(res.json().data).toEqual({ rules: [], generation: 1 });
    const snap = await snapshot();
    expect(snap.dataPlane.caches).toEqual([]);
    expect(snap.dataPlane.domains[0].cacheId).toBeNull();
  });

  it('adds rules with defaults, lists them by priority, and sends them to the nodes (file types expanded)', async () => {
    const res = await cache('POST', 'caches', {
      data: [
        { scope: 'fileType', values: ['image', 'file'], ttl: 86400 },
        { scope: 'directory', values: ['/api'], bypass: true, priority: 10 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(2);
    const listed = (await cache('GET', 'caches')).json().data.rules;
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
    const [first] = (await cache('GET', 'caches')).json().data.rules;
    const edited = await cache('PUT', `cache/${first.id}`, { scope: 'path', values: ['/index.html'], ttl: 60 });
    expect(edited.json().data).toMatchObject({ id: first.id, scope: 'path', values: ['/index.html'], ttl: 60 });

    const cleared = await cache('DELETE', 'currentCache');
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
    const res = await cache('POST', 'caches', { data: [rule] });
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields.map((f: { field: string }) => f.field)).toEqual([field]);
  });

  it('refuses more than the per-site limit with 101029, adding none of the batch', async () => {
    const before = (await cache('GET', 'caches')).json().data.rules.length;
    const data = Array.from({ length: CACHE_RULES_PER_SITE - before + 1 }, () => ({ scope: 'all' }));
    const res = await cache('POST', 'caches', { data });
    expect(res.json().code).toBe(101029);
    expect((await cache('GET', 'caches')).json().data.rules).toHaveLength(before);
  });

  it("keeps one customer out of another's site and rules (101018), deletes all or none", async () => {
    const rules = (await cache('GET', 'caches')).json().data.rules;
    for (const [method, url, body] of [
      ['GET', 'caches', undefined],
      ['POST', 'caches', { data: [{ scope: 'all' }] }],
      ['PUT', `cache/${rules[0].id}`, { scope: 'all' }],
      ['DELETE', 'caches', { ids: [rules[0].id] }],
      ['DELETE', 'currentCache', undefined],
    ] as const) {
      const res = await cache(method, url, body, other);
      expect(res.json().code, `${method} ${url}`).toBe(101018);
    }
    const missing = await cache('DELETE', 'caches', { ids: [rules[0].id, 999_999] });
    expect(missing.json().code).toBe(101018);
    expect((await cache('GET', 'caches')).json().data.rules).toHaveLength(rules.length);
    expect((await cache('GET', 'caches')).json().data.generation).toBe(2);

    const deleted = await cache('DELETE', 'caches', { ids: rules.map((r: { id: number }) => r.id) });
    expect(deleted.json().data).toBe(true);
    expect((await snapshot()).dataPlane.caches).toEqual([]);
  });
});
