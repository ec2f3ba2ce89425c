import { createHmac, randomBytes } from 'node:crypto';
import {
  CHALLENGE_COOKIE,
  CHALLENGE_PATH,
  CHALLENGE_WORK_BITS_DEFAULT,
  challengeKeyIds,
  type EdgeChallenge,
  type EdgeFirewall,
  type EdgeRuleAction,
  ipListRanges,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlane } from '../src/data-plane/schema.js';
import { ALL_METHODS, bitsOf, formOf, proofOfWork, replyOf } from './helpers/challenges.js';
import { document, domain, siteFirewall, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { type FullReply, sendFrom } from './helpers/send.js';

// The challenges at the edge (rampart.challenge, packages/contract/src/edge/challenge.ts) through a
// real nginx, answered the way the pages' scripts answer them; challenge-browser.test.ts passes
// them in Chromium. The test holds the keys it pushes, so it can sign passes the node must take
// (the same MAC the node makes) and forge the ones it must refuse.

const [PREVIOUS, CURRENT, NEXT] = challengeKeyIds(new Date());
const KEYS = [PREVIOUS, CURRENT, NEXT].map((id) => ({ id, secret: randomBytes(32).toString('hex') }));
const CHALLENGE: EdgeChallenge = { keys: KEYS, passSeconds: 1800 };
const secretOf = (id: number) => Buffer.from(KEYS.find((k) => k.id === id)?.secret ?? '00'.repeat(32), 'hex');

const ANTI_CC = { seconds: 60, errorSeconds: 60, errorAction: 'deny' } as const;

function listRule(id: number, ips: string[], action: EdgeRuleAction, url = '.*') {
  return { id, url, methods: ALL_METHODS, ...ipListRanges(ips), action };
}

// Site 21: shield for 127.0.0.2–9 (127.0.0.5 whitelisted); site 22: click; site 23: redirect;
// site 24: a user-agent rule that challenges; site 25: a shield and a deny for 127.0.0.6.
const FIREWALLS: EdgeFirewall[] = [
  siteFirewall(21, {
    whitelist: [{ id: 210, url: '.*', methods: ALL_METHODS, ...ipListRanges(['127.0.0.5']) }],
    blacklist: [listRule(211, ['127.0.0.2-127.0.0.9'], 'shield')],
  }),
  siteFirewall(22, { blacklist: [listRule(221, ['127.0.0.0/8'], 'click')] }),
  siteFirewall(23, { blacklist: [listRule(231, ['127.0.0.0/8'], 'redirect')] }),
  siteFirewall(24, { userAgents: [{ id: 241, url: '.*', userAgent: 'curl', action: 'shield' }] }),
  siteFirewall(25, {
    blacklist: [listRule(251, ['127.0.0.0/8'], 'shield'), listRule(252, ['127.0.0.6'], 'deny')],
  }),
  // Anti-CC: /api/ challenged (shield) beyond 3 requests in 60 s, 2 unpassed challenges tolerated
  // then 929; /login full verification (click), and a drop beyond 1 unpassed challenge.
  siteFirewall(26, {
    antiCC: [
      { ...ANTI_CC, id: 261, url: 'cc\\.example\\.com\\/api\\/', times: 3, challenge: 'shield', errorTimes: 2 },
      { ...ANTI_CC, id: 262, url: '\\/login', times: 0, challenge: 'click', errorTimes: 1, errorAction: 'drop' },
    ],
  }),
];

let edge: Edge;
let origin: Origin;
let port: number;

function plane(
  version: string,
  challenge: EdgeChallenge = CHALLENGE,
  workBits = CHALLENGE_WORK_BITS_DEFAULT,
): DataPlane {
  const to = [upstream(origin.port)];
  return document(
    version,
    [
      domain(1, 'shield.example.com', to, { firewallId: 21 }),
      domain(2, 'click.example.com', to, { firewallId: 22 }),
      domain(3, 'redirect.example.com', to, { firewallId: 23 }),
      domain(4, 'agent.example.com', to, { firewallId: 24 }),
      domain(5, 'both.example.com', to, { firewallId: 25 }),
      // Another domain of site 21: the same rules, its own cookie (cookies are per host).
      domain(6, 'www.shield.example.com', to, { firewallId: 21 }),
      domain(7, 'cc.example.com', to, { firewallId: 26 }),
    ],
    [],
    [],
    {
      firewalls: FIREWALLS,
      challenge,
      limits: { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: workBits },
    },
  );
}

const send = (from: string, host: string, options: Parameters<typeof sendFrom>[3] = {}) =>
  sendFrom(from, port, host, options);

function form(fields: Record<string, string | number>): Parameters<typeof sendFrom>[3] {
  return {
    method: 'POST',
    path: CHALLENGE_PATH,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString(),
  };
}

/** The value of the cookie `name` a reply sets, or undefined. */
function cookieSet(reply: FullReply, name: string): string | undefined {
  for (const line of reply.headers['set-cookie'] ?? []) {
    const [pair] = line.split(';');
    const [key, value] = (pair as string).split('=');
    if (key === name) return value;
  }
  return undefined;
}

/** A pass as the node signs it: site, key id, expiry and MAC over the client's address. */
function pass(site: number, from: string, options: { kid?: number; exp?: number; key?: Buffer } = {}): string {
  const kid = options.kid ?? CURRENT;
  const exp = options.exp ?? Math.floor(Date.now() / 1000) + 600;
  const key = options.key ?? secretOf(kid);
  const address = Buffer.from(from.split('.').map(Number));
  const mac = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`p|${site}|${kid}|${exp}|`), address]))
    .digest()
    .subarray(0, 16)
    .toString('hex');
  return `${site}.${kid}.${exp}.${mac}`;
}

