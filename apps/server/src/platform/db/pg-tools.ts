import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import pg from 'pg';

/**
 * PostgreSQL's own client programs for backups (Debian postgresql-client): `pg_dump` to make one,
 * `psql` to restore one. pg_dump refuses a server newer than itself, so the programs are chosen by
 * the server's major version: `/usr/lib/postgresql/<major>/bin`, else the oldest installed one
 * newer than the server (pg_dump dumps older servers), else the one on PATH.
 */

const PG_LIB = '/usr/lib/postgresql';

export async function serverMajor(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const result = await client.query<{ v: string }>('SHOW server_version_num');
    return Math.floor(Number(result.rows[0]?.v ?? '0') / 10_000);
  } finally {
    await client.end();
  }
}

/** The path of `program` for a server of major version `major`. */
export function pgProgram(program: 'pg_dump' | 'psql', major: number): string {
  const versions = existsSync(PG_LIB)
    ? readdirSync(PG_LIB)
        .map(Number)
        .filter((v) => v >= major && existsSync(path.join(PG_LIB, String(v), 'bin', program)))
        .sort((a, b) => a - b)
    : [];
  const found = versions[0];
  return found === undefined ? program : path.join(PG_LIB, String(found), 'bin', program);
}

/** The URL without its password, and the password for PGPASSWORD (never on a command line that `ps` shows). */
function splitPassword(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '10' } };
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv, stdin: Readable | null, stdout: Writable | null) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: [stdin ? 'pipe' : 'ignore', stdout ? 'pipe' : 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    if (stdin && child.stdin) {
      stdin.on('error', (error) => {
        child.kill();
        reject(error);
      });
      // psql stops reading at the first error (ON_ERROR_STOP): the rest of the input is not needed.
      child.stdin.on('error', () => {});
      stdin.pipe(child.stdin);
    }
    if (stdout && child.stdout) child.stdout.pipe(stdout, { end: false });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' ? new Error(`${file} is not installed (Debian package postgresql-client)`) : error,
      ),
    );
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(file)} exited with ${code}: ${stderr.trim().slice(0, 1000)}`));
    });
  });
}

/** Writes a plain SQL dump of the database at `url` to `out` (not ended: the caller ends it). */
export async function pgDump(url: string, out: Writable): Promise<void> {
  const { url: bare, env } = splitPassword(url);
  const program = pgProgram('pg_dump', await serverMajor(url));
  await run(program, ['--format=plain', '--no-owner', '--no-privileges', `--dbname=${bare}`], env, null, out);
}

/**
 * Replaces the database's contents by a plain dump read from `input`, in one transaction: the
 * schemas `public` and `drizzle` are dropped and the dump run; at the first error psql stops and
 * the transaction rolls back, so the database is as it was.
 */
export async function psqlRestore(url: string, input: Readable): Promise<void> {
  const { url: bare, env } = splitPassword(url);
  const program = pgProgram('psql', await serverMajor(url));
  await run(
    program,
    [
      '--no-psqlrc',
      '--quiet',
      '--set=ON_ERROR_STOP=1',
      '--single-transaction',
      `--dbname=${bare}`,
      // A connection holding a lock on a table must not hold the restore forever.
      '--command=SET lock_timeout = 30000; DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public;',
      '--file=-',
    ],
    env,
    input,
    null,
  );
}
