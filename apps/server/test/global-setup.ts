import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/platform/db/database.js';
import { freePort, startClickHouse } from './helpers/clickhouse-server.js';

/**
 * Prepares a migrated template database once per run; each test file then gets its own copy
 * (tests/helpers/test-db.ts). PostgreSQL: a throw-away cluster started here on a loopback port
 * (or the server in RAMPART_TEST_PG_URL), template database `rampart_template`. PGlite: a dump
 * of a migrated data directory, loaded into an in-memory instance per test file.
 *
 * The analytics store pairs with the project: the PGlite project runs it on DuckDB in memory, the
 * PostgreSQL project on ClickHouse — a throw-away server started here on loopback ports (or the
 * server in RAMPART_TEST_CLICKHOUSE_URL), a database per store (tests/helpers/test-analytics.ts).
 */

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgliteTemplate: string;
    /** `http://user:password@host:port/` of the ClickHouse server (PostgreSQL project), else "". */
    clickhouseUrl: string;
  }
}

const TEMPLATE_DB = 'rampart_template';

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

async function startCluster(): Promise<{ url: string; stop: () => void }> {
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
    stop: () => {
      try {
        asClusterOwner(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.config.env?.RAMPART_TEST_DB ?? 'pglite';
  const cleanups: (() => void | Promise<void>)[] = [];

  if (kind === 'postgres') {
    let adminUrl = process.env.RAMPART_TEST_PG_URL;
    if (!adminUrl) {
      const cluster = await startCluster();
      adminUrl = cluster.url;
      cleanups.push(cluster.stop);
    }
    const admin = openPostgres(adminUrl, { max: 1 });
    await admin.db.execute(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
    await admin.db.execute(`CREATE DATABASE ${TEMPLATE_DB}`);
    await admin.close();
    const template = openPostgres(adminUrl.replace(/\/[^/]*$/, `/${TEMPLATE_DB}`), { max: 1 });
    await template.migrate();
    await template.close();
    project.provide('pgAdminUrl', adminUrl);
    project.provide('pgliteTemplate', '');
    let clickhouseUrl = process.env.RAMPART_TEST_CLICKHOUSE_URL;
    if (!clickhouseUrl) {
      try {
        const clickhouse = await startClickHouse();
        clickhouseUrl = clickhouse.url;
        cleanups.push(clickhouse.stop);
      } catch (error) {
        // The cluster started above would outlive a setup that fails here.
        for (const fn of cleanups.reverse()) await fn();
        throw error;
      }
    }
    project.provide('clickhouseUrl', clickhouseUrl);
  } else {
    const client = await PGlite.create();
    const db = openPglite(client);
    await db.migrate();
    const dump = await client.dumpDataDir('none');
    await db.close();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rampart-pglite-')), 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    cleanups.push(() => rmSync(path.dirname(file), { recursive: true, force: true }));
    project.provide('pgliteTemplate', file);
    project.provide('pgAdminUrl', '');
    project.provide('clickhouseUrl', '');
  }

  return async () => {
    for (const fn of cleanups.reverse()) await fn();
  };
}