const withPass = (value: string) => ({ headers: { cookie: `${CHALLENGE_COOKIE}=${value}` } });

/** Solves the shield for `host` from `from` as the page's script does; the reply of the answer. */
async function solveShield(from: string, host: string, path = '/'): Promise<FullReply> {
  const page = replyOf(await send(from, host, { path }));
  expect(page.status).toBe(403);
  const { t, r } = formOf(page.body);
  return replyOf(await send(from, host, form({ t, r, n: proofOfWork(t), i: '' })));
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  port = await freePort();
  edge = await startEdge({ httpPorts: [port], httpsPorts: [], publicPorts: [{ local: port, public: 80 }] });
  await edge.push(plane('challenge-1'));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('the five-second shield', () => {
  it("answers a caught client with the shield page in the visitor's language, and lets others through", async () => {
    const before = origin.seen.length;
    const page = replyOf(await send('127.0.0.2', 'shield.example.com', { path: '/docs?a=1&b=<2>' }));
    expect(page.status).toBe(403);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('Checking your browser');
    expect(page.body).toContain('<noscript>');
    expect(formOf(page.body).r).toBe('/docs?a=1&b=<2>');
    expect(page.body).not.toContain('b=<2>');
    const chinese = replyOf(
      await send('127.0.0.2', 'shield.example.com', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } }),
    );
    expect(chinese.body).toContain('<html lang="zh-CN">');
    expect(chinese.body).toContain('正在检查您的浏览器');
    expect(chinese.body).toMatch(/请求 ID: <code>[A-Za-z0-9._-]+<\/code>/);
    const traditional = replyOf(
      await send('127.0.0.2', 'shield.example.com', { headers: { 'accept-language': 'zh-TW' } }),
    );
    expect(traditional.body).toContain('正在檢查您的瀏覽器');
    expect(traditional.body).toMatch(/請求 ID: <code>[A-Za-z0-9._-]+<\/code>/);
    expect(origin.seen.length).toBe(before);
    // Not listed, or whitelisted: straight to the origin.
    for (const from of ['127.0.0.1', '127.0.0.5', '127.0.0.10']) {
      const reply = replyOf(await send(from, 'shield.example.com'));
      expect(reply.status, from).toBe(200);
      expect(servedBy(reply.body)).toBe('origin');
    }
  });

  it('takes a proof of work, sets a pass bound to the client and the site, and sends the client back', async () => {
    const answer = await solveShield('127.0.0.3', 'shield.example.com', '/docs?a=1');
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/docs?a=1');
    const cookie = cookieSet(answer, CHALLENGE_COOKIE);
    expect(cookie).toMatch(/^21\.\d+\.\d+\.[0-9a-f]{32}$/);
    const line = (answer.headers['set-cookie'] ?? []).join(';');
    expect(line).toContain('HttpOnly');
    expect(line).toContain('Path=/');
    expect(line).toContain('Max-Age=1800');

    const through = replyOf(
      await send('127.0.0.3', 'shield.example.com', { path: '/docs?a=1', ...withPass(cookie as string) }),
    );
    expect(through.status).toBe(200);
    expect(servedBy(through.body)).toBe('origin');
    expect(origin.seen.at(-1)?.url).toBe('/docs?a=1');
    // The same cookie from another address, or on another site, is no pass.
    expect(replyOf(await send('127.0.0.4', 'shield.example.com', withPass(cookie as string))).status).toBe(403);
    expect(replyOf(await send('127.0.0.3', 'click.example.com', withPass(cookie as string))).status).toBe(403);
  });

  it('refuses a wrong proof of work, a token from another address and a forged token', async () => {
    const page = replyOf(await send('127.0.0.2', 'shield.example.com'));
    const { t, r } = formOf(page.body);
    const n = proofOfWork(t);
    // A wrong answer (the next number almost never also works: 1 in 2 million).
    const wrong = replyOf(await send('127.0.0.2', 'shield.example.com', form({ t, r, n: n + 1 })));
    expect(wrong.status).toBe(403);
    expect(wrong.body).toContain('Verification failed');
    expect(cookieSet(wrong, CHALLENGE_COOKIE)).toBeUndefined();
    // The right answer from another address than the token's.
    const elsewhere = replyOf(await send('127.0.0.4', 'shield.example.com', form({ t, r, n })));
    expect(elsewhere.status).toBe(403);
    // A token with one character of its MAC changed.
    const forged = t.slice(0, -1) + (t.endsWith('0') ? '1' : '0');
    expect(replyOf(await send('127.0.0.2', 'shield.example.com', form({ t: forged, r, n }))).status).toBe(403);
    // And the untouched answer passes.
    expect(replyOf(await send('127.0.0.2', 'shield.example.com', form({ t, r, n }))).status).toBe(303);
  });

  it('sends the client back only to a path on the same host', async () => {
    // One solved token serves every attempt: it is good from its address until it expires.
    const { t } = formOf(replyOf(await send('127.0.0.2', 'shield.example.com')).body);
    const n = proofOfWork(t);
    for (const r of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/a b']) {
      const answer = replyOf(await send('127.0.0.2', 'shield.example.com', form({ t, r, n })));
      expect(answer.status, r).toBe(303);
      expect(answer.headers.location, r).toBe('/');
    }
  });

  it('takes a pass signed with any key the node holds, and refuses expired, tampered and unknown-key passes', async () => {
    for (const kid of [PREVIOUS, CURRENT, NEXT]) {
      expect(
        replyOf(await send('127.0.0.7', 'shield.example.com', withPass(pass(21, '127.0.0.7', { kid })))).status,
      ).toBe(200);
    }
    const refused = [
      pass(21, '127.0.0.7', { exp: Math.floor(Date.now() / 1000) - 1 }),
      pass(21, '127.0.0.7', { kid: (PREVIOUS as number) - 1, key: secretOf(PREVIOUS as number) }),
      pass(21, '127.0.0.7', { key: randomBytes(32) }),
      pass(21, '127.0.0.8'),
      pass(22, '127.0.0.7'),
      pass(21, '127.0.0.7').replace(/\.(\d+)\./, (_m, exp: string) => `.${Number(exp) + 1}.`),
      `${pass(21, '127.0.0.7')}0`,
      'garbage',
    ];
    for (const value of refused) {
      expect(replyOf(await send('127.0.0.7', 'shield.example.com', withPass(value))).status, value).toBe(403);
    }
  });

  it('lets a pass through the challenge rules only: a deny rule still denies', async () => {
    expect(replyOf(await send('127.0.0.7', 'both.example.com', withPass(pass(25, '127.0.0.7')))).status).toBe(200);
    const denied = replyOf(await send('127.0.0.6', 'both.example.com', withPass(pass(25, '127.0.0.6'))));
    expect(denied.status).toBe(403);
    expect(denied.body).toContain('403 Access denied');
  });

  it('logs the rule, its kind and its action, and the outcome of an answer', async () => {
    const page = replyOf(await send('127.0.0.9', 'shield.example.com', { path: '/logged-challenge' }));
    // The page shows the request's id, the one its log line carries.
    const id = /Request ID: <code>([A-Za-z0-9._-]+)<\/code>/.exec(page.body)?.[1];
    expect(id, page.body).toBeDefined();
    const answer = await solveShield('127.0.0.9', 'shield.example.com', '/logged-answer');
    expect(answer.status).toBe(303);
    let lines: Record<string, string>[] = [];
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 100));
      lines = (await edge.accessLog())
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, string>)
        .filter((entry) => entry.remote_addr === '127.0.0.9');
      if (lines.some((entry) => entry.uri === CHALLENGE_PATH)) break;
    }
    expect(lines.find((entry) => entry.uri === '/logged-challenge')).toMatchObject({
      request_id: id,
      status: '403',
      fw_kind: 'blacklist',
      fw_rule: '211',
      fw_action: 'shield',
    });
    expect(lines.find((entry) => entry.uri === CHALLENGE_PATH && entry.status === '303')).toMatchObject({
      fw_kind: 'challenge',
      fw_action: 'pass',
    });
  });
});

