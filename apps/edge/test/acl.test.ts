import { createHash } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type EdgeAclCondition,
  type EdgeBlockReport,
  type EdgeLuaAclModule,
  edgeBlockReportSchema,
  ipListRanges,
} from '@rampart/contract';
import { geoRecord, writeMmdb } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlane } from '../src/data-plane/schema.js';
import { firewallLogLines } from './helpers/access-log.js';
import { document, domain, moduleRefs, upstream } from './helpers/documents.js';
import { adminCall, type Edge, startEdge } from './helpers/edge.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { sendFrom } from './helpers/send.js';

// Lua ACL modules (routes/site-module-acl.ts, rampart.acl) through a real nginx: each condition and
// action on its own domain, several conditions together, priority order, negation, the firewall's
// whitelist before the ACL, DROP + Blacklist on the site's block list, and the decision in the
// access log. Every test sends from its own loopback addresses (127.0.0.0/8 is all local on Linux).
// The geo database places 127.0.9.2 in CN and 127.0.9.3 in US.

type Rule = EdgeLuaAclModule['rules'][number];
type Action = Rule['action'];

const str = (
  field: 'cookie' | 'referer' | 'uriPath' | 'uriString' | 'userAgent' | 'header',
  op: 'exact' | 'prefix' | 'contains' | 'regex',
  value: string,
  extra: { name?: string; negate?: boolean } = {},
): EdgeAclCondition => ({ field, op, value, name: extra.name ?? '', negate: extra.negate ?? false });
const ip = (values: string[], negate = false): EdgeAclCondition => ({ field: 'ip', negate, ...ipListRanges(values) });
const set = (field: 'country' | 'method', values: string[], negate = false): EdgeAclCondition =>
  ({ field, negate, values }) as EdgeAclCondition;
const frequency = (op: 'gt' | 'lt' | 'gte' | 'lte', count: number, seconds: number): EdgeAclCondition => ({
  field: 'frequency',
  op,
  count,
  seconds,
});
const rule = (id: number, action: Action, conditions: EdgeAclCondition[], target: string | null = null): Rule => ({
  id,
  action,
  target,
  conditions,
});
const acl = (id: number, rules: Rule[], siteId = 1): EdgeLuaAclModule => ({ id, type: 'luaAcl', siteId, rules });

const MODULES: EdgeLuaAclModule[] = [
  acl(1, [rule(11, 'deny', [ip(['127.0.1.0/24', '::1'])])]),
  acl(2, [rule(21, 'deny', [set('country', ['CN'])])]),
  acl(3, [rule(31, 'deny', [set('method', ['POST', 'DELETE'])])]),
  acl(4, [rule(41, 'deny', [str('cookie', 'contains', 'bot=1')])]),
  acl(5, [rule(51, 'drop', [str('referer', 'prefix', 'http://evil.example')])]),
  acl(6, [rule(61, 'deny', [str('uriPath', 'exact', '/admin')]), rule(62, 'drop', [str('uriPath', 'regex', '^/wp-')])]),
  acl(7, [rule(71, 'deny', [str('uriString', 'contains', 'debug=1')])]),
  acl(8, [rule(81, 'deny', [str('userAgent', 'regex', 'curl|wget')])]),
  acl(9, [rule(91, 'deny', [str('header', 'exact', '1', { name: 'X-Api-Version' })])]),
  acl(10, [rule(101, 'deny', [frequency('gt', 3, 60), str('uriPath', 'prefix', '/api')])]),
  // Priority: the control plane sends rules higher priority first; the first that matches decides.
  acl(11, [
    rule(111, 'allow', [ip(['127.0.3.5'])]),
    rule(112, 'deny', [set('method', ['POST']), str('uriPath', 'prefix', '/admin')]),
    rule(113, 'drop', [str('uriPath', 'prefix', '/admin')]),
  ]),
  acl(12, [rule(121, 'redirect', [str('uriPath', 'exact', '/old')], 'https://new.example.com/landing')]),
  acl(13, [rule(131, 'dropBlacklist', [str('uriPath', 'exact', '/trap')])], 13),
  acl(14, [rule(141, 'deny', [ip(['127.0.5.0/24'], true)])]),
  acl(15, [rule(151, 'deny', [str('uriPath', 'prefix', '/')])], 15),
];

const refs = (luaAcl: number) => moduleRefs({ luaAcl });
const HOSTS = [
  'ip',
  'country',
  'method',
  'cookie',
  'referer',
  'path',
  'uristring',
  'ua',
  'header',
  'frequency',
  'priority',
  'redirect',
  'blacklist',
  'negate',
  'whitelisted',
];

let edge: Edge;
let origin: Origin;

const GEO = writeMmdb(
  [
    { cidr: '127.0.9.2/32', data: geoRecord('CN') },
    { cidr: '127.0.9.3/32', data: geoRecord('US') },
  ],
  { databaseType: 'Rampart-Test-City' },
);

