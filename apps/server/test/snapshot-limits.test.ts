import { getNodePlane, getNodeSnapshot, listDomains, listInitializedNodes, updateDomain } from '@rampart/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSend } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * A node whose sites are over its data-plane limits anyway (rows written before a limit was
 * lowered, or by hand) keeps taking every other site's changes: the builder leaves out the sites
 * that do not fit, whole, and the operator sees which and why on the node.
 */

/**
 * `count` live domains named `<i>.<suffix>` in the site (proof waived, as the API makes them when
 * the test app waives proof), each with one upstream, written straight into the database.
 */
async function insertDomains(t: TestApp, siteId: number, suffix: string, count: number) {
  const db = t.db.database.db;
  await db.execute(sql`INSERT INTO domains (site_id, name, proof_status)
    SELECT ${siteId}, 'd' || i || '.' || ${suffix}, 2 FROM generate_series(1, ${count}) AS i`);
  await db.execute(sql`INSERT INTO domain_upstreams (domain_id, ip, port)
    SELECT id, '127.0.0.1', 8080 FROM domains WHERE site_id = ${siteId}`);
}

async function poll(t: TestApp, f: SiteFixture) {
  const res = await nodeSend(t.app, f.node, getNodeSnapshot, undefined);
  return res;
}

/** The names of the domains a snapshot reply serves, sorted. */
const servedNames = (res: Awaited<ReturnType<typeof poll>>) =>
  res
    .json()
    .data.dataPlane.domains.map((d: { name: string }) => d.name)
    .sort();

async function nodeRow(f: SiteFixture) {
  const list = (await f.call(listInitializedNodes, { query: { page: 1, pageSize: 10 } })).json().data;
  return list.find((n: { id: number }) => n.id === f.node.nodeId) as {
    currentVersion: string;
    snapshotError: string;
  };
}

describe('a node over its configured domain limit', () => {
  let t: TestApp;
  let f: SiteFixture;
  beforeAll(async () => {
    t = await createTestApp({ config: { nodeDomainLimit: 5 } });
    f = await siteFixture(t);
  });
  afterAll(async () => t.close());

  it('leaves out the site that goes over, keeps serving and updating the others, and tells the operator', async () => {
    await f.addDomains(['a.shop.example', 'b.shop.example']);
    await insertDomains(t, f.otherSiteId, 'next.example', 4);
    // The next write anywhere rebuilds the snapshot.
    const [shopDomain] = (
      await f.call(listDomains, { params: { siteId: f.siteId }, query: { page: 1, pageSize: 1 } }, f.user)
    ).json().data;
    const res = await poll(t, f);
    expect(res.statusCode).toBe(200);
    expect(servedNames(res)).toEqual(['a.shop.example', 'b.shop.example']);
    const row = await nodeRow(f);
    expect(row.snapshotError).toContain(`site ${f.otherSiteId} (next door)`);
    expect(row.snapshotError).toContain('more than 5 domains');
    expect(row.currentVersion).toBe(res.json().data.version);

    // The customer's change still reaches the node.
    const changed = await f.call(
      updateDomain,
      { params: { siteId: f.siteId }, body: { id: shopDomain.id, upstreams: [{ ip: '127.0.0.1', port: 9090 }] } },
      f.user,
    );
    expect(changed.statusCode).toBe(200);
    const next = await nodeSend(t.app, f.node, getNodeSnapshot, { query: { version: res.json().data.version } });
    expect(next.statusCode).toBe(200);
    const served = next.json().data.dataPlane.domains.find((d: { id: number }) => d.id === shopDomain.id);
    expect(served!.origin.upstreams[0].port).toBe(9090);
    expect(next.json().data.dataPlane.domains).toHaveLength(2);
  });

  it('leaves out a site whose rows the data plane refuses, instead of failing every poll', async () => {
    // Back under the limit: the neighbour's rows go, one with a name the data plane refuses comes.
    const db = t.db.database.db;
    await db.execute(sql`DELETE FROM domains WHERE site_id = ${f.otherSiteId}`);
    await db.execute(
      sql`INSERT INTO domains (site_id, name, proof_status) VALUES (${f.otherSiteId}, 'UPPER.next.example', 2)`,
    );
    await db.execute(sql`INSERT INTO domain_upstreams (domain_id, ip, port)
      SELECT id, '127.0.0.1', 8080 FROM domains WHERE site_id = ${f.otherSiteId}`);
    await f.addDomains(['c.shop.example']);
    const res = await poll(t, f);
    expect(res.statusCode).toBe(200);
    expect(servedNames(res)).toEqual(['a.shop.example', 'b.shop.example', 'c.shop.example']);
    const row = await nodeRow(f);
    expect(row.snapshotError).toContain(`site ${f.otherSiteId} (next door)`);
    expect(row.snapshotError).toContain("breaks the data plane's schema");
  });
});

describe('a node over the data plane limit of 50,000 domains', () => {
  let t: TestApp;
  let f: SiteFixture;
  beforeAll(async () => {
    t = await createTestApp();
    f = await siteFixture(t);
  });
  afterAll(async () => t.close());

  it("answers its poll with every other site's domains and names the site left out", async () => {
    await f.addDomains(['a.shop.example']);
    await f.addDomains(['b.shop.example']);
    await insertDomains(t, f.otherSiteId, 'next.example', 50_000);
    const res = await poll(t, f);
    expect(res.statusCode).toBe(200);
    expect(servedNames(res)).toEqual(['a.shop.example', 'b.shop.example']);
    const row = await nodeRow(f);
    expect(row.snapshotError).toContain(`site ${f.otherSiteId} (next door)`);
    expect(row.snapshotError).toContain('more than 50000 domains');
    // The data plane as entries has no document limit: the same node polling it gets every site.
    const plane = (await nodeSend(t.app, f.node, getNodePlane, { query: {} })).json().data;
    const entries = plane.type === 'full' ? plane.entries : [];
    expect(entries.filter((e: { kind: string }) => e.kind === 'domain')).toHaveLength(50_002);
    // And the node's limit (NODE_DOMAINS_MAX, 200,000 by default) still takes more domains.
    await f.addDomains(['c.shop.example']);
  }, 180_000);
});
