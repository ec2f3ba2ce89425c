import { type ChildProcess, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Debian's BIND (package bind9, installed by scripts/test.sh). */
export const NAMED = '/usr/sbin/named';

export interface DnsServer {
  /** `127.0.0.1:<port>`, for RAMPART_DNS_SERVERS / the app's dnsServers. */
  readonly address: string;
  stop(): Promise<void>;
}

/** Zone name → its records (zone-file lines below the SOA and NS, names relative to the zone). */
export type Zones = Record<string, string[]>;

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const tcp = net.createServer();
    tcp.once('error', () => resolve(false));
    tcp.listen(port, '127.0.0.1', () => {
      const udp = dgram.createSocket('udp4');
      udp.once('error', () => tcp.close(() => resolve(false)));
      udp.bind(port, '127.0.0.1', () => udp.close(() => tcp.close(() => resolve(true))));
    });
  });
}

/** A port free for both TCP and UDP, below the ephemeral range (outgoing sockets never hold it). */
export async function freeDnsPort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canBind(port)) return port;
  }
  throw new Error('no free port for the DNS server');
}

function zoneFile(zone: string, records: string[]): string {
  return [
    '$TTL 60',
    `@ IN SOA ns.${zone}. admin.${zone}. 1 60 60 60 60`,
    `@ IN NS ns.${zone}.`,
    'ns IN A 127.0.0.1',
    ...records,
    '',
  ].join('\n');
}

/** A test's server process: its last output, and `stop()` (SIGTERM, SIGKILL after 5 s) removing `dir`. */
export interface Daemon {
  readonly child: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

/** Starts `command` in the foreground, keeping the tail of its output; `stop()` ends it and removes `dir`. */
export function runDaemon(command: string, args: readonly string[], dir: string): Daemon {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  return { child, log: () => output, stop };
}

/** A TSIG key zones accept RFC 2136 updates signed with (`startDnsServer`'s `updateKey`). */
export interface TsigKeySpec {
  readonly name: string;
  readonly algorithm: 'hmac-sha256' | 'hmac-sha512';
  /** base64 */
  readonly secret: string;
}

/**
 * Starts BIND as an authoritative-only server (no recursion) for `zones` on a loopback high port,
 * (`port`, else a free one) in the foreground with one worker thread, its files in a temporary directory. When the tests run
 * as root it drops to `nobody` after binding. Resolves once it answers; `stop()` ends it and removes
 * the directory. With `updateKey`, every zone takes dynamic updates (RFC 2136) signed with that key.
 */
export async function startDnsServer(
  zones: Zones,
  port?: number,
  options: { readonly updateKey?: TsigKeySpec } = {},
): Promise<DnsServer> {
  if (!existsSync(NAMED)) throw new Error(`${NAMED} is missing: install Debian's bind9 (scripts/test.sh does)`);
  const dir = await mkdtemp(path.join(tmpdir(), 'rampart-dns-'));
  port ??= await freeDnsPort();
  const zoneConfs = await Promise.all(
    Object.entries(zones).map(async ([zone, records]) => {
      const file = path.join(dir, `${zone}.zone`);
      await writeFile(file, zoneFile(zone, records), { mode: 0o644 });
      const update = options.updateKey ? ` allow-update { key "${options.updateKey.name}"; };` : '';
      return `zone "${zone}" { type primary; file "${file}";${update} };`;
    }),
  );
  const conf = path.join(dir, 'named.conf');
  await writeFile(
    conf,
    [
      'options {',
      `  directory "${dir}";`,
      `  listen-on port ${port} { 127.0.0.1; };`,
      '  listen-on-v6 { none; };',
      '  pid-file none;',
      '  session-keyfile none;',
      `  managed-keys-directory "${dir}";`,
      '  recursion no;',
      '  dnssec-validation no;',
      '  notify no;',
      '};',
      'controls { };',
      ...(options.updateKey
        ? [
            `key "${options.updateKey.name}" { algorithm ${options.updateKey.algorithm}; secret "${options.updateKey.secret}"; };`,
          ]
        : []),
      ...zoneConfs,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const root = process.getuid?.() === 0;
  // `nobody` must be able to write its working files (managed keys) there.
  if (root) await chmod(dir, 0o777);
  const args = ['-g', '-n', '1', '-c', conf, ...(root ? ['-u', 'nobody'] : [])];
  const { child, log, stop } = runDaemon(NAMED, args, dir);

  // Ready when the first zone's SOA answers; bounded.
  const [firstZone] = Object.keys(zones);
  const probe = new Resolver({ timeout: 200, tries: 1 });
  probe.setServers([`127.0.0.1:${port}`]);
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`named exited (${child.exitCode}):\n${log()}`);
    }
    try {
      await probe.resolveSoa(firstZone ?? '.');
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`named did not answer within 15 s:\n${log()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { address: `127.0.0.1:${port}`, stop };
}

/** A UDP socket that reads queries and never answers: a resolver that times out. */
export async function startSilentDns(): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', () => {});
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
