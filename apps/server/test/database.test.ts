import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemSettings } from '../src/platform/db/schema.js';
import { SettingsRepository } from '../src/platform/settings/settings.repository.js';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from './helpers/test-db.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

describe(`config store on ${TEST_DB_KIND}`, () => {
  it('applies migrations again without change', async () => {
    await t.database.migrate();
    const rows = await t.database.db.execute(
      sql`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'system_settings'`,
    );
    expect((rows as unknown as { rows: { n: unknown }[] }).rows[0]?.n).toBe(1);
  });

  it('returns int8 aggregates as numbers on both drivers', async () => {
    const repo = new SettingsRepository(t.database.db);
    await repo.put('a', 1);
    await repo.put('b', { x: [1, 2] });
    const [row] = await t.database.db.select({ n: count() }).from(systemSettings);
    const raw = (await t.database.db.execute(sql`SELECT count(*)::int8 AS n FROM system_settings`)) as unknown as {
      rows: { n: unknown }[];
    };
    expect(typeof raw.rows[0]?.n).toBe('number');
    expect(row?.n).toBeGreaterThanOrEqual(2);
  });

  it('round-trips JSON documents and timestamps', async () => {
    const repo = new SettingsRepository(t.database.db);
    const value = { nested: { list: [1, 'two', null], flag: true }, text: '中文 ✓' };
    await repo.put('doc', value);
    expect(await repo.get('doc')).toEqual(value);
    const [row] = await t.database.db
      .select({ at: systemSettings.updatedAt })
      .from(systemSettings)
      .where(sql`key = 'doc'`);
    expect(row?.at).toBeInstanceOf(Date);
    expect(Math.abs((row?.at.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('rolls back every write of a failed transaction', async () => {
    const before = await new SettingsRepository(t.database.db).get('tx');
    await expect(
      t.database.db.transaction(async (tx) => {
        await new SettingsRepository(tx).put('tx', 'written');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(before).toBeUndefined();
    expect(await new SettingsRepository(t.database.db).get('tx')).toBeUndefined();
  });

  it('keeps the first value with putIfAbsent', async () => {
    const repo = new SettingsRepository(t.database.db);
    expect(await repo.putIfAbsent('once', 'first')).toBe('first');
    expect(await repo.putIfAbsent('once', 'second')).toBe('first');
  });
});
