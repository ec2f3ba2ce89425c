import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findMigrationsFolder } from '@rampart/contract/migrations-folder';

/**
 * A fresh control plane's data directory, made once per build of the bundle and copied for each
 * test file that starts one, rather than made again by each: a first start creates the embedded
 * database and runs every migration (29-30 s on the shared machine at a load of 20, against 10 s
 * for a start on a directory that has them), and a dozen files of the edge suite start one. The
 * copy is what a first start leaves (the root accounts with the tests' password, the migrated
 * embedded database and analytics store, the installation's secret), written by a graceful stop.
 */

const TEMPLATES = path.join(tmpdir(), 'rampart-cp-templates');
/** Written into a template once it is whole (last, before the rename that publishes it). */
const READY = '.ready';
/** A creator that has held the lock this long died: its lock is taken over. */
const STALE_LOCK_MS = 5 * 60_000;
const WAIT_MS = 180_000;

/**
 * The migrations a bundle runs: they are read at run time from the `drizzle` folder beside its
 * package (the server's migrationsFolder walks the same way), not built into it.
 */
function migrationsOf(bundle: string): string | null {
  return findMigrationsFolder(path.dirname(bundle));
}

/**
 * The template's key: the bundle's bytes, the root password it was made with, and every migration
 * file (an edited or regenerated migration keeps the bundle's bytes, and a copy migrated with the
 * old one would never run it again: the migrator compares only the journal's last entry).
 */
async function keyOf(bundle: string, password: string): Promise<string> {
  const hash = createHash('sha256')
    .update(await readFile(bundle))
    .update(password);
  const migrations = migrationsOf(bundle);
  if (migrations) {
    const files = (await readdir(migrations, { recursive: true })).filter((f) => /\.(sql|json)$/.test(f)).sort();
    for (const file of files) hash.update(`\0${file}\0`).update(await readFile(path.join(migrations, file)));
  }
  return hash.digest('hex').slice(0, 20);
}

/** Creates the template at `dir` under a lock; answers false when another process holds the lock. */
async function create(dir: string, make: (into: string) => Promise<void>): Promise<boolean> {
  const lock = `${dir}.lock`;
  const held = await open(lock, 'wx').catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
    const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age > STALE_LOCK_MS) await rm(lock, { force: true });
    return undefined;
  });
  if (!held) return false;
  try {
    if (existsSync(path.join(dir, READY))) return true;
    const building = await mkdtemp(`${dir}.building-`);
    try {
      await make(building);
      await writeFile(path.join(building, READY), '');
      // A creator that took this lock over as stale may have published one meanwhile: keep it (a
      // file may be copying it).
      if (existsSync(path.join(dir, READY))) return true;
      await rm(dir, { recursive: true, force: true });
      await rename(building, dir);
    } finally {
      await rm(building, { recursive: true, force: true });
    }
    return true;
  } finally {
    await held.close();
    await rm(lock, { force: true });
  }
}

/**
 * A new data directory holding a copy of the template for `bundle` (made by `make`, which starts
 * a control plane on the directory it is given and stops it gracefully, when there is none yet).
 * The templates live in `templates` (the helper's own test keeps its own there).
 */
export async function dataDirFromTemplate(
  bundle: string,
  password: string,
  make: (into: string) => Promise<void>,
  templates = TEMPLATES,
): Promise<string> {
  await mkdir(templates, { recursive: true });
  const dir = path.join(templates, await keyOf(bundle, password));
  const deadline = Date.now() + WAIT_MS;
  // Another worker making it meanwhile: waited for (the condition, polled), then copied.
  while (!existsSync(path.join(dir, READY))) {
    if (await create(dir, make)) break;
    if (Date.now() > deadline) throw new Error(`no control plane template at ${dir} within ${WAIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const target = await mkdtemp(path.join(tmpdir(), 'rampart-cp-'));
  await cp(dir, target, {
    recursive: true,
    // Not the marker, the store locks (taken again by the next start) or the first start's output.
    filter: (source) => !/(?:\/\.ready|\.lock|\/output\.log)$/.test(source),
  });
  return target;
}
