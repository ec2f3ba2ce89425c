import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionScoped } from '../src/platform/db/request-transaction.js';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './helpers/test-db.js';

/**
 * Code inside a transaction may start several queries at once (`Promise.all` over repository
 * calls) on the transaction's one connection. pg 8 queues them itself with a deprecation warning
 * (pg 9 refuses them); the pool's connections queue them instead (database.ts serialiseQueries).
 * PostgreSQL only: PGlite has one connection and its own queue.
 */
describe.skipIf(TEST_DB_KIND !== 'postgres')('queries started together on one connection', () => {
  let t: TestDatabase;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  beforeAll(async () => {
    t = await createTestDatabase();
    process.on('warning', onWarning);
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await t?.drop();
  });

  it('run one after another inside a transaction, in order, with their own results and no deprecation', async () => {
    const { db, run } = transactionScoped(t.database.db);
    const results = await run(async () => {
      await db.execute(sql`CREATE TEMP TABLE seq (n int, at timestamptz) ON COMMIT DROP`);
      // pg_sleep makes the first query still running when the others are given to the connection.
      return Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          db.execute(
            sql`INSERT INTO seq SELECT ${i}, clock_timestamp() FROM pg_sleep(${i === 0 ? 0.05 : 0}) RETURNING n`,
          ),
        ).concat([db.execute(sql`SELECT array_agg(n ORDER BY at) AS order FROM seq`)]),
      );
    });
    const rows = results.map((r) => (r as unknown as { rows: Record<string, unknown>[] }).rows[0]);
    expect(rows.slice(0, 12).map((r) => r?.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(rows[12]?.order).toEqual(Array.from({ length: 12 }, (_, i) => i));
    // Let a warning emitted on the way reach the listener (process warnings are emitted on next tick).
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.includes('already executing'))).toEqual([]);
  });

  it('a failed query leaves the queue going: the transaction reports the failure, the next call runs', async () => {
    const { db, run } = transactionScoped(t.database.db);
    const failure = await run(async () =>
      Promise.all([db.execute(sql`SELECT 1/0`), db.execute(sql`SELECT 1 AS one`)]),
    ).catch((error: unknown) => error as Error & { cause?: Error });
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as { cause?: Error }).cause?.message)).toMatch(/division by zero/);
    const after = (await db.execute(sql`SELECT 2 AS two`)) as unknown as { rows: { two: number }[] };
    expect(after.rows[0]?.two).toBe(2);
  });
});