describe('click to verify', () => {
  it('asks the zone’s proof of work and takes it with the click; client-reported interaction counts for nothing', async () => {
    const page = replyOf(await send('127.0.0.2', 'click.example.com', { path: '/shop' }));
    expect(page.status).toBe(403);
    expect(page.body).toContain('Verify you are a person');
    expect(page.body).toContain('<button');
    const { t } = formOf(page.body);
    expect(bitsOf(t)).toBe(CHALLENGE_WORK_BITS_DEFAULT);
    expect(page.body).toContain(`,${CHALLENGE_WORK_BITS_DEFAULT},function(n){work=n;`);
    const attempt = async (answer: (t: string) => Record<string, string | number>) => {
      const { t, r } = formOf(replyOf(await send('127.0.0.2', 'click.example.com', { path: '/shop' })).body);
      return replyOf(await send('127.0.0.2', 'click.example.com', form({ t, r, ...answer(t) })));
    };
    // A script that claims a slow, trusted, moving click but did the old 14 bits of work, or none.
    const claims = { i: '900,5,1,0' };
    expect((await attempt((t) => ({ n: proofOfWork(t, 14, CHALLENGE_WORK_BITS_DEFAULT), ...claims }))).status).toBe(
      403,
    );
    expect((await attempt(() => ({ n: 0, ...claims }))).status).toBe(403);
    expect((await attempt(() => claims)).status).toBe(403);
    // The work the token asks passes, whatever the page would have reported.
    const passed = await attempt((t) => ({ n: proofOfWork(t) }));
    expect(passed.status).toBe(303);
    expect(passed.headers.location).toBe('/shop');
    expect(cookieSet(passed, CHALLENGE_COOKIE)).toMatch(/^22\./);
  });
});

