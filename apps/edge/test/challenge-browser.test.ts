import { randomBytes } from 'node:crypto';
import { CHALLENGE_COOKIE, challengeKeyIds } from '@rampart/contract';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChallengePool, drawPool, pushPool } from '../src/challenge-pool/pool.js';
import { bitsOf, challengedSite, poolEntryOf, zeroBits } from './helpers/challenges.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';

// The challenges passed the way a person passes them, in Debian's Chromium (never a downloaded
// browser) against a real nginx: the page is in the browser's language, the shield's script does
// its proof of work and reloads, the click page takes a click, the redirect verification needs
// nothing from the person; the pass cookie then lets the browser through, and a tampered one is
// challenged again. The browser resolves every test host to 127.0.0.1, the address the rules catch.

const KEYS = challengeKeyIds(new Date()).map((id) => ({ id, secret: randomBytes(32).toString('hex') }));
const challenged = challengedSite;

let edge: Edge;
let origin: Origin;
let port: number;
let browser: Browser;
let pool: ChallengePool;

beforeAll(async () => {
  origin = await startOrigin('origin');
  port = await freePort();
  edge = await startEdge({ httpPorts: [port], httpsPorts: [], publicPorts: [{ local: port, public: 80 }] });
  const to = [upstream(origin.port)];
  await edge.push(
    document(
      'browser-1',
      [
        domain(1, 'shield.example.com', to, { firewallId: 31 }),
        domain(2, 'click.example.com', to, { firewallId: 32 }),
        domain(3, 'redirect.example.com', to, { firewallId: 33 }),
        domain(4, 'code.example.com', to, { firewallId: 34 }),
        domain(5, 'slider.example.com', to, { firewallId: 35 }),
      ],
      [],
      [],
      {
        firewalls: [
          challenged(31, 'shield'),
          challenged(32, 'click'),
          challenged(33, 'redirect'),
          challenged(34, 'code'),
          challenged(35, 'slider'),
        ],
        challenge: { keys: KEYS, passSeconds: 1800 },
      },
    ),
  );
  // The node's image pool, as the agent draws and pushes it; the test keeps it to know the answers.
  pool = await drawPool(4, 4);
  await pushPool(edge.adminEndpoint, pool);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--host-resolver-rules=MAP *.example.com 127.0.0.1',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await origin?.close();
});

const url = (host: string, path = '/') => `http://${host}:${port}${path}`;

/** Waits until the page shows the origin's answer (JSON naming it) for `path`. */
async function originShown(context: BrowserContext, path: string) {
  const page = context.pages()[0];
  if (!page) throw new Error('no page');
  // A string: it runs in the page (this file's `document` is the data-plane helper).
  await page.waitForFunction(
    `document.body && document.body.innerText.includes('"server":"origin"') && location.pathname + location.search === ${JSON.stringify(path)}`,
    undefined,
    { timeout: 45_000 },
  );
}

/** The pool entry the challenge page's token names. */
async function entryIndex(context: BrowserContext): Promise<number> {
  const page = context.pages()[0];
  if (!page) throw new Error('no page');
  const entry = poolEntryOf((await page.locator('input[name="t"]').getAttribute('value')) ?? '');
  expect(entry.poolId).toBe(pool.id);
  return entry.index;
}

async function passCookie(context: BrowserContext, host: string) {
  return (await context.cookies(url(host))).find((c) => c.name === CHALLENGE_COOKIE);
}

