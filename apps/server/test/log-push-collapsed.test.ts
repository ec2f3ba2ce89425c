import { type AggregateBatch, type EdgeEvent, type LogPushEvent, userCreateLogPushEvent } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsStore } from '../src/modules/analytics/analytics-store.js';
import { LogPushReads } from '../src/modules/analytics/store/log-push-reads.js';
import { LogPushRepository } from '../src/modules/log-push/log-push.repository.js';
import { type LedgerCursor, LogPushSource, type PushItem } from '../src/modules/log-push/log-push.source.js';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { sendAs, type Token } from './helpers/call.js';
import { collapsedFlood, refusedAt } from './helpers/collapsed-flood.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent, shipAggregateBatch, shipBatch } from './helpers/events.js';
import { type Receiver, webhookReceiver } from './helpers/log-push-receivers.js';
import { createTestAnalyticsStore } from './helpers/test-analytics.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Log push of refused floods the nodes collapsed (log-push.source.ts, store/log-push-reads.ts), on
// both analytics stores (the project decides which): a node logs a flood's first request per
// tally interval and counts the rest; its aggregate batches carry the collapsed records (a minute
// in three records: the close and two corrections, each with what came since). The push sends each
// record once with its count, never the refused requests one by one, in ledger order with the
// events; the cursor holds across a job restart and within an aggregate batch sent in parts.

const SECRET = 'whsec-collapsed-0123456789';
const FLOOD_IP = '203.0.113.9';
const OTHER_IP = '198.51.100.40';

let t: TestApp;
let store: AnalyticsStore;
let user: Token;
let siteId: number;
let domainId: number;
let a: JoinedNode;
let hook: Receiver;
let event: LogPushEvent;
/** A whole minute two minutes ago (aggregates are per minute). */
const MINUTE = Math.floor(Date.now() / 60_000) * 60_000 - 120_000;

async function shipAggregates(node: JoinedNode, batch: AggregateBatch) {
  const res = await shipAggregateBatch(t.app, node, batch);
  expect(res.statusCode, `${res.body} ${JSON.stringify(t.logs.filter((l) => l.level === 50).slice(-2))}`).toBe(200);
}

