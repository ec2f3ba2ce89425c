import type { EdgeDomainAccess, EdgeFirewall } from '@rampart/contract';
import { ipListRanges } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlane } from '../src/data-plane/schema.js';
import { firewallLogLines } from './helpers/access-log.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { sendFrom } from './helpers/send.js';

// Header blocking (the site's header rules) and a domain's anti-referer and anti-header lists
// (routes/firewall-headers.ts, domain-access.ts; rampart.firewall_headers) through a real nginx.

const NONE = { whitelist: [], blacklist: [], userAgents: [], intervals: [], rates: [], antiCC: [] };

const FIREWALLS: EdgeFirewall[] = [
  // Site 1: header rules, a whitelist that skips them, a user-agent rule that comes after them.
  {
    ...NONE,
    id: 1,
    whitelist: [{ id: 10, url: '.*', methods: ['GET'], ...ipListRanges(['127.0.0.5']) }],
    userAgents: [{ id: 14, url: '.*', userAgent: 'scanner', action: 'deny' }],
    headers: [
      { id: 11, url: '.*', name: 'x-scanner', value: 'sqlmap|nikto', action: 'deny' },
      { id: 12, url: 'https?:\\/\\/headers\\.example\\.com\\/api(.*)', name: 'x-api-key', value: null, action: 'drop' },
      { id: 13, url: '.*', name: 'x-debug', value: '.*', action: 'deny' },
    ],
  },
  // Site 2 has no rules of its own: the entry exists for its domain with lists.
  { ...NONE, id: 2, headers: [] },
];

const REFERERS: EdgeDomainAccess = {
  referers: [
    {
      id: 21,
      url: '\\.(png|jpg)$',
      mode: 'allow',
      hosts: ['images.example.com', '*.friend.example'],
      allowEmpty: true,
      action: 'deny',
    },
    { id: 22, url: '\\/strict\\/', mode: 'allow', hosts: ['images.example.com'], allowEmpty: false, action: 'drop' },
    { id: 23, url: '.*', mode: 'deny', hosts: ['leech.example', '*.leech.example'], allowEmpty: true, action: 'deny' },
  ],
  headers: [{ id: 24, url: '.*', name: 'x-token', value: 'stolen', action: 'deny' }],
};

let edge: Edge;
let origin: Origin;
let port: number;

function plane(version: string, access: EdgeDomainAccess = REFERERS): DataPlane {
  const to = [upstream(origin.port)];
  return document(
    version,
    [
      domain(1, 'headers.example.com', to, { firewallId: 1 }),
      // The domain's lists, in a site without firewall rules.
      domain(2, 'images.example.com', to, { firewallId: 2, access }),
      // Another domain of that site: no lists, no firewall.
      domain(3, 'other.example.com', to),
      // Lists and the site's header rules together.
      domain(4, 'both.example.com', to, {
        firewallId: 1,
        access: { referers: [], headers: [{ id: 41, url: '.*', name: 'x-client', value: null, action: 'drop' }] },
      }),
    ],
    [],
    [],
    { firewalls: FIREWALLS },
  );
}

type Reply = { status: number; body: string } | 'closed';

const send = (host: string, path = '/', headers: Record<string, string> = {}, from = '127.0.0.1'): Promise<Reply> =>
  sendFrom(from, port, host, { path, headers });
const status = async (reply: Promise<Reply>) => {
  const r = await reply;
  return r === 'closed' ? 'closed' : r.status;
};
const referer = (url: string) => ({ referer: url });

