import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A free TCP port on loopback (taken and given back at once). */
export function freePort(): Promise<number> {
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

const CLICKHOUSE_PASSWORD = 'rampart';

function clickhouseBinary(): string {
  for (const file of ['/usr/sbin/clickhouse-server', '/usr/bin/clickhouse-server']) if (existsSync(file)) return file;
  throw new Error("clickhouse-server not found: run `npm test` (it installs Debian's clickhouse-server)");
}

const MEMORY_DIR = '/dev/shm';

/**
 * The directory a test server keeps its data in: in memory (/dev/shm) where the machine has 1 GiB
 * of it free, else the temporary directory.
 * Every INSERT writes a part per materialized view (a dozen directories of column files) and every
 * CREATE fsyncs its metadata; on the shared disk of the test machine, under load, an INSERT of 300
 * events into the two-shard cluster took 1.5 s there and 0.12 s in memory, a store's open 4.5 s and
 * 0.6 s (2026-11-29). What the tests check of ClickHouse is its answers, not its disk.
 */
function serverDirectory(): string {
  try {
    // A container's /dev/shm is often 64 MB: a server that fills it fails its inserts.
    const free = statfsSync(MEMORY_DIR);
    if (free.bavail * free.bsize >= 1024 ** 3) return mkdtempSync(path.join(MEMORY_DIR, 'rampart-ch-'));
  } catch {
    // no /dev/shm
  }
  return mkdtempSync(path.join(tmpdir(), 'rampart-ch-'));
}

/**
 * A ClickHouse server in a temporary directory (serverDirectory, answered as `dir`: its logs are
 * `server.log` and `server.err.log` there until `stop`), on loopback ports, with small caches. Debian's 18.16 runs as root too (it does not refuse it), so it runs as whoever runs the tests.
 */
export async function startClickHouse(
  options: { ports?: { http: number; tcp: number }; config?: string } = {},
): Promise<{ url: string; pid: number; dir: string; stop: () => Promise<void> }> {
  const binary = clickhouseBinary();
  const dir = serverDirectory();
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(path.join(dir, sub));
  const { http: httpPort, tcp: tcpPort } = options.ports ?? { http: await freePort(), tcp: await freePort() };
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
${options.config ?? ''}
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
      if (answer.ok && (await answer.text()).trim() === '1') return { url, pid: server.pid as number, dir, stop };
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

/** The cluster's name in the servers' `remote_servers` (startClickHouseCluster). */
export const TEST_CLUSTER = 'rampart_test';

/**
 * Two ClickHouse servers (startClickHouse) whose `remote_servers` name both as the two shards of
 * TEST_CLUSTER, one server each, no replicas and no ZooKeeper (the store makes its schema on each
 * shard itself). Answers each shard's `http://user:password@host:port/`.
 */
export async function startClickHouseCluster(): Promise<{ urls: string[]; stop: () => Promise<void> }> {
  const ports = [
    { http: await freePort(), tcp: await freePort() },
    { http: await freePort(), tcp: await freePort() },
  ];
  const shards = ports
    .map(
      (p) =>
        `<shard><replica><host>127.0.0.1</host><port>${p.tcp}</port><user>default</user><password>${CLICKHOUSE_PASSWORD}</password></replica></shard>`,
    )
    .join('');
  const config = `<remote_servers><${TEST_CLUSTER}>${shards}</${TEST_CLUSTER}></remote_servers>`;
  const started: { url: string; stop: () => Promise<void> }[] = [];
  const stop = async () => {
    for (const server of started.reverse()) await server.stop();
  };
  try {
    for (const p of ports) started.push(await startClickHouse({ ports: p, config }));
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: started.map((s) => s.url), stop };
}
