import { createHash } from 'node:crypto';
import { type EdgeTokenAuthModule, EVENT_DECISION_KINDS, ipListRanges, TOKEN_AUTH_CLOCK_SKEW } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlane } from '../src/data-plane/schema.js';
import { firewallLogLines } from './helpers/access-log.js';
import { cacheRule, document, domain, moduleRefs, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { sendFrom } from './helpers/send.js';

// Token auth modules (routes/site-module-token-auth.ts, rampart.token_auth) through a real nginx:
// token = md5(key + uri + timestamp) in the query; each scope and action on its own domain, expiry
// (and 0 = none), clock skew, a token replayed on another path, key rotation, the decision in the
// access log, and a domain without the module untouched.

type Auth = EdgeTokenAuthModule['auths'][number];

const auth = (id: number, scope: Auth['scope'], value: string, key: string, extra: Partial<Auth> = {}): Auth => ({
  id,
  scope,
  value,
  key,
  expire: 600,
  action: 'deny',
  ...extra,
});
const module = (id: number, auths: Auth[]): EdgeTokenAuthModule => ({ id, type: 'tokenAuth', auths });

const MODULES: EdgeTokenAuthModule[] = [
  module(1, [auth(11, 'path', '/live/test.flv', 'abc123')]),
  module(2, [auth(21, 'directory', '/live', 'abc123', { action: 'drop' })]),
  module(3, [auth(31, 'all', '', 'IamKey', { expire: 0 })]),
  module(4, [auth(41, 'fileTypes', 'flv png', 'abc123')]),
  module(5, [auth(51, 'regex', '\\/abc[1-2]', 'abc123')]),
  // Rotation: two keys over the same scope, either passes; the first refuses.
  module(6, [auth(61, 'all', '', 'old-key-1'), auth(62, 'all', '', 'new-key-2', { action: 'drop' })]),
  // Exponential backtracking, in the safe subset: lua_regex_match_limit stops it.
  module(8, [auth(81, 'regex', '(a|a)*\\d', 'abc123')]),
  // With a site firewall whose whitelist lets 127.0.7.9 skip the firewall's later checks.
  module(9, [auth(91, 'all', '', 'abc123')]),
];
const HOSTS = ['path', 'dir', 'all', 'types', 'regex', 'rotate', 'plain', 'slow', 'guarded', 'cached', 'cachedplain'];
/** The cached domains' module: module 3's auth (every path, no expiry). */
const CACHED_MODULE = 3;

const refs = (tokenAuth: number | null) => moduleRefs({ tokenAuth });

let edge: Edge;
let origin: Origin;

function plane(version: string): DataPlane {
  const to = [upstream(origin.port)];
  return document(
    version,
    HOSTS.map((host, i) =>
      domain(
        i + 1,
        `${host}.token.example`,
        to,
        host === 'plain'
          ? {}
          : host === 'cached'
            ? { modules: refs(CACHED_MODULE), cacheId: 7 }
            : host === 'cachedplain'
              ? { cacheId: 7 }
              : { modules: refs(i + 1), ...(host === 'guarded' ? { firewallId: 9 } : {}) },
      ),
    ),
    [],
    [{ id: 7, generation: 1, rules: [cacheRule({ scope: 'all', queryString: 'include' })] }],
    {
      modules: MODULES,
      firewalls: [
        {
          id: 9,
          whitelist: [{ id: 901, url: '.*', methods: ['GET'], ...ipListRanges(['127.0.7.9']) }],
          blacklist: [],
          userAgents: [],
          headers: [],
          intervals: [],
          rates: [],
          antiCC: [],
        },
      ],
    },
  );
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const now = () => Math.floor(Date.now() / 1000);
/** A signed URL for `path` (the hashed uri) with `key` at `timestamp`; `sent` is the path as requested. */
const signed = (key: string, path: string, timestamp = now(), sent = path) =>
  `${sent}?token=${md5(`${key}${path}${timestamp}`)}&timestamp=${timestamp}`;

const send = (host: string, path: string, from = '127.0.7.1') =>
  sendFrom(from, edge.httpPort, `${host}.token.example`, { path }).then((r) => {
    if (r === 'closed') return 'closed';
    return r.status === 200 && servedBy(r.body) !== 'origin' ? 'not the origin' : r.status;
  });

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(plane('token-1'));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('the token', () => {
  it("is md5(key + uri + timestamp): the reference's own examples", () => {
    expect(md5('IamKey/test.flv1708485442')).toBe('4dd2b030b42372cbdf78c1c849884fea');
    expect(md5('abc123/live/test.flv1700000000')).toBe('ac8ceb2ff685f34a4ffbe1334290a3c4');
  });

  it('a good token passes to the origin; a wrong, missing or malformed one is refused (403)', async () => {
    expect(await send('path', signed('abc123', '/live/test.flv'))).toBe(200);
    expect(await send('path', signed('wrong1', '/live/test.flv'))).toBe(403);
    expect(await send('path', '/live/test.flv')).toBe(403);
    expect(await send('path', `/live/test.flv?timestamp=${now()}`)).toBe(403);
    expect(await send('path', `/live/test.flv?token=${'0'.repeat(32)}`)).toBe(403);
    expect(await send('path', `/live/test.flv?token=xyz&timestamp=${now()}`)).toBe(403);
    expect(await send('path', `/live/test.flv?token=${md5('x')}&timestamp=12a`)).toBe(403);
  });

  it('takes the token in either case, and other query parameters alongside', async () => {
    const t = now();
    const token = md5(`abc123/live/test.flv${t}`);
    expect(await send('path', `/live/test.flv?a=1&token=${token.toUpperCase()}&timestamp=${t}&b=2`)).toBe(200);
  });

  it('hashes the decoded, normalised path without the query', async () => {
    const t = now();
    expect(await send('path', signed('abc123', '/live/test.flv', t, '/live/te%73t.flv'))).toBe(200);
    expect(await send('path', signed('abc123', '/live/te%73t.flv', t, '/live/te%73t.flv'))).toBe(403);
    expect(await send('path', signed('abc123', '/live/test.flv', t, '/live/x/../test.flv'))).toBe(200);
  });

  it('a token replayed on another path is refused: the path is in the hash', async () => {
    const t = now();
    const token = md5(`abc123/live/a.flv${t}`);
    expect(await send('dir', `/live/a.flv?token=${token}&timestamp=${t}`)).toBe(200);
    expect(await send('dir', `/live/b.flv?token=${token}&timestamp=${t}`)).toBe('closed');
  });
});

describe('the timestamp', () => {
  it('expires after `expire` seconds', async () => {
    expect(await send('path', signed('abc123', '/live/test.flv', now() - 500))).toBe(200);
    expect(await send('path', signed('abc123', '/live/test.flv', now() - 700))).toBe(403);
    // The reference's example from 2023: long expired.
    expect(await send('path', '/live/test.flv?token=ac8ceb2ff685f34a4ffbe1334290a3c4&timestamp=1700000000')).toBe(403);
  });

  it(`may be up to ${TOKEN_AUTH_CLOCK_SKEW} s ahead of the node's clock (the signer's may run ahead), no more`, async () => {
    expect(await send('path', signed('abc123', '/live/test.flv', now() + TOKEN_AUTH_CLOCK_SKEW - 30))).toBe(200);
    expect(await send('path', signed('abc123', '/live/test.flv', now() + TOKEN_AUTH_CLOCK_SKEW + 60))).toBe(403);
  });

  it('is not checked with expire 0: only the token is', async () => {
    expect(await send('all', '/test.flv?token=4dd2b030b42372cbdf78c1c849884fea&timestamp=1708485442')).toBe(200);
    expect(await send('all', signed('IamKey', '/any/thing', now() + 86_400))).toBe(200);
    expect(await send('all', '/test.flv?token=4dd2b030b42372cbdf78c1c849884fea&timestamp=1708485443')).toBe(403);
  });
});

describe('scopes and actions', () => {
  it('path: only that path is checked', async () => {
    expect(await send('path', '/live/other.flv')).toBe(200);
    expect(await send('path', '/live/test.flv/x')).toBe(200);
  });

  it('directory: the directory and below are checked, a sibling with the same prefix is not; drop closes', async () => {
    expect(await send('dir', '/live')).toBe('closed');
    expect(await send('dir', '/live/deep/x.ts')).toBe('closed');
    expect(await send('dir', signed('abc123', '/live/deep/x.ts'))).toBe(200);
    expect(await send('dir', '/lively/x.ts')).toBe(200);
    expect(await send('dir', '/')).toBe(200);
  });

  it('all: every request is checked (deny)', async () => {
    expect(await send('all', '/')).toBe(403);
    expect(await send('all', signed('IamKey', '/'))).toBe(200);
  });

  it('file types: the listed extensions (any case) are checked, others not', async () => {
    expect(await send('types', '/v/a.flv')).toBe(403);
    expect(await send('types', '/v/a.PNG')).toBe(403);
    expect(await send('types', signed('abc123', '/v/a.png'))).toBe(200);
    expect(await send('types', '/v/a.jpg')).toBe(200);
    expect(await send('types', '/v/flv')).toBe(200);
  });

  it('regex: a path the pattern is found in is checked', async () => {
    expect(await send('regex', '/x/abc1/y')).toBe(403);
    expect(await send('regex', signed('abc123', '/x/abc2'))).toBe(200);
    expect(await send('regex', '/x/abc3')).toBe(200);
  });

  it('regex: a pattern that hits lua_regex_match_limit covers the request (fails closed)', async () => {
    const path = `/${'a'.repeat(40)}`;
    expect(await send('slow', path)).toBe(403);
    expect(await send('slow', signed('abc123', path))).toBe(200);
    expect(await send('slow', '/x')).toBe(200);
    expect(await edge.errorLog()).toContain('rampart token auth: pattern of auth 81 failed');
  });

  it('rotation: the old and the new key both pass; none refuses with the first auth (deny)', async () => {
    expect(await send('rotate', signed('old-key-1', '/v.mp4'))).toBe(200);
    expect(await send('rotate', signed('new-key-2', '/v.mp4'))).toBe(200);
    expect(await send('rotate', signed('other-key', '/v.mp4'))).toBe(403);
  });

  it("the firewall's whitelist does not excuse a missing token", async () => {
    expect(await send('guarded', '/', '127.0.7.9')).toBe(403);
    expect(await send('guarded', signed('abc123', '/'), '127.0.7.9')).toBe(200);
  });

  it('a domain without the module is untouched', async () => {
    expect(await send('plain', '/live/test.flv')).toBe(200);
    expect(await send('plain', '/live/test.flv?token=bad&timestamp=1')).toBe(200);
  });
});

describe('the decision', () => {
  it('is in the access log (fw_kind tokenAuth, the auth, its action); keys are not logged', async () => {
    expect(EVENT_DECISION_KINDS).toContain('tokenAuth');
    // From addresses refused nowhere before: the first refusal of a minute is the one logged
    // (rampart.refusals tallies the rest).
    await send('all', '/logged-deny', '127.0.7.31');
    await send('dir', '/live/logged-drop', '127.0.7.32');
    // The log's uri is the request line's: a passing request's token is in it (not its key).
    const pass = signed('new-key-2', '/logged-pass');
    await send('rotate', pass);
    const log = await firewallLogLines(edge, ['/logged-deny', '/live/logged-drop', pass]);
    expect(log.get('/logged-deny')).toMatchObject({ fw_kind: 'tokenAuth', fw_rule: '31', fw_action: 'deny' });
    expect(log.get('/live/logged-drop')).toMatchObject({ fw_kind: 'tokenAuth', fw_rule: '21', fw_action: 'drop' });
    expect(log.get(pass)).toMatchObject({ fw_kind: '', fw_rule: '', fw_action: '' });
    const logs = (await edge.accessLog()) + (await edge.errorLog());
    for (const key of ['abc123', 'IamKey', 'old-key-1', 'new-key-2']) expect(logs).not.toContain(key);
  });
});

describe('token auth modules in the data plane', () => {
  const push = (a: Record<string, unknown>) =>
    edge.putRaw(
      JSON.stringify({
        ...plane('bad-token'),
        modules: [{ id: 1, type: 'tokenAuth', auths: [{ ...auth(11, 'path', '/a', 'abc123'), ...a }] }],
        domains: [{ ...domain(1, 'path.token.example', [upstream(origin.port)]), modules: refs(1) }],
      }),
    );

  it('are checked again by the edge: a bad key, value, pattern or action is refused, the running plane kept', async () => {
    for (const bad of [
      { key: 'short' },
      { key: 'has space' },
      { scope: 'path', value: 'no-slash' },
      { scope: 'regex', value: '(?=x)' },
      { scope: 'fileTypes', value: 'FLV' },
      { scope: 'all', value: '/a' },
      { expire: -1 },
      { action: 'allow' },
    ]) {
      const res = await push(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(await send('all', '/')).toBe(403);
  });
});

describe('the cache of a token-auth domain', () => {
  const cacheStatus = async (host: string, path: string) =>
    (await request(edge.httpPort, `${host}.token.example`, path)).headers['x-cache-status'];

  it('keys a signed link without its token and timestamp, and keeps the other query parameters', async () => {
    const t = now();
    expect(await cacheStatus('cached', `${signed('IamKey', '/video.flv', t)}&q=1`)).toBe('MISS');
    // Another link to the same content (another time, so another token): the cached copy.
    expect(await cacheStatus('cached', `${signed('IamKey', '/video.flv', t - 5)}&q=1`)).toBe('HIT');
    expect(await cacheStatus('cached', `/video.flv?q=1&${signed('IamKey', '/video.flv', t - 9).split('?')[1]}`)).toBe(
      'HIT',
    );
    expect(await cacheStatus('cached', `${signed('IamKey', '/video.flv', t)}&q=2`)).toBe('MISS');
    // A wrong token is refused before the cache.
    expect(
      (await request(edge.httpPort, 'cached.token.example', `${signed('wrong', '/video.flv', t)}&q=1`)).status,
    ).toBe(403);
  });

  it('keeps token and timestamp in the key of a domain without token auth', async () => {
    expect(await cacheStatus('cachedplain', '/video.flv?token=a&timestamp=1')).toBe('MISS');
    expect(await cacheStatus('cachedplain', '/video.flv?token=b&timestamp=1')).toBe('MISS');
    expect(await cacheStatus('cachedplain', '/video.flv?token=a&timestamp=1')).toBe('HIT');
  });
});
