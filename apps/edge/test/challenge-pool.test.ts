import { randomBytes } from 'node:crypto';
import { CHALLENGE_COOKIE, CHALLENGE_PATH, challengeKeyIds, type EdgeRuleAction } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChallengePool, drawPool, heldPool, PoolKeeper, pushPool } from '../src/challenge-pool/pool.js';
import { adminRequest } from '../src/data-plane/admin-client.js';
import { challengedSite, formOf, poolEntryOf, proofOfWork, replyOf } from './helpers/challenges.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { type FullReply, sendFrom } from './helpers/send.js';

// The code and slider challenges (rampart.challenge, rampart.challenge_pool) through a real nginx:
// the agent's pool pushed through the admin endpoint, the pages, their images, and the answers
// checked on the node. The test holds the pool it pushed, so it knows each entry's answer; the page
// and the images never carry it. challenge-browser.test.ts passes both in Chromium.

const KEYS = challengeKeyIds(new Date()).map((id) => ({ id, secret: randomBytes(32).toString('hex') }));
const challenged = (site: number, action: EdgeRuleAction) => challengedSite(site, action, ['127.0.0.0/8']);

let edge: Edge;
let origin: Origin;
let port: number;
let pool: ChallengePool;

const send = (from: string, host: string, options: Parameters<typeof sendFrom>[3] = {}) =>
  sendFrom(from, port, host, options);

const entryOf = poolEntryOf;

function answerForm(fields: Record<string, string | number>): Parameters<typeof sendFrom>[3] {
  return {
    method: 'POST',
    path: CHALLENGE_PATH,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString(),
  };
}

function passSet(reply: FullReply): string | undefined {
  for (const line of reply.headers['set-cookie'] ?? []) {
    const [key, value] = (line.split(';')[0] as string).split('=');
    if (key === CHALLENGE_COOKIE) return value;
  }
  return undefined;
}

async function challengePage(from: string, host: string, path = '/') {
  const page = replyOf(await send(from, host, { path }));
  expect(page.status).toBe(403);
  return { page, ...formOf(page.body) };
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  port = await freePort();
  edge = await startEdge({ httpPorts: [port], httpsPorts: [], publicPorts: [{ local: port, public: 80 }] });
  const to = [upstream(origin.port)];
  await edge.push(
    document(
      'pool-1',
      [domain(1, 'code.example.com', to, { firewallId: 41 }), domain(2, 'slider.example.com', to, { firewallId: 42 })],
      [],
      [],
      { firewalls: [challenged(41, 'code'), challenged(42, 'slider')], challenge: { keys: KEYS, passSeconds: 1800 } },
    ),
  );
  pool = await drawPool(6, 4);
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('before the agent has pushed a pool', () => {
  it('serves the shield for the code and slider rules, and says the node holds no pool', async () => {
    expect(await heldPool(edge.adminEndpoint)).toBeNull();
    for (const host of ['code.example.com', 'slider.example.com']) {
      const { page, t } = await challengePage('127.0.0.2', host);
      expect(page.body).toContain('Checking your browser');
      expect(t.startsWith('s.')).toBe(true);
    }
  });
});

describe('the pool on the node', () => {
  it('refuses a malformed pool naming the field, and takes the agent’s', async () => {
    const bad = async (body: unknown, field: string) => {
      const answer = await adminRequest(edge.adminEndpoint, 'PUT', '/challenge/pool', JSON.stringify(body));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text).field).toBe(field);
    };
    await bad({ ...pool, id: 'nothex!!' }, 'id');
    await bad({ ...pool, code: [] }, 'code');
    await bad({ ...pool, code: [{ ...pool.code[0], answer: 'ab' }] }, 'code[1].answer');
    await bad({ ...pool, code: [{ ...pool.code[0], answer: 'ABCDE\n' }] }, 'code[1].answer');
    await bad(
      { ...pool, code: [{ ...pool.code[0], image: Buffer.from('GIF89a').toString('base64') }] },
      'code[1].image',
    );
    await bad({ ...pool, slider: [{ ...pool.slider[0], x: 301 }] }, 'slider[1].x');
    expect(await heldPool(edge.adminEndpoint)).toBeNull();

    await pushPool(edge.adminEndpoint, pool);
    const held = await heldPool(edge.adminEndpoint);
    expect(held?.id).toBe(pool.id);
    expect(held?.age).toBeLessThan(5);
  });
});

