import { type AggregateBatch, encodeAggregateBatch, MinuteAggregator } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsStore } from '../src/modules/analytics/analytics-store.js';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent, shipAggregateBatch } from './helpers/events.js';
import { createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The node API's aggregate call (edge.aggregates) end to end on the control plane: a node ships a
// signed gzip batch, its minutes are placed and merged into the rollups once; a minute naming a
// domain of another operator's site counts for no site. Both config stores, both analytics stores.

const MINUTE = Date.UTC(2026, 10, 28, 10, 0, 0);
const clock = manualClock(MINUTE + 3600_000);
let t: TestApp;
let store: AnalyticsStore;
let a: JoinedNode;
let siteId: number;
let domainId: number;
let rivalSiteId: number;
let rivalDomainId: number;

function ship(node: JoinedNode, batch: object) {
  return shipAggregateBatch(t.app, node, batch, { nowMs: clock.now() });
}

/** Requests per site in rollup_1h. */
async function requestsBySite(): Promise<Record<number, number>> {
  const rows = await store.query('SELECT site_id, sum(requests) AS n FROM rollup_1h GROUP BY site_id');
  return Object.fromEntries(rows.map((r) => [Number(r.site_id), Number(r.n)]));
}

beforeAll(async () => {
  store = await createTestAnalyticsStore();
  t = await createTestApp({ clock: clock.now, analytics: store });
  ({ a, siteId, domainId, rivalSiteId, rivalDomainId } = await analyticsTenants(t, {
    shop: 'www.shop.example',
    neighbour: 'www.next.example',
    rival: 'www.elsewhere.example',
  }));
});
afterAll(async () => {
  await t?.close();
});

describe(`edge.aggregates (${TEST_ANALYTICS_KIND})`, () => {
  it('merges a batch once, and counts a foreign domain for no site', async () => {
    const aggregator = new MinuteAggregator();
    for (let i = 0; i < 30; i++) aggregator.add(edgeEvent({ time: MINUTE + i * 1000, domainId }));
    for (let i = 0; i < 7; i++) aggregator.add(edgeEvent({ time: MINUTE + i * 1000, domainId: rivalDomainId }));
    aggregator.closeAll();
    const { minutes } = aggregator.take();
    const batch: AggregateBatch = {
      batchId: 'spool-1',
      dropped: 0,
      closedThrough: MINUTE + 60_000,
      minutes,
      collapsed: [],
    };
    const first = await ship(a, batch);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ stored: 2, duplicate: false });
    // Sent again (its answer lost): a duplicate, nothing added.
    const again = await ship(a, batch);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toEqual({ stored: 0, duplicate: true });
    const bySite = await requestsBySite();
    expect(bySite[siteId]).toBe(30);
    expect(bySite[0]).toBe(7);
    expect(bySite[rivalSiteId]).toBeUndefined();
  });

  it('takes the compact form agents ship and the object form of older agents alike, and refuses a broken compact one', async () => {
    const batchOf = (batchId: string, at: number, n: number): AggregateBatch => {
      const aggregator = new MinuteAggregator();
      for (let i = 0; i < n; i++) aggregator.add(edgeEvent({ time: at + i * 1000, domainId, path: `/p${i % 3}` }));
      aggregator.closeAll();
      return { batchId, dropped: 0, closedThrough: at + 60_000, minutes: aggregator.take().minutes, collapsed: [] };
    };
    const before = (await requestsBySite())[siteId] ?? 0;
    const compact = encodeAggregateBatch(batchOf('spool-10', MINUTE + 7_200_000, 11));
    const first = await ship(a, compact);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ stored: 1, duplicate: false });
    expect((await ship(a, compact)).json().data).toEqual({ stored: 0, duplicate: true });
    const object = await ship(a, batchOf('spool-11', MINUTE + 10_800_000, 5));
    expect(object.statusCode, object.body).toBe(200);
    expect((await requestsBySite())[siteId]).toBe(before + 16);
    // The compact form's heavy hitters reached the store: the three paths, counted exactly.
    const paths = await store.query(
      `SELECT value, sum(requests) AS n FROM agg_highdims WHERE dim = 'url' AND minute = ${(MINUTE + 7_200_000) / 1000} GROUP BY value ORDER BY value`,
    );
    expect(paths.map((r) => [String(r.value), Number(r.n)])).toEqual([
      ['/p0', 4],
      ['/p1', 4],
      ['/p2', 3],
    ]);
    const broken = structuredClone(encodeAggregateBatch(batchOf('spool-12', MINUTE + 14_400_000, 3)));
    (broken.minutes[0] as number[]).push(0);
    expect((await ship(a, broken)).statusCode).toBe(400);
  });

  it('takes a batch of collapsed floods whose minutes went in an earlier batch (as the agent cuts a full batch)', async () => {
    const aggregator = new MinuteAggregator();
    for (let i = 0; i < 40; i++) {
      aggregator.add(
        edgeEvent({
          time: MINUTE + 120_000 + i * 100,
          domainId,
          ip: '203.0.113.7',
          status: 403,
          fwKind: 'blacklist',
          fwRule: 4,
          fwAction: 'deny',
        }),
      );
    }
    aggregator.closeAll();
    const { minutes, collapsed } = aggregator.take();
    expect(collapsed.length).toBeGreaterThan(0);
    const base = { dropped: 0, closedThrough: MINUTE + 180_000 };
    const first = await ship(a, { ...base, batchId: 'cut-1', minutes, collapsed: [] });
    expect(first.statusCode, first.body).toBe(200);
    const second = await ship(a, { ...base, batchId: 'cut-2', minutes: [], collapsed });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data).toEqual({ stored: 0, duplicate: false });
    const rows = await store.query(`SELECT sum(requests) AS n FROM collapsed_blocks WHERE site_id = ${siteId}`);
    expect(Number(rows[0]?.n)).toBe(collapsed.reduce((sum, c) => sum + c.count, 0));
  });

  it('refuses a batch that does not match the contract', async () => {
    const res = await ship(a, {
      batchId: 'spool-2',
      dropped: 0,
      closedThrough: 0,
      minutes: [{ minute: MINUTE + 1 }],
      collapsed: [],
    } as unknown as AggregateBatch);
    expect(res.statusCode).toBe(400);
  });
});
