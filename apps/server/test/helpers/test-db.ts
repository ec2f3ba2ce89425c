import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../../src/platform/db/database.js';

export const TEST_DB_KIND = process.env.RAMPART_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface TestDatabase {
  readonly database: Database;
  /** Connection string of this copy (PostgreSQL only), for tests that start a process on it. */
  readonly url: string | null;
  /** Closes the connection and removes the copy. */
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  return url.replace(/\/[^/]*$/, `/${name}`);
}

/** A fresh, migrated database for one test file: a copy of the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DB_KIND === 'postgres') {
    const adminUrl = inject('pgAdminUrl');
    const name = `rampart_t_${randomBytes(6).toString('hex')}`;
    const admin = openPostgres(adminUrl, { max: 1 });
    await admin.db.execute(`CREATE DATABASE ${name} TEMPLATE rampart_template`);
    await admin.close();
    const url = withDatabase(adminUrl, name);
    const database = openPostgres(url, { max: 5 });
    let closed = false;
    const closeOnce = async () => {
      if (!closed) {
        closed = true;
        await database.close();
      }
    };
    return {
      database: { ...database, close: closeOnce },
      url,
      async drop() {
        await closeOnce();
        const cleaner = openPostgres(adminUrl, { max: 1 });
        await cleaner.db.execute(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleaner.close();
      },
    };
  }
  const template = readFileSync(inject('pgliteTemplate'));
  const client = await PGlite.create({ loadDataDir: new Blob([template]) });
  const database = openPglite(client);
  let closed = false;
  const closeOnce = async () => {
    if (!closed) {
      closed = true;
      await database.close();
    }
  };
  return { database: { ...database, close: closeOnce }, url: null, drop: closeOnce };
}
