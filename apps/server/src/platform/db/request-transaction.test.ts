import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite } from './database.js';
import { transactionScoped } from './request-transaction.js';

let database: Database;
beforeAll(async () => {
  database = openPglite(await PGlite.create());
  await database.db.execute(sql`CREATE TABLE t (v int)`);
});
afterAll(async () => database.close());

async function values(): Promise<number[]> {
  const result = (await database.db.execute(sql`SELECT v FROM t ORDER BY v`)) as unknown as { rows: { v: number }[] };
  return result.rows.map((r) => r.v);
}

describe('request transactions', () => {
  it('runs afterCommit hooks once the outermost transaction committed, never for what was rolled back', async () => {
    const { db, run, afterCommit } = transactionScoped(database.db);
    const seen: string[] = [];
    // What a hook sees on another connection: the row is there (PGlite: the root db, after commit).
    afterCommit(() => seen.push('outside'));
    expect(seen).toEqual(['outside']);
    await run(async () => {
      await db.execute(sql`INSERT INTO t VALUES (10)`);
      afterCommit(() => seen.push('outer'));
      await run(async () => {
        afterCommit(() => seen.push('kept savepoint'));
      });
      await run(async () => {
        afterCommit(() => seen.push('undone savepoint'));
        throw new Error('inner');
      }).catch(() => undefined);
      // Not yet: the call's transaction is still open.
      expect(seen).toEqual(['outside']);
    });
    expect(seen).toEqual(['outside', 'outer', 'kept savepoint']);
    await expect(
      run(async () => {
        afterCommit(() => seen.push('rolled back'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(seen).toEqual(['outside', 'outer', 'kept savepoint']);
    await database.db.execute(sql`DELETE FROM t`);
  });

  it('sends every query made through the scoped db inside run() to one transaction', async () => {
    const { db, run, active } = transactionScoped(database.db);
    expect(active()).toBe(false);
    await expect(
      run(async () => {
        expect(active()).toBe(true);
        await db.execute(sql`INSERT INTO t VALUES (1)`);
        // A service's own transaction is a savepoint inside the call's.
        await db.transaction(async (tx) => {
          await tx.execute(sql`INSERT INTO t VALUES (2)`);
        });
        throw new Error('refused late');
      }),
    ).rejects.toThrow('refused late');
    expect(await values()).toEqual([]);

    await run(async () => {
      await db.execute(sql`INSERT INTO t VALUES (3)`);
      // A nested savepoint that fails is undone alone.
      await db
        .transaction(async (tx) => {
          await tx.execute(sql`INSERT INTO t VALUES (4)`);
          throw new Error('inner');
        })
        .catch(() => undefined);
    });
    expect(await values()).toEqual([3]);
  });

  it('makes a nested run() a savepoint: a caught failure undoes only the block, an uncaught one everything', async () => {
    await database.db.execute(sql`DELETE FROM t`);
    const { db, run } = transactionScoped(database.db);
    await run(async () => {
      await db.execute(sql`INSERT INTO t VALUES (10)`);
      await run(async () => {
        await db.execute(sql`INSERT INTO t VALUES (11)`);
        throw new Error('inner step failed');
      }).catch(() => undefined);
      await run(async () => {
        await db.execute(sql`INSERT INTO t VALUES (12)`);
      });
    });
    expect(await values()).toEqual([10, 12]);

    await expect(
      run(async () => {
        await run(async () => {
          await db.execute(sql`INSERT INTO t VALUES (13)`);
        });
        throw new Error('outer step failed');
      }),
    ).rejects.toThrow('outer step failed');
    expect(await values()).toEqual([10, 12]);

    // Outside any call, run() is a transaction of its own.
    await expect(
      run(async () => {
        await db.execute(sql`INSERT INTO t VALUES (14)`);
        throw new Error('job step failed');
      }),
    ).rejects.toThrow('job step failed');
    expect(await values()).toEqual([10, 12]);
    await database.db.execute(sql`DELETE FROM t`);
  });

  it('falls back to the plain database for work that outlives the transaction', async () => {
    const { db, run } = transactionScoped(database.db);
    let later: Promise<unknown> = Promise.resolve();
    await run(async () => {
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => db.execute(sql`INSERT INTO t VALUES (5)`));
    });
    await later;
    expect(await values()).toContain(5);
  });
});
