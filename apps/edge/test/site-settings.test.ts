import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EdgeCacheRule, EdgeSiteSettings } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort } from './helpers/net.js';

// Site settings at the edge (packages/contract/src/routes/site-settings.ts) through a real nginx:
// compression by type and length, a bandwidth limit on matching paths, and the site's error pages
// (origin 404, unreachable origin 502, a 9xx block) or the edge's own in the site's language.

const LARGE_TEXT = 'rampart compresses text. '.repeat(800); // 20 KB
const IMAGE = Buffer.alloc(20_000, 7);
const DOWNLOAD = Buffer.alloc(64 * 1024, 65);
const MY_404 = '<!DOCTYPE html><h1>Nothing here, sorry</h1>';
const MY_502 = '<h1>Our shop is resting</h1>';
const MY_929 = '<h1>Slow down</h1>';

let edge: Edge;
let origin: http.Server;
let originPort: number;

function serveOrigin(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = req.url ?? '/';
  if (url.startsWith('/large.txt') || url.startsWith('/cached/large.txt')) {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(LARGE_TEXT);
  } else if (url.startsWith('/small.txt')) {
    // With its length: a response of unknown length is compressed whatever its size (as nginx does).
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '4' }).end('tiny');
  } else if (url.startsWith('/page.css')) {
    res.writeHead(200, { 'content-type': 'text/css' }).end(LARGE_TEXT);
  } else if (url.startsWith('/image.png')) {
    res.writeHead(200, { 'content-type': 'image/png' }).end(IMAGE);
  } else if (url.startsWith('/downloads/') || url.startsWith('/other/')) {
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(DOWNLOAD);
  } else if (url.startsWith('/teapot')) {
    res.writeHead(418, { 'content-type': 'text/plain' }).end('origin teapot');
  } else {
    res.writeHead(404, { 'content-type': 'text/plain', etag: '"abc"' }).end('origin says not found');
  }
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

/** A GET to the edge on a new connection, with the given Host and Accept-Encoding (raw bytes back). */
function get(host: string, path: string, acceptEncoding = 'gzip'): Promise<Reply> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: edge.httpPort,
        path,
        headers: { host, 'accept-encoding': acceptEncoding },
        agent: false,
        timeout: 20_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

const SETTINGS: EdgeSiteSettings = {
  id: 5,
  gzip: { types: ['text/plain', 'text/html'], minLength: 1024 },
  rates: [
    { pattern: '/downloads/*', kbps: 16 },
    { pattern: '*.slow', kbps: 1 },
  ],
  language: 'en_US',
  pages: [
    { status: 404, body: MY_404 },
    { status: 502, body: MY_502 },
    { status: 929, body: MY_929 },
  ],
};

const HEADER_REF = moduleRefs({ customHeader: 1 });

const cacheAll: EdgeCacheRule = {
  scope: 'directory',
  values: ['/cached'],
  ttl: 3600,
  queryString: 'include',
  bypass: false,
  respectOrigin: true,
};

