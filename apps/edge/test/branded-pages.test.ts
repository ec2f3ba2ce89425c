import http2 from 'node:http2';
import type { EdgeModule } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheRule, document, domain, moduleRefs, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { type RawAnswer, rawRequest } from './helpers/raw.js';

// Every answer the edge makes itself is Rampart's page, never nginx's stock one (with its "nginx"
// footer): origin failures in every kind of location the renderer emits (hot path, HTTPS origins,
// site modules, cache locations and their `_site` twins, site-settings locations), on HTTP and
// HTTPS, the redirects (forceSSL and the URL-redirect module), and the statuses nginx generates
// itself before or around routing (400, 405, 413, 414, 494, 497, 501; 408 is no answer at all).

const FOOTER = '<hr><p style="color:#888">Rampart</p>';

function expectBranded(answer: RawAnswer, status: number, heading: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(answer.body).toContain(FOOTER);
  expect(answer.body).toContain(`<h1>${heading}</h1>`);
  expect(answer.body).not.toMatch(/nginx|openresty/i);
  // An origin's failure reached the router: its page shows the request's id (the log line's).
  if (status === 502 || status === 504) expect(answer.body).toMatch(/Request ID: <code>[A-Za-z0-9._-]+<\/code>/);
}

const MODULES: EdgeModule[] = [
  { id: 1, type: 'customHeader', request: [], response: [{ name: 'X-Edge', value: 'yes' }] },
  {
    id: 2,
    type: 'urlRedirect',
    rules: [
      { match: 'exact', source: '/old', target: '/new', code: 301, keepQuery: true },
      { match: 'exact', source: '/moved', target: 'https://elsewhere.example.net/', code: 302, keepQuery: false },
      { match: 'exact', source: '/temp', target: '/t', code: 307, keepQuery: false },
      { match: 'exact', source: '/perm', target: '/p', code: 308, keepQuery: false },
    ],
  },
];

let edge: Edge;
let alive: Origin;
let hanging: Origin;
let down: number;

