import { sql } from 'drizzle-orm';
import type { Database } from '../../platform/db/database.js';
import { rowsOf } from '../../platform/db/rows.js';

/** What a backup reads of the config store itself, beside its files (db-backup-files.ts). */
export class DbBackupsRepository {
  constructor(private readonly database: Database) {}

  /** How many migrations the store has had applied (drizzle's journal table). */
  async appliedMigrations(): Promise<number> {
    const source = this.database.source;
    const query = 'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations';
    if (source.kind === 'pglite') return (await source.client.query<{ n: number }>(query)).rows[0]?.n ?? 0;
    const rows = rowsOf<{ n: number }>(await this.database.db.execute(sql.raw(query)));
    return rows[0]?.n ?? 0;
  }
}
