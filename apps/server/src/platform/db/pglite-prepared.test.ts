import { PGlite, protocol } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPglite } from './database.js';
import { withParsersOnce } from './pglite-parsers.js';
import { withPreparedStatements } from './pglite-prepared.js';

// A data statement is prepared once and run again in one exchange with PGlite; the answers, the
// errors and the transactions must be those of PGlite's own query.

let pg: PGlite;
/** Exchanges with PGlite's PostgreSQL, and the texts that went to PGlite's own query. */
let exchanges = 0;
const ownQueries: string[] = [];

beforeAll(async () => {
  pg = await PGlite.create();
  await pg.exec(`CREATE TABLE items (id serial PRIMARY KEY, name text UNIQUE NOT NULL, tags text[], nums int[],
    doc jsonb, ok boolean, price numeric, raw bytea, at timestamptz, v int)`);
  const stream = pg.execProtocolStream.bind(pg);
  pg.execProtocolStream = (message, options) => {
    exchanges++;
    return stream(message, options);
  };
  const query = pg.query.bind(pg);
  pg.query = ((text: string, params?: unknown[], options?: Record<string, unknown>) => {
    ownQueries.push(text);
    return query(text, params, options);
  }) as PGlite['query'];
});
afterAll(async () => pg.close());
beforeEach(async () => {
  await pg.exec('TRUNCATE items RESTART IDENTITY; DEALLOCATE ALL');
  exchanges = 0;
  ownQueries.length = 0;
});

const INSERT = `INSERT INTO items (name, tags, nums, doc, ok, price, raw, at, v)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`;
const row = (name: string): unknown[] => [
  name,
  ['a', 'b,c', 'd"e'],
  [1, 2, 3],
  { k: [1, { n: null }], s: "it's" },
  true,
  '12.50',
  new Uint8Array([0, 1, 255]),
  new Date('2026-11-27T05:01:02.345Z'),
  null,
];

/** PostgreSQL's named statements of this session that the client prepared. */
async function prepared(): Promise<string[]> {
  const result = await pg.query<{ statement: string }>(
    "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'rampart\\_%' ORDER BY substr(name, 9)::int",
  );
  ownQueries.pop(); // the test's own
  return result.rows.map((r) => r.statement);
}

