import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { systemSettings } from '../db/schema.js';

/** Installation-wide settings, one JSON document per key. */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  async get(key: string): Promise<unknown> {
    const rows = await this.db
      .select({ value: systemSettings.value })
      .from(systemSettings)
      .where(eq(systemSettings.key, key));
    return rows[0]?.value;
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.db
      .insert(systemSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: systemSettings.key, set: { value, updatedAt: sql`now()` } });
  }

  async delete(key: string): Promise<void> {
    await this.db.delete(systemSettings).where(eq(systemSettings.key, key));
  }

  /**
   * Serialises writers of `key` until the transaction ends (a transaction-scoped advisory lock: the
   * row may not exist yet, so a row lock would not do).
   */
  async lock(key: string): Promise<void> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
  }

  /** Stores `value` unless the key exists; returns whichever value is stored afterwards. */
  async putIfAbsent(key: string, value: unknown): Promise<unknown> {
    await this.db.insert(systemSettings).values({ key, value }).onConflictDoNothing({ target: systemSettings.key });
    return this.get(key);
  }
}
