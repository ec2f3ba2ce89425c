import http from 'node:http';
import https from 'node:https';
import { type EdgeFirewall, firewallUrlProblem, ipListRanges } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlane } from '../src/data-plane/schema.js';
import { firewallLogLines } from './helpers/access-log.js';
import { makeCertificate } from './helpers/certificates.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { REGEX_CORPUS } from './helpers/regex-corpus.js';

// The site firewall's whitelist and blacklist (packages/contract/src/routes/firewall-lists.ts,
// rampart.firewall) through a real nginx. Requests come from different loopback addresses
// (127.0.0.0/8 is all local on Linux). The edge listens on three ports it maps to the public ports
// 80, 443 and 1234 (as the agent does for its --port-map), so the URLs the rules see are
// `http://host/...`, `https://host/...` and `https://host:1234/...`.

type Rule = EdgeFirewall['whitelist'][number];
type BlacklistRule = EdgeFirewall['blacklist'][number];
const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'];

/** A rule for `ips` (addresses, ranges `a-b` and CIDRs, as the API takes them). */
function rule(id: number, ips: string[], url = '.*', methods = ALL_METHODS): Rule {
  return { id, url, methods, ...ipListRanges(ips) };
}
function deny(id: number, ips: string[], url = '.*', methods = ALL_METHODS): BlacklistRule {
  return { ...rule(id, ips, url, methods), action: 'deny' };
}
function drop(id: number, ips: string[], url = '.*', methods = ALL_METHODS): BlacklistRule {
  return { ...rule(id, ips, url, methods), action: 'drop' };
}

/** The frequency limits (firewall-frequency.test.ts) and header rules (firewall-headers.test.ts): none here. */
const NO_LIMITS = { headers: [], intervals: [], rates: [], antiCC: [] };

/** 1,000 addresses none of which is next to another (so they stay 1,000 ranges): 127.1–8.0.<even>. */
const THOUSAND = Array.from({ length: 1000 }, (_, i) => `127.${1 + (i >> 7)}.0.${(i & 127) * 2}`);

const FIREWALLS: EdgeFirewall[] = [
  {
    id: 1,
    whitelist: [],
    blacklist: [deny(11, ['127.0.0.2', '127.0.0.20-127.0.0.22', '127.0.1.0/24', '::1'])],
    userAgents: [],
    ...NO_LIMITS,
  },
  { id: 2, whitelist: [], blacklist: [drop(21, ['127.0.0.3', '127.0.0.31'])], userAgents: [], ...NO_LIMITS },
  { id: 3, whitelist: [], blacklist: [deny(31, ['0.0.0.0/0'], '.*', ['POST'])], userAgents: [], ...NO_LIMITS },
  {
    id: 4,
    whitelist: [],
    blacklist: [deny(41, ['0.0.0.0/0'], 'https?:\\/\\/url\\.example\\.com\\/admin(.*)')],
    userAgents: [],
    ...NO_LIMITS,
  },
  // The product's custom-port example: only https://www.example.com:1234 is reachable.
  {
    id: 5,
    whitelist: [rule(51, ['0.0.0.0/0'], 'https://www.example.com:1234')],
    blacklist: [deny(52, ['0.0.0.0/0'], 'https?:\\/\\/www.example.com')],
    userAgents: [],
    ...NO_LIMITS,
  },
  { id: 6, whitelist: [rule(61, ['127.0.0.5'])], blacklist: [deny(62, ['127.0.0.0/8'])], userAgents: [], ...NO_LIMITS },
  {
    id: 7,
    whitelist: [],
    blacklist: [deny(71, [...THOUSAND, '2001:db8::/32', 'fe80::1'])],
    userAgents: [],
    ...NO_LIMITS,
  },
  // User-agent rules (routes/firewall-user-agents.ts): case-insensitive, unanchored; a URL pattern
  // narrows a rule; the whitelist still wins; a missing header is matched as "".
  {
    id: 8,
    whitelist: [rule(81, ['127.0.0.5'])],
    blacklist: [],
    userAgents: [
      { id: 82, url: '.*', userAgent: 'curl|python-requests', action: 'deny' },
      { id: 83, url: 'https?:\\/\\/ua\\.example\\.com\\/api(.*)', userAgent: 'badbot', action: 'drop' },
      { id: 84, url: '.*', userAgent: '^$', action: 'deny' },
    ],
    ...NO_LIMITS,
  },
];

