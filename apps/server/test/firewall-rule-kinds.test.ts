import {
  type AnyRoute,
  getNodeSnapshot,
  listInitializedNodes,
  SITE_RULE_KINDS,
  type SiteRuleKind,
} from '@rampart/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSend, sendAs } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Every layer-7 kind of the site firewall reads its `rule` column through the kind's stored schema
// (contract rule-kinds/site-firewall.ts). A row that breaks it (written by hand) is never answered
// as a rule (101002, nothing of it in the reply), and the node's snapshot leaves that site out,
// named to the operator, while it keeps serving the others; deleting the row brings the site back.

const methods = { get: true, post: true };
const RULES: Record<SiteRuleKind, Record<string, unknown>> = {
  whitelist: { ips: ['192.0.2.1'], url: '.*', methods },
  blacklist: { ips: ['192.0.2.2'], url: '.*', methods, blockType: 10 },
  userAgent: { urlRegex: '.*', userAgentRegex: 'curl', blockType: 10 },
  header: { urlRegex: '.*', header: 'X-Api', valueRegex: 'a.*', blockType: 10 },
  intervalLimit: { urlRegex: '.*', blockType: 10, seconds: 60, times: 10 },
  secondLimit: { urlRegex: '.*', blockType: 10, rate: 5 },
  antiCC: { urlRegex: '.*', blockType: 1 },
  geo: { isBlack: true, geoIDs: ['CN'], urlRegex: '.*', blockType: 10 },
};

let t: TestApp;
let f: SiteFixture;

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t);
  await f.addDomains(['www.shop.example']);
  await f.addDomains(['next.example'], 'other');
});
afterAll(async () => t.close());

async function served(): Promise<string[]> {
  const res = await nodeSend(t.app, f.node, getNodeSnapshot, undefined);
  expect(res.statusCode).toBe(200);
  return res
    .json()
    .data.dataPlane.domains.map((d: { name: string }) => d.name)
    .sort();
}

async function snapshotError(): Promise<string> {
  const list = (await f.call(listInitializedNodes, { query: { page: 1, pageSize: 10 } })).json().data;
  return (list.find((n: { id: number }) => n.id === f.node.nodeId) as { snapshotError: string }).snapshotError;
}

describe('a rule whose stored form breaks its kind', () => {
  it.each(Object.keys(RULES) as SiteRuleKind[])('%s: answers 101002 and leaves only its site out', async (kind) => {
    const { routes } = SITE_RULE_KINDS[kind];
    const params = { siteId: f.siteId };
    // The kind's own calls, whatever its body (RULES holds a valid one of each).
    const send = (route: AnyRoute, input: object) => sendAs(t.app, f.user, route, input as never);
    const added = await send(routes.add, { params, body: { data: [RULES[kind]] } });
    expect(added.statusCode, added.body).toBe(200);
    const idOf = (res: typeof added) => (res.json() as unknown as { data: { id: number }[] }).data[0]?.id ?? 0;
    const id = idOf(added);
    expect(await served()).toEqual(['next.example', 'www.shop.example']);

    await t.db.database.db.execute(
      sql`UPDATE site_firewall_rules SET rule = '{"enabled": true, "urlRegex": 7}'::jsonb WHERE id = ${id}`,
    );
    const listed = await send(routes.list, { params, query: { page: 1, pageSize: 10 } });
    expect(listed.statusCode).toBe(500);
    expect(listed.json()).toMatchObject({ code: 101002 });
    expect(listed.body).not.toContain('urlRegex');

    // A change to the site rebuilds the snapshot: the site with the broken row is left out, named.
    const second = await send(routes.add, { params, body: { data: [RULES[kind]] } });
    expect(second.statusCode).toBe(200);
    expect(await served()).toEqual(['next.example']);
    expect(await snapshotError()).toContain(`site ${f.siteId}`);

    const removed = await send(routes.delete, { params, body: { ids: [id, idOf(second)] } });
    expect(removed.statusCode).toBe(200);
    expect(await served()).toEqual(['next.example', 'www.shop.example']);
  });
});
