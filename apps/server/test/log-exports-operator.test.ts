import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnyRoute, LogExport } from '@rampart/contract';
import { clientLogExportRoutes as c, createLogExport, getLogExport } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent, shipBatch } from './helpers/events.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The operator's log exports (client/log/export*): the same job and files as the customer's, over
// what the operator's log search covers — its customers' sites, narrowed by the filters, a
// zone-restricted sub-account's by its zones — and never another operator's traffic.

const HOUR = Date.UTC(2026, 10, 12, 8, 0, 0);
const clock = manualClock(HOUR + 3600_000);
const range = { startTime: new Date(HOUR).toISOString(), endTime: new Date(HOUR + 3600_000).toISOString() };
const at = (minutes: number) => HOUR + minutes * 60_000;

let t: TestApp;
let dataDir: string;
let client: Token;
let rival: Token;
let user: Token;
let zoneSub: Token;
let neighbourSiteId: number;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);

async function ship(node: JoinedNode, batchId: string, events: ReturnType<typeof edgeEvent>[]) {
  const res = await shipBatch(t.app, node, { batchId, dropped: 0, events }, { nowMs: clock.now() });
  expect(res.statusCode, res.body).toBe(200);
}

/** Queues an export on `create`, runs the job, and answers the request ids in its file. */
async function exported(who: Token, body: Record<string, unknown>, route: AnyRoute = c.clientCreateLogExport) {
  const res = await as(who, route as typeof c.clientCreateLogExport, {
    body: { ...range, type: 'access', format: 'jsonl', gzip: false, ...body } as never,
  });
  expect(res.statusCode, res.body).toBe(200);
  const queued = res.json().data as LogExport;
  await t.app.rampart.logExportJob.runOnce();
  const get = route === c.clientCreateLogExport ? c.clientGetLogExport : getLogExport;
  const done = (await as(who, get, { params: { id: queued.id } })).json().data as LogExport;
  expect(done.status, done.error ?? '').toBe('done');
  const download = route === c.clientCreateLogExport ? c.clientDownloadLogExport : undefined;
  if (!download) return { id: queued.id, ids: [] as string[] };
  const file = await as(who, download, { params: { id: queued.id } });
  expect(file.statusCode).toBe(200);
  const ids = file.body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { reqID: string }).reqID)
    .sort();
  return { id: queued.id, ids };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'rampart-log-exports-operator-'));
  t = await createTestApp({ clock: clock.now, config: { dataDir } });
  const tenants = await analyticsTenants(t, {
    shop: 'www.shop.example',
    neighbour: 'www.next.example',
    rival: 'www.elsewhere.example',
  });
  ({ client, rival, user, zoneSub, neighbourSiteId } = tenants);
  const { a, b, rivalNode, domainId, neighbourDomainId, rivalDomainId } = tenants;
  await ship(a, 'a-1', [
    edgeEvent({ id: 'shop-a', time: at(1), domainId }),
    edgeEvent({ id: 'next-a', time: at(2), domainId: neighbourDomainId }),
  ]);
  await ship(b, 'b-1', [edgeEvent({ id: 'shop-b', time: at(3), domainId })]);
  await ship(rivalNode, 'rival-1', [edgeEvent({ id: 'rival-1', time: at(4), domainId: rivalDomainId })]);
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the operator's log exports", () => {
  it("export its customers' traffic, never another operator's", async () => {
    expect((await exported(client, {})).ids).toEqual(['next-a', 'shop-a', 'shop-b']);
    expect((await exported(rival, {})).ids).toEqual(['rival-1']);
  });

  it('narrow by the filters of its log search: sites, and a zone-restricted sub-account by its zones', async () => {
    expect((await exported(client, { siteIDs: [neighbourSiteId] })).ids).toEqual(['next-a']);
    // The sub-account sees node b's zone only, whatever it asks.
    expect((await exported(zoneSub, {})).ids).toEqual(['shop-b']);
  });

  it("are the caller's own: another account's id answers 101018, and a customer has no client calls", async () => {
    const mine = await exported(client, {});
    expect((await as(rival, c.clientGetLogExport, { params: { id: mine.id } })).json().code).toBe(101018);
    expect((await as(rival, c.clientDownloadLogExport, { params: { id: mine.id } })).json().code).toBe(101018);
    expect((await as(rival, c.clientDeleteLogExports, { body: { ids: [mine.id] } })).json().code).toBe(101018);
    const customers = await exported(user, {}, createLogExport);
    expect((await as(client, c.clientGetLogExport, { params: { id: customers.id } })).json().code).toBe(101018);
    expect((await as(user, c.clientListLogExports)).json().code).toBe(101018);
    const listed = (await as(client, c.clientListLogExports, { query: { pageSize: 100 } })).json();
    expect(listed.data.map((e: LogExport) => e.id)).toContain(mine.id);
    expect(listed.data.map((e: LogExport) => e.id)).not.toContain(customers.id);
  });

  it('keep the filters it was made with, zones included, and validate them as the log search does', async () => {
    const res = await as(client, c.clientCreateLogExport, {
      body: { ...range, type: 'waf', zoneIDs: [1, 1], userID: 0 } as never,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().extra.fields.map((f: { field: string }) => f.field)).toContain('userID');
  });
});
