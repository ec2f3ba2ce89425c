import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DnsSettingIn } from '@rampart/contract';
import { freeDnsPort, runDaemon } from './dns-server.js';

/** Debian's PowerDNS authoritative server with its SQLite backend (scripts/test.sh installs them). */
export const PDNS_SERVER = '/usr/sbin/pdns_server';
const SQLITE_SCHEMA = '/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql';
const SQLITE3 = '/usr/bin/sqlite3';

export interface PowerDnsServer {
  /** `127.0.0.1:<port>` of the DNS service (UDP and TCP). */
  readonly dnsAddress: string;
  /** Base URL of the HTTP API, e.g. `http://127.0.0.1:23456`. */
  readonly apiUrl: string;
  readonly apiKey: string;
  stop(): Promise<void>;
}

function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts PowerDNS 4.7 on loopback (DNS on a free port, the HTTP API with a random key on another)
 * with a fresh SQLite database in a temporary directory, and creates `zones` through the API
 * (Native, SOA from `default-soa-content`, NS `ns.<zone>`). Resolves once the API answers;
 * `stop()` ends it and removes the directory.
 */
export async function startPowerDns(zones: readonly string[]): Promise<PowerDnsServer> {
  for (const file of [PDNS_SERVER, SQLITE_SCHEMA, SQLITE3]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: install pdns-server pdns-backend-sqlite3 sqlite3`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'rampart-pdns-'));
  const db = path.join(dir, 'pdns.sqlite3');
  await promisify(execFile)(SQLITE3, ['-init', SQLITE_SCHEMA, db, '.quit']);
  const dnsPort = await freeDnsPort();
  const apiPort = await freeTcpPort();
  const apiKey = randomBytes(16).toString('hex');
  const conf = path.join(dir, 'pdns.conf');
  await writeFile(
    conf,
    [
      'launch=gsqlite3',
      `gsqlite3-database=${db}`,
      'local-address=127.0.0.1',
      `local-port=${dnsPort}`,
      'api=yes',
      `api-key=${apiKey}`,
      'webserver=yes',
      'webserver-address=127.0.0.1',
      `webserver-port=${apiPort}`,
      'webserver-allow-from=127.0.0.0/8',
      'default-soa-content=ns.@ hostmaster.@ 0 10800 3600 604800 60',
      `socket-dir=${dir}`,
      'daemon=no',
      'guardian=no',
      'disable-syslog=yes',
      'loglevel=4',
      'receiver-threads=1',
      'distributor-threads=1',
      '',
    ].join('\n'),
  );
  const { child, log, stop } = runDaemon(PDNS_SERVER, [`--config-dir=${dir}`], dir);

  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const headers = { 'X-API-Key': apiKey, 'Content-Type': 'application/json' };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`pdns_server exited (${child.exitCode}):\n${log()}`);
    }
    try {
      const res = await fetch(`${apiUrl}/api/v1/servers/localhost`, { headers, signal: AbortSignal.timeout(500) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`pdns_server did not answer within 15 s:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const zone of zones) {
    const res = await fetch(`${apiUrl}/api/v1/servers/localhost/zones`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `${zone}.`, kind: 'Native', nameservers: [`ns.${zone}.`] }),
    });
    if (res.status !== 201) {
      await stop();
      throw new Error(`creating zone ${zone}: ${res.status} ${await res.text()}`);
    }
  }
  return { dnsAddress: `127.0.0.1:${dnsPort}`, apiUrl, apiKey, stop };
}

/** The operator's DNS setting for `server`'s API and `zone` (TTL 60 s), with `over` on top. */
export function powerDnsSetting(
  server: PowerDnsServer,
  zone: string,
  over: Partial<Extract<DnsSettingIn, { type: 'powerdns' }>> = {},
) {
  return {
    type: 'powerdns',
    apiUrl: server.apiUrl,
    apiKey: server.apiKey,
    serverId: 'localhost',
    zone,
    ttl: 60,
    ...over,
  } as const;
}
