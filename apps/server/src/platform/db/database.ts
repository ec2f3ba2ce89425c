import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { findMigrationsFolder } from '@rampart/contract/migrations-folder';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type BroadcastTransport, CHANGES_CHANNEL } from './change-broadcast.js';
import { withParsersOnce } from './pglite-parsers.js';
import { withPreparedStatements } from './pglite-prepared.js';
import { applyStagedRestore } from './pglite-restore.js';
import * as schema from './schema.js';
import { lockStore } from './store-lock.js';

export type Schema = typeof schema;
/**
 * The one database type the rest of the server sees. Both drivers produce a PgDatabase; the
 * differences (int8 as string on pg, one connection on PGlite) are handled here and in the
 * repositories' column modes, never in services.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DriverName = 'pglite' | 'postgres';

export interface Database {
  readonly db: Db;
  readonly driver: DriverName;
  /** Applies pending migrations (idempotent; serialised across processes on PostgreSQL). */
  migrate(): Promise<void>;
  /** A trivial round trip, for health checks. */
  ping(): Promise<boolean>;
  /**
   * PostgreSQL only: how this process wakes the other control planes on the same database and
   * hears from them (change-broadcast.ts). Absent on PGlite, which only one process opens.
   */
  readonly broadcast?: BroadcastTransport;
  /** How the store is reached for a backup (modules/db-backups): PostgreSQL's URL, PGlite's instance. */
  readonly source:
    | { readonly kind: 'postgres'; readonly url: string }
    | { readonly kind: 'pglite'; readonly client: PGlite };
  close(): Promise<void>;
}

/** Locates ./drizzle beside the package whether running from src/ (tsx, tests) or dist/ (bundle). */
export function migrationsFolder(here = import.meta.dirname): string {
  const folder = findMigrationsFolder(here);
  if (!folder) throw new Error(`migrations folder not found above ${here}`);
  return folder;
}

// pg returns int8 (count(*), bigint columns) as strings by default; numbers within 2^53 are what
// PGlite gives, so both drivers agree. Values beyond 2^53 are not stored in int8 columns here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} exceeds the safe integer range`);
  return n;
});

/** Advisory lock key for migrations: several control planes may start at once on one PostgreSQL. */
const MIGRATION_LOCK = 7_302_411;

/**
 * Makes a connection run the queries given to it one after another, each sent when the one before
 * it finished. A transaction holds one connection, and code inside it may start several queries at
 * once (`Promise.all` over repository calls); pg 8 queues them itself but deprecates doing so (pg 9
 * will refuse), so every connection of the pool queues them here instead: the same order, the same
 * results, nothing for the callers to remember. Calls with a callback or a submittable (a cursor)
 * go straight through: pg's pool uses those on an idle connection only.
 */
export function serialiseQueries(client: pg.ClientBase): void {
  // The class's query, looked up at each call (not bound once here): what wraps pg's query for a
  // while (the tests' statement listing, test/helpers/queries.ts) sees this connection's too.
  const proto = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
  const query = (...args: unknown[]) => proto.query.apply(client, args);
  let tail: Promise<unknown> = Promise.resolve();
  client.query = ((...args: unknown[]) => {
    const first = args[0] as { submit?: unknown } | undefined;
    if (typeof args[args.length - 1] === 'function' || typeof first?.submit === 'function') return query(...args);
    const run = tail.then(() => query(...args));
    tail = run.catch(() => {});
    return run;
  }) as typeof client.query;
}

export function openPostgres(url: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: 5_000 });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  pool.on('connect', serialiseQueries);
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        try {
          await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: migrationsFolder() });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
        }
      } finally {
        client.release();
      }
    },
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    broadcast: {
      async notify(payload) {
        await pool.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]);
      },
      listener: () => new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true }),
    },
    source: { kind: 'postgres', url },
    close: () => pool.end(),
  };
}

/**
 * The server's PGlite session plans each statement for its values (pglite-prepared.ts), and that
 * setting reaches the PL/pgSQL trigger functions too: a row trigger (the audit's) would plan its
 * statements again for every row. Each trigger function keeps PostgreSQL's default for what it
 * runs, itself and the functions it calls.
 */
const TRIGGER_PLANS = `DO $$
DECLARE f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
    WHERE p.pronamespace = 'public'::regnamespace AND p.prorettype = 'trigger'::regtype
      AND NOT coalesce('plan_cache_mode=auto' = ANY (p.proconfig), false)
  LOOP
    EXECUTE format('ALTER FUNCTION %s SET plan_cache_mode = auto', f);
  END LOOP;
END $$`;

export function openPglite(client: PGlite): Database {
  const db = drizzlePglite({ client: withParsersOnce(withPreparedStatements(client)), schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() });
      // After every start's migrations (a function made again loses it): see TRIGGER_PLANS.
      await client.exec(TRIGGER_PLANS);
    },
    async ping() {
      try {
        await client.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    source: { kind: 'pglite', client },
    close: () => client.close(),
  };
}

/**
 * PostgreSQL when a URL is given, otherwise PGlite with its data in `dataDir/pglite`, locked for
 * this process (StoreLockedError when another one holds it; see store-lock.ts). `onLockLost` runs
 * if the lock is lost while open: the caller must stop.
 */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  onLockLost?: (error: Error) => void;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const dir = path.join(options.dataDir, 'pglite');
  const lock = await lockStore(dir, 'embedded database', options.onLockLost);
  try {
    // A restore staged by the backups page is applied before the store opens (pglite-restore.ts).
    await applyStagedRestore(options.dataDir, dir);
    const database = openPglite(await PGlite.create({ dataDir: dir }));
    return {
      ...database,
      async close() {
        try {
          await database.close();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