/** A GET with Connection: close on the edge's HTTP port, or on its HTTPS port with SNI = host. */
function get(host: string, path = '/', options: { tls?: boolean; headers?: string[] } = {}): Promise<RawAnswer> {
  const lines = [`GET ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close', ...(options.headers ?? []), '', ''];
  return rawRequest(options.tls ? edge.httpsPort : edge.httpPort, [lines.join('\r\n')], {
    tls: options.tls ? host : undefined,
  });
}

beforeAll(async () => {
  alive = await startOrigin('alive', { responseHeaders: () => ({ 'cache-control': 'max-age=600' }) });
  hanging = await startOrigin('hanging', { hang: true });
  down = await freePort();
  edge = await startEdge({
    proxyReadTimeoutSeconds: 1,
    clientMaxBodyMegabytes: 1,
    tuning: { worker: {}, http: { clientBodyTimeoutSeconds: 1 }, stream: {}, custom: [] },
  });
  const dead = [upstream(down)];
  const https = { origin: { scheme: 'https' as const } };
  const cached = { cacheId: 10 };
  const site = { settingsId: 20 };
  await edge.push(
    document(
      'branded-1',
      [
        domain(1, 'plain.example.com', dead),
        domain(2, 'tls-origin.example.com', dead, https),
        domain(3, 'modules.example.com', dead, { modules: moduleRefs({ customHeader: 1 }) }),
        domain(4, 'modules-tls.example.com', dead, { ...https, modules: moduleRefs({ customHeader: 1 }) }),
        domain(5, 'cached.example.com', dead, cached),
        domain(6, 'cached-fixed.example.com', dead, { cacheId: 11 }),
        domain(7, 'cached-site.example.com', dead, { ...cached, ...site }),
        domain(8, 'site.example.com', dead, site),
        domain(9, 'site-tls.example.com', dead, { ...https, ...site }),
        domain(10, 'modules-cached.example.com', dead, { ...cached, modules: moduleRefs({ customHeader: 1 }) }),
        domain(11, 'hanging.example.com', [upstream(hanging.port)]),
        domain(12, 'hanging-modules.example.com', [upstream(hanging.port)], {
          modules: moduleRefs({ customHeader: 1 }),
        }),
        domain(13, 'secure.example.com', [upstream(alive.port)], { forceSSL: true, forceSSLCode: 301 }),
        domain(14, 'redirects.example.com', [upstream(alive.port)], { modules: moduleRefs({ urlRedirect: 2 }) }),
        domain(15, 'alive-cached.example.com', [upstream(alive.port)], { cacheId: 10 }),
      ],
      [],
      [
        { id: 10, generation: 1, rules: [cacheRule({})] },
        { id: 11, generation: 1, rules: [cacheRule({ respectOrigin: false })] },
      ],
      {
        modules: MODULES,
        settings: [
          {
            id: 20,
            gzip: { types: ['text/plain'], minLength: 0 },
            rates: [],
            language: 'en_US',
            pages: [],
          },
        ],
      },
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await alive?.close();
  await hanging?.close();
});

// Each host reaches a different location of the rendered server (render.ts).
const LOCATIONS = [
  ['location / (HTTP origin, the hot path)', 'plain.example.com'],
  ['@rampart_route (HTTPS origin)', 'tls-origin.example.com'],
  ['@rampart_modules (HTTP origin)', 'modules.example.com'],
  ['@rampart_modules (HTTPS origin)', 'modules-tls.example.com'],
  ['@rampart_cache_<ttl>', 'cached.example.com'],
  ['@rampart_cache_<ttl>_fixed', 'cached-fixed.example.com'],
  ['@rampart_cache_<ttl>_site', 'cached-site.example.com'],
  ['@rampart_site_http', 'site.example.com'],
  ['@rampart_site_https', 'site-tls.example.com'],
  ['@rampart_modules then a cache location', 'modules-cached.example.com'],
] as const;

describe('an origin that cannot be reached', () => {
  it.each(LOCATIONS)('answers the 502 page in %s over HTTP', async (_, host) => {
    expectBranded(await get(host), 502, '502 Bad gateway');
  });

  it.each(LOCATIONS)('answers the 502 page in %s over HTTPS', async (_, host) => {
    expectBranded(await get(host, '/', { tls: true }), 502, '502 Bad gateway');
  });

  it('answers the 502 page over HTTP/2', async () => {
    const session = http2.connect(`https://127.0.0.1:${edge.httpsPort}`, {
      servername: 'modules.example.com',
      rejectUnauthorized: false,
    });
    try {
      for (const host of ['plain.example.com', 'modules.example.com', 'cached.example.com']) {
        const answer = await new Promise<RawAnswer>((resolve, reject) => {
          const stream = session.request({ ':path': '/', ':authority': host });
          let headers: http2.IncomingHttpHeaders = {};
          let body = '';
          stream.on('response', (h) => {
            headers = h;
          });
          stream.on('data', (chunk: Buffer) => {
            body += chunk.toString('utf8');
          });
          stream.on('end', () =>
            resolve({
              status: Number(headers[':status']),
              headers: { 'content-type': String(headers['content-type']) },
              body,
              raw: body,
            }),
          );
          stream.on('error', reject);
        });
        expectBranded(answer, 502, '502 Bad gateway');
      }
    } finally {
      session.close();
    }
  });

  it('answers the 502 page to a WebSocket upgrade', async () => {
    const headers = ['Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='];
    const lines = ['GET /socket HTTP/1.1', 'Host: plain.example.com', 'Connection: Upgrade', ...headers, '', ''];
    expectBranded(await rawRequest(edge.httpPort, [lines.join('\r\n')]), 502, '502 Bad gateway');
    const viaModules = lines.map((l) => l.replace('plain.example.com', 'modules.example.com'));
    expectBranded(await rawRequest(edge.httpPort, [viaModules.join('\r\n')]), 502, '502 Bad gateway');
  });

  it('answers the 504 page when the origin does not answer in time, with and without modules', async () => {
    expectBranded(await get('hanging.example.com'), 504, '504 Gateway timeout');
    expectBranded(await get('hanging-modules.example.com'), 504, '504 Gateway timeout');
  });
});

