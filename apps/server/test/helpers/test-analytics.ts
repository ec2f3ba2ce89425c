import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { AnalyticsStore } from '../../src/modules/analytics/analytics-store.js';
import { ClickHouseStore } from '../../src/modules/analytics/clickhouse-store.js';
import { DuckDbStore } from '../../src/modules/analytics/duckdb-store.js';

/**
 * The analytics store of the run's project (test/global-setup.ts): DuckDB in memory under
 * RAMPART_TEST_DB=pglite, ClickHouse under postgres — there on a database of its own per call
 * (`rampart_t_<random>`), dropped when the store is closed. Open when returned.
 */
export const TEST_ANALYTICS_KIND = process.env.RAMPART_TEST_DB === 'postgres' ? 'clickhouse' : 'duckdb';

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
    make = () => new ClickHouseStore(withDatabase(inject('clickhouseUrl'), name));
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
  const store = new ClickHouseStore(withDatabase(inject('clickhouseUrl'), name));
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
 * own writes and reads behind its back). `data` is the body of an INSERT given in `sql`.
 */
export async function clickhouseRequest(
  sql: string,
  options: { database?: string; data?: string } = {},
): Promise<string> {
  const u = new URL(inject('clickhouseUrl'));
  const params = new URLSearchParams();
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
