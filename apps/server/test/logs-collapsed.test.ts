import {
  type AggregateBatch,
  type AnyRoute,
  clientAccessLogs,
  createLogExport,
  downloadLogExport,
  type LogRecord,
  userAccessLogs,
  userWafLogs,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import { collapsedFlood, refusedAt } from './helpers/collapsed-flood.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent, shipAggregateBatch, shipBatch } from './helpers/events.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Refused floods collapsed in the log search (log-search-store.ts): a node logs a flood's first
// requests and tallies the rest (the aggregator's collapsed records); the search shows one record
// per address and decision of a minute with its exact count, in place of the logged requests, on
// both analytics stores. Filters (address, decision, request id, scope) apply to the records. The
// node ships the minute in three records (the close and two corrections, each with what came since):
// the search merges them into one record per address and decision.

const HOUR = Date.UTC(2026, 10, 29, 8, 0, 0);
const clock = manualClock(HOUR + 3600_000);
const MINUTE = HOUR + 5 * 60_000;
const FLOOD_IP = '203.0.113.7';
const OTHER_IP = '198.51.100.20';
const THIRD_IP = '198.51.100.30';
let t: TestApp;
let client: Token;
let user: Token;
let neighbour: Token;
let domainId: number;
let a: JoinedNode;

const range = { startTime: new Date(HOUR).toISOString(), endTime: new Date(HOUR + 3600_000).toISOString() };

async function search(who: Token, route: AnyRoute, body: Record<string, unknown> = {}) {
  const res = await sendAs(t.app, who, route as typeof userAccessLogs, { body: { ...range, ...body } as never });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: LogRecord[]; total: number };
}

async function shipAggregates(node: JoinedNode, batch: AggregateBatch) {
  const res = await shipAggregateBatch(t.app, node, batch, { nowMs: clock.now() });
  expect(res.statusCode, res.body).toBe(200);
}

let aggregateBatches: AggregateBatch[];
let floodBytes: number;

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  ({ client, user, neighbour, domainId, a } = await analyticsTenants(t, {
    shop: 'www.flood.example',
    neighbour: 'www.calm.example',
    rival: 'www.far.example',
  }));
  // What the node logged: a passed request, the flood's first request of each tally interval, and
  // one request from each of two more addresses (past the node's cap of one address per minute:
  // they go to the minute's record of the decision with no address).
  const place = { minute: MINUTE, domainId };
  const logged = [
    edgeEvent({ id: 'passed-1', time: MINUTE + 500, domainId, ip: FLOOD_IP, path: '/index.html' }),
    refusedAt(place, 'flood-1', FLOOD_IP, 1000),
    refusedAt(place, 'flood-2', FLOOD_IP, 21_000),
    refusedAt(place, 'flood-3', FLOOD_IP, 41_000),
    refusedAt(place, 'other-1', OTHER_IP, 30_000),
    refusedAt(place, 'third-1', THIRD_IP, 31_000),
  ];
  // nginx's tallies of the repeats it did not log: 12,397 more from the flood's address.
  const taken = collapsedFlood(place, FLOOD_IP, logged, {
    passed: 'passed-1',
    floods: ['flood-1', 'flood-2', 'flood-3'],
    others: ['other-1', 'third-1'],
  });
  aggregateBatches = taken.map((t, i) => ({ batchId: `agg-${i + 1}`, dropped: 0, ...t }));
  const floodRecords = taken.flatMap((t) => t.collapsed).filter((c) => c.ip === FLOOD_IP);
  expect(floodRecords.map((c) => c.count)).toEqual([4001, 4001, 4398]);
  floodBytes = floodRecords.reduce((n, c) => n + c.bytesOut, 0);
  const res = await shipBatch(
    t.app,
    a,
    { batchId: 'ev-1', dropped: 0, events: logged, statistics: false },
    { nowMs: clock.now() },
  );
  expect(res.statusCode, res.body).toBe(200);
  for (const batch of aggregateBatches) await shipAggregates(a, batch);
  // Sent again (an acknowledgement lost): counted once.
  await shipAggregates(a, aggregateBatches[0] as AggregateBatch);
});
afterAll(async () => t?.close());

const flood = (page: { data: LogRecord[] }) => page.data.filter((r) => r.ip === FLOOD_IP && r.fwKind === 'blacklist');