async function until<T>(what: string, probe: () => T | Promise<T>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let logged: EdgeEvent[];
let aggregateBatches: AggregateBatch[];
const collapsedOf = (r: Receiver) => r.records.filter((x) => x.collapsed !== undefined);
const countOf = (records: Record<string, unknown>[]) =>
  records.reduce((n, x) => n + Number((x.collapsed as { count: number }).count), 0);

beforeAll(async () => {
  store = await createTestAnalyticsStore();
  t = await createTestApp({
    analytics: store,
    config: { logPushTickMs: 50, logPushSettleMs: 50, logPushBackoffMs: { base: 50, max: 200 } },
  });
  ({ user, siteId, domainId, a } = await analyticsTenants(t, {
    shop: 'www.push-flood.example',
    neighbour: 'www.push-flood-next.example',
    rival: 'www.push-flood-far.example',
  }));
  // What the node logged: a passed request, the flood's first request of each tally interval, one
  // request of another address (past the node's cap of one address: the decision's record with no address).
  const place = { minute: MINUTE, domainId, host: 'www.push-flood.example' };
  logged = [
    edgeEvent({
      id: 'fl-passed-1',
      time: MINUTE + 500,
      domainId,
      ip: FLOOD_IP,
      host: 'www.push-flood.example',
      path: '/index.html',
    }),
    refusedAt(place, 'fl-flood-1', FLOOD_IP, 1000),
    refusedAt(place, 'fl-flood-2', FLOOD_IP, 21_000),
    refusedAt(place, 'fl-flood-3', FLOOD_IP, 41_000),
    refusedAt(place, 'fl-other-1', OTHER_IP, 30_000),
  ];
  const taken = collapsedFlood(place, FLOOD_IP, logged, {
    passed: 'fl-passed-1',
    floods: ['fl-flood-1', 'fl-flood-2', 'fl-flood-3'],
    others: ['fl-other-1'],
  });
  const stamp = Date.now() % 1_000_000;
  aggregateBatches = taken.map((x, i) => ({ batchId: `pushagg${stamp}-${i + 1}`, dropped: 0, ...x }));
  expect(taken.flatMap((x) => x.collapsed).map((c) => [c.ip, c.count])).toEqual([
    [FLOOD_IP, 4001],
    [FLOOD_IP, 4001],
    ['', 1],
    [FLOOD_IP, 4398],
  ]);
  hook = await webhookReceiver(SECRET);
  const res = await sendAs(t.app, user, userCreateLogPushEvent, {
    body: {
      name: 'floods',
      type: 'access',
      destination: { kind: 'webhook', url: `http://127.0.0.1:${hook.port}/hook`, secret: SECRET },
    } as never,
  });
  expect(res.statusCode, res.body).toBe(200);
  event = res.json().data as LogPushEvent;
  t.app.rampart.logPushJob.start();
}, 120_000);

afterAll(async () => {
  await hook?.stop();
  await t?.close();
});

describe('log push of collapsed floods', () => {
  it('pushes each collapsed record once with its count, never the refused requests, across a restart', async () => {
    const ship = await shipBatch(t.app, a, {
      batchId: `pushev${Date.now() % 1_000_000}-1`,
      dropped: 0,
      events: logged,
      statistics: false,
    });
    expect(ship.statusCode, ship.body).toBe(200);
    await shipAggregates(a, aggregateBatches[0] as AggregateBatch);
    await shipAggregates(a, aggregateBatches[1] as AggregateBatch);
    await until('the close and the first correction', () => collapsedOf(hook).length >= 3);
    // The control plane goes down while the node ships the last correction and sends the close again
    // (its acknowledgement lost): a new start has only the stored cursor to go on.
    await t.app.rampart.logPushJob.stop();
    await shipAggregates(a, aggregateBatches[2] as AggregateBatch);
    await shipAggregates(a, aggregateBatches[0] as AggregateBatch);
    t.app.rampart.logPushJob.start();
    await until('the last correction', () => countOf(collapsedOf(hook)) >= 12_401);
    // Everything the ledgers hold is delivered: the event's cursor is at their last batch.
    const reads = new LogPushReads(store);
    const repo = new LogPushRepository(t.db.database.db);
    await until('the cursor at the ledgers head', async () => {
      const head = await reads.head(Date.now());
      const row = await repo.find(event.id);
      return head !== null && row?.cursorBatch === head.batch && row.cursorRequest === '';
    });

    const records = collapsedOf(hook);
    const flood = records.filter((r) => r.ip === FLOOD_IP);
    expect(flood.map((r) => (r.collapsed as { count: number }).count)).toEqual([4001, 4001, 4398]);
    expect(countOf(flood)).toBe(12_400);
    expect(flood[0]).toMatchObject({
      reqID: 'fl-flood-1',
      fwKind: 'blacklist',
      fwRule: 4,
      status: 403,
      siteID: siteId,
      collapsed: { first: new Date(MINUTE + 1000).toISOString(), last: new Date(MINUTE + 20_000).toISOString() },
    });
    const overflow = records.filter((r) => r.ip === '');
    expect(overflow.map((r) => [r.reqID, (r.collapsed as { count: number }).count])).toEqual([['fl-other-1', 1]]);
    // The passed request once; no refused request on its own (its node's records count it).
    expect(hook.records.filter((r) => r.collapsed === undefined).map((r) => r.reqID)).toEqual(['fl-passed-1']);
    expect(hook.records).toHaveLength(5);
  });

  it('moves the cursor record by record within an aggregate batch, each record once', async () => {
    // The same reads with a batch of one record: the cursor stops inside the ledger's batches.
    const source = new LogPushSource(new LogPushReads(store), new LogPushRepository(t.db.database.db));
    const scope = {
      type: 'access' as const,
      siteIds: [siteId],
      zoneIds: null,
      filters: { statusClasses: [], methods: [], domains: [] },
    };
    let cursor: LedgerCursor = { ingestedAt: 1, batch: '', request: '' };
    const got: PushItem[] = [];
    for (let i = 0; i < 50; i++) {
      const next = await source.nextFromLedger(scope, cursor, Date.now(), { maxRecords: 1, maxBytes: 1 << 20 });
      if (next === null) break;
      got.push(...next.items);
      cursor = next.next;
    }
    const ids = got.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    const counts = got
      .filter((x) => x.record.collapsed !== undefined)
      .map((x) => [x.record.ip, (x.record.collapsed as { count: number }).count]);
    expect(counts).toEqual([
      [FLOOD_IP, 4001],
      [FLOOD_IP, 4001],
      ['', 1],
      [FLOOD_IP, 4398],
    ]);
    expect(got.filter((x) => x.record.collapsed === undefined).map((x) => x.record.reqID)).toEqual(['fl-passed-1']);
    // A status filter applies to the records as to the requests.
    const passedOnly = await source.nextFromLedger(
      { ...scope, filters: { statusClasses: ['2xx'], methods: [], domains: [] } },
      { ingestedAt: 1, batch: '', request: '' },
      Date.now(),
      { maxRecords: 1000, maxBytes: 1 << 20 },
    );
    expect(passedOnly?.items.map((x) => x.record.reqID)).toEqual(['fl-passed-1']);
  });
});