describe('what the node checks of a proof of work', () => {
  /** A token as the node signs it (the test holds the keys): kind, site, rule, expiry, bits, address. */
  function token(o: { kind: string; site: number; exp: number; bits: number; from: string; kid?: number }): string {
    const kid = o.kid ?? CURRENT;
    const nonce = randomBytes(16).toString('hex');
    const fields = [o.kind, String(o.site), '0', String(kid), String(o.exp), nonce, String(o.bits)];
    const address = Buffer.from(o.from.split('.').map(Number));
    const mac = createHmac('sha256', secretOf(kid))
      .update(Buffer.concat([Buffer.from(`t|${fields.join('|')}|`), address]))
      .digest()
      .subarray(0, 16)
      .toString('hex');
    return `${fields.join('.')}.${mac}`;
  }
  const inAMinute = () => Math.floor(Date.now() / 1000) + 60;

  it('refuses a solved shield or click replayed from another address, on another site, or after its lifetime', async () => {
    for (const [kind, site, host, other] of [
      ['s', 21, 'shield.example.com', 'click.example.com'],
      ['c', 22, 'click.example.com', 'shield.example.com'],
    ] as const) {
      const { t, r } = formOf(replyOf(await send('127.0.0.3', host)).body);
      const n = proofOfWork(t);
      expect(replyOf(await send('127.0.0.4', host, form({ t, r, n }))).status, `${kind} elsewhere`).toBe(403);
      expect(replyOf(await send('127.0.0.3', other, form({ t, r, n }))).status, `${kind} other site`).toBe(403);
      expect(replyOf(await send('127.0.0.3', host, form({ t, r, n }))).status, `${kind} itself`).toBe(303);
      // A token the node signed that has expired: solved, and refused; the same one still alive passes.
      const expired = token({ kind, site, exp: Math.floor(Date.now() / 1000) - 1, bits: 16, from: '127.0.0.3' });
      const expiredAnswer = form({ t: expired, r: '/', n: proofOfWork(expired) });
      expect(replyOf(await send('127.0.0.3', host, expiredAnswer)).status, `${kind} expired`).toBe(403);
      const alive = token({ kind, site, exp: inAMinute(), bits: 16, from: '127.0.0.3' });
      expect(replyOf(await send('127.0.0.3', host, form({ t: alive, r: '/', n: proofOfWork(alive) }))).status).toBe(
        303,
      );
    }
  });

  it('refuses a token whose bits were lowered, and bits outside the zone setting’s bounds', async () => {
    const { t, r } = formOf(replyOf(await send('127.0.0.3', 'shield.example.com')).body);
    const parts = t.split('.');
    parts[6] = '16';
    const lowered = parts.join('.');
    const n = proofOfWork(lowered, 16, CHALLENGE_WORK_BITS_DEFAULT);
    expect(replyOf(await send('127.0.0.3', 'shield.example.com', form({ t: lowered, r, n }))).status).toBe(403);
    // Signed with the node's key but asking 8 bits: below what any zone may ask.
    const eight = token({ kind: 's', site: 21, exp: inAMinute(), bits: 8, from: '127.0.0.3' });
    const cheap = form({ t: eight, r: '/', n: proofOfWork(eight, 8) });
    expect(replyOf(await send('127.0.0.3', 'shield.example.com', cheap)).status).toBe(403);
  });

  it('asks the work the zone sets: the page, the token and the check follow the data plane', async () => {
    try {
      await edge.push(plane('challenge-work-16', CHALLENGE, 16));
      const easy = replyOf(await send('127.0.0.2', 'click.example.com'));
      const { t: t16, r } = formOf(easy.body);
      expect(bitsOf(t16)).toBe(16);
      expect(easy.body).toContain(',16,function(n){work=n;');
      expect(
        replyOf(await send('127.0.0.2', 'click.example.com', form({ t: t16, r, n: proofOfWork(t16) }))).status,
      ).toBe(303);

      await edge.push(plane('challenge-work-24', CHALLENGE, 24));
      const hard = replyOf(await send('127.0.0.2', 'shield.example.com'));
      const { t: t24 } = formOf(hard.body);
      expect(bitsOf(t24)).toBe(24);
      expect(hard.body).toContain(',24,function(n){work=n;');
      // 16 bits of work do not answer a 24-bit token.
      const short = proofOfWork(t24, 16, 24);
      expect(replyOf(await send('127.0.0.2', 'shield.example.com', form({ t: t24, r, n: short }))).status).toBe(403);
    } finally {
      await edge.push(plane('challenge-work-back'));
    }
  });
});