describe('collapsed floods in the log search', () => {
  it('shows a flood as one record with its exact count, in place of its logged requests', async () => {
    const page = await search(user, userAccessLogs);
    const records = flood(page);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record?.collapsed).toEqual({
      count: 12_400,
      first: new Date(MINUTE + 1000).toISOString(),
      last: new Date(MINUTE + 59_000).toISOString(),
    });
    expect(record).toMatchObject({ fwRule: 4, fwAction: 'deny', status: 403, url: '/wp-login.php?flood-1' });
    expect(record?.reqID).toBe('flood-1');
    expect(record?.bytesOut).toBe(floodBytes);
    // The two addresses past the cap: one record of the decision with no address (its sample the first).
    const overflow = page.data.filter((r) => r.collapsed !== undefined && r.ip === '');
    expect(overflow.map((r) => [r.reqID, r.collapsed?.count])).toEqual([['other-1', 2]]);
    // No logged request of the flood or of the two others is shown beside the records; the passed one is.
    expect(page.data.filter((r) => r.collapsed === undefined).map((r) => r.reqID)).toEqual(['passed-1']);
    expect(page.total).toBe(3);
    expect(page.data).toHaveLength(3);
  });

  it('applies the address, decision and request id filters to the records', async () => {
    const byIp = await search(user, userAccessLogs, { ip: FLOOD_IP });
    expect(byIp.data.map((r) => [r.reqID, r.collapsed?.count])).toEqual([
      ['flood-1', 12_400],
      ['passed-1', undefined],
    ]);
    // An address whose requests only the record without address counts: its own requests are shown.
    const other = await search(user, userAccessLogs, { ip: OTHER_IP });
    expect(other.data.map((r) => r.reqID)).toEqual(['other-1']);
    const blacklisted = await search(user, userAccessLogs, { decision: 'blacklist' });
    expect(blacklisted.data.map((r) => r.collapsed?.count)).toEqual([12_400, 2]);
    expect((await search(user, userAccessLogs, { decision: 'waf' })).total).toBe(0);
    const byId = await search(user, userAccessLogs, { reqID: 'flood-1' });
    expect(byId.data.map((r) => r.collapsed?.count)).toEqual([12_400]);
    // Not WAF decisions: absent from the WAF log.
    expect((await search(user, userWafLogs)).total).toBe(0);
  });

  it("shows the records to the site's operator, never to another customer", async () => {
    expect(flood(await search(client, clientAccessLogs)).map((r) => r.collapsed?.count)).toEqual([12_400]);
    expect((await search(neighbour, userAccessLogs)).data.some((r) => r.collapsed !== undefined)).toBe(false);
  });

  it('exports a flood as one line per collapsed record with its count, not its logged requests', async () => {
    const lines = async (format: 'jsonl' | 'csv') => {
      const created = await sendAs(t.app, user, createLogExport, {
        body: { ...range, type: 'access', format, gzip: false },
      });
      expect(created.statusCode, created.body).toBe(200);
      await t.app.rampart.logExportJob.runOnce();
      const res = await sendAs(t.app, user, downloadLogExport, { params: { id: created.json().data.id } });
      expect(res.statusCode, res.body).toBe(200);
      return res.body.split(/\r?\n/).filter((line) => line !== '');
    };
    const records = (await lines('jsonl')).map((line) => JSON.parse(line) as LogRecord);
    // The search's rows, newest first: the records of the flood and of the addresses past the cap, the passed request.
    expect(records.map((r) => [r.reqID, r.collapsed?.count])).toEqual([
      ['flood-1', 12_400],
      ['other-1', 2],
      ['passed-1', undefined],
    ]);
    expect(records[0]?.collapsed).toEqual({
      count: 12_400,
      first: new Date(MINUTE + 1000).toISOString(),
      last: new Date(MINUTE + 59_000).toISOString(),
    });
    const [header, ...rows] = (await lines('csv')).map((line) => line.split(','));
    const at = (name: string) => header?.indexOf(name) ?? -1;
    expect(rows.map((row) => [row[at('reqID')], row[at('requests')], row[at('firstTime')]])).toEqual([
      ['flood-1', '12400', new Date(MINUTE + 1000).toISOString()],
      ['other-1', '2', new Date(MINUTE + 30_000).toISOString()],
      ['passed-1', '1', new Date(MINUTE + 500).toISOString()],
    ]);
  });

  it('refuses a decision that is no module', async () => {
    const res = await sendAs(t.app, user, userAccessLogs, { body: { ...range, decision: 'nothing' } as never });
    expect(res.statusCode).toBe(400);
  });
});
