import type { EdgeModule } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificate } from './helpers/certificates.js';
import { nginxCpuMs } from './helpers/cpu-time.js';
import { document, domain, moduleRefs, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';

// Site modules at the edge (packages/contract/src/routes/site-modules.ts) through a real nginx:
// custom headers both ways, URL redirects, CORS preflights and headers, proxy rewrite, and a cached
// domain with modules; invalid module values are refused by the Lua admin endpoint.

let edge: Edge;
let origin: Origin;
let secure: Origin;

const MODULES: EdgeModule[] = [
  {
    id: 1,
    type: 'customHeader',
    request: [
      { name: 'X-From-Edge', value: 'yes' },
      { name: 'Cookie', value: '' },
    ],
    response: [
      { name: 'X-Frame-Options', value: 'DENY' },
      { name: 'X-Powered-By', value: '' },
    ],
  },
  {
    id: 2,
    type: 'urlRedirect',
    rules: [
      { match: 'regex', source: '^/item/(\\d+)$', target: '/items/$1', code: 308, keepQuery: false },
      { match: 'prefix', source: '/docs/', target: 'https://docs.example.com/', code: 302, keepQuery: true },
      { match: 'prefix', source: '/docs/v1/', target: '/legacy/', code: 301, keepQuery: true },
      { match: 'exact', source: '/old', target: '/new', code: 301, keepQuery: true },
      { match: 'regex', source: '^/(a|aa)+$', target: '/never', code: 301, keepQuery: false },
    ],
  },
  {
    id: 3,
    type: 'cors',
    origins: ['https://app.example.com', 'https://*.example.net'],
    methods: ['GET', 'POST', 'PUT'],
    allowHeaders: ['Content-Type', 'X-Token'],
    exposeHeaders: ['X-Total'],
    credentials: true,
    maxAge: 300,
  },
  {
    id: 4,
    type: 'proxyRewrite',
    host: 'legacy.internal.example',
    setHeaders: [{ name: 'X-Api-Key', value: 'k1' }],
    removeHeaders: ['X-Debug'],
    rules: [
      { match: 'prefix', source: '/api/', target: '/v2/' },
      { match: 'regex', source: '^/u/(\\w+)$', target: '/users/$1' },
    ],
  },
];

beforeAll(async () => {
  origin = await startOrigin('origin', {
    responseHeaders: (url): Record<string, string> => ({
      'x-powered-by': 'origin-framework',
      ...(url.startsWith('/static') ? { 'cache-control': 'max-age=600' } : {}),
    }),
  });
  const cert = await makeCertificate('origin.example.net');
  secure = await startOrigin('secure', { tls: { cert: cert.certPem, key: cert.keyPem } });
  edge = await startEdge();
  const up = [upstream(origin.port)];
  await edge.push(
    document(
      'modules-1',
      [
        domain(1, 'headers.example.com', up, { modules: moduleRefs({ customHeader: 1 }) }),
        domain(2, 'redirects.example.com', up, { modules: moduleRefs({ urlRedirect: 2 }) }),
        domain(3, 'cors.example.com', up, { modules: moduleRefs({ cors: 3 }) }),
        domain(4, 'rewrite.example.com', up, { modules: moduleRefs({ proxyRewrite: 4 }) }),
        domain(5, 'cached.example.com', up, { cacheId: 9, modules: moduleRefs({ customHeader: 1, cors: 3 }) }),
        domain(6, 'plain.example.com', up),
        domain(7, 'tls-origin.example.com', [upstream(secure.port)], {
          origin: { scheme: 'https' },
          modules: moduleRefs({ customHeader: 1 }),
        }),
      ],
      [],
      [
        {
          id: 9,
          generation: 1,
          rules: [
            {
              scope: 'directory',
              values: ['/static'],
              ttl: 3600,
              queryString: 'include',
              bypass: false,
              respectOrigin: true,
            },
          ],
        },
      ],
      { modules: MODULES },
    ),
  );
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
  await secure?.close();
});

const last = () => origin.seen[origin.seen.length - 1];

describe('custom headers at the edge', () => {
  it('sets and removes request headers to the origin and response headers to the client', async () => {
    const res = await request(edge.httpPort, 'headers.example.com', '/page', {
      headers: { cookie: 'session=1', 'x-from-edge': 'forged' },
    });
    expect(res.status).toBe(200);
    expect(last()?.headers['x-from-edge']).toBe('yes');
    expect(last()?.headers.cookie).toBeUndefined();
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('applies them on the way to an HTTPS origin too', async () => {
    const res = await request(edge.httpPort, 'tls-origin.example.com', '/secure');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).server).toBe('secure');
    expect(secure.seen[secure.seen.length - 1]?.headers['x-from-edge']).toBe('yes');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('leaves a domain without modules untouched', async () => {
    const res = await request(edge.httpPort, 'plain.example.com', '/page', { headers: { cookie: 'a=1' } });
    expect(last()?.headers.cookie).toBe('a=1');
    expect(last()?.headers['x-from-edge']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBe('origin-framework');
  });
});

describe('URL redirects at the edge', () => {
  it('answers exact, longest-prefix and regex rules with their codes, keeping the query when asked', async () => {
    const seen = origin.seen.length;
    const exact = await request(edge.httpPort, 'redirects.example.com', '/old?a=1');
    expect(exact.status).toBe(301);
    expect(exact.headers.location).toMatch(/\/new\?a=1$/);

    const prefix = await request(edge.httpPort, 'redirects.example.com', '/docs/guide/intro?lang=en');
    expect(prefix.status).toBe(302);
    expect(prefix.headers.location).toBe('https://docs.example.com/guide/intro?lang=en');
    const longer = await request(edge.httpPort, 'redirects.example.com', '/docs/v1/a');
    expect(longer.status).toBe(301);
    expect(longer.headers.location).toMatch(/\/legacy\/a$/);

    const regex = await request(edge.httpPort, 'redirects.example.com', '/item/42?x=1');
    expect(regex.status).toBe(308);
    expect(regex.headers.location).toMatch(/\/items\/42$/);
    expect(origin.seen.length).toBe(seen);
  });

  it('proxies what no rule matches, and a pathological regex fails closed under the match limit', async () => {
    const none = await request(edge.httpPort, 'redirects.example.com', '/item/abc');
    expect(none.status).toBe(200);
    expect(last()?.url).toBe('/item/abc');
    // The match limit bounds nginx's CPU time on it (the wall clock would count the waits for a core).
    const { result: evil, ms } = await nginxCpuMs(edge.nginx, () =>
      request(edge.httpPort, 'redirects.example.com', `/${'a'.repeat(60)}!`),
    );
    expect(evil.status).toBe(200);
    expect(ms).toBeLessThan(2000);
    expect(await edge.errorLog()).toMatch(/rampart modules: regex \^\/\(a\|aa\)\+\$ failed/);
  });

  it('percent-encodes what comes from the request path, so no header can be injected', async () => {
    const res = await request(edge.httpPort, 'redirects.example.com', '/docs/x%0d%0aSet-Cookie:%20a=1');
    expect(res.status).toBe(302);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers.location).toBe('https://docs.example.com/x%0D%0ASet-Cookie:%20a=1');
  });
});

describe('CORS at the edge', () => {
  const preflight = (originHeader: string, host = 'cors.example.com') =>
    request(edge.httpPort, host, '/api/items', {
      method: 'OPTIONS',
      headers: {
        origin: originHeader,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });

  it('answers a preflight from an allowed origin at the edge (204)', async () => {
    const seen = origin.seen.length;
    const res = await preflight('https://app.example.com');
    expect(res.status).toBe(204);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-methods': 'GET, POST, PUT',
      'access-control-allow-headers': 'Content-Type, X-Token',
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '300',
    });
    expect(res.headers.vary).toContain('Origin');
    const wildcard = await preflight('https://shop.example.net');
    expect(wildcard.headers['access-control-allow-origin']).toBe('https://shop.example.net');
    expect(origin.seen.length).toBe(seen);
  });

  it('passes a preflight from another origin to the origin server without CORS headers', async () => {
    const seen = origin.seen.length;
    for (const other of ['https://evil.example.org', 'https://example.net', 'https://a.example.net.evil.org']) {
      const res = await preflight(other);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(origin.seen.length).toBe(seen + 3);
  });

  it('adds the CORS headers to actual responses for allowed origins only', async () => {
    const allowed = await request(edge.httpPort, 'cors.example.com', '/api/items', {
      headers: { origin: 'https://app.example.com' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(allowed.headers['access-control-expose-headers']).toBe('X-Total');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const other = await request(edge.httpPort, 'cors.example.com', '/api/items', {
      headers: { origin: 'https://evil.example.org' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('proxy rewrite at the edge', () => {
  it('rewrites the path (keeping the query), the Host header and the headers sent to the origin', async () => {
    const res = await request(edge.httpPort, 'rewrite.example.com', '/api/list?page=2', {
      headers: { 'x-debug': '1' },
    });
    expect(res.status).toBe(200);
    expect(last()).toMatchObject({ url: '/v2/list?page=2', host: 'legacy.internal.example' });
    expect(last()?.headers['x-api-key']).toBe('k1');
    expect(last()?.headers['x-debug']).toBeUndefined();

    await request(edge.httpPort, 'rewrite.example.com', '/u/alice');
    expect(last()?.url).toBe('/users/alice');
    await request(edge.httpPort, 'rewrite.example.com', '/other');
    expect(last()?.url).toBe('/other');
  });
});

describe('a cached domain with modules', () => {
  it('serves from the cache and still applies request and response modules', async () => {
    const first = await request(edge.httpPort, 'cached.example.com', '/static/app.js', {
      headers: { origin: 'https://app.example.com' },
    });
    expect(first.headers['x-cache-status']).toBe('MISS');
    expect(last()?.headers['x-from-edge']).toBe('yes');
    const second = await request(edge.httpPort, 'cached.example.com', '/static/app.js', {
      headers: { origin: 'https://app.example.com' },
    });
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(second.headers['x-frame-options']).toBe('DENY');
    expect(second.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(origin.seen.filter((s) => s.url === '/static/app.js')).toHaveLength(1);
  });
});

describe('module values the edge refuses', () => {
  const push = (modules: unknown[], domainModules: unknown = null) =>
    edge.putRaw(
      JSON.stringify({
        version: 'bad-modules',
        domains: [
          {
            ...domain(1, 'headers.example.com', [upstream(origin.port)]),
            modules: domainModules,
          },
        ],
        certificates: [],
        caches: [],
        modules,
      }),
    );

  it.each([
    [
      { id: 1, type: 'customHeader', request: [{ name: 'X-A', value: 'a\r\nX-B: b' }], response: [] },
      'modules[0].request[0].value',
    ],
    [
      { id: 1, type: 'customHeader', request: [], response: [{ name: 'Content-Length', value: '0' }] },
      'modules[0].response[0].name',
    ],
    [
      { id: 1, type: 'customHeader', request: [{ name: 'X-Forwarded-For', value: '1.1.1.1' }], response: [] },
      'modules[0].request[0].name',
    ],
    [
      {
        id: 1,
        type: 'urlRedirect',
        rules: [{ match: 'regex', source: '^/(?<=x)', target: '/a', code: 301, keepQuery: true }],
      },
      'modules[0].rules[0].source',
    ],
    [
      {
        id: 1,
        type: 'urlRedirect',
        rules: [{ match: 'exact', source: '/a', target: '/b"; return 200', code: 301, keepQuery: true }],
      },
      'modules[0].rules[0].target',
    ],
    [
      {
        id: 1,
        type: 'cors',
        origins: ['https://a.example.com\r\nX: y'],
        methods: ['GET'],
        allowHeaders: [],
        exposeHeaders: [],
        credentials: false,
        maxAge: 0,
      },
      'modules[0].origins[0]',
    ],
    [{ id: 1, type: 'proxyRewrite', host: 'a b', setHeaders: [], removeHeaders: [], rules: [] }, 'modules[0].host'],
  ])('refuses %j (%s)', async (module, field) => {
    const answer = await push([module]);
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe(field);
  });

  // Patterns the contract's characters allow but PCRE cannot compile: the edge compiles each.
  it.each(['[]', '[^]', '[a-\\d]', 'a{1,100000}', '^/(a'])(
    'refuses the regex %s PCRE cannot compile',
    async (source) => {
      const redirect = await push([
        { id: 1, type: 'urlRedirect', rules: [{ match: 'regex', source, target: '/a', code: 301, keepQuery: true }] },
      ]);
      expect(redirect.status).toBe(400);
      expect(redirect.body.field).toBe('modules[0].rules[0].source');
      const rewrite = await push([
        {
          id: 1,
          type: 'proxyRewrite',
          host: null,
          setHeaders: [],
          removeHeaders: [],
          rules: [{ match: 'regex', source, target: '/a' }],
        },
      ]);
      expect(rewrite.status).toBe(400);
      expect(rewrite.body.field).toBe('modules[0].rules[0].source');
    },
  );

  it('refuses a domain naming a module of another type', async () => {
    const answer = await push([MODULES[0]], moduleRefs({ cors: 1 }));
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('domains[0].modules.cors');
    // The good document is still the one served.
    const res = await request(edge.httpPort, 'headers.example.com', '/after');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});
