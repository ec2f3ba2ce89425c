import type { EdgeCachePolicy, EdgeCacheRule } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheRule, document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';

// Cache rules at the edge (packages/contract/src/routes/site-cache.ts) through a real nginx: what is
// stored, what is not, how the key treats the query, and a new generation clearing a site.

let edge: Edge;
let origin: Origin;

const RULES: EdgeCacheRule[] = [
  cacheRule({ scope: 'directory', values: ['/api'], bypass: true }),
  cacheRule({ scope: 'path', values: ['/private'] }),
  cacheRule({ scope: 'path', values: ['/forced'], respectOrigin: false }),
  cacheRule({ scope: 'suffix', values: ['png', 'css'], queryString: 'ignore' }),
  cacheRule({ scope: 'directory', values: ['/static/'] }),
];

async function pushPolicy(generation: number, rules = RULES) {
  const policy: EdgeCachePolicy = { id: 7, generation, rules };
  await edge.push(
    document(
      `cache-${generation}-${rules.length}`,
      [
        domain(1, 'cached.example.com', [upstream(origin.port)], { cacheId: 7 }),
        domain(2, 'plain.example.com', [upstream(origin.port)]),
      ],
      [],
      [policy],
    ),
  );
}

/** How many requests for `url` reached the origin. */
const originHits = (url: string) => origin.seen.filter((s) => s.url === url).length;

async function twice(host: string, path: string) {
  const first = await request(edge.httpPort, host, path);
  const second = await request(edge.httpPort, host, path);
  return { first, second };
}

beforeAll(async () => {
  origin = await startOrigin('origin', {
    responseHeaders: (url): Record<string, string> =>
      url.startsWith('/private') || url.startsWith('/forced') ? { 'cache-control': 'no-store' } : {},
  });
  edge = await startEdge();
  await pushPolicy(1);
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('cache rules at the edge', () => {
  it('stores a response a rule covers and answers the next request from the cache', async () => {
    const { first, second } = await twice('cached.example.com', '/static/app.js');
    expect(first.status).toBe(200);
    expect(first.headers['x-cache-status']).toBe('MISS');
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(second.body).toBe(first.body);
    expect(originHits('/static/app.js')).toBe(1);
  });

  it('leaves a domain without a cache policy, and paths no rule covers, uncached', async () => {
    const plain = await twice('plain.example.com', '/static/app.js?plain');
    expect(plain.second.headers['x-cache-status']).toBeUndefined();
    const uncovered = await twice('cached.example.com', '/other/page.html');
    expect(uncovered.second.headers['x-cache-status']).toBeUndefined();
    expect(originHits('/other/page.html')).toBe(2);
  });

  it('lets a bypass rule carve an exception out (first matching rule wins)', async () => {
    const { second } = await twice('cached.example.com', '/api/items.png');
    expect(second.headers['x-cache-status']).toBeUndefined();
    expect(originHits('/api/items.png')).toBe(2);
  });

  it('keeps the query in the key unless the rule ignores it', async () => {
    await request(edge.httpPort, 'cached.example.com', '/static/q.js?v=1');
    const other = await request(edge.httpPort, 'cached.example.com', '/static/q.js?v=2');
    expect(other.headers['x-cache-status']).toBe('MISS');

    await request(edge.httpPort, 'cached.example.com', '/img/logo.PNG?v=1');
    const ignored = await request(edge.httpPort, 'cached.example.com', '/img/logo.PNG?v=2');
    expect(ignored.headers['x-cache-status']).toBe('HIT');
    expect(origin.seen.filter((s) => s.url?.startsWith('/img/logo.PNG')).length).toBe(1);
  });

  it("respects the origin's no-store unless the rule overrides the origin", async () => {
    const respected = await twice('cached.example.com', '/private');
    expect(respected.second.headers['x-cache-status']).toBe('MISS');
    expect(originHits('/private')).toBe(2);

    const forced = await twice('cached.example.com', '/forced');
    expect(forced.second.headers['x-cache-status']).toBe('HIT');
    expect(originHits('/forced')).toBe(1);
  });

  it('never caches a POST', async () => {
    await request(edge.httpPort, 'cached.example.com', '/static/form', { method: 'POST', body: 'a=1' });
    const again = await request(edge.httpPort, 'cached.example.com', '/static/form', { method: 'POST', body: 'a=1' });
    expect(again.status).toBe(200);
    expect(again.headers['x-cache-status']).toBeUndefined();
    expect(originHits('/static/form')).toBe(2);
  });

  it('clears the whole site with a new generation, without a reload', async () => {
    await request(edge.httpPort, 'cached.example.com', '/static/gen.css');
    expect((await request(edge.httpPort, 'cached.example.com', '/static/gen.css')).headers['x-cache-status']).toBe(
      'HIT',
    );
    const workers = await edge.nginx.workerPids();
    await pushPolicy(2);
    const after = await request(edge.httpPort, 'cached.example.com', '/static/gen.css');
    expect(after.headers['x-cache-status']).toBe('MISS');
    expect(originHits('/static/gen.css')).toBe(2);
    expect(await edge.nginx.workerPids()).toEqual(workers);
  });

  it('refuses a policy with a value outside the allowlist', async () => {
    const bad = JSON.stringify({
      version: 'bad-cache',
      domains: [],
      certificates: [],
      caches: [{ id: 1, generation: 1, rules: [cacheRule({ scope: 'path', values: ['/a"; return 200'] })] }],
    });
    const answer = await edge.putRaw(bad);
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('caches[0].rules[0].values[0]');
  });
});
