import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Every SQL text run on the test's database while `fn` runs (either driver). */
async function queriesDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const record = (text: unknown) => {
    const q = typeof text === 'string' ? text : (text as { text?: string } | null)?.text;
    if (typeof q === 'string') seen.push(q);
  };
  const source = t.db.database.source;
  if (source.kind === 'pglite') {
    const client = source.client as unknown as Record<string, (...args: unknown[]) => unknown>;
    const query = client.query;
    const exec = client.exec;
    client.query = function (this: unknown, text: unknown, ...rest: unknown[]) {
      record(text);
      return query?.call(this, text, ...rest);
    };
    client.exec = function (this: unknown, text: unknown, ...rest: unknown[]) {
      record(text);
      return exec?.call(this, text, ...rest);
    };
    try {
      await fn();
    } finally {
      client.query = query as never;
      client.exec = exec as never;
    }
    return seen;
  }
  // The pool answers most queries itself, a checked-out client the rest (transactions).
  const query = pg.Client.prototype.query;
  const poolQuery = pg.Pool.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, text: unknown, ...rest: unknown[]) {
    record(text);
    return (query as (...args: unknown[]) => unknown).call(this, text, ...rest);
  } as never;
  pg.Pool.prototype.query = function (this: pg.Pool, text: unknown, ...rest: unknown[]) {
    record(text);
    return (poolQuery as (...args: unknown[]) => unknown).call(this, text, ...rest);
  } as never;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = query;
    pg.Pool.prototype.query = poolQuery;
  }
  return seen;
}

describe('data-plane triggers', () => {
  it('has a data-plane trigger on every table the snapshot builder reads, but the listed zone-level ones', async () => {
    const f = await siteFixture(t);
    await f.addDomains(['www.cover.example']);
    const texts = await queriesDuring(() => f.snapshot());
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