beforeAll(async () => {
  origin = http.createServer(serveOrigin);
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  const closedPort = await freePort();
  // A test-only location that answers with a 9xx block page, as the firewall will.
  edge = await startEdge(
    {},
    { serverSnippet: 'location = /blocked-by-test { content_by_lua_block { require("rampart.pages").send(929) } }' },
  );
  await edge.push(
    document(
      'settings-1',
      [
        domain(1, 'shop.example.com', [upstream(originPort)], { settingsId: 5, cacheId: 5 }),
        domain(2, 'plain.example.com', [upstream(originPort)]),
        domain(3, 'down.example.com', [upstream(closedPort)], { settingsId: 5 }),
        domain(4, 'chinese.example.com', [upstream(closedPort)], { settingsId: 6 }),
        domain(5, 'rates.example.com', [upstream(originPort)], { settingsId: 7 }),
        // Site modules and site settings together, and modules alone (gzip stays off for them).
        domain(6, 'both.example.com', [upstream(originPort)], { settingsId: 5, cacheId: 5, modules: HEADER_REF }),
        domain(7, 'modules-only.example.com', [upstream(originPort)], { modules: HEADER_REF }),
      ],
      [],
      [{ id: 5, generation: 1, rules: [cacheAll] }],
      {
        settings: [
          SETTINGS,
          { id: 6, gzip: null, rates: [], language: 'zh_CN', pages: [] },
          { id: 7, gzip: null, rates: [{ pattern: '/downloads/*', kbps: 16 }], language: 'en_US', pages: [] },
        ],
        modules: [{ id: 1, type: 'customHeader', request: [], response: [{ name: 'X-Frame-Options', value: 'DENY' }] }],
      },
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await new Promise<void>((resolve) => {
    origin?.closeAllConnections();
    origin ? origin.close(() => resolve()) : resolve();
  });
});

describe('compression', () => {
  it('gzips a large response of a chosen type and leaves the same response of a plain domain alone', async () => {
    const large = await get('shop.example.com', '/large.txt');
    expect(large.status).toBe(200);
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(large.headers.vary).toMatch(/Accept-Encoding/i);
    const { gunzipSync } = await import('node:zlib');
    expect(gunzipSync(large.body).toString()).toBe(LARGE_TEXT);

    const plain = await get('plain.example.com', '/large.txt');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(LARGE_TEXT);
  });

  it('does not gzip a response below the minimum length, of a type not chosen, or an image', async () => {
    for (const path of ['/small.txt', '/page.css', '/image.png']) {
      const reply = await get('shop.example.com', path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers['content-encoding'], path).toBeUndefined();
    }
    expect((await get('shop.example.com', '/image.png')).body.equals(IMAGE)).toBe(true);
  });

  it('does not gzip for a client that does not accept it, and gzips cached responses too', async () => {
    const identity = await get('shop.example.com', '/large.txt', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    const first = await get('shop.example.com', '/cached/large.txt');
    const second = await get('shop.example.com', '/cached/large.txt');
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(second.headers['content-encoding']).toBe('gzip');
  });
});

describe('bandwidth rate limit', () => {
  it('limits a matching download (64 KB at 16 KB/s takes about 3 s) and not another path', async () => {
    // rates.example.com proxies on the hot path; shop.example.com (compression, pages) through the
    // site location the router redirects to: the limit set in the router survives the redirect.
    const [limited, redirected] = await Promise.all([
      get('rates.example.com', '/downloads/file.bin'),
      get('shop.example.com', '/downloads/file.bin', 'identity'),
    ]);
    for (const reply of [limited, redirected]) {
      expect(reply.status).toBe(200);
      expect(reply.body.length).toBe(DOWNLOAD.length);
      expect(reply.ms).toBeGreaterThanOrEqual(2_500);
    }

    const free = await get('rates.example.com', '/other/file.bin');
    expect(free.body.length).toBe(DOWNLOAD.length);
    // Faster than the limit lets a matching download go (the 2.5 s floor above).
    expect(free.ms).toBeLessThan(2_500);
  }, 20_000);
});

describe('error pages', () => {
  it("serves the site's page instead of the origin's 404, verbatim as text/html", async () => {
    const reply = await get('shop.example.com', '/missing', 'identity');
    expect(reply.status).toBe(404);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers.etag).toBeUndefined();
    expect(reply.body.toString()).toBe(MY_404);
  });

  it("keeps the origin's answer for a status the site has no page for", async () => {
    const reply = await get('shop.example.com', '/teapot', 'identity');
    expect(reply.status).toBe(418);
    expect(reply.body.toString()).toBe('origin teapot');
  });

  it("serves the site's 502 page when the origin cannot be reached, and its 9xx block page", async () => {
    const down = await get('down.example.com', '/');
    expect(down.status).toBe(502);
    expect(down.body.toString()).toBe(MY_502);
    const blocked = await get('shop.example.com', '/blocked-by-test');
    expect(blocked.status).toBe(929);
    expect(blocked.body.toString()).toBe(MY_929);
  });

  it("serves the edge's own page in the site's language, and in English for other domains", async () => {
    const chinese = await get('chinese.example.com', '/');
    expect(chinese.status).toBe(502);
    expect(chinese.body.toString()).toContain('无法连接源站服务器');
    const unknown = await get('nowhere.example.com', '/');
    expect(unknown.status).toBe(404);
    expect(unknown.body.toString()).toContain('Domain not found');
  });
});

describe('refusals', () => {
  it.each([
    ['settings[0].gzip.types[0]', { gzip: { types: ['text/html"; gzip off'], minLength: 0 } }],
    ['settings[0].rates[0].pattern', { rates: [{ pattern: '/a*b*c', kbps: 1 }] }],
    ['settings[0].rates[0].kbps', { rates: [{ pattern: '/a', kbps: 0 }] }],
    ['settings[0].language', { language: 'xx' }],
    ['settings[0].pages[0].status', { pages: [{ status: 200, body: 'x' }] }],
  ])('the Lua admin refuses %s', async (field, fields) => {
    const doc = document('bad', [domain(1, 'a.example.com', [upstream(originPort)], { settingsId: 5 })], [], [], {
      settings: [{ ...SETTINGS, ...fields } as EdgeSiteSettings],
    });
    const res = await edge.putRaw(JSON.stringify(doc));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });
});

describe('site settings with site modules', () => {
  it("applies both the module's headers and the site's compression, cached or not", async () => {
    const plain = await get('both.example.com', '/large.txt');
    expect(plain.headers['x-frame-options']).toBe('DENY');
    expect(plain.headers['content-encoding']).toBe('gzip');
    await get('both.example.com', '/cached/large.txt');
    const cached = await get('both.example.com', '/cached/large.txt');
    expect(cached.headers['x-cache-status']).toBe('HIT');
    expect(cached.headers['x-frame-options']).toBe('DENY');
    expect(cached.headers['content-encoding']).toBe('gzip');
    const missing = await get('both.example.com', '/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe(MY_404);
    expect(missing.headers['x-frame-options']).toBe('DENY');
  });

  it('compresses nothing for a domain with modules and no compression setting', async () => {
    const reply = await get('modules-only.example.com', '/large.txt');
    expect(reply.headers['x-frame-options']).toBe('DENY');
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.body.toString()).toBe(LARGE_TEXT);
  });
});