describe('redirect verification', () => {
  it('redirects with a probe cookie, and passes a client that follows with it', async () => {
    const first = replyOf(await send('127.0.0.2', 'redirect.example.com', { path: '/news?id=7' }));
    expect(first.status).toBe(302);
    const location = new URL(first.headers.location as string, 'http://redirect.example.com');
    expect(location.pathname).toBe(CHALLENGE_PATH);
    expect(location.searchParams.get('r')).toBe('/news?id=7');
    const probe = cookieSet(first, 'rampart_probe');
    expect(probe).toMatch(/^[0-9a-f]{32}$/);
    const path = location.pathname + location.search;

    // Without the probe cookie (a client that does not keep cookies), or with another: refused.
    expect(replyOf(await send('127.0.0.2', 'redirect.example.com', { path })).status).toBe(403);
    const other = { headers: { cookie: `rampart_probe=${'0'.repeat(32)}` } };
    expect(replyOf(await send('127.0.0.2', 'redirect.example.com', { path, ...other })).status).toBe(403);

    const followed = replyOf(
      await send('127.0.0.2', 'redirect.example.com', { path, headers: { cookie: `rampart_probe=${probe}` } }),
    );
    expect(followed.status).toBe(302);
    expect(followed.headers.location).toBe('/news?id=7');
    const cookie = cookieSet(followed, CHALLENGE_COOKIE) as string;
    expect(cookie).toMatch(/^23\./);
    const through = replyOf(
      await send('127.0.0.2', 'redirect.example.com', { path: '/news?id=7', ...withPass(cookie) }),
    );
    expect(through.status).toBe(200);
    expect(servedBy(through.body)).toBe('origin');
  });
});