describe('challenges in a browser', () => {
  it("shows the shield in the browser's language, passes it by itself, and challenges a tampered pass again", async () => {
    const context = await browser.newContext({ locale: 'zh-CN' });
    try {
      const page = await context.newPage();
      const seen: string[] = [];
      page.on('response', (response) => seen.push(`${response.status()} ${new URL(response.url()).pathname}`));
      await page.goto(url('shield.example.com', '/article?id=3'), { waitUntil: 'commit' });
      await originShown(context, '/article?id=3');
      // The shield page came first (403, in Simplified Chinese), then its answer, then the page.
      expect(seen).toEqual(['403 /article', '303 /.rampart/challenge', '200 /article']);
      const cookie = await passCookie(context, 'shield.example.com');
      expect(cookie?.httpOnly).toBe(true);

      const [content] = await Promise.all([page.waitForEvent('response'), page.reload()]);
      expect(content.status()).toBe(200);

      // A pass with one character of its MAC changed: the shield again.
      const value = cookie?.value as string;
      const tampered = value.slice(0, -1) + (value.endsWith('a') ? 'b' : 'a');
      await context.addCookies([{ name: CHALLENGE_COOKIE, value: tampered, url: url('shield.example.com') }]);
      // The answer to the tampered pass, asked outside the page with the page's cookie and language:
      // in the page, the proof of work can end (and the page navigate away, its answer's body gone)
      // within milliseconds, the search being random.
      const again = await context.request.get(`http://127.0.0.1:${port}/article?id=4`, {
        headers: {
          host: `shield.example.com:${port}`,
          cookie: `${CHALLENGE_COOKIE}=${tampered}`,
          'accept-language': 'zh-CN',
        },
        maxRedirects: 0,
      });
      expect(again.status()).toBe(403);
      expect(await again.text()).toContain('<h1>正在检查您的浏览器</h1>');
      // And the page, with the same tampered pass, gets through the shield by itself again.
      await page.goto(url('shield.example.com', '/article?id=4'), { waitUntil: 'commit' });
      await originShown(context, '/article?id=4');
    } finally {
      await context.close();
    }
  });

  it('says that the shield needs JavaScript where it is off', async () => {
    const context = await browser.newContext({ locale: 'zh-TW', javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const reply = await page.goto(url('shield.example.com'));
      expect(reply?.status()).toBe(403);
      expect(await page.locator('body').innerText()).toContain('此檢查需要 JavaScript');
    } finally {
      await context.close();
    }
  });

  it('passes click to verify with a click and the page’s proof of work, in English by default', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      const reply = await page.goto(url('click.example.com', '/cart'));
      expect(reply?.status()).toBe(403);
      expect(await page.locator('h1').innerText()).toBe('Verify you are a person');
      // The click sends the proof of work the page started on load (at once when it is done, else
      // when it is): the node takes it only at the token's bits.
      const answer = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/.rampart/challenge'), {
        timeout: 45_000,
      });
      await page.click('#b');
      const posted = new URLSearchParams((await answer).postData() ?? '');
      expect(zeroBits(posted.get('t') ?? '', Number(posted.get('n')))).toBeGreaterThanOrEqual(
        bitsOf(posted.get('t') ?? ''),
      );
      await originShown(context, '/cart');
      expect(await passCookie(context, 'click.example.com')).toBeDefined();
    } finally {
      await context.close();
    }
  });

  it('passes the code challenge by typing the picture’s characters, in Simplified Chinese', async () => {
    const context = await browser.newContext({ locale: 'zh-CN' });
    try {
      const page = await context.newPage();
      const reply = await page.goto(url('code.example.com', '/login?next=1'));
      expect(reply?.status()).toBe(403);
      expect(await page.locator('h1').innerText()).toBe('请输入验证码');
      // The picture loaded (a PNG the page's token names).
      await page.waitForFunction("document.getElementById('img').naturalWidth === 200");
      const answer = pool.code[await entryIndex(context)]?.answer as string;
      await page.fill('#n', answer.toLowerCase());
      await page.click('#b');
      await originShown(context, '/login?next=1');
      expect(await passCookie(context, 'code.example.com')).toBeDefined();
    } finally {
      await context.close();
    }
  });

  it('passes the slider by dragging the piece into the gap, and not by a drag that falls short', async () => {
    const context = await browser.newContext({ locale: 'zh-TW' });
    try {
      const page = await context.newPage();
      const drag = async (distance: number) => {
        expect(await page.locator('h1').innerText()).toBe('請完成拼圖');
        await page.waitForFunction("document.getElementById('pc').naturalWidth === 50");
        const box = await page.locator('#h').boundingBox();
        if (!box) throw new Error('no slider handle');
        const [x0, y0] = [box.x + box.width / 2, box.y + box.height / 2];
        await page.mouse.move(x0, y0);
        await page.mouse.down();
        // A person's drag: many small moves.
        for (let step = 1; step <= 30; step++) {
          await page.mouse.move(x0 + (distance * step) / 30, y0 + (step % 3) - 1);
        }
        await page.mouse.up();
      };
      const reply = await page.goto(url('slider.example.com', '/watch?v=9'));
      expect(reply?.status()).toBe(403);
      // Short of the gap by 20 px: refused, and the failed page offers another try.
      const first = pool.slider[await entryIndex(context)];
      // The answer leaves once the page's proof of work is done.
      await Promise.all([page.waitForURL(/\.rampart\/challenge/, { timeout: 45_000 }), drag((first?.x ?? 0) - 20)]);
      expect(await page.locator('h1').innerText()).toBe('驗證失敗');
      expect(await passCookie(context, 'slider.example.com')).toBeUndefined();

      await page.goto(url('slider.example.com', '/watch?v=9'));
      const entry = pool.slider[await entryIndex(context)];
      await drag(entry?.x ?? 0);
      await originShown(context, '/watch?v=9');
      expect(await passCookie(context, 'slider.example.com')).toBeDefined();
    } finally {
      await context.close();
    }
  });

  it('passes the redirect verification by following it', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      const reply = await page.goto(url('redirect.example.com', '/feed?x=1'));
      expect(reply?.status()).toBe(200);
      await originShown(context, '/feed?x=1');
      expect(await passCookie(context, 'redirect.example.com')).toBeDefined();
      expect((await context.cookies(url('redirect.example.com'))).map((c) => c.name)).not.toContain('rampart_probe');
    } finally {
      await context.close();
    }
  });
});
