import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { TEST_DB_KIND } from './helpers/test-db.js';

// PGlite runs PostgreSQL as a single-user backend: no autovacuum worker, so nothing was ever vacuumed
// or analysed there (platform/db/embedded-vacuum.ts).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t.close());

it.runIf(TEST_DB_KIND === 'postgres')('is not run on PostgreSQL, which runs its own autovacuum', () => {
  expect(t.app.rampart.embeddedVacuum).toBeNull();
});

describe.runIf(TEST_DB_KIND === 'pglite')('the embedded database vacuum', () => {
  const client = () => {
    const source = t.db.database.source;
    if (source.kind !== 'pglite') throw new Error('not on PGlite');
    return source.client as PGlite;
  };
  const tableStats = async (table: string) => {
    const { rows } = await client().query<{ dead: number; tuples: number }>(
      `SELECT s.n_dead_tup::int AS dead, c.reltuples::float8 AS tuples
         FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = $1`,
      [table],
    );
    const [row] = rows;
    if (!row) throw new Error(`no table ${table}`);
    return row;
  };
  const neverAnalysed = async () =>
    (
      await client().query<{ name: string }>(
        `SELECT s.relname AS name FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE c.reltuples < 0`,
      )
    ).rows.map((r) => r.name);
  /** A backend flushes its table counters at most once a second: waits until `ok` holds (bounded). */
  const settled = async (ok: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await ok()).toBe(true);
  };
  const DOMAINS = 400;
  let f: Awaited<ReturnType<typeof siteFixture>>;

  it('vacuums the tables with dead rows, analyses every table, and leaves the rest alone', async () => {
    const vacuum = t.app.rampart.embeddedVacuum;
    expect(vacuum).not.toBeNull();
    if (!vacuum) return;
    // Each domain added marks itself dirty (a row of dp_dirty_domains), and each later write of the
    // same call (its upstreams) marks it again: an update, which leaves the row before dead.
    f = await siteFixture(t);
    await f.addDomains(Array.from({ length: DOMAINS }, (_, i) => `d${i}.vacuum.example`));
    await settled(async () => (await tableStats('dp_dirty_domains')).dead >= DOMAINS);
    // Nothing ever analysed the tables: the planner has no statistics for them.
    expect(await neverAnalysed()).toContain('domains');

    const did = await vacuum.pass();
    expect(did).toContainEqual(expect.objectContaining({ table: 'public.dp_dirty_domains', action: 'vacuum' }));
    expect(did).toContainEqual(expect.objectContaining({ table: 'public.domains' }));
    expect(await neverAnalysed()).toEqual([]);
    expect((await tableStats('domains')).tuples).toBeGreaterThanOrEqual(DOMAINS);
    await settled(async () => (await tableStats('dp_dirty_domains')).dead === 0);
    // The pass was told (the server logs it).
    expect(t.logs.some((l) => l.msg === 'embedded database vacuumed')).toBe(true);

    // Nothing changed since: nothing is due (a pass is not a vacuum of every table every minute).
    expect(await vacuum.pass()).toEqual([]);
  });

  it('runs by itself once started, and stops', async () => {
    const vacuum = t.app.rampart.embeddedVacuum;
    if (!vacuum) throw new Error('no vacuum on PGlite');
    await f.addDomains(Array.from({ length: DOMAINS }, (_, i) => `e${i}.vacuum.example`));
    await settled(async () => (await tableStats('dp_dirty_domains')).dead >= DOMAINS);
    const before = t.logs.filter((l) => l.msg === 'embedded database vacuumed').length;
    vacuum.start(50);
    try {
      await settled(async () => (await tableStats('dp_dirty_domains')).dead === 0);
      expect(t.logs.filter((l) => l.msg === 'embedded database vacuumed').length).toBeGreaterThan(before);
    } finally {
      await vacuum.stop();
    }
  });
});
