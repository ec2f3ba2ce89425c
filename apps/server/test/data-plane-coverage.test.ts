import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queriesDuring } from './helpers/queries.js';
import { siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('data-plane triggers', () => {
  it('has a data-plane trigger on every table the snapshot builder reads, but the listed zone-level ones', async () => {
    const f = await siteFixture(t);
    await f.addDomains(['www.cover.example']);
    const texts = await queriesDuring(t, () => f.snapshot());
    const read = new Set<string>();
    for (const text of texts) {
      for (const m of text.matchAll(/\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi)) read.add((m[1] ?? '').toLowerCase());
    }
    const tables = (
      (await t.db.database.db.execute(sql`
        SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r'`)) as unknown as { rows: { name: string }[] }
    ).rows.map((r) => r.name);
    const covered = new Set(
      (
        (await t.db.database.db.execute(sql`
          SELECT c.relname AS name FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
          WHERE g.tgname IN ('dp_dirty_site_ins', 'dp_dirty_site_upd', 'dp_dirty_site_del', 'dp_dirty_membership')
          GROUP BY c.relname
          -- A site table needs its three (insert, update, delete); a membership table its one.
          HAVING count(*) FILTER (WHERE g.tgname LIKE 'dp_dirty_site%') = 3 OR bool_or(g.tgname = 'dp_dirty_membership')`)) as unknown as {
          rows: { name: string }[];
        }
      ).rows.map((r) => r.name),
    );
    const uncovered = [...read].filter((name) => tables.includes(name) && !covered.has(name)).sort();
    // A table the builder starts reading gets a trigger in its migration, or joins this list with a reason.
    expect(uncovered).toEqual(
      [
        // The node's own row and its zone decide which plane it polls and the plane's meta, read at every poll.
        'nodes',
        // The operator's settings (pages, nginx, exporter) travel in the plane's meta, read at every answer.
        'system_settings',
        // Layer 4 and the zone's listen ports: the snapshot route's part, rebuilt per node.
        'site_ports',
        'zone_ports',
        'zones',
      ].sort(),
    );
    // The tables whose reads depend on data the fixture has none of are covered too.
    for (const name of [
      'certificates',
      'site_modules',
      'site_module_rules',
      'site_auth_credentials',
      'site_auth_groups',
    ]) {
      expect(covered.has(name)).toBe(true);
    }
  });
});