describe('a user-agent rule that challenges', () => {
  it('challenges the matching agents only, and lets them through with a pass', async () => {
    const caught = replyOf(await send('127.0.0.1', 'agent.example.com', { headers: { 'user-agent': 'curl/8.0' } }));
    expect(caught.status).toBe(403);
    expect(caught.body).toContain('Checking your browser');
    expect(
      replyOf(await send('127.0.0.1', 'agent.example.com', { headers: { 'user-agent': 'Mozilla/5.0' } })).status,
    ).toBe(200);
    const answer = await solveShieldWithAgent('127.0.0.1', 'agent.example.com', 'curl/8.0');
    expect(answer.status).toBe(303);
    const cookie = cookieSet(answer, CHALLENGE_COOKIE) as string;
    const through = replyOf(
      await send('127.0.0.1', 'agent.example.com', {
        headers: { 'user-agent': 'curl/8.0', cookie: `${CHALLENGE_COOKIE}=${cookie}` },
      }),
    );
    expect(through.status).toBe(200);
  });
});

async function solveShieldWithAgent(from: string, host: string, agent: string): Promise<FullReply> {
  const page = replyOf(await send(from, host, { headers: { 'user-agent': agent } }));
  const { t, r } = formOf(page.body);
  const answer = form({ t, r, n: proofOfWork(t) });
  return replyOf(await send(from, host, { ...answer, headers: { ...answer?.headers, 'user-agent': agent } }));
}