describe('the code challenge', () => {
  it("shows the picture in the visitor's language without JavaScript, never the answer, and the picture only to its client", async () => {
    const { page, t } = await challengePage('127.0.0.2', 'code.example.com');
    expect(page.body).toContain('Enter the code');
    expect(page.body).not.toContain('<noscript>');
    expect(page.body).not.toContain('<script>');
    const { poolId, index } = entryOf(t);
    expect(poolId).toBe(pool.id);
    const entry = pool.code[index];
    expect(entry).toBeDefined();
    expect(page.body).not.toContain(entry?.answer);

    const image = replyOf(await send('127.0.0.2', 'code.example.com', { path: `${CHALLENGE_PATH}?i=${t}` }));
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('no-store');
    expect(image.bytes.equals(Buffer.from(entry?.image ?? '', 'base64'))).toBe(true);
    // The token is bound to its client and site.
    expect(replyOf(await send('127.0.0.3', 'code.example.com', { path: `${CHALLENGE_PATH}?i=${t}` })).status).toBe(404);
    expect(replyOf(await send('127.0.0.2', 'slider.example.com', { path: `${CHALLENGE_PATH}?i=${t}` })).status).toBe(
      404,
    );

    const zh = replyOf(await send('127.0.0.2', 'code.example.com', { headers: { 'accept-language': 'zh-TW' } }));
    expect(zh.body).toContain('請輸入驗證碼');
  });

  it('passes the right characters in any case once, and refuses a second answer to the same token', async () => {
    const { t, r } = await challengePage('127.0.0.2', 'code.example.com', '/shop?x=1');
    const answer = pool.code[entryOf(t).index]?.answer as string;
    const ok = replyOf(
      await send('127.0.0.2', 'code.example.com', answerForm({ t, r, n: ` ${answer.toLowerCase()} ` })),
    );
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/shop?x=1');
    const cookie = passSet(ok) as string;
    expect(cookie).toMatch(/^41\./);
    const through = replyOf(
      await send('127.0.0.2', 'code.example.com', { headers: { cookie: `${CHALLENGE_COOKIE}=${cookie}` } }),
    );
    expect(servedBy(through.body)).toBe('origin');
    // The same token again, even with the right answer: one answer per token.
    const again = replyOf(await send('127.0.0.2', 'code.example.com', answerForm({ t, r, n: answer })));
    expect(again.status).toBe(403);
    expect(passSet(again)).toBeUndefined();
  });

  it('refuses wrong characters, and then the right ones to that token too', async () => {
    const { t, r } = await challengePage('127.0.0.2', 'code.example.com');
    const answer = pool.code[entryOf(t).index]?.answer as string;
    const wrong = replyOf(await send('127.0.0.2', 'code.example.com', answerForm({ t, r, n: `${answer.slice(1)}Q` })));
    expect(wrong.status).toBe(403);
    expect(wrong.body).toContain('Verification failed');
    expect(passSet(wrong)).toBeUndefined();
    const late = replyOf(await send('127.0.0.2', 'code.example.com', answerForm({ t, r, n: answer })));
    expect(late.status).toBe(403);
    // From another address than the token's: refused whatever the answer.
    const next = await challengePage('127.0.0.2', 'code.example.com');
    const right = pool.code[entryOf(next.t).index]?.answer as string;
    const elsewhere = replyOf(
      await send('127.0.0.3', 'code.example.com', answerForm({ t: next.t, r: next.r, n: right })),
    );
    expect(elsewhere.status).toBe(403);
  });
});