describe('redirects', () => {
  it('sends the forceSSL redirect with a Rampart body', async () => {
    const answer = await get('secure.example.com', '/login?next=1');
    expectBranded(answer, 301, '301 Moved permanently');
    expect(answer.headers.location).toBe(`https://secure.example.com:${edge.httpsPort}/login?next=1`);
  });

  it.each([
    ['/old?x=1', 301, '301 Moved permanently', '/new?x=1'],
    ['/moved', 302, '302 Found', 'https://elsewhere.example.net/'],
    ['/temp', 307, '307 Temporary redirect', '/t'],
    ['/perm', 308, '308 Permanent redirect', '/p'],
  ] as const)('sends the URL-redirect module %s with a Rampart body', async (path, status, heading, location) => {
    const answer = await get('redirects.example.com', path);
    expectBranded(answer, status, heading);
    expect(answer.headers.location).toBe(location);
  });
});

describe('statuses nginx answers by itself', () => {
  it('400 for a request without Host and for a malformed request line', async () => {
    expectBranded(await rawRequest(edge.httpPort, ['GET / HTTP/1.1\r\n\r\n']), 400, '400 Bad request');
    expectBranded(await rawRequest(edge.httpPort, ['GARBAGE\r\n\r\n']), 400, '400 Bad request');
    expectBranded(await get('bad_host..example.com'), 400, '400 Bad request');
  });

  it('405 for TRACE', async () => {
    const answer = await rawRequest(edge.httpPort, ['TRACE / HTTP/1.1\r\nHost: plain.example.com\r\n\r\n']);
    expectBranded(answer, 405, '405 Method not allowed');
  });

  it('408: nothing at all when the request body stops coming (nginx closes the connection)', async () => {
    const head = 'POST / HTTP/1.1\r\nHost: plain.example.com\r\nContent-Length: 100\r\nConnection: close\r\n\r\n';
    const answer = await rawRequest(edge.httpPort, [head, 'partial'], { timeoutMs: 5_000 });
    expect(answer.raw).toBe('');
  });

  it('413 for a body over the limit, on every kind of location', async () => {
    for (const host of ['plain.example.com', 'modules.example.com', 'cached.example.com']) {
      const head = `POST / HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5000000\r\nConnection: close\r\n\r\n`;
      expectBranded(await rawRequest(edge.httpPort, [head]), 413, '413 Request too large');
    }
  });

  it('414 for a request line over the buffers', async () => {
    const answer = await rawRequest(edge.httpPort, [
      `GET /${'a'.repeat(10_000)} HTTP/1.1\r\nHost: plain.example.com\r\n\r\n`,
    ]);
    expectBranded(answer, 414, '414 URI too long');
  });

  it('400 (header too large) for a header over the buffers', async () => {
    const answer = await rawRequest(edge.httpPort, [
      `GET / HTTP/1.1\r\nHost: plain.example.com\r\nX-Big: ${'b'.repeat(10_000)}\r\n\r\n`,
    ]);
    expectBranded(answer, 400, '400 Request header too large');
  });

  it('400 (plain HTTP to the HTTPS port) for plain HTTP on the HTTPS port', async () => {
    const answer = await rawRequest(edge.httpsPort, ['GET / HTTP/1.1\r\nHost: plain.example.com\r\n\r\n']);
    expectBranded(answer, 400, '400 HTTPS required');
  });

  it('501 for a transfer coding nginx does not know', async () => {
    const answer = await rawRequest(edge.httpPort, [
      'POST / HTTP/1.1\r\nHost: plain.example.com\r\nTransfer-Encoding: gzip\r\n\r\n',
    ]);
    expectBranded(answer, 501, '501 Not implemented');
  });
});

describe('the locations of the pages themselves', () => {
  it('cannot be requested: their URIs start with /../, which nginx refuses from a client', async () => {
    for (const path of ['/../rampart-page/502', '/x/../../rampart-page/502', '/%2E%2E/rampart-page/502']) {
      expectBranded(await get('secure.example.com', path), 400, '400 Bad request');
    }
  });

  it('take no path away from a site', async () => {
    const answer = await get('alive-cached.example.com', '/rampart-page/502');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ server: 'alive', url: '/rampart-page/502' });
  });
});