beforeAll(async () => {
  origin = await startOrigin('origin');
  port = await freePort();
  edge = await startEdge({ httpPorts: [port], httpsPorts: [], publicPorts: [{ local: port, public: 80 }] });
  await edge.push(plane('headers-1'));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe("the site's header rules", () => {
  it('deny a header whose value matches, whatever its case, and let other values through', async () => {
    for (const value of ['sqlmap/1.7', 'Nikto', 'x SQLMAP x']) {
      const reply = await send('headers.example.com', '/', { 'x-scanner': value });
      expect(reply === 'closed' ? 'closed' : reply.status, value).toBe(403);
      if (reply !== 'closed') expect(reply.body).toContain('<h1>403 Access denied</h1>');
    }
    const ok = await send('headers.example.com', '/', { 'x-scanner': 'friendly' });
    expect(ok).toMatchObject({ status: 200 });
    if (ok !== 'closed') expect(servedBy(ok.body)).toBe('origin');
    expect(await status(send('headers.example.com'))).toBe(200);
  });

  it('drop a request without a header under the rule URL only', async () => {
    expect(await status(send('headers.example.com', '/api/items'))).toBe('closed');
    expect(await status(send('headers.example.com', '/api/items', { 'x-api-key': 'k' }))).toBe(200);
    expect(await status(send('headers.example.com', '/home'))).toBe(200);
  });

  it('match any value, an empty one included, with ".*"; a whitelisted client skips them', async () => {
    expect(await status(send('headers.example.com', '/', { 'x-debug': '' }))).toBe(403);
    expect(await status(send('headers.example.com', '/', { 'X-Debug': '1' }))).toBe(403);
    expect(await status(send('headers.example.com', '/', { 'x-scanner': 'sqlmap' }, '127.0.0.5'))).toBe(200);
  });

  it('run before the user-agent rules, and are logged with their kind, id and action', async () => {
    // From an address refused nowhere before: the first refusal of a minute is the one logged
    // (rampart.refusals tallies the rest).
    await send('headers.example.com', '/log-header', { 'x-scanner': 'sqlmap', 'user-agent': 'scanner' }, '127.0.0.41');
    await send('headers.example.com', '/log-agent', { 'user-agent': 'scanner' }, '127.0.0.41');
    await send('headers.example.com', '/api/log-drop', {}, '127.0.0.41');
    const lines = await firewallLogLines(edge, ['/log-header', '/log-agent', '/api/log-drop']);
    expect(lines.get('/log-header')).toMatchObject({
      status: '403',
      fw_kind: 'header',
      fw_rule: '11',
      fw_action: 'deny',
    });
    expect(lines.get('/log-agent')).toMatchObject({ fw_kind: 'userAgent', fw_rule: '14' });
    expect(lines.get('/api/log-drop')).toMatchObject({ status: '444', fw_kind: 'header', fw_rule: '12' });
  });
});

describe("a domain's anti-referer list", () => {
  const img = (path: string, headers: Record<string, string> = {}) => status(send('images.example.com', path, headers));

  it('allow-list: passes listed hosts and their wildcard subdomains, denies others', async () => {
    expect(await img('/a.png', referer('https://images.example.com/page'))).toBe(200);
    expect(await img('/a.png', referer('http://IMAGES.example.com:8080/x?y'))).toBe(200);
    expect(await img('/a.png', referer('https://user:pw@images.example.com/'))).toBe(200);
    expect(await img('/a.png', referer('https://a.friend.example/'))).toBe(200);
    expect(await img('/a.png', referer('https://a.b.friend.example/'))).toBe(200);
    // The wildcard names subdomains only; look-alikes and user info do not pass.
    expect(await img('/a.png', referer('https://friend.example/'))).toBe(403);
    expect(await img('/a.png', referer('https://notfriend.example/'))).toBe(403);
    expect(await img('/a.png', referer('https://images.example.com.evil.example/'))).toBe(403);
    expect(await img('/a.png', referer('https://images.example.com@evil.example/'))).toBe(403);
    expect(await img('/a.png', referer('not a url'))).toBe(403);
    // Outside the rule's URL pattern.
    expect(await img('/page.html', referer('https://evil.example/'))).toBe(200);
  });

  it('empty referer: allowed where the rule allows it, refused where not', async () => {
    expect(await img('/a.png')).toBe(200);
    expect(await img('/a.png', referer(''))).toBe(200);
    expect(await img('/strict/a.txt')).toBe('closed');
    expect(await img('/strict/a.txt', referer('https://images.example.com/'))).toBe(200);
  });

  it('deny-list: refuses listed hosts and subdomains, passes others', async () => {
    expect(await img('/x', referer('https://leech.example/'))).toBe(403);
    expect(await img('/x', referer('https://cdn.leech.example/'))).toBe(403);
    expect(await img('/x', referer('https://good.example/'))).toBe(200);
  });

  it('is logged as antiReferer with the rule id', async () => {
    // From an address refused nowhere before: the first refusal of a minute is the one logged
    // (rampart.refusals tallies the rest).
    await send('images.example.com', '/log-ref.png', referer('https://evil.example/'), '127.0.0.42');
    const line = (await firewallLogLines(edge, ['/log-ref.png'])).get('/log-ref.png');
    expect(line).toMatchObject({ status: '403', fw_kind: 'antiReferer', fw_rule: '21', fw_action: 'deny' });
  });
});

describe("a domain's anti-header list", () => {
  it('refuses a matching value on its domain only, after the referer list', async () => {
    expect(await status(send('images.example.com', '/x', { 'x-token': 'STOLEN-1' }))).toBe(403);
    expect(await status(send('images.example.com', '/x', { 'x-token': 'mine' }))).toBe(200);
    expect(await status(send('other.example.com', '/x', { 'x-token': 'stolen' }))).toBe(200);
    // From an address refused nowhere before: the first refusal of a minute is the one logged
    // (rampart.refusals tallies the rest).
    await send('images.example.com', '/log-antiheader', { 'x-token': 'stolen' }, '127.0.0.43');
    const line = (await firewallLogLines(edge, ['/log-antiheader'])).get('/log-antiheader');
    expect(line).toMatchObject({ status: '403', fw_kind: 'antiHeader', fw_rule: '24', fw_action: 'deny' });
  });

  it('drops a request without the header, in a site with header rules, which run first', async () => {
    expect(await status(send('both.example.com', '/'))).toBe('closed');
    expect(await status(send('both.example.com', '/', { 'x-client': 'app' }))).toBe(200);
    expect(await status(send('both.example.com', '/', { 'x-client': 'app', 'x-scanner': 'nikto' }))).toBe(403);
    // The site's whitelist skips the domain's lists too.
    expect(await status(send('both.example.com', '/', {}, '127.0.0.5'))).toBe(200);
  });
});

describe('without lists', () => {
  it('another domain of the site is not checked', async () => {
    expect(await status(send('other.example.com', '/a.png', referer('https://leech.example/')))).toBe(200);
  });
});

describe('a change of lists', () => {
  it('takes effect on the next request after the push, without a reload', async () => {
    const master = await edge.nginx.masterPid();
    expect(await status(send('images.example.com', '/a.png', referer('https://evil.example/')))).toBe(403);
    const open = { ...REFERERS, referers: REFERERS.referers.filter((r) => r.id !== 21) };
    await edge.push(plane('headers-2', open));
    expect(await status(send('images.example.com', '/a.png', referer('https://evil.example/')))).toBe(200);
    await edge.push(plane('headers-3'));
    expect(await status(send('images.example.com', '/a.png', referer('https://evil.example/')))).toBe(403);
    expect(await edge.nginx.masterPid()).toBe(master);
  });
});

describe('the Lua check of the lists', () => {
  const withAccess = (access: unknown) => {
    const doc = plane('headers-bad') as unknown as { domains: Record<string, unknown>[] };
    doc.domains[1] = { ...doc.domains[1], access };
    return doc;
  };
  const ref = REFERERS.referers[0];
  it.each([
    ['a host with a space', { ...REFERERS, referers: [{ ...ref, hosts: ['a b.example'] }] }, 'referers[0].hosts[0]'],
    ['an upper-case host', { ...REFERERS, referers: [{ ...ref, hosts: ['A.example'] }] }, 'referers[0].hosts[0]'],
    ['a host pattern "*"', { ...REFERERS, referers: [{ ...ref, hosts: ['*'] }] }, 'referers[0].hosts[0]'],
    ['no hosts', { ...REFERERS, referers: [{ ...ref, hosts: [] }] }, 'referers[0].hosts'],
    ['the mode "block"', { ...REFERERS, referers: [{ ...ref, mode: 'block' }] }, 'referers[0].mode'],
    ['a URL that does not compile', { ...REFERERS, referers: [{ ...ref, url: '(a' }] }, 'referers[0].url'],
    [
      'a header name with "_"',
      { ...REFERERS, headers: [{ id: 1, url: '.*', name: 'x_y', value: null, action: 'deny' }] },
      'headers[0].name',
    ],
    [
      'a value pattern that does not compile',
      { ...REFERERS, headers: [{ id: 1, url: '.*', name: 'x-y', value: 'a(', action: 'deny' }] },
      'headers[0].value',
    ],
  ])('refuses %s with the field', async (_label, access, field) => {
    const res = await edge.putRaw(JSON.stringify(withAccess(access)));
    expect(res).toMatchObject({ status: 400, body: { field: `domains[1].access.${field}` } });
  });

  it('refuses a site header rule with a bad name, and lists on a domain without a firewall', async () => {
    const doc = plane('headers-bad');
    const badSite = {
      ...doc,
      firewalls: [{ ...FIREWALLS[0], headers: [{ id: 1, url: '.*', name: 'X-Up', value: null, action: 'deny' }] }],
    };
    expect(await edge.putRaw(JSON.stringify(badSite))).toMatchObject({
      status: 400,
      body: { field: 'firewalls[0].headers[0].name' },
    });
    const noFirewall = { ...doc, domains: doc.domains.map((d) => (d.id === 2 ? { ...d, firewallId: null } : d)) };
    expect(await edge.putRaw(JSON.stringify(noFirewall))).toMatchObject({
      status: 400,
      body: { field: 'domains[1].access' },
    });
  });
});
