import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import {
  addSiteDomain,
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  startOperatorChain,
  waitUntil,
} from './helpers/real-control-plane.js';

/**
 * A blocked flood and an origin that is down, through the whole chain: the built control plane
 * (embedded stores), an agent that ships aggregates and tallies its refusals, its nginx. The flood
 * shows in the customer's log search as one collapsed record with its exact count; each page the
 * edge answered itself (the block list's 403, the 502) shows the request's id, and the log search
 * finds that request by it. Needs `npm run build`.
 */

const SHOP = 'www.flood.test';
const DOWN = 'www.down.test';
const FLOOD = 150;

interface LogRecord {
  reqID: string;
  ip: string;
  url: string;
  status: number;
  fwKind: string;
  fwRule: number;
  collapsed?: { count: number; first: string; last: string };
}

let cp: ControlPlane;
let setup: OperatorSetup;
let edge: TestAgent;
let origin: Origin;

const range = () => ({
  startTime: new Date(Date.now() - 3600_000).toISOString(),
  endTime: new Date(Date.now() + 120_000).toISOString(),
});
/** The customer's access log search: the page's records (the session unwraps `data`). */
const search = (filter: Record<string, unknown> = {}) =>
  setup.customer.call<LogRecord[]>('POST', 'user/logs/access', {
    ...range(),
    pageSize: 100,
    ...filter,
  });
/** The request id an edge page shows. */
const pageId = (body: string) => /Request ID: <code>([A-Za-z0-9._-]+)<\/code>/.exec(body)?.[1];

beforeAll(async () => {
  origin = await startOrigin('flood');
  ({ cp, setup } = await startOperatorChain());
  edge = await startAgent({
    controlPlane: cp.url,
    joinToken: setup.joinToken,
    eventAggregates: true,
    refusalTallies: true,
  });
  await initializeFirstNode(setup);
  await addSiteDomain(setup, SHOP, origin.port);
  await addSiteDomain(setup, DOWN, await freePort());
  await waitUntil(async () => (await request(edge.ports.http, SHOP)).status === 200, 30_000, 100);
}, 120_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.destroy();
  await origin?.close();
});

describe('a flood and error pages through a real node, in the log search', () => {
  it('shows a blocked flood collapsed with its exact count, and finds the blocked page by its id', async () => {
    const everyMethod = { get: true, post: true, put: true, delete: true, head: true, patch: true, options: true };
    await setup.customer.call('POST', `user/site/${setup.siteId}/firewall/setting/blacklists`, {
      data: [{ ips: ['127.0.0.0/8'], url: '/wp-login', methods: everyMethod, blockType: 10 }],
    });
    // Until the rule reaches the node: the first refused request is the flood's first, logged whole.
    let first: { status: number; body: string } = { status: 0, body: '' };
    await waitUntil(
      async () => {
        first = await request(edge.ports.http, SHOP, '/wp-login.php?probe');
        return first.status === 403;
      },
      10_000,
      20,
    );
    const id = pageId(first.body);
    expect(id, first.body).toMatch(/^[A-Za-z0-9._-]+$/);
    for (let i = 1; i < FLOOD; i++) {
      const res = await request(edge.ports.http, SHOP, `/wp-login.php?n=${i}`);
      expect(res.status).toBe(403);
      expect(pageId(res.body)).not.toBe(id);
    }
    const refused = FLOOD;
    const records = async () =>
      (await search({ decision: 'blacklist' })).filter((r) => r.ip === '127.0.0.1' && r.fwKind === 'blacklist');
    let seen: LogRecord[] = [];
    await waitUntil(
      async () => {
        seen = await records();
        return seen.reduce((n, r) => n + (r.collapsed?.count ?? 0), 0) >= refused;
      },
      150_000,
      500,
    ).catch(() => {
      throw new Error(`the log search shows ${JSON.stringify(seen)}`);
    });
    // Collapsed records only (one per minute the flood touched), counting every refusal once.
    expect(seen.every((r) => r.collapsed !== undefined)).toBe(true);
    expect(seen.length).toBeLessThanOrEqual(2);
    expect(seen.reduce((n, r) => n + (r.collapsed?.count ?? 0), 0)).toBe(refused);
    // The first refused request's id, read from its page, finds its record (the record's sample).
    const byId = await search({ reqID: id });
    expect(byId.map((r) => [r.reqID, r.url, r.collapsed?.count])).toEqual([
      [id, '/wp-login.php?probe', seen.find((r) => r.reqID === id)?.collapsed?.count],
    ]);
  }, 240_000);

  it('shows the request id on the 502 page of an origin that is down, found by it in the log search', async () => {
    const res = await request(edge.ports.http, DOWN, '/checkout');
    expect(res.status).toBe(502);
    const id = pageId(res.body);
    expect(id, res.body).toMatch(/^[A-Za-z0-9._-]+$/);
    let found: LogRecord[] = [];
    await waitUntil(
      async () => {
        found = await search({ reqID: id });
        return found.length > 0;
      },
      60_000,
      250,
    );
    expect(found.map((r) => [r.reqID, r.url, r.status])).toEqual([[id, '/checkout', 502]]);
  }, 120_000);
});
