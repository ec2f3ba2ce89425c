import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsStore, L4CounterRow } from '../src/modules/analytics/analytics-store.js';
import { batchKey } from '../src/modules/analytics/clickhouse-store.js';
import { clickhouseRequest, createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';

/**
 * The layer-4 counters in the analytics store, on DuckDB (server-pglite) and ClickHouse
 * (server-postgres): a batch is stored once, sums read back, retention drops old minutes.
 */

const T0 = Date.UTC(2026, 10, 10, 10, 0, 0) / 1000;
const row = (over: Partial<L4CounterRow> = {}): L4CounterRow => ({
  bucket: T0,
  nodeId: 1,
  siteId: 5,
  portId: 9,
  outcome: 'drop',
  dim: 'protocol',
  value: 'tcp',
  packets: 10,
  bytes: 600,
  ...over,
});

describe(`layer-4 counters in the analytics store (${TEST_ANALYTICS_KIND})`, () => {
  let store: AnalyticsStore;
  beforeEach(async () => {
    store = await createTestAnalyticsStore();
  });
  afterEach(async () => {
    await store.close();
  });

  const sums = async () =>
    (
      await store.query(
        'SELECT site_id, outcome, dim, value, sum(packets) AS packets, sum(bytes) AS bytes FROM l4_counters ' +
          'GROUP BY site_id, outcome, dim, value ORDER BY site_id, outcome, dim, value',
      )
    ).map((r) => ({ ...r, packets: Number(r.packets), bytes: Number(r.bytes) }));

  it('stores a batch once; a batch sent again is a duplicate', async () => {
    const rows = [
      row(),
      row({ outcome: 'pass', packets: 5, bytes: 300 }),
      row({ dim: 'source', value: '2001:db8::1', packets: 4, bytes: 240 }),
      row({ dim: 'country', value: 'DE', packets: 4, bytes: 240 }),
      row({ bucket: T0 + 60, packets: 1, bytes: 60 }),
    ];
    expect(await store.ingestL4({ batchId: '1-a-1', nodeId: 1, receivedAt: T0, rows })).toEqual({
      stored: 5,
      duplicate: false,
    });
    expect(await store.ingestL4({ batchId: '1-a-1', nodeId: 1, receivedAt: T0, rows })).toEqual({
      stored: 0,
      duplicate: true,
    });
    expect(await store.ingestL4({ batchId: '1-a-2', nodeId: 1, receivedAt: T0, rows: [row({ siteId: 6 })] })).toEqual({
      stored: 1,
      duplicate: false,
    });
    expect(await sums()).toEqual([
      { site_id: 5, outcome: 'drop', dim: 'country', value: 'DE', packets: 4, bytes: 240 },
      { site_id: 5, outcome: 'drop', dim: 'protocol', value: 'tcp', packets: 11, bytes: 660 },
      { site_id: 5, outcome: 'drop', dim: 'source', value: '2001:db8::1', packets: 4, bytes: 240 },
      { site_id: 5, outcome: 'pass', dim: 'protocol', value: 'tcp', packets: 5, bytes: 300 },
      { site_id: 6, outcome: 'drop', dim: 'protocol', value: 'tcp', packets: 10, bytes: 600 },
    ]);
    // An empty batch is taken (and remembered) too.
    expect(await store.ingestL4({ batchId: '1-a-3', nodeId: 1, receivedAt: T0, rows: [] })).toEqual({
      stored: 0,
      duplicate: false,
    });
    expect((await store.ingestL4({ batchId: '1-a-3', nodeId: 1, receivedAt: T0, rows: [] })).duplicate).toBe(true);
  });

  it('drops the minutes before the rollups’ cut when pruned', async () => {
    await store.ingestL4({
      batchId: '1-b-1',
      nodeId: 1,
      receivedAt: T0,
      rows: [row({ bucket: T0 - 3 * 86_400 }), row({ bucket: T0 })],
    });
    await store.prune(T0 - 86_400, T0 - 86_400);
    expect(await sums()).toEqual([
      { site_id: 5, outcome: 'drop', dim: 'protocol', value: 'tcp', packets: 10, bytes: 600 },
    ]);
  });

  it.runIf(TEST_ANALYTICS_KIND === 'clickhouse')(
    "completes a batch whose first attempt left one site's rows and not another's: each row once",
    async () => {
      const rows = [row(), row({ siteId: 6, packets: 7, bytes: 420 }), row({ siteId: 6, outcome: 'pass' })];
      // On a cluster the INSERT is one block per shard, a site's rows on one: a cut may leave site
      // 5's rows stored (here written behind the store's back) and not site 6's.
      const db = (store as unknown as { databaseName: string }).databaseName;
      const [first] = rows;
      await clickhouseRequest('INSERT INTO l4_counters FORMAT JSONEachRow', {
        database: db,
        data: JSON.stringify({
          bucket: T0,
          site_id: first?.siteId,
          node_id: first?.nodeId,
          port_id: first?.portId,
          outcome: first?.outcome,
          dim: first?.dim,
          value: first?.value,
          packets: first?.packets,
          bytes: first?.bytes,
          batch_key: batchKey('1-c-1'),
        }),
      });
      expect(await store.ingestL4({ batchId: '1-c-1', nodeId: 1, receivedAt: T0, rows })).toEqual({
        stored: 2,
        duplicate: false,
      });
      expect((await store.ingestL4({ batchId: '1-c-1', nodeId: 1, receivedAt: T0, rows })).duplicate).toBe(true);
      expect(await sums()).toEqual([
        { site_id: 5, outcome: 'drop', dim: 'protocol', value: 'tcp', packets: 10, bytes: 600 },
        { site_id: 6, outcome: 'drop', dim: 'protocol', value: 'tcp', packets: 7, bytes: 420 },
        { site_id: 6, outcome: 'pass', dim: 'protocol', value: 'tcp', packets: 10, bytes: 600 },
      ]);
    },
  );
  it.runIf(TEST_ANALYTICS_KIND === 'clickhouse')(
    "completes a batch across midnight whose first attempt left one day's rows of a site and not the next day's",
    async () => {
      const midnight = Math.ceil(T0 / 86_400) * 86_400;
      // Site 5's rows of two days: two partitions, two parts; a cut may leave the first day's only.
      const rows = [row({ bucket: midnight - 60 }), row({ bucket: midnight, packets: 3, bytes: 180 })];
      const db = (store as unknown as { databaseName: string }).databaseName;
      const [first] = rows;
      await clickhouseRequest('INSERT INTO l4_counters FORMAT JSONEachRow', {
        database: db,
        data: JSON.stringify({
          bucket: first?.bucket,
          site_id: first?.siteId,
          node_id: first?.nodeId,
          port_id: first?.portId,
          outcome: first?.outcome,
          dim: first?.dim,
          value: first?.value,
          packets: first?.packets,
          bytes: first?.bytes,
          batch_key: batchKey('1-m-1'),
        }),
      });
      const batch = { batchId: '1-m-1', nodeId: 1, receivedAt: midnight, rows };
      expect(await store.ingestL4(batch)).toEqual({ stored: 1, duplicate: false });
      expect((await store.ingestL4(batch)).duplicate).toBe(true);
      expect(await sums()).toEqual([
        { site_id: 5, outcome: 'drop', dim: 'protocol', value: 'tcp', packets: 13, bytes: 780 },
      ]);
    },
  );
});
