import path from 'node:path';
import type { AnalyticsStore } from './analytics-store.js';
import { ClickHouseStore } from './clickhouse-store.js';
import { DuckDbStore } from './duckdb-store.js';

/**
 * The analytics store the configuration names, opened: ClickHouse when `CLICKHOUSE_URL` is set
 * (laid over the shards of `CLICKHOUSE_CLUSTER` when that is set too), else DuckDB in
 * `DATA_DIR/analytics` (locked for this process, as the embedded database is) with
 * `analyticsThreads` of DuckDB's threads (its default when unset).
 */
export async function openAnalyticsStore(config: {
  dataDir: string;
  clickhouseUrl: string | undefined;
  clickhouseCluster?: { name: string; shards: string[] } | undefined;
  analyticsThreads?: number | undefined;
}): Promise<AnalyticsStore> {
  const store = config.clickhouseUrl
    ? new ClickHouseStore(config.clickhouseUrl, { cluster: config.clickhouseCluster })
    : new DuckDbStore(path.join(config.dataDir, 'analytics'), undefined, config.analyticsThreads);
  await store.open();
  return store;
}
