import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './clickhouse-server.js';

function pgBinDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(base, v, 'bin', 'initdb'))) return path.join(base, v, 'bin');
  throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: run `npm test` (it installs them)');
}

/** initdb refuses to run as root: run the cluster as the `postgres` system user then. */
function asClusterOwner(cmd: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
}

/**
 * A throw-away PostgreSQL cluster on a loopback port (fsync and synchronous commit off: for tests
 * and benchmarks only), owned by the `postgres` user when run as root. `dataDir` holds
 * `postmaster.pid`.
 */
export async function startCluster(): Promise<{ url: string; dataDir: string; stop: () => void }> {
  const bin = pgBinDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'rampart-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, 'rampart\n', { mode: 0o644 });
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', pwfile]);
  asClusterOwner(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'rampart',
    '--pwfile',
    pwfile,
    '-A',
    'scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  asClusterOwner(path.join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://rampart:rampart@127.0.0.1:${port}/postgres`,
    dataDir: data,
    stop: () => {
      try {
        asClusterOwner(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
