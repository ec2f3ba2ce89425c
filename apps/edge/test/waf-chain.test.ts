import { type LogRecord, wafRuleGroup } from '@rampart/contract';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import {
  addSiteDomain,
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  PASSWORD,
  startOperatorChain,
  waitUntil,
} from './helpers/real-control-plane.js';

/**
 * The WAF through the whole chain (issue 20, "done when"): a customer turns a WAF module on for a
 * domain through the API, an attack through a real edge node (agent and nginx) is blocked and
 * shows in the customer's WAF log with its rule, the part and the name it was under, and an
 * exclusion the customer adds from that event in the console (Chromium) lets the same request
 * through — only that one, on that path.
 * Needs `npm run build`.
 */

let cp: ControlPlane;
let setup: OperatorSetup;
let edge: TestAgent;
let origin: Origin;
let domainId: number;
let moduleId: number;
const HOST = 'www.waf-chain.test';
/** A comment field that quotes HTML, as a blog's comment form may: the WAF calls it XSS. */
const COMMENT = '<img src=x onerror=alert(document.cookie)>';
const commentPath = (field: string, path = '/blog/comment') => `${path}?${field}=${encodeURIComponent(COMMENT)}`;

const lastHour = () => ({
  startTime: new Date(Date.now() - 3600_000).toISOString(),
  endTime: new Date(Date.now() + 60_000).toISOString(),
});

async function status(path: string): Promise<number | 'origin'> {
  const res = await request(edge.ports.http, HOST, path);
  return res.status === 200 && servedBy(res.body) === 'origin' ? 'origin' : res.status;
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  ({ cp, setup } = await startOperatorChain({ PORT: String(await freePort()) }));
  edge = await startAgent({ controlPlane: cp.url, joinToken: setup.joinToken });
  await initializeFirstNode(setup);
  await addSiteDomain(setup, HOST, origin.port);
  const domains = await setup.customer.call<{ id: number; name: string }[]>(
    'GET',
    `user/site/${setup.siteId}/domains?page=1&pageSize=10`,
  );
  domainId = domains.find((d) => d.name === HOST)?.id ?? 0;
  expect(domainId).toBeGreaterThan(0);
  await waitUntil(async () => (await status('/')) === 'origin', 30_000, 100);
}, 120_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.destroy();
  await origin?.close();
});

describe('the WAF from the API to the edge and back', () => {
  let blocked: LogRecord;

  it('blocks an attack once the customer binds a WAF module, and logs why', async () => {
    expect(await status(commentPath('comment'))).toBe('origin');
    const [created] = await setup.customer.call<{ id: number }[]>('POST', `user/site/${setup.siteId}/module/wafs`, {
      modules: [{ name: 'blog' }],
    });
    moduleId = created?.id ?? 0;
    await setup.customer.call('PUT', `user/site/${setup.siteId}/domains/module/waf`, {
      domainIDs: [domainId],
      moduleID: moduleId,
    });
    await waitUntil(async () => (await status(commentPath('comment'))) === 403, 30_000, 200);
    expect(await status('/blog/comment?comment=nice%20post')).toBe('origin');

    // The node ships the decision; the customer finds it in its WAF log.
    await waitUntil(
      async () => {
        const page = await setup.customer.call<LogRecord[]>('POST', 'user/logs/waf', { ...lastHour() });
        const found = page.find((r) => r.url.startsWith('/blog/comment?comment='));
        if (found) blocked = found;
        return found !== undefined;
      },
      60_000,
      500,
    );
    expect(blocked).toMatchObject({
      host: HOST,
      domainID: domainId,
      status: 403,
      fwKind: 'waf',
      fwAction: 'deny',
      wafPart: 'query',
      wafName: 'comment',
    });
    expect(wafRuleGroup(blocked.fwRule)).toBe('xss');
    expect(blocked.wafExcerpt).toContain('onerror');
  }, 120_000);

  it('lets the request through after an exclusion the customer adds from the event in the console, and only there', async () => {
    // The customer's console in Chromium: the module's WAF events, the blocked one's "Add
    // exclusion", prefilled from it (the rule's group, on that part, name and path), saved.
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ baseURL: cp.url, viewport: { width: 1280, height: 800 } });
      await page.goto('/user/login');
      await page.getByLabel('Account').fill('user');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByTestId('account-summary').waitFor();
      await page.goto(`/user/sitesManagement/sitesSetting/${setup.siteId}?tab=modules&module=waf`);
      await page.getByRole('row').filter({ hasText: 'blog' }).getByRole('button', { name: 'Events' }).click();
      const event = page.getByTestId('waf-events').getByRole('row').filter({ hasText: 'onerror' }).first();
      await event.getByRole('button', { name: 'Add exclusion' }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: 'Add a WAF exclusion' });
      expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe(blocked.wafName);
      expect(await dialog.getByLabel('Path prefix').inputValue()).toBe(blocked.url.split('?')[0]);
      await dialog.getByRole('button', { name: 'OK' }).click();
      await page.getByText('SET SUCCESS').last().waitFor();
    } finally {
      await browser.close();
    }
    const [stored] = await setup.customer.call<{ id: number; exclusions: unknown[] }[]>(
      'GET',
      `user/site/${setup.siteId}/module/wafs?page=1&pageSize=10`,
    );
    expect(stored?.exclusions).toEqual([
      { ruleId: null, group: wafRuleGroup(blocked.fwRule), part: 'query', name: 'comment', path: '/blog/comment' },
    ]);
    await waitUntil(async () => (await status(commentPath('comment'))) === 'origin', 30_000, 200);
    // The same payload under another name, or on another path, is still an attack.
    expect(await status(commentPath('title'))).toBe(403);
    expect(await status(commentPath('comment', '/shop/review'))).toBe(403);
  }, 60_000);
});