describe('the slider challenge', () => {
  /** A slider page for 127.0.0.2 with its entry's answer. */
  async function slider() {
    const { page, t, r } = await challengePage('127.0.0.2', 'slider.example.com', '/video');
    const entry = pool.slider[entryOf(t).index];
    if (!entry) throw new Error('no such entry');
    return { page, t, r, entry };
  }
  /** An answer: the offset `x` and, unless told otherwise, the proof of work the token asks. */
  const answerOf = (t: string, r: string, x: number, extra: Record<string, string | number> = { w: proofOfWork(t) }) =>
    send('127.0.0.2', 'slider.example.com', answerForm({ t, r, n: x, ...extra }));

  it('shows the piece at its row but never its offset, and serves the two images', async () => {
    const { page, t, entry } = await slider();
    expect(page.body).toContain('Complete the puzzle');
    expect(page.body).toContain('<noscript>');
    expect(page.body).toContain(`top:${entry.y}px`);
    expect(page.body).not.toMatch(new RegExp(`\\b${entry.x}\\b`));
    for (const [part, expected] of [
      ['b', entry.background],
      ['p', entry.piece],
    ] as const) {
      const image = replyOf(
        await send('127.0.0.2', 'slider.example.com', { path: `${CHALLENGE_PATH}?i=${t}&p=${part}` }),
      );
      expect(image.status).toBe(200);
      expect(image.bytes.equals(Buffer.from(expected, 'base64'))).toBe(true);
    }
    expect(
      replyOf(await send('127.0.0.2', 'slider.example.com', { path: `${CHALLENGE_PATH}?i=${t}&p=x` })).status,
    ).toBe(404);
  });

  it('passes an offset within 4 px of the gap the node placed, with the proof of work', async () => {
    const { t, r, entry } = await slider();
    const ok = replyOf(await answerOf(t, r, entry.x + 3));
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/video');
    expect(passSet(ok)).toMatch(/^42\./);
  });

  it('refuses an offset 5 px off, and the token then takes no second answer', async () => {
    const { t, r, entry } = await slider();
    const reply = replyOf(await answerOf(t, r, entry.x + 5));
    expect(reply.status).toBe(403);
    expect(passSet(reply)).toBeUndefined();
    expect(replyOf(await answerOf(t, r, entry.x)).status).toBe(403);
  });

  it.each([
    ['no proof of work, with a claimed human drag', { i: '900,24,1' }],
    ['a proof of work of the old 14 bits', null],
    ['a proof of work that is not one', { w: 0 }],
  ])('refuses the right offset with %s', async (_, extra) => {
    const { t, r, entry } = await slider();
    const reply = replyOf(await answerOf(t, r, entry.x, extra ?? { w: proofOfWork(t, 14, 21) }));
    expect(reply.status).toBe(403);
    expect(passSet(reply)).toBeUndefined();
  });
});

describe('a new pool', () => {
  it('keeps the previous one answerable and drops the one before it', async () => {
    const first = await challengePage('127.0.0.2', 'code.example.com');
    expect(entryOf(first.t).poolId).toBe(pool.id);
    const second = await drawPool(2, 1);
    await pushPool(edge.adminEndpoint, second);
    const fresh = await challengePage('127.0.0.2', 'code.example.com');
    expect(entryOf(fresh.t).poolId).toBe(second.id);
    // A page served before the refresh is still answered from the previous pool.
    const firstAnswer = pool.code[entryOf(first.t).index]?.answer as string;
    const late = replyOf(
      await send('127.0.0.2', 'code.example.com', answerForm({ t: first.t, r: first.r, n: firstAnswer })),
    );
    expect(late.status).toBe(303);

    const beforeThird = await challengePage('127.0.0.2', 'code.example.com');
    expect(entryOf(beforeThird.t).poolId).toBe(second.id);
    const stale = await challengePage('127.0.0.2', 'code.example.com');
    await pushPool(edge.adminEndpoint, await drawPool(2, 1));
    // The first pool is gone now: its images and answers with it.
    const gone = replyOf(await send('127.0.0.2', 'code.example.com', { path: `${CHALLENGE_PATH}?i=${first.t}` }));
    expect(gone.status).toBe(404);
    // The second is the previous one: still answerable.
    const secondAnswer = second.code[entryOf(stale.t).index]?.answer as string;
    const ok = replyOf(
      await send('127.0.0.2', 'code.example.com', answerForm({ t: stale.t, r: stale.r, n: secondAnswer })),
    );
    expect(ok.status).toBe(303);
  });
});

describe("the agent's pool keeper", () => {
  it('draws and pushes a pool only while the node needs one and nginx has none or an old one', async () => {
    const lines: string[] = [];
    const keeper = (needed: boolean, refreshSeconds?: number) =>
      new PoolKeeper({
        admin: edge.adminEndpoint,
        needed: () => needed,
        log: (_level, event) => lines.push(event),
        signal: new AbortController().signal,
        refreshSeconds,
      });
    const held = await heldPool(edge.adminEndpoint);
    // No site challenges: nothing drawn, whatever nginx holds.
    const idle = keeper(false, 0);
    await idle.check();
    expect(idle.pushed).toBe(0);
    // nginx holds a fresh pool: kept.
    const fresh = keeper(true);
    await fresh.check();
    expect(fresh.pushed).toBe(0);
    expect((await heldPool(edge.adminEndpoint))?.id).toBe(held?.id);
    // Due for refresh: a new pool replaces it.
    const due = keeper(true, 0);
    await due.check();
    expect(due.pushed).toBe(1);
    const now = await heldPool(edge.adminEndpoint);
    expect(now?.id).not.toBe(held?.id);
    expect(lines).toEqual(['challenge.pool_pushed']);
    const { t } = await challengePage('127.0.0.2', 'slider.example.com');
    expect(entryOf(t).poolId).toBe(now?.id);
  });
});
