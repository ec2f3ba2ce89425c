import {
  createDomains,
  DATA_PLANE_LIMITS,
  getNodeSnapshot,
  listDomains,
  listInitializedNodes,
} from '@rampart/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_DOMAINS_MAX } from '../src/modules/snapshots/node-capacity.js';
import { nodeSend, sendAs } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * One customer past the whole-snapshot limit at its real size (DATA_PLANE_LIMITS.domains, 50,000),
 * not a lowered one: the node's snapshot leaves that customer's site out, whole, and keeps serving
 * the neighbour's; the operator sees why on the node; the customer's list still answers a page; and
 * the node's own limit (NODE_DOMAINS_MAX, for agents on the data-plane entries) still takes more.
 */
let t: TestApp;
let f: SiteFixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t);
}, 300_000);
afterAll(async () => t.close());

const over = DATA_PLANE_LIMITS.domains + 1;

describe(`more than ${DATA_PLANE_LIMITS.domains} domains for one customer`, () => {
  it('leaves the site out of the snapshot, serves the neighbour, tells the operator, and still lists a page', async () => {
    expect(NODE_DOMAINS_MAX).toBeGreaterThan(over);
    const db = t.db.database.db;
    // Written straight into the database (as the API makes them with proof waived), in two statements.
    await db.execute(sql`INSERT INTO domains (site_id, name, proof_status)
      SELECT ${f.siteId}, 'd' || i || '.bulk.example', 2 FROM generate_series(1, ${over}) AS i`);
    await db.execute(sql`INSERT INTO domain_upstreams (domain_id, ip, port)
      SELECT id, '127.0.0.1', 8080 FROM domains WHERE site_id = ${f.siteId}`);
    await f.addDomains(['a.next.example'], 'other');

    const res = await nodeSend(t.app, f.node, getNodeSnapshot, undefined);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.dataPlane.domains.map((d: { name: string }) => d.name)).toEqual(['a.next.example']);
    const nodes = (await f.call(listInitializedNodes, { query: { page: 1, pageSize: 10 } })).json().data as {
      id: number;
      snapshotError: string;
    }[];
    const row = nodes.find((n) => n.id === f.node.nodeId);
    expect(row?.snapshotError).toContain(`site ${f.siteId} (shop)`);

    const page = await sendAs(t.app, f.user, listDomains, {
      params: { siteId: f.siteId },
      query: { page: 1, pageSize: 25 },
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().total).toBe(over);
    expect(page.json().data).toHaveLength(25);

    // Below the node's own limit the customer may still add one.
    const more = await sendAs(t.app, f.user, createDomains, {
      params: { siteId: f.siteId },
      body: { domains: [{ name: 'one-more.bulk.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
    });
    expect(more.statusCode, more.body).toBe(200);
  }, 300_000);
});
