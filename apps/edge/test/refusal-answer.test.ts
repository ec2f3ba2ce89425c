import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EdgeFirewall, ipListRanges } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, moduleRefs, upstream, wafModule } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type FullReply, sendFrom } from './helpers/send.js';

// A firewall's deny ("4030") and drop ("444") are answered by nginx in the router's own phase
// (public-server.ts: `return 403 "$rampart_page$rampart_page_id$rampart_page_end"`, the page's parts
// from pages.parts; `return 444`) instead of through @rampart_route and pages.send. The answer
// must be the one pages.send gives (a WAF block of a request with a body still goes that way: the
// reference here), whatever the path's extension, and the location's default_type must not give a
// type to an origin's answer that has none.

const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'];
const FIREWALL: EdgeFirewall = {
  id: 1,
  whitelist: [],
  blacklist: [
    { id: 11, url: '.*', methods: ALL_METHODS, action: 'deny', ...ipListRanges(['127.0.0.2']) },
    { id: 12, url: '.*', methods: ALL_METHODS, action: 'drop', ...ipListRanges(['127.0.0.3']) },
  ],
  userAgents: [],
  headers: [],
  intervals: [],
  rates: [],
  antiCC: [],
};

let edge: Edge;
let origin: http.Server;
let originPort: number;

/** One request from `from` for `host` on a new connection; 'closed' when nothing came back. */
const send = (
  from: string,
  host: string,
  path = '/',
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<FullReply | 'closed'> => sendFrom(from, edge.httpPort, host, { path, ...options });

/** The request id line of an edge page (pages.lua footer): the id is each request's own. */
const REQUEST_ID_LINE = /(Request ID|请求 ID|請求 ID): <code>[\w.-]+<\/code>/;

/**
 * What a client sees of an edge page: the status, the body and the headers pages.send sets (its
 * framing aside: pages.send's answer is chunked, nginx's direct one has a Content-Length), the
 * page's request id (present, each request's own) as `<id>`.
 */
function page(answer: FullReply | 'closed') {
  if (answer === 'closed') return 'closed';
  const { status, body, headers } = answer;
  expect(body, 'the page shows its request id').toMatch(REQUEST_ID_LINE);
  return {
    status,
    body: body.replace(REQUEST_ID_LINE, '$1: <code><id></code>'),
    type: headers['content-type'],
    cacheControl: headers['cache-control'],
    vary: headers.vary,
  };
}

const SQLI = 'id=0+UNION+ALL+SELECT+name%2C+pass+FROM+users';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

beforeAll(async () => {
  // An origin that sets no Content-Type (node sets none unless told).
  origin = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('no type here'));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  edge = await startEdge();
  await push('refusal-1');
});

const SITE_403 = '<html><body>the site says no</body></html>';
const OPERATOR_403 = '<html><body>the operator says no</body></html>';

/** The plane: a domain with the edge's own pages, one whose site has its own 403 page; `errorPages` the operator's. */
function push(version: string, errorPages?: { status: number; body: string }[]) {
  const to = [upstream(originPort)];
  return edge.push(
    document(
      version,
      [
        domain(1, 'deny.example.com', to, { firewallId: 1, modules: moduleRefs({ waf: 1 }) }),
        domain(2, 'plain.example.com', to),
        domain(3, 'own.example.com', to, { firewallId: 1, modules: moduleRefs({ waf: 1 }), settingsId: 20 }),
      ],
      [],
      [],
      {
        firewalls: [FIREWALL],
        modules: [wafModule(1)],
        settings: [{ id: 20, gzip: null, rates: [], language: 'en_US', pages: [{ status: 403, body: SITE_403 }] }],
        ...(errorPages ? { errorPages } : {}),
      },
    ),
  );
}

afterAll(async () => {
  await edge?.stop();
  await new Promise((resolve) => origin?.close(resolve));
});

describe("the router's direct refusal", () => {
  it("answers a blacklisted address with pages.send's answer, whatever the path's extension or language", async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { 'accept-language': 'zh-TW,zh;q=0.9' },
      { 'accept-language': 'fr, zh-CN;q=0.5' },
    ]) {
      // The reference: a WAF block of a form body, sent by pages.send from @rampart_route.
      const reference = page(
        await send('127.0.0.1', 'deny.example.com', '/', {
          method: 'POST',
          headers: { ...FORM, ...headers },
          body: SQLI,
        }),
      );
      expect(reference).toMatchObject({
        status: 403,
        type: 'text/html; charset=utf-8',
        cacheControl: 'no-store',
        vary: 'Accept-Language',
      });
      for (const path of ['/', '/a.png', '/b.json', '/c.html?x=1', '/d.gif']) {
        const direct = await send('127.0.0.2', 'deny.example.com', path, { headers });
        expect(page(direct), `${path} ${JSON.stringify(headers)}`).toEqual(reference);
        if (direct !== 'closed') expect(Number(direct.headers['content-length'])).toBe(Buffer.byteLength(direct.body));
      }
    }
  });

  it("answers with the site's own page, then the operator's, as pages.send does (no request id in them)", async () => {
    const whole = async (host: string) => {
      const reference = await send('127.0.0.1', host, '/', { method: 'POST', headers: FORM, body: SQLI });
      const direct = await send('127.0.0.2', host, '/a.png');
      if (reference === 'closed' || direct === 'closed') throw new Error(`${host}: closed`);
      expect([direct.status, direct.body, direct.headers['content-type']], host).toEqual([
        reference.status,
        reference.body,
        reference.headers['content-type'],
      ]);
      return [direct.status, direct.body];
    };
    expect(await whole('own.example.com')).toEqual([403, SITE_403]);
    await push('refusal-2', [{ status: 403, body: OPERATOR_403 }]);
    try {
      expect(await whole('deny.example.com')).toEqual([403, OPERATOR_403]);
      expect(await whole('own.example.com')).toEqual([403, SITE_403]);
    } finally {
      await push('refusal-3');
    }
  });

  it('answers HEAD with the status and no body, and closes a dropped address unanswered', async () => {
    const head = await send('127.0.0.2', 'deny.example.com', '/', { method: 'HEAD' });
    expect(head === 'closed' ? head : [head.status, head.body]).toEqual([403, '']);
    expect(await send('127.0.0.3', 'deny.example.com', '/a.png')).toBe('closed');
    expect(await send('127.0.0.3', 'deny.example.com', '/', { method: 'POST', headers: FORM, body: 'a=1' })).toBe(
      'closed',
    );
  });

  it("leaves an origin's answer without a Content-Type without one", async () => {
    for (const [host, path] of [
      ['plain.example.com', '/'],
      ['plain.example.com', '/a.png'],
      ['deny.example.com', '/x.html'],
    ] as const) {
      const answer = await send('127.0.0.1', host, path);
      if (answer === 'closed') throw new Error(`${host}${path}: closed`);
      expect([answer.status, answer.body, answer.headers['content-type']], `${host}${path}`).toEqual([
        200,
        'no type here',
        undefined,
      ]);
    }
  });
});
