import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnalyticsStore } from '../src/modules/analytics/analytics-store.js';
import { DUCKDB_THREADS_DEFAULT, DuckDbStore } from '../src/modules/analytics/duckdb-store.js';
import { openAnalyticsStore } from '../src/modules/analytics/open-store.js';

const threadsOf = async (store: AnalyticsStore) =>
  Number((await store.query("SELECT current_setting('threads') AS t"))[0]?.t);

describe("the embedded analytics store's DuckDB threads", () => {
  const open: AnalyticsStore[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('runs on one thread unless told otherwise, and on as many as the configuration says', async () => {
    const plain = new DuckDbStore(null);
    open.push(plain);
    await plain.open();
    expect(DUCKDB_THREADS_DEFAULT).toBe(1);
    expect(await threadsOf(plain)).toBe(1);

    const dataDir = await mkdtemp(path.join(tmpdir(), 'rampart-duckdb-threads-'));
    dirs.push(dataDir);
    const configured = await openAnalyticsStore({ dataDir, clickhouseUrl: undefined, analyticsThreads: 3 });
    open.push(configured);
    expect(await threadsOf(configured)).toBe(3);
  });
});
