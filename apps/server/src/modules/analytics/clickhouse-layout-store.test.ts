import { describe, expect, it } from 'vitest';
import { shardingKey, shardStatements } from './clickhouse-layout-store.js';
import { DDL, EVENTS_DDL, RETIRED } from './clickhouse-schema-store.js';

const CLUSTER = { name: 'c1', database: 'rampart' };

describe('the ClickHouse cluster layout of the store’s statements', () => {
  it('makes every table a local one with its engine and a Distributed one over it, keyed by site where it has one', () => {
    const tables = [EVENTS_DDL, ...DDL].filter((sql) => sql.startsWith('CREATE TABLE'));
    expect(tables.length).toBeGreaterThan(10);
    for (const sql of tables) {
      const name = /^CREATE TABLE IF NOT EXISTS (\w+) /.exec(sql)?.[1] as string;
      const [local, distributed, ...more] = shardStatements(sql, CLUSTER);
      expect(more).toEqual([]);
      expect(local).toBe(sql.replace(`EXISTS ${name} (`, `EXISTS ${name}_local (`));
      const key = /[(,] ?site_id /.test(sql) ? 'site_id' : 'batch_key';
      expect(distributed).toBe(
        `CREATE TABLE IF NOT EXISTS ${name} AS ${name}_local ENGINE = Distributed(c1, rampart, ${name}_local, ${key})`,
      );
    }
    expect(shardStatements(EVENTS_DDL, CLUSTER)[1]).toContain('events_local, site_id)');
    expect(shardStatements(DDL.find((s) => s.includes(' batches (')) as string, CLUSTER)[1]).toContain(
      'batches_local, batch_key)',
    );
  });

  it('makes every view read the shard’s local table and write into its local target', () => {
    const views = DDL.filter((sql) => sql.startsWith('CREATE MATERIALIZED VIEW'));
    expect(views.length).toBeGreaterThan(10);
    for (const sql of views) {
      const [view, ...more] = shardStatements(sql, CLUSTER);
      expect(more).toEqual([]);
      const [, target] = / TO (\w+) AS /.exec(sql) as unknown as [string, string];
      const [, source] = / FROM (\w+)/.exec(sql) as unknown as [string, string];
      expect(view).toContain(` TO ${target}_local AS `);
      expect(view).toContain(` FROM ${source}_local`);
      expect(view?.replace(`${target}_local`, target).replace(`${source}_local`, source)).toBe(sql);
    }
  });

  it('changes a column on both tables, other changes and merges on the local one, drops both', () => {
    expect(shardStatements('ALTER TABLE events ADD COLUMN x Int8 DEFAULT 0', CLUSTER)).toEqual([
      'ALTER TABLE events_local ADD COLUMN x Int8 DEFAULT 0',
      'ALTER TABLE events ADD COLUMN x Int8 DEFAULT 0',
    ]);
    expect(shardStatements('ALTER TABLE events DELETE WHERE ts < 5', CLUSTER)).toEqual([
      'ALTER TABLE events_local DELETE WHERE ts < 5',
    ]);
    for (const table of RETIRED)
      expect(shardStatements(`DROP TABLE IF EXISTS ${table}`, CLUSTER)).toEqual([
        `DROP TABLE IF EXISTS ${table}`,
        `DROP TABLE IF EXISTS ${table}_local`,
      ]);
  });

  it('refuses what it has no layout for, and names that are not identifiers', () => {
    expect(() => shardStatements('INSERT INTO rollup_1d SELECT 1', CLUSTER)).toThrow(/no cluster layout/);
    expect(() => shardStatements(EVENTS_DDL, { name: 'c1; DROP', database: 'rampart' })).toThrow();
    expect(shardingKey('minute Int64, value String')).toBe('rand()');
  });
});
