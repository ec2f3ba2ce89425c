/**
 * `npm run bench:console`: what the console costs a browser, measured in Debian's Chromium against
 * the built control plane (embedded PGlite, the production console build). Prints one JSON object:
 *
 *   {"first_load_js_gzip_kb", "first_load_js_br_kb", "first_load_js_raw_kb",
 *    "login_page_ms", "largest_list_page_ms", "list_rows"}
 *
 * - First load: every script a cold browser loads to show the login page, summed as the server
 *   sends it to a browser taking brotli, to one taking only gzip, and uncompressed (the baseline the
 *   precompressed build is measured against). The browser's own transfer is checked to be brotli.
 * - login_page_ms: a cold browser context, from navigation start to the login button shown; the
 *   median of BENCH_RUNS runs (default 5).
 * - largest_list_page_ms: the customer's site page on its domains tab, with BENCH_LIST_ROWS domains
 *   (default 2,000) in the site, from navigation start (signed in, warm cache) to the first page of
 *   rows shown; the median of BENCH_RUNS runs.
 */
import path from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import {
  type ControlPlane,
  PASSWORD,
  setUpOperator,
  startControlPlane,
} from '../apps/edge/test/helpers/real-control-plane.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 2000);

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

/** Bytes of `url` as the server sends them to a client that accepts `encoding`. */
async function sentBytes(url: string, encoding: string): Promise<number> {
  const res = await fetch(url, { headers: { 'accept-encoding': encoding } });
  const body = new Uint8Array(await res.arrayBuffer());
  // fetch decodes what it receives; the header says what came over the wire.
  const declared = res.headers.get('content-length');
  return declared === null ? body.length : Number(declared);
}

async function timeLoginPage(
  browser: Browser,
  base: string,
): Promise<{ ms: number; scripts: string[]; plain: string[] }> {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const scripts: string[] = [];
  const plain: string[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    scripts.push(res.url());
    if (res.headers()['content-encoding'] !== 'br') plain.push(res.url());
  });
  const t0 = performance.now();
  await page.goto('/user/login');
  await page.getByRole('button', { name: 'Log in' }).waitFor();
  const ms = performance.now() - t0;
  await context.close();
  return { ms, scripts, plain };
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/user/login');
  await page.getByLabel('Account').fill('user');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/user\/dashboard$/);
}

async function main(): Promise<void> {
  let cp: ControlPlane | undefined;
  let browser: Browser | undefined;
  try {
    log('starting the control plane');
    cp = await startControlPlane(undefined, { CONSOLE_DIR: path.join(ROOT, 'apps/console/dist') });
    const setup = await setUpOperator(cp);
    log(`creating ${ROWS} domains`);
    for (let from = 0; from < ROWS; from += 500) {
      const domains = [];
      for (let i = from; i < Math.min(ROWS, from + 500); i++) {
        domains.push({ name: `d${i}.console-bench.example`, upstreams: [{ ip: '127.0.0.1', port: 8081 }] });
      }
      await setup.customer.call('POST', `user/site/${setup.siteId}/domains`, { domains });
    }

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    log('login page, cold');
    const logins = [];
    for (let i = 0; i < RUNS; i++) logins.push(await timeLoginPage(browser, cp.url));
    const first = logins[0];
    if (!first || first.scripts.length === 0) throw new Error('the login page loaded no script');
    const scripts = [...new Set(first.scripts)];
    // The build leaves files under 1 KiB without compressed siblings; every other script goes as brotli.
    for (const url of first.plain) {
      if ((await sentBytes(url, 'identity')) >= 1024) throw new Error(`${url} was sent without brotli`);
    }
    const total = async (encoding: string) =>
      (await Promise.all(scripts.map((url) => sentBytes(url, encoding)))).reduce((a, b) => a + b, 0);
    const [brBytes, gzipBytes, rawBytes] = [await total('br'), await total('gzip'), await total('identity')];
    if (process.env.BENCH_PROFILE) {
      for (const url of scripts)
        log(`${Math.round((await sentBytes(url, 'br')) / 1024)} kB br  ${new URL(url).pathname}`);
    }

    log('largest list page, signed in');
    const context = await browser.newContext({ baseURL: cp.url });
    const page = await context.newPage();
    await signIn(page);
    const url = `/user/sitesManagement/sitesSetting/${setup.siteId}/shop`;
    const lists: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await page.goto('/user/dashboard');
      await page.getByTestId('account-summary').waitFor();
      const t0 = performance.now();
      await page.goto(url);
      await page
        .getByText(/^d\d+\.console-bench\.example$/)
        .first()
        .waitFor();
      lists.push(performance.now() - t0);
    }
    await context.close();

    const result = {
      first_load_js_gzip_kb: round(gzipBytes / 1024),
      first_load_js_br_kb: round(brBytes / 1024),
      first_load_js_raw_kb: round(rawBytes / 1024),
      login_page_ms: round(median(logins.map((l) => l.ms)), 0),
      largest_list_page_ms: round(median(lists), 0),
      list_rows: ROWS,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await browser?.close().catch(() => undefined);
    await cp?.destroy().catch(() => undefined);
  }
}

await main();