function plane(version: string, geoDatabase: string): DataPlane {
  const to = [upstream(origin.port)];
  return {
    ...document(
      version,
      HOSTS.map((host, i) =>
        domain(i + 1, `${host}.acl.example`, to, {
          modules: refs(i + 1),
          // The last one has a firewall whose whitelist lets 127.0.6.1 skip every later check.
          ...(host === 'whitelisted' ? { firewallId: 15 } : {}),
        }),
      ),
      [],
      [],
      {
        modules: MODULES,
        firewalls: [
          {
            id: 15,
            whitelist: [{ id: 1501, url: '.*', methods: ['GET'], ...ipListRanges(['127.0.6.1']) }],
            blacklist: [],
            userAgents: [],
            headers: [],
            intervals: [],
            rates: [],
            antiCC: [],
          },
        ],
      },
    ),
    geoDatabase,
  };
}

const send = (
  from: string,
  host: string,
  options: { path?: string; method?: string; headers?: Record<string, string> } = {},
) => sendFrom(from, edge.httpPort, `${host}.acl.example`, options).then((r) => (r === 'closed' ? 'closed' : r.status));

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  const geoDir = path.join(edge.prefix, 'geo');
  await mkdir(geoDir, { recursive: true });
  await chmod(geoDir, 0o755);
  await edge.nginx.reload(edge.render({ geoDir }));
  const hash = createHash('sha256').update(GEO).digest('hex');
  await writeFile(path.join(geoDir, `${hash}.mmdb`), GEO, { mode: 0o644 });
  await edge.push(plane('acl-1', hash));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('Lua ACL conditions, one by one', () => {
  it('IP: an address or CIDR listed is denied (403), others pass to the origin', async () => {
    expect(await send('127.0.1.7', 'ip')).toBe(403);
    const passed = await sendFrom('127.0.2.70', edge.httpPort, 'ip.acl.example', { path: '/ok' });
    expect(passed !== 'closed' && servedBy(passed.body)).toBe('origin');
    expect(await send('127.0.2.7', 'ip')).toBe(200);
  });

  it('geolocation: a listed country is denied, another or an unknown address passes', async () => {
    expect(await send('127.0.9.2', 'country')).toBe(403);
    expect(await send('127.0.9.3', 'country')).toBe(200);
    expect(await send('127.0.9.9', 'country')).toBe(200);
  });

  it('method: the listed methods are denied', async () => {
    expect(await send('127.0.2.1', 'method', { method: 'POST' })).toBe(403);
    expect(await send('127.0.2.1', 'method', { method: 'DELETE' })).toBe(403);
    expect(await send('127.0.2.1', 'method', { method: 'GET' })).toBe(200);
  });

  it('cookie: a Cookie header containing the value is denied; none reads as empty', async () => {
    expect(await send('127.0.2.2', 'cookie', { headers: { cookie: 'a=2; bot=1' } })).toBe(403);
    expect(await send('127.0.2.2', 'cookie', { headers: { cookie: 'a=2' } })).toBe(200);
    expect(await send('127.0.2.2', 'cookie')).toBe(200);
  });

  it('referer: a Referer starting with the value is dropped (connection closed)', async () => {
    expect(await send('127.0.2.3', 'referer', { headers: { referer: 'http://evil.example/x' } })).toBe('closed');
    expect(await send('127.0.2.3', 'referer', { headers: { referer: 'http://good.example/' } })).toBe(200);
  });

  it('URI path: exact and regex match the decoded path, not the query', async () => {
    expect(await send('127.0.2.4', 'path', { path: '/admin' })).toBe(403);
    expect(await send('127.0.2.4', 'path', { path: '/%61dmin?x=1' })).toBe(403);
    expect(await send('127.0.2.4', 'path', { path: '/admin/more' })).toBe(200);
    expect(await send('127.0.2.4', 'path', { path: '/wp-login.php' })).toBe('closed');
    expect(await send('127.0.2.4', 'path', { path: '/blog/wp-x' })).toBe(200);
  });

  it('URI string: matches the path and query as sent', async () => {
    expect(await send('127.0.2.5', 'uristring', { path: '/page?debug=1' })).toBe(403);
    expect(await send('127.0.2.5', 'uristring', { path: '/page?debug=0' })).toBe(200);
  });

  it('user agent: an unanchored regex', async () => {
    expect(await send('127.0.2.6', 'ua', { headers: { 'user-agent': 'curl/8.0' } })).toBe(403);
    expect(await send('127.0.2.6', 'ua', { headers: { 'user-agent': 'Mozilla/5.0' } })).toBe(200);
  });

  it('header: the named header compared with the value', async () => {
    expect(await send('127.0.2.7', 'header', { headers: { 'x-api-version': '1' } })).toBe(403);
    expect(await send('127.0.2.7', 'header', { headers: { 'x-api-version': '2' } })).toBe(200);
    expect(await send('127.0.2.7', 'header')).toBe(200);
  });

  it('access frequency: only requests meeting the other conditions count; over 3 in the window are denied', async () => {
    const statuses: (number | 'closed')[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await send('127.0.2.8', 'frequency', { path: '/api/x' }));
    expect(statuses).toEqual([200, 200, 200, 403, 403]);
    // Other paths are not counted nor refused; another address has its own count.
    expect(await send('127.0.2.8', 'frequency', { path: '/home' })).toBe(200);
    expect(await send('127.0.2.9', 'frequency', { path: '/api/x' })).toBe(200);
  });

  it('negate: "not in" denies every address outside the range', async () => {
    expect(await send('127.0.5.1', 'negate')).toBe(200);
    expect(await send('127.0.4.1', 'negate')).toBe(403);
  });
});

