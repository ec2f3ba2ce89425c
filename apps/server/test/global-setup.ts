import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/platform/db/database.js';

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

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

const CLICKHOUSE_PASSWORD = 'rampart';

function clickhouseBinary(): string {
  for (const file of ['/usr/sbin/clickhouse-server', '/usr/bin/clickhouse-server']) if (existsSync(file)) return file;
  throw new Error("clickhouse-server not found: run `npm test` (it installs Debian's clickhouse-server)");
}

/**
 * A ClickHouse server in a temporary directory, on loopback ports, with small caches. Debian's
 * 18.16 runs as root too (it does not refuse it), so it runs as whoever runs the tests.
 */
async function startClickHouse(): Promise<{ url: string; stop: () => Promise<void> }> {
  const binary = clickhouseBinary();
  const dir = mkdtempSync(path.join(tmpdir(), 'rampart-ch-'));
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(path.join(dir, sub));
  const [httpPort, tcpPort] = [await freePort(), await freePort()];
  writeFileSync(
    path.join(dir, 'config.xml'),
    `<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>${dir}/server.log</log>
    <errorlog>${dir}/server.err.log</errorlog>
    <size>10M</size>
    <count>1</count>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
</yandex>
`,
  );
  writeFileSync(
    path.join(dir, 'users.xml'),
    `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>1000000000</max_memory_usage></default></profiles>
  <users>
    <default>
      <password>${CLICKHOUSE_PASSWORD}</password>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`,
  );
  const server = spawn(binary, [`--config-file=${path.join(dir, 'config.xml')}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => {
    running = false;
  });
  const stop = async () => {
    try {
      if (running && server.pid !== undefined) {
        process.kill(server.pid, 'SIGTERM');
        const killer = setTimeout(
          () => running && server.pid !== undefined && process.kill(server.pid, 'SIGKILL'),
          15_000,
        );
        await exited;
        clearTimeout(killer);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const url = `http://default:${CLICKHOUSE_PASSWORD}@127.0.0.1:${httpPort}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const answer = await fetch(`http://127.0.0.1:${httpPort}/?query=SELECT%201`, {
        headers: { authorization: `Basic ${Buffer.from(`default:${CLICKHOUSE_PASSWORD}`).toString('base64')}` },
      });
      if (answer.ok && (await answer.text()).trim() === '1') return { url, stop };
    } catch {
      // not listening yet
    }
    if (!running || Date.now() > deadline) {
      let log = '';
      try {
        log = readFileSync(path.join(dir, 'server.err.log'), 'utf8').slice(-2000);
      } catch {}
      await stop();
      throw new Error(`clickhouse-server did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
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
