import { type LogRecord, wafRuleGroup } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import {
  addSiteDomain,
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  startOperatorChain,
  waitUntil,
} from './helpers/real-control-plane.js';

/**
 * The WAF through the whole chain (issue 20, "done when"): a customer turns a WAF module on for a
 * domain through the API, an attack through a real edge node (agent and nginx) is blocked and
 * shows in the customer's WAF log with its rule, the part and the name it was under, and an
 * exclusion made from that record lets the same request through — only that one, on that path.
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

  it('lets the request through after an exclusion made from the record, and only there', async () => {
    const path = blocked.url.split('?')[0] ?? '/';
    await setup.customer.call('PUT', `user/site/${setup.siteId}/module/waf`, {
      id: moduleId,
      name: 'blog',
      // As the console prefills it from the record: the rule's group, on that part, name and path.
      exclusions: [
        { ruleId: null, group: wafRuleGroup(blocked.fwRule), part: blocked.wafPart, name: blocked.wafName, path },
      ],
    });
    await waitUntil(async () => (await status(commentPath('comment'))) === 'origin', 30_000, 200);
    // The same payload under another name, or on another path, is still an attack.
    expect(await status(commentPath('title'))).toBe(403);
    expect(await status(commentPath('comment', '/shop/review'))).toBe(403);
  }, 60_000);
});