let edge: Edge;
let origin: Origin;
let certificate: { certPem: string; keyPem: string };
let httpPort: number;
let httpsDefault: number;
let httpsCustom: number;

function plane(version: string, firewalls: EdgeFirewall[] = FIREWALLS): DataPlane {
  const to = [upstream(origin.port)];
  return document(
    version,
    [
      domain(1, 'deny.example.com', to, { firewallId: 1 }),
      domain(2, 'drop.example.com', to, { firewallId: 2 }),
      domain(3, 'methods.example.com', to, { firewallId: 3 }),
      domain(4, 'url.example.com', to, { firewallId: 4 }),
      domain(5, 'www.example.com', to, { firewallId: 5, certificateId: 9 }),
      domain(6, 'both.example.com', to, { firewallId: 6 }),
      domain(7, 'big.example.com', to, { firewallId: 7 }),
      domain(8, 'plain.example.com', to),
      // A site's own 403 page replaces the edge's "Access denied".
      domain(9, 'own-page.example.com', to, { firewallId: 1, settingsId: 9 }),
      // Another domain of the site of url.example.com: its rules apply, its host is not theirs.
      domain(10, 'api.example.com', to, { firewallId: 4 }),
      domain(11, 'ua.example.com', to, { firewallId: 8 }),
    ],
    [{ id: 9, ...certificate }],
    [],
    {
      firewalls,
      settings: [
        { id: 9, gzip: null, rates: [], language: 'en_US', pages: [{ status: 403, body: '<h1>Go away</h1>' }] },
      ],
    },
  );
}

interface Reply {
  status: number;
  body: string;
}

/**
 * One request on a new connection from `from` to the edge (HTTPS when `tls`); 'closed' when the
 * connection closed without an answer (nginx's 444).
 */