describe('anti-CC', () => {
  it('challenges a client beyond N requests in T seconds, not below, and not with a pass', async () => {
    const from = '127.0.0.11';
    for (let i = 1; i <= 3; i++) {
      expect(replyOf(await send(from, 'cc.example.com', { path: `/api/${i}` })).status, `request ${i}`).toBe(200);
    }
    const fourth = replyOf(await send(from, 'cc.example.com', { path: '/api/4' }));
    expect(fourth.status).toBe(403);
    expect(fourth.body).toContain('Checking your browser');
    // Other paths and other addresses are not counted with it.
    expect(replyOf(await send(from, 'cc.example.com', { path: '/other' })).status).toBe(200);
    expect(replyOf(await send('127.0.0.12', 'cc.example.com', { path: '/api/1' })).status).toBe(200);
    // Passing the challenge lets the client's requests through again.
    const { t, r } = formOf(fourth.body);
    expect(t.split('.')[2]).toBe('261');
    const answer = replyOf(await send(from, 'cc.example.com', form({ t, r, n: proofOfWork(t) })));
    expect(answer.status).toBe(303);
    const cookie = cookieSet(answer, CHALLENGE_COOKIE) as string;
    for (let i = 5; i <= 10; i++) {
      const reply = replyOf(await send(from, 'cc.example.com', { path: `/api/${i}`, ...withPass(cookie) }));
      expect(reply.status, `request ${i} with the pass`).toBe(200);
    }
  });

  it('answers with the error action once a client leaves more unpassed challenges than allowed', async () => {
    const from = '127.0.0.13';
    for (let i = 1; i <= 3; i++) await send(from, 'cc.example.com', { path: '/api/x' });
    // Challenges 1 and 2 are within the 2 tolerated errors; the third challenge makes 3 errors.
    for (let i = 1; i <= 3; i++) {
      expect(replyOf(await send(from, 'cc.example.com', { path: '/api/x' })).body, `challenge ${i}`).toContain(
        'Checking your browser',
      );
    }
    const denied = replyOf(await send(from, 'cc.example.com', { path: '/api/x' }));
    expect(denied.status).toBe(929);
    // Full verification: every request challenged; after one unpassed challenge, dropped.
    const click = replyOf(await send(from, 'cc.example.com', { path: '/login' }));
    expect(click.status).toBe(403);
    expect(click.body).toContain('Verify you are a person');
    expect(await send(from, 'cc.example.com', { path: '/login' })).toMatchObject({ status: 403 });
    expect(await send(from, 'cc.example.com', { path: '/login' })).toBe('closed');
  });

  it('takes back the error of a passed challenge', async () => {
    const from = '127.0.0.14';
    // Full verification with 1 error tolerated: challenge, pass, challenge (no pass cookie sent), pass…
    for (let round = 1; round <= 4; round++) {
      const page = replyOf(await send(from, 'cc.example.com', { path: '/login' }));
      expect(page.status, `round ${round}`).toBe(403);
      const { t, r } = formOf(page.body);
      const answer = replyOf(await send(from, 'cc.example.com', form({ t, r, n: proofOfWork(t) })));
      expect(answer.status, `round ${round}`).toBe(303);
    }
  });
});

describe('the challenge path', () => {
  it('is answered by the edge only on sites with a challenge rule', async () => {
    const site = replyOf(await send('127.0.0.1', 'shield.example.com', { path: CHALLENGE_PATH }));
    expect(site.status).toBe(403);
    expect(site.body).toContain('Verification failed');
    // A body too large to be an answer (nginx keeps it in a file): refused as no answer, not an error.
    const large = replyOf(
      await send('127.0.0.1', 'shield.example.com', form({ t: 'x', r: '/', n: '1'.repeat(200_000) })),
    );
    expect(large.status).toBe(403);
    expect(large.body).toContain('Verification failed');
    await edge.push(document('challenge-2', [domain(7, 'plain.example.com', [upstream(origin.port)])]));
    const plain = replyOf(await send('127.0.0.1', 'plain.example.com', { path: CHALLENGE_PATH }));
    expect(plain.status).toBe(200);
    expect(origin.seen.at(-1)?.url).toBe(CHALLENGE_PATH);
    await edge.push(plane('challenge-3'));
  });
});
