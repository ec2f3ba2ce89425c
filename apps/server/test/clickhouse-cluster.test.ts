import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ClickHouseHttp } from '../src/modules/analytics/clickhouse-http-store.js';
import { ClickHouseStore } from '../src/modules/analytics/clickhouse-store.js';
import { makeEvents } from './helpers/analytics-events.js';
import { clickhouseRequest, TEST_CLICKHOUSE_CLUSTER, testClickHouseOptions } from './helpers/test-analytics.js';

/**
 * The ClickHouse store on two shards of one cluster (project server-clickhouse-cluster; the
 * analytics suite runs there too): the schema made on each shard, a site's events and rollups on
 * one shard, both shards used, the upkeep done on each, and a cluster the settings describe
 * wrongly refused.
 */

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0) / 1000;
const DAY = 86_400;

describe.runIf(TEST_CLICKHOUSE_CLUSTER)('the analytics store on a ClickHouse cluster of two shards', () => {
  const database = `rampart_t_${randomBytes(6).toString('hex')}`;
  const withDatabase = (url: string) => {
    const u = new URL(url);
    u.pathname = `/${database}`;
    return u.toString();
  };
  let store: ClickHouseStore;
  let shards: ClickHouseHttp[];
  beforeAll(async () => {
    store = new ClickHouseStore(withDatabase(inject('clickhouseUrl')), testClickHouseOptions());
    await store.open();
    shards = inject('clickhouseShards').map((url) => new ClickHouseHttp(new URL(url), database, {}, 30_000));
  });
  afterAll(async () => {
    await store?.close();
    await clickhouseRequest(`DROP DATABASE IF EXISTS ${database}`);
  });

  /** Per shard: site → count of its rows in `table` there. */
  const perShard = (table: string) =>
    Promise.all(
      shards.map(async (shard) => {
        const rows = await shard.select(`SELECT site_id, count() AS n FROM ${table} GROUP BY site_id`);
        return new Map(rows.map((r) => [Number(r.site_id), Number(r.n)]));
      }),
    );

  it('makes the local tables, the views and the Distributed tables on each shard', async () => {
    for (const shard of shards) {
      const tables = new Map(
        (await shard.select('SELECT name, engine FROM system.tables WHERE database = currentDatabase()')).map((r) => [
          String(r.name),
          String(r.engine),
        ]),
      );
      expect(tables.get('events')).toBe('Distributed');
      expect(tables.get('events_local')).toBe('MergeTree');
      expect(tables.get('rollup_1m')).toBe('Distributed');
      expect(tables.get('rollup_1m_local')).toBe('SummingMergeTree');
      expect(tables.get('rollup_1m_ev')).toBe('MaterializedView');
      expect(tables.get('batches')).toBe('Distributed');
      expect(tables.get('agg_counters_local')).toBe('MergeTree');
    }
    // Opened again, nothing changes and nothing fails.
    const again = new ClickHouseStore(withDatabase(inject('clickhouseUrl')), testClickHouseOptions());
    await again.open();
    await again.close();
  });

  it("keeps a site's events and rollups on one shard, spreads the sites over both, and reads them all", async () => {
    const events = makeEvents('spread', 600, T0, 3600, 17);
    expect(await store.ingest({ batchId: 'spread', nodeId: 1, receivedAt: T0 + 3600, dropped: 0, events })).toEqual({
      stored: 600,
      duplicate: false,
    });
    const counted = events.filter((e) => e.counted === 1);
    const want = new Map<number, number>();
    for (const e of counted) want.set(e.siteId, (want.get(e.siteId) ?? 0) + 1);
    const raw = await perShard('events_local');
    const rollups = await Promise.all(
      shards.map(async (shard) => {
        const rows = await shard.select('SELECT site_id, sum(requests) AS n FROM rollup_1h_local GROUP BY site_id');
        return new Map(rows.map((r) => [Number(r.site_id), Number(r.n)]));
      }),
    );
    // Every shard holds some sites, no site is on two, and a shard's rollups are its own events'.
    expect(raw.every((m) => m.size > 0)).toBe(true);
    for (const site of want.keys()) expect(raw.filter((m) => m.has(site))).toHaveLength(1);
    for (const [i, shardEvents] of raw.entries()) {
      const sites = [...shardEvents.keys()].sort();
      expect([...(rollups[i] ?? new Map()).keys()].sort()).toEqual(sites);
      for (const site of sites) expect(rollups[i]?.get(site)).toBe(want.get(site));
    }
    // Through the Distributed tables: every shard.
    const read = await store.query('SELECT site_id, sum(requests) AS n FROM rollup_1h GROUP BY site_id');
    expect(new Map(read.map((r) => [Number(r.site_id), Number(r.n)]))).toEqual(want);
    // A batch sent again is found in the ledger, whichever shard holds its row.
    expect(await store.ingest({ batchId: 'spread', nodeId: 1, receivedAt: T0 + 3600, dropped: 0, events })).toEqual({
      stored: 0,
      duplicate: true,
    });
  });

  it('counts the parts of every shard, and prunes and drops days on each', async () => {
    const old = makeEvents('old', 300, T0 - 3 * DAY, 3600, 18);
    await store.ingest({ batchId: 'old', nodeId: 1, receivedAt: T0, dropped: 0, events: old });
    const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10).replaceAll('-', '');
    const eventsPart = (await store.parts()).find((p) => p.table === 'events' && p.part === day(T0 - 3 * DAY));
    expect(eventsPart?.rows).toBe(300);
    await store.prune(T0 - 2 * DAY, T0 - 2 * DAY);
    const [left] = await store.query(`SELECT count() AS n FROM events WHERE ts < ${T0 - 2 * DAY}`);
    expect(Number(left?.n)).toBe(0);
    await store.dropParts([{ table: 'events', part: day(T0) }]);
    for (const m of await perShard('events_local')) expect(m.size).toBe(0);
  });

  it('refuses a cluster whose shards the settings name wrongly', async () => {
    const url = withDatabase(inject('clickhouseUrl'));
    const [first] = inject('clickhouseShards') as [string];
    const one = new ClickHouseStore(url, { cluster: { name: inject('clickhouseCluster'), shards: [first] } });
    await expect(one.open()).rejects.toThrow(/knows 2 shards, CLICKHOUSE_SHARDS names 1/);
    const other = inject('clickhouseShards').slice(1);
    expect(() => new ClickHouseStore(url, { cluster: { name: inject('clickhouseCluster'), shards: other } })).toThrow(
      /CLICKHOUSE_URL must name a server of CLICKHOUSE_SHARDS/,
    );
  });
});
