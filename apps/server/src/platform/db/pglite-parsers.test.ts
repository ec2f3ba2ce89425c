import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIZZLE_TEXT_TYPES, withParsersOnce } from './pglite-parsers.js';

// What drizzle's PGlite driver gives with a query (its parsers) is given to PGlite once instead:
// the values must be the ones drizzle's own path answers, in and out of transactions.

let client: PGlite;
/** The options each query reached PGlite with (the instance's query, wrapped before withParsersOnce). */
const seen: (Record<string, unknown> | undefined)[] = [];

const ROW = sql`SELECT '2026-11-27 05:01:02.123456'::timestamp AS ts, '2026-11-27 05:01:02+00'::timestamptz AS tz,
  '2026-11-27'::date AS d, '1 day 02:00:00'::interval AS i, ARRAY[1.5, 2.25]::numeric[] AS nums,
  ARRAY['2026-11-27 05:01:02'::timestamp] AS tss, ARRAY['2026-11-27 05:01:02+00'::timestamptz] AS tzs,
  ARRAY['1 hour'::interval] AS ivs, ARRAY['2026-11-27'::date] AS ds, 42::int8 AS big, true AS b,
  '{"a": [1]}'::jsonb AS j, ARRAY[1, 2]::int[] AS ints`;

const t = pgTable('t', { v: integer('v') });

type Options = Record<string, unknown> | undefined;
type Query = (text: string, params?: unknown[], options?: Options) => Promise<unknown>;
const recorded =
  (query: Query): Query =>
  (text, params, options) => {
    seen.push(options);
    return query(text, params, options);
  };

beforeAll(async () => {
  client = await PGlite.create();
  await client.exec('CREATE TABLE t (v int); INSERT INTO t VALUES (1)');
  // Every query's options as they reach PGlite: the instance's, and those of its transactions.
  const target = client as unknown as { query: Query; transaction: PGlite['transaction'] };
  target.query = recorded(client.query.bind(client) as Query);
  const transaction = client.transaction.bind(client);
  target.transaction = (fn) =>
    transaction((tx) => {
      const inner = tx as unknown as { query: Query };
      inner.query = recorded(inner.query.bind(tx) as Query);
      return fn(tx);
    });
});
afterAll(async () => client.close());

describe('PGlite with drizzle parsers given once', () => {
  it("names the types drizzle's driver passes with each query (in both of its query modes)", async () => {
    const plain = drizzle(client);
    seen.length = 0;
    await plain.execute(sql`SELECT 1`);
    expect(await plain.select().from(t)).toEqual([{ v: 1 }]);
    expect(seen).toHaveLength(2);
    for (const options of seen) {
      expect(
        Object.keys(options?.parsers ?? {})
          .map(Number)
          .sort(),
      ).toEqual([...DRIZZLE_TEXT_TYPES].sort());
    }
  });

  it('answers what drizzle answers without it, and runs the queries without per-query parsers', async () => {
    const plain = drizzle(client);
    const expected = await plain.execute(ROW);
    // Before: drizzle passed its parsers with the query.
    expect(seen.at(-1)?.parsers).toBeDefined();
    const lean = drizzle({ client: withParsersOnce(client) });
    seen.length = 0;
    const got = await lean.execute(ROW);
    expect(got.rows).toEqual(expected.rows);
    expect(got.rows[0]).toMatchObject({ ts: '2026-11-27 05:01:02.123456', d: '2026-11-27', big: 42, b: true });
    expect(await lean.select().from(t)).toEqual([{ v: 1 }]);
    expect(seen).toHaveLength(2);
    for (const options of seen) expect(options).not.toHaveProperty('parsers');
    // A query in a transaction, and in a savepoint inside it, the same.
    seen.length = 0;
    const inTx = await lean.transaction(async (tx) => {
      const outer = await tx.execute(ROW);
      const inner = await tx.transaction(async (sp) => sp.execute(ROW));
      return [outer.rows, inner.rows];
    });
    expect(inTx).toEqual([expected.rows, expected.rows]);
    // BEGIN/COMMIT are PGlite's own; drizzle's three statements (the savepoint's two too) reach it without parsers.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (const options of seen) expect(options ?? {}).not.toHaveProperty('parsers');
  });

  it('keeps the same values after PGlite refreshed its array types', async () => {
    const lean = drizzle({ client: withParsersOnce(client) });
    const expected = (await drizzle(client).execute(ROW)).rows;
    await client.refreshArrayTypes();
    expect((await lean.execute(ROW)).rows).toEqual(expected);
  });

  it('passes any other set of parsers on as given', async () => {
    const lean = withParsersOnce(client);
    seen.length = 0;
    const parsers = { 23: (value: string) => `int:${value}` };
    const result = await lean.query<{ n: string }>('SELECT 7 AS n', [], { parsers });
    expect(result.rows[0]?.n).toBe('int:7');
    expect(seen[0]?.parsers).toBe(parsers);
  });
});
