import { existsSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * Restoring the embedded store (docs/decisions.md "Config store backups"). A PGlite instance cannot
 * be swapped under the running server (every repository holds it), so a restore is staged: the
 * backup's tarball, already checked, is copied to `DATA_DIR/backups/restore-pending.tar.gz`, and the
 * next start loads it into `pglite.restoring`, then swaps directories: the store that ran before is
 * kept as `pglite.before-restore` (the last one only) for a manual roll-back.
 */

/** The backups' directory under DATA_DIR (the db-backups module keeps its files there). */
export const BACKUPS_DIR = 'backups';
/** The staged restore, in the backups' directory. */
export const STAGED_RESTORE = 'restore-pending.tar.gz';

/** Loads a PGlite dump into memory and answers how many migrations it holds; throws when it does not load. */
export async function checkPgliteDump(dump: Blob): Promise<number> {
  const client = await PGlite.create({ loadDataDir: dump });
  try {
    const result = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    return result.rows[0]?.n ?? 0;
  } finally {
    await client.close();
  }
}

/**
 * Applies a staged restore to the store directory `storeDir` (the caller holds its lock), and
 * finishes a swap a crash interrupted. A staged dump that does not load is removed and the store
 * left as it was (the error is thrown: the operator must hear of it).
 */
export async function applyStagedRestore(dataDir: string, storeDir: string): Promise<void> {
  const restoring = `${storeDir}.restoring`;
  const before = `${storeDir}.before-restore`;
  // A crash between the two renames below: the loaded copy is complete (it was renamed only after loading).
  if (!existsSync(storeDir) && existsSync(path.join(restoring, 'PG_VERSION'))) {
    await rename(restoring, storeDir);
  }
  const staged = path.join(dataDir, BACKUPS_DIR, STAGED_RESTORE);
  if (!existsSync(staged)) return;
  await rm(restoring, { recursive: true, force: true });
  try {
    const client = await PGlite.create({ dataDir: restoring, loadDataDir: new Blob([await readFile(staged)]) });
    await client.query('SELECT count(*) FROM drizzle.__drizzle_migrations');
    await client.close();
  } catch (error) {
    await rm(restoring, { recursive: true, force: true });
    await rm(staged, { force: true });
    throw new Error(`the staged restore could not be loaded; the store is left as it was: ${String(error)}`);
  }
  await rm(before, { recursive: true, force: true });
  if (existsSync(storeDir)) await rename(storeDir, before);
  await rename(restoring, storeDir);
  await rm(staged, { force: true });
}
