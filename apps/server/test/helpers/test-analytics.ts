import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { AnalyticsStore } from '../../src/modules/analytics/analytics-store.js';
import { type ClickHouseOptions, ClickHouseStore } from '../../src/modules/analytics/clickhouse-store.js';
import { DuckDbStore } from '../../src/modules/analytics/duckdb-store.js';

/**
 * The analytics store of the run's project (test/global-setup.ts): DuckDB in memory under
 * RAMPART_TEST_DB=pglite, ClickHouse under postgres — there on a database of its own per call
 * (`rampart_t_<random>`), dropped when the store is closed. Open when returned.
 */
export const TEST_ANALYTICS_KIND = process.env.RAMPART_TEST_DB === 'postgres' ? 'clickhouse' : 'duckdb';

/** Whether the run's ClickHouse is two shards of a cluster (project server-clickhouse-cluster). */
export const TEST_CLICKHOUSE_CLUSTER = process.env.RAMPART_TEST_CLICKHOUSE === 'cluster';

/** The store's options for the run's ClickHouse: its cluster, when it is one. */
export function testClickHouseOptions(): ClickHouseOptions {
  const name = inject('clickhouseCluster');
  return name ? { cluster: { name, shards: inject('clickhouseShards') } } : {};
}

/**
 * A store on disk (DuckDB: a temporary directory) or in a database of its own (ClickHouse), with
 * `reopen`, which closes it and opens a new store on the same data — to test what open() does to a
 * store an older version left — and `drop`, which removes it for good.
 */
export async function createReopenableAnalyticsStore(): Promise<{
  store: AnalyticsStore;
  reopen: () => Promise<AnalyticsStore>;
  drop: () => Promise<void>;
}> {
  let store: AnalyticsStore;
  let make: () => AnalyticsStore;
  let cleanup: () => Promise<void>;
  if (TEST_ANALYTICS_KIND === 'duckdb') {
    // The store in a directory of its own inside the temporary one: its lock file (`<store>.lock`,
    // beside the store) goes with the directory.
    const dir = await mkdtemp(path.join(tmpdir(), 'rampart-duck-'));
    make = () => new DuckDbStore(path.join(dir, 'store'));
    cleanup = () => rm(dir, { recursive: true, force: true });
  } else {
    const name = `rampart_t_${randomBytes(6).toString('hex')}`;
    make = () => new ClickHouseStore(withDatabase(inject('clickhouseUrl'), name), testClickHouseOptions());
    cleanup = async () => {
      await clickhouseRequest(`DROP DATABASE IF EXISTS ${name}`);
    };
  }
  store = make();
  await store.open();
  return {
    store,
    reopen: async () => {
      await store.close();
      store = make();
      await store.open();
      return store;
    },
    drop: async () => {
      await store.close();
      await cleanup();
    },
  };
}

export async function createTestAnalyticsStore(): Promise<AnalyticsStore> {
  if (TEST_ANALYTICS_KIND === 'duckdb') {
    const store = new DuckDbStore(null);
    await store.open();
    return store;
  }
  const name = `rampart_t_${randomBytes(6).toString('hex')}`;
  const store = new ClickHouseStore(withDatabase(inject('clickhouseUrl'), name), testClickHouseOptions());
  await store.open();
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await clickhouseRequest(`DROP DATABASE IF EXISTS ${name}`);
  };
  return store;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A statement straight to the test ClickHouse server (what the store does not offer: the tests'
 * own writes and reads behind its back). `data` is the body of an INSERT given in `sql`. On a
 * cluster it goes to the first shard, an INSERT through a Distributed table written to the shards
 * before it answers; a DROP DATABASE goes to every shard.
 */
export async function clickhouseRequest(
  sql: string,
  options: { database?: string; data?: string } = {},
): Promise<string> {
  const shards = inject('clickhouseShards');
  if (shards.length > 0 && /^DROP DATABASE /.test(sql)) {
    const [first] = await Promise.all([
      clickhouseRequestTo(inject('clickhouseUrl'), sql, options),
      ...shards
        .filter((shard) => shard !== inject('clickhouseUrl'))
        .map((shard) => clickhouseRequestTo(shard, sql, options)),
    ]);
    return first;
  }
  return clickhouseRequestTo(inject('clickhouseUrl'), sql, options);
}

async function clickhouseRequestTo(
  server: string,
  sql: string,
  options: { database?: string; data?: string },
): Promise<string> {
  const u = new URL(server);
  const params = new URLSearchParams();
  if (inject('clickhouseCluster')) params.set('insert_distributed_sync', '1');
  if (options.database) params.set('database', options.database);
  if (options.data !== undefined) params.set('query', sql);
  const headers: Record<string, string> = {};
  if (u.username !== '') {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
  }
  const response = await fetch(`${u.protocol}//${u.host}/?${params}`, {
    method: 'POST',
    headers,
    body: options.data ?? sql,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`ClickHouse (${response.status}): ${text}`);
  return text;
}
