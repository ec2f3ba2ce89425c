import path from 'node:path';
import type { AnalyticsStore } from './analytics-store.js';
import { DuckDbStore } from './duckdb-store.js';

/**
 * The analytics store the configuration names, opened: ClickHouse when `CLICKHOUSE_URL` is set,
 * else DuckDB in `DATA_DIR/analytics` (locked for this process, as the embedded database is).
 */
export async function openAnalyticsStore(config: {
  dataDir: string;
  clickhouseUrl: string | undefined;
}): Promise<AnalyticsStore> {
  if (config.clickhouseUrl) throw new Error('CLICKHOUSE_URL: the ClickHouse store is not in this build yet');
  const store = new DuckDbStore(path.join(config.dataDir, 'analytics'));
  await store.open();
  return store;
}
