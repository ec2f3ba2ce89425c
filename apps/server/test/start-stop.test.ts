import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, stop } from './helpers/server-process.js';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './helpers/test-db.js';

type Health = { data: { database: string; instanceId: string } };

let dataDir: string;
let pg: TestDatabase | null = null;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'rampart-data-'));
  if (TEST_DB_KIND === 'postgres') pg = await createTestDatabase();
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await pg?.drop();
});

describe(`the control plane process on ${TEST_DB_KIND}`, () => {
  it('keeps its data across a graceful stop and a new start', async () => {
    const env = { DATA_DIR: dataDir, ...(pg?.url ? { DATABASE_URL: pg.url } : {}) };
    await pg?.database.close();
    const first = await start(env);
    const a = (await (await fetch(`${first.url}/api/v1/health`)).json()) as Health;
    expect(await stop(first)).toBe(0);

    const second = await start(env);
    const b = (await (await fetch(`${second.url}/api/v1/health`)).json()) as Health;
    expect(await stop(second)).toBe(0);

    expect(a.data.database).toBe(TEST_DB_KIND);
    expect(b.data.instanceId).toBe(a.data.instanceId);
    const secret = statSync(path.join(dataDir, 'secret.key'));
    expect(secret.mode & 0o777).toBe(0o600);
  }, 400_000);
});