function send(
  from: string,
  host: string,
  options: {
    path?: string;
    method?: string;
    port?: number;
    tls?: boolean;
    to?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply | 'closed'> {
  const { path = '/', method = 'GET', tls = false } = options;
  const port = options.port ?? (tls ? httpsDefault : httpPort);
  return new Promise((resolve, reject) => {
    const req = (tls ? https : http).request(
      {
        host: options.to ?? '127.0.0.1',
        port,
        path,
        method,
        localAddress: from,
        headers: { ...options.headers, host },
        agent: false,
        ...(tls ? { servername: host, rejectUnauthorized: false } : {}),
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`request for ${host}${path} timed out`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.message === 'socket hang up') resolve('closed');
      else reject(err);
    });
    req.end();
  });
}

const statusOf = (reply: Reply | 'closed') => (reply === 'closed' ? 'closed' : reply.status);

beforeAll(async () => {
  origin = await startOrigin('origin');
  certificate = await makeCertificate('www.example.com');
  [httpPort, httpsDefault, httpsCustom] = [await freePort(), await freePort(), await freePort()];
  edge = await startEdge({
    httpPorts: [httpPort],
    httpsPorts: [httpsDefault, httpsCustom],
    publicPorts: [
      { local: httpPort, public: 80 },
      { local: httpsDefault, public: 443 },
      { local: httpsCustom, public: 1234 },
    ],
  });
  await edge.push(plane('firewall-1'));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('the blacklist', () => {
  it('denies a listed address with 403 and the "Access denied" page, and lets other addresses through', async () => {
    const before = origin.seen.length;
    for (const from of ['127.0.0.2', '127.0.0.20', '127.0.0.21', '127.0.0.22', '127.0.1.0', '127.0.1.255']) {
      const reply = await send(from, 'deny.example.com');
      expect(statusOf(reply), from).toBe(403);
      if (reply === 'closed') continue;
      expect(reply.body).toContain('<h1>403 Access denied</h1>');
      expect(reply.body).not.toContain('Domain disabled');
    }
    expect(origin.seen.length).toBe(before);
    for (const from of ['127.0.0.1', '127.0.0.19', '127.0.0.23', '127.0.2.0']) {
      const reply = await send(from, 'deny.example.com');
      expect(statusOf(reply), from).toBe(200);
      if (reply !== 'closed') expect(servedBy(reply.body)).toBe('origin');
    }
  });

  it("answers in the visitor's language, and with the site's own 403 page when it has one", async () => {
    const chinese = await send('127.0.0.2', 'deny.example.com', { headers: { 'accept-language': 'zh-TW' } });
    expect(chinese).toMatchObject({ status: 403, body: expect.stringContaining('<h1>403 拒絕存取</h1>') });
    const own = await send('127.0.0.2', 'own-page.example.com');
    expect(own).toEqual({ status: 403, body: '<h1>Go away</h1>' });
  });

  it('closes the connection without an answer for a drop rule', async () => {
    expect(await send('127.0.0.3', 'drop.example.com')).toBe('closed');
    expect(statusOf(await send('127.0.0.4', 'drop.example.com'))).toBe(200);
  });

  it('matches the right address among 1,000 entries', async () => {
    const denied = ['127.1.0.0', '127.1.0.2', '127.5.0.100', '127.8.0.206', '127.4.0.254'];
    const passed = ['127.1.0.1', '127.5.0.101', '127.8.0.207', '127.8.0.208', '127.9.0.0', '127.0.0.1'];
    for (const from of denied) expect(statusOf(await send(from, 'big.example.com')), from).toBe(403);
    for (const from of passed) expect(statusOf(await send(from, 'big.example.com')), from).toBe(200);
  });

  it('blocks only the methods of the rule: a POST-only rule lets GET through', async () => {
    expect(statusOf(await send('127.0.0.7', 'methods.example.com', { method: 'GET' }))).toBe(200);
    expect(statusOf(await send('127.0.0.7', 'methods.example.com', { method: 'POST' }))).toBe(403);
  });

  it('matches the URL pattern against the absolute URL: a path pattern blocks only its paths', async () => {
    expect(statusOf(await send('127.0.0.8', 'url.example.com', { path: '/admin/users?x=1' }))).toBe(403);
    expect(statusOf(await send('127.0.0.8', 'url.example.com', { path: '/admin/', tls: true }))).toBe(403);
    expect(statusOf(await send('127.0.0.8', 'url.example.com', { path: '/public' }))).toBe(200);
    expect(statusOf(await send('127.0.0.8', 'url.example.com', { path: '/public?next=/admin/x' }))).toBe(200);
    expect(statusOf(await send('127.0.0.8', 'api.example.com', { path: '/admin/users' }))).toBe(200);
  });
});

describe('the whitelist', () => {
  it('wins over a blacklist rule that matches too', async () => {
    expect(statusOf(await send('127.0.0.5', 'both.example.com'))).toBe(200);
    expect(statusOf(await send('127.0.0.6', 'both.example.com'))).toBe(403);
  });

  it("passes the product's custom-port example: only https://www.example.com:1234 gets through", async () => {
    const custom = await send('127.0.0.9', 'www.example.com', { tls: true, port: httpsCustom });
    expect(statusOf(custom)).toBe(200);
    expect(statusOf(await send('127.0.0.9', 'www.example.com', { tls: true, port: httpsDefault }))).toBe(403);
    expect(statusOf(await send('127.0.0.9', 'www.example.com'))).toBe(403);
  });
});

describe('the user-agent rules', () => {
  it('deny a matching User-Agent with 403 whatever its case, and let other agents through', async () => {
    for (const agent of ['curl/8.5.0', 'CURL/7', 'python-requests/2.31']) {
      expect(statusOf(await send('127.0.0.9', 'ua.example.com', { headers: { 'user-agent': agent } })), agent).toBe(
        403,
      );
    }
    const ok = await send('127.0.0.9', 'ua.example.com', { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux)' } });
    expect(statusOf(ok)).toBe(200);
    // From an address no rule refused before: of one address's refusals by one rule in a minute, the
    // first is logged whole and the rest are tallied (rampart.refusals, refusal-tally.test.ts).
    await send('127.0.0.29', 'ua.example.com', { path: '/ua-logged', headers: { 'user-agent': 'curl/8' } });
    const line = (await firewallLogLines(edge, ['/ua-logged'])).get('/ua-logged');
    expect(line).toMatchObject({ status: '403', fw_kind: 'userAgent', fw_rule: '82', fw_action: 'deny' });
  });

  it('apply a rule only under its URL pattern, with its own action', async () => {
    const bot = { 'user-agent': 'Mozilla/5.0 (compatible; BadBot/1.0)' };
    expect(statusOf(await send('127.0.0.9', 'ua.example.com', { path: '/api/items', headers: bot }))).toBe('closed');
    expect(statusOf(await send('127.0.0.9', 'ua.example.com', { path: '/home', headers: bot }))).toBe(200);
  });

  it('match a request without the header as an empty string, and leave whitelisted clients alone', async () => {
    // Node's http client sends no User-Agent unless told to.
    expect(statusOf(await send('127.0.0.9', 'ua.example.com'))).toBe(403);
    const listed = await send('127.0.0.5', 'ua.example.com', { headers: { 'user-agent': 'curl/8.5.0' } });
    expect(statusOf(listed)).toBe(200);
  });
});

describe('the access log', () => {
  it('names the list, rule and action of every decided request, and leaves them empty otherwise', async () => {
    // Refused from addresses no rule refused before (the first refusal of a minute is the one
    // logged; rampart.refusals tallies the rest).
    await send('127.0.1.77', 'deny.example.com', { path: '/log-deny' });
    await send('127.0.0.31', 'drop.example.com', { path: '/log-drop' });
    await send('127.0.0.5', 'both.example.com', { path: '/log-allow' });
    await send('127.0.0.1', 'deny.example.com', { path: '/log-undecided' });
    await send('127.0.0.2', 'plain.example.com', { path: '/log-plain' });
    const lines = await firewallLogLines(edge, [
      '/log-deny',
      '/log-drop',
      '/log-allow',
      '/log-undecided',
      '/log-plain',
    ]);
    const fields = (uri: string) => {
      const line = lines.get(uri);
      return line && { status: line.status, kind: line.fw_kind, rule: line.fw_rule, action: line.fw_action };
    };
    expect(fields('/log-deny')).toEqual({ status: '403', kind: 'blacklist', rule: '11', action: 'deny' });
    expect(fields('/log-drop')).toEqual({ status: '444', kind: 'blacklist', rule: '21', action: 'drop' });
    expect(fields('/log-allow')).toEqual({ status: '200', kind: 'whitelist', rule: '61', action: 'allow' });
    expect(fields('/log-undecided')).toEqual({ status: '200', kind: '', rule: '', action: '' });
    expect(fields('/log-plain')).toEqual({ status: '200', kind: '', rule: '', action: '' });
  });
});

describe('a change of rules', () => {
  it('takes effect on the next request after the push, without a reload', async () => {
    const workers = await edge.nginx.workerPids();
    const master = await edge.nginx.masterPid();
    expect(statusOf(await send('127.0.0.2', 'deny.example.com'))).toBe(403);
    expect(statusOf(await send('127.0.0.4', 'deny.example.com'))).toBe(200);

    const changed = FIREWALLS.map((f) => (f.id === 1 ? { ...f, blacklist: [deny(11, ['127.0.0.4'])] } : f));
    await edge.push(plane('firewall-2', changed));
    // The very next requests, sent once the push returned, see the new rules (no wait, no retry).
    const [now, then] = [await send('127.0.0.4', 'deny.example.com'), await send('127.0.0.2', 'deny.example.com')];
    expect(statusOf(now)).toBe(403);
    expect(statusOf(then)).toBe(200);

    // And off again: a document without the firewall.
    const off = plane('firewall-3');
    off.domains = off.domains.map((d) => (d.firewallId === 1 ? { ...d, firewallId: null } : d));
    await edge.push(off);
    expect(statusOf(await send('127.0.0.2', 'deny.example.com'))).toBe(200);

    expect(await edge.nginx.workerPids()).toEqual(workers);
    expect(await edge.nginx.masterPid()).toBe(master);
    await edge.push(plane('firewall-4'));
  });
});

describe('the Lua check of the firewalls', () => {
  const bad = (firewall: Record<string, unknown>) => ({ ...FIREWALLS[1], ...firewall }) as EdgeFirewall;
  const badRule = (fields: Record<string, unknown>) => bad({ blacklist: [{ ...drop(21, ['127.0.0.3']), ...fields }] });
  const v4 = (ranges: string[][]) => badRule({ v4: ranges });

  it.each([
    ['two firewalls with one id', [FIREWALLS[1], FIREWALLS[1]], 'firewalls[1].id'],
    ['an address that is not hex', [v4([['7f00000g', '7f00000g']])], 'firewalls[0].blacklist[0].v4[0][0]'],
    ['an IPv4 address of 7 digits', [v4([['7f00001', '7f000001']])], 'firewalls[0].blacklist[0].v4[0][0]'],
    ['upper-case hex', [v4([['7F000001', '7F000001']])], 'firewalls[0].blacklist[0].v4[0][0]'],
    [
      'an IPv4 address in the IPv6 list',
      [badRule({ v4: [], v6: [['7f000001', '7f000001']] })],
      'firewalls[0].blacklist[0].v6[0][0]',
    ],
    ['a range that ends before it starts', [v4([['7f000002', '7f000001']])], 'firewalls[0].blacklist[0].v4[0]'],
    [
      'unsorted ranges',
      [
        v4([
          ['7f000005', '7f000006'],
          ['7f000001', '7f000002'],
        ]),
      ],
      'firewalls[0].blacklist[0].v4[1]',
    ],
    [
      'overlapping ranges',
      [
        v4([
          ['7f000001', '7f000005'],
          ['7f000003', '7f000009'],
        ]),
      ],
      'firewalls[0].blacklist[0].v4[1]',
    ],
    [
      'adjacent ranges',
      [
        v4([
          ['7f000001', '7f000002'],
          ['7f000003', '7f000004'],
        ]),
      ],
      'firewalls[0].blacklist[0].v4[1]',
    ],
    ['a range that is not a pair', [v4([['7f000001']])], 'firewalls[0].blacklist[0].v4[0]'],
    ['the method TRACE', [badRule({ methods: ['GET', 'TRACE'] })], 'firewalls[0].blacklist[0].methods[1]'],
    ['a lower-case method', [badRule({ methods: ['get'] })], 'firewalls[0].blacklist[0].methods[0]'],
    ['no method', [badRule({ methods: [] })], 'firewalls[0].blacklist[0].methods'],
    ['the action reject', [badRule({ action: 'reject' })], 'firewalls[0].blacklist[0].action'],
    ['a regex that does not compile', [badRule({ url: 'https?://(www' })], 'firewalls[0].blacklist[0].url'],
    ['a class range out of order', [bad({ whitelist: [rule(1, ['::1'], '[z-a]')] })], 'firewalls[0].whitelist[0].url'],
    ['a lookahead', [badRule({ url: 'a(?=b)' })], 'firewalls[0].blacklist[0].url'],
    ['a back-reference', [badRule({ url: '(a)\\1' })], 'firewalls[0].blacklist[0].url'],
    ['a space in the URL', [badRule({ url: 'a b' })], 'firewalls[0].blacklist[0].url'],
    ['a URL of 257 characters', [badRule({ url: 'a'.repeat(257) })], 'firewalls[0].blacklist[0].url'],
    ['a whitelist that is not a list', [bad({ whitelist: 'all' })], 'firewalls[0].whitelist'],
    [
      'a user-agent pattern that does not compile',
      [bad({ userAgents: [{ id: 5, url: '.*', userAgent: 'bot(', action: 'deny' }] })],
      'firewalls[0].userAgents[0].userAgent',
    ],
    [
      'a control character in a user-agent pattern',
      [bad({ userAgents: [{ id: 5, url: '.*', userAgent: 'bot\u0001', action: 'deny' }] })],
      'firewalls[0].userAgents[0].userAgent',
    ],
    [
      'a user-agent rule with a bad URL',
      [bad({ userAgents: [{ id: 5, url: 'a b', userAgent: 'bot', action: 'deny' }] })],
      'firewalls[0].userAgents[0].url',
    ],
    [
      'a user-agent rule that allows',
      [bad({ userAgents: [{ id: 5, url: '.*', userAgent: 'bot', action: 'allow' }] })],
      'firewalls[0].userAgents[0].action',
    ],
  ])('refuses %s with the field', async (_label, firewalls, field) => {
    const doc = { ...plane('firewall-bad'), firewalls } as DataPlane;
    doc.domains = doc.domains.filter((d) => d.firewallId === null || d.firewallId === 2);
    const res = await edge.putRaw(JSON.stringify(doc));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('refuses a domain whose firewallId is not in the document', async () => {
    const doc = plane('firewall-bad');
    doc.firewalls = doc.firewalls.filter((f) => f.id !== 6);
    const res = await edge.putRaw(JSON.stringify(doc));
    expect(res).toMatchObject({ status: 400, body: { field: 'domains[5].firewallId' } });
  });

  it('accepts exactly the URL patterns the contract accepts (its runaway check aside)', async () => {
    const patterns = [
      ...REGEX_CORPUS,
      'https?:\\/\\/www.example.com(.*)',
      'https://www.example.com:1234',
      '/*',
      'a#b',
      '\\(?x[(?]\\)*',
      '[[:alpha:](*]',
      '[]?(]',
      '[^](?]',
      '(a+)+',
      'a'.repeat(256),
    ];
    const wrong: string[] = [];
    for (const url of patterns) {
      const problem = firewallUrlProblem(url);
      const expected = problem === null || problem === 'runaway';
      const doc = plane('firewall-corpus');
      doc.firewalls = doc.firewalls.map((f) => (f.id === 2 ? { ...f, whitelist: [rule(1, ['10.0.0.0/8'], url)] } : f));
      const res = await edge.putRaw(JSON.stringify(doc));
      if ((res.status === 200) !== expected) {
        wrong.push(`${JSON.stringify(url)}: contract ${problem ?? 'accepts'}, Lua ${res.status} ${res.body.error}`);
      }
    }
    expect(wrong).toEqual([]);
    // The drop rule behind the whitelist rule still applies, and the original plane comes back.
    expect(await send('127.0.0.3', 'drop.example.com')).toBe('closed');
    await edge.push(plane('firewall-5'));
  }, 60_000);
});

describe('IPv6 clients', () => {
  let edge6: Edge;
  beforeAll(async () => {
    edge6 = await startEdge({ listenAddress: '::1', workerProcesses: 1 });
    const to = [upstream(origin.port)];
    await edge6.push(
      document(
        'firewall-v6',
        [
          domain(1, 'deny.example.com', to, { firewallId: 1 }),
          domain(2, 'other.example.com', to, { firewallId: 2 }),
          domain(3, 'v4-only.example.com', to, { firewallId: 3 }),
        ],
        [],
        [],
        {
          firewalls: [
            { id: 1, whitelist: [], blacklist: [deny(11, ['127.0.0.1', '::1'])], userAgents: [], ...NO_LIMITS },
            { id: 2, whitelist: [], blacklist: [deny(21, ['::2', '2001:db8::/32'])], userAgents: [], ...NO_LIMITS },
            { id: 3, whitelist: [], blacklist: [deny(31, ['0.0.0.0/0'])], userAgents: [], ...NO_LIMITS },
          ],
        },
      ),
    );
  });
  afterAll(async () => {
    await edge6?.stop();
  });

  it('denies ::1 when listed, and lets it through rules for other addresses or IPv4 only', async () => {
    const at = { to: '::1', port: edge6?.httpPort };
    expect(statusOf(await send('::1', 'deny.example.com', at))).toBe(403);
    expect(statusOf(await send('::1', 'other.example.com', at))).toBe(200);
    expect(statusOf(await send('::1', 'v4-only.example.com', at))).toBe(200);
  });
});