describe('PGlite with prepared statements', () => {
  it("answers what PGlite's own query answers, the first time and when run again", async () => {
    const client = withPreparedStatements(pg);
    const own = await pg.query(INSERT, row('own'));
    const first = await client.query(INSERT, row('first'));
    const again = await client.query(INSERT, row('again'));
    expect(first.fields).toEqual(own.fields);
    expect(again.fields).toEqual(own.fields);
    const strip = (r: Record<string, unknown>) => ({ ...r, id: 0, name: '' });
    expect(strip(first.rows[0] as Record<string, unknown>)).toEqual(strip(own.rows[0] as Record<string, unknown>));
    expect(strip(again.rows[0] as Record<string, unknown>)).toEqual(strip(own.rows[0] as Record<string, unknown>));
    expect(again.rows[0]).toMatchObject({ tags: ['a', 'b,c', 'd"e'], nums: [1, 2, 3], ok: true, v: null });

    const select = 'SELECT * FROM items WHERE name = ANY($1) AND ok = $2 ORDER BY id';
    for (const rowMode of ['object', 'array'] as const) {
      const expected = await pg.query(select, [['own', 'again'], true], { rowMode });
      expect(await client.query(select, [['own', 'again'], true], { rowMode })).toEqual(expected);
      expect(await client.query(select, [['own', 'again'], true], { rowMode })).toEqual(expected);
    }
    // Statements without rows answer their counts.
    const update = 'UPDATE items SET v = $1 WHERE ok = $2';
    expect(await client.query(update, [7, true])).toEqual(await pg.query(update, [7, true]));
    expect((await client.query(update, [8, true])).affectedRows).toBe(3);
    expect((await client.query('DELETE FROM items WHERE name = $1', ['own'])).affectedRows).toBe(1);
    expect((await client.query('DELETE FROM items WHERE name = $1', ['own'])).affectedRows).toBe(0);
  });

  it('runs a statement it prepared again in one exchange with PostgreSQL', async () => {
    const client = withPreparedStatements(pg);
    const text = 'SELECT id, name FROM items WHERE id = $1';
    await client.query('SELECT 1 AS one WHERE $1', [true]); // the client's first sets the session's plans
    exchanges = 0;
    await client.query(text, [1]);
    expect(exchanges).toBe(2); // prepared and described, then run
    exchanges = 0;
    for (let id = 1; id <= 5; id++) await client.query(text, [id]);
    expect(exchanges).toBe(5);
    expect((await prepared()).at(-1)).toBe(text);
    // PGlite's own query: six exchanges a query.
    exchanges = 0;
    await pg.query(text, [1]);
    expect(exchanges).toBe(6);
  });

  it('sends other statements to PGlite as they are, and keeps at most the statements it is given', async () => {
    const client = withPreparedStatements(pg, { maxStatements: 3, maxParams: 2, maxText: 200 });
    await client.query('SET statement_timeout = 0');
    await client.query('CREATE TEMP TABLE scratch (n int)');
    await client.query('SELECT $1::int + $2::int + $3::int AS n', [1, 2, 3]); // more parameters than kept
    await client.query(`SELECT '${'x'.repeat(200)}' AS long`); // a longer text than kept
    expect(ownQueries).toHaveLength(4);
    expect(await prepared()).toEqual([]);

    for (let n = 1; n <= 10; n++) {
      expect((await client.query<{ n: number }>(`SELECT $1::int + ${n} AS n`, [1])).rows[0]?.n).toBe(n + 1);
    }
    expect(ownQueries).toHaveLength(4);
    // The least recently used were closed.
    expect(await prepared()).toEqual([
      'SELECT $1::int + 8 AS n',
      'SELECT $1::int + 9 AS n',
      'SELECT $1::int + 10 AS n',
    ]);
    // A statement used again is kept over older ones.
    await client.query('SELECT $1::int + 8 AS n', [1]);
    await client.query('SELECT $1::int + 11 AS n', [1]);
    expect(await prepared()).toEqual([
      'SELECT $1::int + 8 AS n',
      'SELECT $1::int + 10 AS n',
      'SELECT $1::int + 11 AS n',
    ]);
  });

  it("gives PostgreSQL's errors as PGlite does, and goes on after them", async () => {
    const client = withPreparedStatements(pg);
    await client.query(INSERT, row('one'));
    const error = await client.query(INSERT, row('one')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(protocol.messages.DatabaseError);
    expect(error).toMatchObject({ code: '23505', constraint: 'items_name_key', query: INSERT });
    expect((error as { params: unknown[] }).params[0]).toBe('one');
    // A bad parameter fails at binding, a bad text at preparing: neither leaves anything behind.
    await expect(client.query('SELECT id FROM items WHERE id = $1', ['not a number'])).rejects.toMatchObject({
      code: '22P02',
    });
    await expect(client.query('SELECT nope FROM items WHERE id = $1', [1])).rejects.toMatchObject({ code: '42703' });
    expect((await client.query('SELECT count(*)::int AS n FROM items WHERE id = $1', [1])).rows).toEqual([{ n: 1 }]);
    expect((await client.query('SELECT id FROM items WHERE id = $1', ['1'])).rows).toEqual([{ id: 1 }]);
  });

  it("runs a transaction's statements in it, and a statement outside waits for the transaction", async () => {
    const client = withPreparedStatements(pg);
    const count = 'SELECT count(*)::int AS n FROM items WHERE v = $1';
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inside = -1;
    const tx = client.transaction(async (t) => {
      await t.query(INSERT, row('in tx').with(8, 5));
      inside = ((await t.query<{ n: number }>(count, [5])).rows[0] as { n: number }).n;
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = client.query<{ n: number }>(count, [5]);
    let answered = false;
    void outside.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    await tx;
    expect(inside).toBe(1);
    expect((await outside).rows).toEqual([{ n: 1 }]);

    // An error rolls the transaction back; the client goes on.
    const failed = client.transaction(async (t) => {
      await t.query(INSERT, row('rolled back').with(8, 6));
      await t.query(INSERT, row('in tx'));
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect((await client.query<{ n: number }>(count, [6])).rows).toEqual([{ n: 0 }]);
    // A statement after the transaction closed is refused, as PGlite's own transaction does.
    let closed: { query: (text: string, params: unknown[]) => Promise<unknown> } | undefined;
    await client.transaction(async (t) => {
      closed = t;
    });
    await expect(closed?.query(count, [1])).rejects.toThrow('Transaction is closed');
  });

  it('prepares a statement again when a change of a column changed its result, or the session lost it', async () => {
    const client = withPreparedStatements(pg);
    await pg.exec('CREATE TABLE changing (id int PRIMARY KEY, v int); INSERT INTO changing VALUES (1, 5)');
    const text = 'SELECT * FROM changing WHERE id = $1';
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, v: 5 }]);
    await pg.exec("ALTER TABLE changing ALTER COLUMN v TYPE text USING 'five'");
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, v: 'five' }]);
    // The session's statements deallocated under the client: prepared again too.
    await pg.exec('DEALLOCATE ALL');
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, v: 'five' }]);
    expect(await prepared()).toEqual([text]);
  });

  it('plans each run for its values, as PGlite planned its unnamed statements', async () => {
    const client = withPreparedStatements(pg);
    // 20,000 rows of state 1, ten of state 2: after runs for the common value, PostgreSQL's
    // default would keep a generic plan (its cost is the runs' average) for the rare one too.
    await pg.exec(`CREATE TABLE log (version int PRIMARY KEY, state int, body text);
      INSERT INTO log SELECT g, CASE WHEN g % 2000 = 0 THEN 2 ELSE 1 END, 'x' FROM generate_series(1, 20000) g;
      CREATE INDEX log_state ON log (state); ANALYZE log`);
    // A transaction's statements are PGlite's own until the session has been set outside one.
    await client.transaction(async (tx) => tx.query('SELECT count(*) FROM log WHERE state = $1', [1]));
    expect(await prepared()).toEqual([]);
    const text = 'SELECT count(*)::int AS n FROM log WHERE state = $1';
    for (let i = 0; i < 10; i++) expect((await client.query(text, [1])).rows).toEqual([{ n: 19_990 }]);
    expect((await client.query(text, [2])).rows).toEqual([{ n: 10 }]);
    // A generic plan shows $1 where a plan for the run's value shows the value.
    const [name] = (
      await pg.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement = $1', [text])
    ).rows.map((r) => r.name);
    const plan = await pg.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE ${name}(2)`);
    ownQueries.length = 0;
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/state = 2\b/);
    expect(
      (
        await client.query<{ plan_cache_mode: string }>('SELECT current_setting($1) AS plan_cache_mode', [
          'plan_cache_mode',
        ])
      ).rows,
    ).toEqual([{ plan_cache_mode: 'force_custom_plan' }]);
  });

  it("answers drizzle's queries as drizzle over PGlite's own query does", async () => {
    const items = pgTable('items', {
      id: integer('id').primaryKey(),
      name: text('name').notNull(),
      doc: jsonb('doc'),
      ok: boolean('ok'),
      at: timestamp('at', { withTimezone: true, mode: 'date' }),
      v: integer('v'),
    });
    const plain = drizzle(pg);
    const fast = drizzle({ client: withParsersOnce(withPreparedStatements(pg)) });
    const at = new Date('2026-11-27T05:01:02.345Z');
    await fast.insert(items).values({ id: 1, name: 'one', doc: { a: [1] }, ok: true, at, v: 1 });
    await fast.insert(items).values({ id: 2, name: 'two', doc: null, ok: false, at, v: 2 });
    for (let i = 0; i < 3; i++) {
      expect(await fast.select().from(items).where(eq(items.ok, true))).toEqual(
        await plain.select().from(items).where(eq(items.ok, true)),
      );
    }
    expect((await fast.select().from(items).where(eq(items.id, 1)))[0]).toMatchObject({ doc: { a: [1] }, at });
    const inTx = await fast.transaction(async (tx) => {
      await tx
        .update(items)
        .set({ v: sql`${items.v} + 10` })
        .where(eq(items.id, 2));
      const inner = await tx.transaction(async (sp) => sp.select({ v: items.v }).from(items).where(eq(items.id, 2)));
      return inner;
    });
    expect(inTx).toEqual([{ v: 12 }]);
    expect(await plain.select({ v: items.v }).from(items).where(eq(items.id, 2))).toEqual([{ v: 12 }]);
  });

  it("leaves the trigger functions PostgreSQL's default plans, after every start's migrations", async () => {
    const fresh = await PGlite.create();
    try {
      const database = openPglite(fresh);
      await database.migrate();
      const triggers = async () =>
        (
          await fresh.query<{ name: string; config: string[] | null }>(`SELECT p.proname AS name, p.proconfig AS config
            FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND p.prorettype = 'trigger'::regtype ORDER BY 1`)
        ).rows;
      const found = await triggers();
      expect(found.map((f) => f.name)).toContain('audit_row_change');
      for (const f of found) expect(f.config, f.name).toEqual(['plan_cache_mode=auto']);
      // A function made again (a later migration's CREATE OR REPLACE) gets it at the next start.
      await fresh.exec(`ALTER FUNCTION audit_row_change() RESET ALL`);
      await database.migrate();
      for (const f of await triggers()) expect(f.config, f.name).toEqual(['plan_cache_mode=auto']);
      // The server's statements are planned for their values meanwhile.
      const mode = await database.db.execute(sql`SELECT current_setting('plan_cache_mode') AS mode`);
      expect((mode as unknown as { rows: unknown[] }).rows).toEqual([{ mode: 'force_custom_plan' }]);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
