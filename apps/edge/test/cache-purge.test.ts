import type { EdgeCachePolicy } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preheatUrls, purgeUrls } from '../src/agent/commands/cache-commands.js';
import { cacheRule, document, domain, upstream } from './helpers/documents.js';
import { adminCall, type Edge, startEdge } from './helpers/edge.js';
import { request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';

// Clearing and warming the cache of a real nginx: URL purges through the admin endpoint
// (rampart.purge + ngx_cache_purge), a new node cache epoch, and preheats by the agent's code.

let edge: Edge;
let origin: Origin;

const POLICY: EdgeCachePolicy = {
  id: 3,
  generation: 5,
  rules: [
    cacheRule({ scope: 'suffix', values: ['css'], queryString: 'ignore' }),
    cacheRule({ scope: 'directory', values: ['/'] }),
  ],
};

async function push(epoch: number) {
  await edge.push(
    document(
      `purge-${epoch}`,
      [
        domain(1, 'www.shop.example', [upstream(origin.port)], { cacheId: 3 }),
        domain(2, '*.img.shop.example', [upstream(origin.port)], { cacheId: 3 }),
        domain(3, 'plain.shop.example', [upstream(origin.port)]),
      ],
      [],
      [POLICY],
      { cacheEpoch: epoch },
    ),
  );
}

const get = (host: string, path: string) => request(edge.httpPort, host, path);
const status = async (host: string, path: string) => (await get(host, path)).headers['x-cache-status'];
const hits = (url: string) => origin.seen.filter((s) => s.url === url).length;

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await push(0);
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('URL purge', () => {
  it('removes one cached URL and leaves the others cached', async () => {
    await get('www.shop.example', '/a.html');
    await get('www.shop.example', '/b.html');
    expect(await status('www.shop.example', '/a.html')).toBe('HIT');

    const [result] = await purgeUrls(edge.adminEndpoint, ['http://www.shop.example/a.html']);
    expect(result).toMatchObject({ ok: true, purged: 1, message: 'purged' });
    expect(await status('www.shop.example', '/a.html')).toBe('MISS');
    expect(await status('www.shop.example', '/b.html')).toBe('HIT');
    expect(hits('/a.html')).toBe(2);
    expect(hits('/b.html')).toBe(1);
  });

  it('finds the key as nginx built it: the query kept or ignored by the rule, escapes decoded', async () => {
    await get('www.shop.example', '/q.html?v=1');
    await get('www.shop.example', '/style.css?v=9'); // the css rule ignores the query
    await get('www.shop.example', '/with%20space.html');
    const results = await purgeUrls(edge.adminEndpoint, [
      'http://www.shop.example/q.html?v=1',
      'https://www.shop.example/style.css?v=1',
      'http://www.shop.example/with%20space.html',
    ]);
    expect(results.map((r) => r.purged)).toEqual([1, 1, 1]);
    expect(await status('www.shop.example', '/q.html?v=1')).toBe('MISS');
    expect(await status('www.shop.example', '/style.css?v=9')).toBe('MISS');
    expect(await status('www.shop.example', '/with%20space.html')).toBe('MISS');
  });

  it('purges under a wildcard domain by the host the request named', async () => {
    await get('cdn.img.shop.example', '/logo.png');
    expect(await status('cdn.img.shop.example', '/logo.png')).toBe('HIT');
    const [result] = await purgeUrls(edge.adminEndpoint, ['http://cdn.img.shop.example/logo.png']);
    expect(result?.purged).toBe(1);
    expect(await status('cdn.img.shop.example', '/logo.png')).toBe('MISS');
  });

  it('reports URLs with nothing cached, no cache policy or no domain on the node', async () => {
    const results = await purgeUrls(edge.adminEndpoint, [
      'http://www.shop.example/never-requested',
      'http://plain.shop.example/x',
      'http://unknown.example/x',
    ]);
    expect(results).toMatchObject([
      { ok: true, purged: 0, message: 'not in the cache' },
      { ok: true, purged: 0, message: 'the domain caches nothing' },
      { ok: false, purged: 0, message: 'no domain of this node serves unknown.example' },
    ]);
  });

  it('refuses a body without a list of URLs', async () => {
    const answer = await adminCall(
      edge.adminEndpoint,
      'POST',
      '/cache/purge',
      JSON.stringify({ urls: 'http://www.shop.example/' }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'urls' });
  });
});

describe('node cache epoch', () => {
  it('makes every cached entry miss once a higher epoch is pushed, without a reload', async () => {
    await get('www.shop.example', '/epoch.html');
    expect(await status('www.shop.example', '/epoch.html')).toBe('HIT');
    const workers = await edge.nginx.workerPids();
    await push(1);
    expect(await status('www.shop.example', '/epoch.html')).toBe('MISS');
    expect(await status('www.shop.example', '/epoch.html')).toBe('HIT');
    expect(await edge.nginx.workerPids()).toEqual(workers);
  });

  it('refuses an epoch that is not a non-negative integer', async () => {
    const bad = JSON.stringify({ version: 'bad-epoch', domains: [], certificates: [], caches: [], cacheEpoch: -1 });
    const answer = await edge.putRaw(bad);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'cacheEpoch' });
  });
});

describe('preheat', () => {
  it('fetches URLs through nginx so that the next request is a hit', async () => {
    const results = await preheatUrls({ address: '127.0.0.1', httpPort: edge.httpPort, httpsPort: null }, [
      'http://www.shop.example/warm.html',
      'http://plain.shop.example/warm.html',
      'https://www.shop.example/warm.html',
    ]);
    expect(results[0]).toMatchObject({ ok: true, httpStatus: 200, cacheStatus: 'MISS' });
    expect(results[1]).toMatchObject({ ok: true, httpStatus: 200, cacheStatus: null });
    expect(results[2]).toMatchObject({ ok: false, httpStatus: null, message: 'the node listens on no HTTPS port' });
    expect(await status('www.shop.example', '/warm.html')).toBe('HIT');
    expect(hits('/warm.html')).toBe(2); // one per domain preheated over HTTP
  });

  it('reports an unknown host as a failed URL with the status nginx answered', async () => {
    const [result] = await preheatUrls({ address: '127.0.0.1', httpPort: edge.httpPort, httpsPort: null }, [
      'http://unknown.example/',
    ]);
    expect(result).toMatchObject({ ok: false, httpStatus: 404 });
  });
});