describe('Lua ACL actions and priority', () => {
  it('tries rules in order: allow ends the ACL; conditions of one rule combine with AND', async () => {
    // 127.0.3.5 is allowed before the rules that would block it.
    expect(await send('127.0.3.5', 'priority', { path: '/admin', method: 'POST' })).toBe(200);
    // POST and /admin: the deny rule; GET /admin: only the drop rule matches.
    expect(await send('127.0.3.6', 'priority', { path: '/admin', method: 'POST' })).toBe(403);
    expect(await send('127.0.3.6', 'priority', { path: '/admin' })).toBe('closed');
    expect(await send('127.0.3.6', 'priority', { path: '/public', method: 'POST' })).toBe(200);
  });

  it('redirect answers 301 to the rule target', async () => {
    const reply = await sendFrom('127.0.3.7', edge.httpPort, 'redirect.acl.example', { path: '/old?x=1' });
    expect(reply).not.toBe('closed');
    if (reply === 'closed') return;
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe('https://new.example.com/landing');
    expect(await send('127.0.3.7', 'redirect', { path: '/new' })).toBe(200);
  });

  it('DROP + Blacklist drops and puts the address on the site block list, which drops it everywhere', async () => {
    expect(await send('127.0.3.8', 'blacklist', { path: '/free' })).toBe(200);
    expect(await send('127.0.3.8', 'blacklist', { path: '/trap' })).toBe('closed');
    expect(await send('127.0.3.8', 'blacklist', { path: '/free' })).toBe('closed');
    expect(await send('127.0.3.9', 'blacklist', { path: '/free' })).toBe(200);
    const res = await adminCall(edge.adminEndpoint, 'GET', '/blocklist/events');
    const events = (res.body.events as unknown[]).map((e) => edgeBlockReportSchema.parse(e));
    expect(events.filter((e: EdgeBlockReport) => e.ip === '127.0.3.8')).toEqual([
      expect.objectContaining({ siteId: 13, ip: '127.0.3.8', cause: 'acl', ruleId: 131 }),
    ]);
  });

  it("the firewall's whitelist comes first and skips the ACL", async () => {
    expect(await send('127.0.6.1', 'whitelisted')).toBe(200);
    expect(await send('127.0.6.2', 'whitelisted')).toBe(403);
  });

  it('logs the decision with kind acl, the rule and its action', async () => {
    await send('127.0.1.9', 'ip', { path: '/logged-deny' });
    await send('127.0.3.5', 'priority', { path: '/logged-allow' });
    await send('127.0.3.10', 'blacklist', { path: '/trap?logged' });
    const log = await firewallLogLines(edge, ['/logged-deny', '/logged-allow', '/trap']);
    expect(log.get('/logged-deny')).toMatchObject({ fw_kind: 'acl', fw_rule: '11', fw_action: 'deny', status: '403' });
    expect(log.get('/logged-allow')).toMatchObject({ fw_kind: 'acl', fw_rule: '111', fw_action: 'allow' });
    expect(log.get('/trap')).toMatchObject({ fw_kind: 'acl', fw_rule: '131', fw_action: 'dropBlacklist' });
  });
});

describe('Lua ACL modules in the data plane', () => {
  const push = (module: unknown) =>
    edge.putRaw(
      JSON.stringify({
        version: 'bad-acl',
        domains: [{ ...domain(1, 'ip.acl.example', [upstream(origin.port)]), modules: refs(1) }],
        certificates: [],
        caches: [],
        modules: [module],
      }),
    );

  it.each([
    [acl(1, [rule(11, 'deny', [str('userAgent', 'regex', '(?=x)a')])]), 'modules[0].rules[0].conditions[0].value'],
    [acl(1, [rule(11, 'deny', [str('userAgent', 'regex', 'a{1,100000}')])]), 'modules[0].rules[0].conditions[0].value'],
    [acl(1, [{ ...rule(11, 'deny', [ip(['127.0.0.1'])]), action: 'exec' as Action }]), 'modules[0].rules[0].action'],
    [acl(1, [rule(11, 'redirect', [ip(['127.0.0.1'])], '/a"; return 200')]), 'modules[0].rules[0].target'],
    [
      acl(1, [rule(11, 'deny', [str('header', 'exact', 'x', { name: 'X-A\r\n' })])]),
      'modules[0].rules[0].conditions[0].name',
    ],
  ])('refuses %j (%s)', async (module, field) => {
    const answer = await push(module);
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe(field);
    // The last good document still applies.
    expect(await send('127.0.1.10', 'ip')).toBe(403);
  });
});
