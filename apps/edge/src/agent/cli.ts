import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isIP, NODE_EXPORTER_PORT } from '@rampart/contract';
import type { AgentOptions } from './agent.js';
import { reportedHostname, reportedIps } from './process/host.js';

export const DEFAULT_STATE_DIR = '/var/lib/rampart-edge';
export const DEFAULT_NGINX = '/usr/sbin/nginx';

export const USAGE = `Usage: rampart-edge [join] [options]

Joins this machine to a Rampart control plane and serves its sites with nginx.
The first start registers the node with the join token; later starts reuse
<state-dir>/credentials.json and need neither the token nor the URL.

Options (each also read from the environment variable shown):
  --control-plane <url>      control plane URL                RAMPART_CONTROL_PLANE
  --join-token <token>       operator's join token (alias --token)  RAMPART_JOIN_TOKEN
  --state-dir <dir>          state directory (${DEFAULT_STATE_DIR})  RAMPART_EDGE_STATE_DIR
  --nginx <path>             nginx binary (${DEFAULT_NGINX})  RAMPART_EDGE_NGINX
  --lua-dir <dir>            Lua package directory (the package's lua/)  RAMPART_EDGE_LUA_DIR
  --port-map <list>          listen ports of the snapshot to local ports,
                             e.g. 80=18080,443=18443 (unprivileged runs, tests)  RAMPART_EDGE_PORT_MAP
  --listen-address <ip>      address the public servers bind to (every address)  RAMPART_EDGE_LISTEN_ADDRESS
  --hostname <name>          name reported to the control plane (os.hostname())  RAMPART_EDGE_HOSTNAME
  --ips <list>               addresses reported, comma-separated
                             (the non-internal interface addresses)  RAMPART_EDGE_IPS
  --worker-processes <n>     nginx worker_processes: auto or 1-64 (auto)  RAMPART_EDGE_WORKER_PROCESSES
  --event-spool-mb <n>       disk for request events not yet shipped; the oldest
                             batches are dropped (and counted) beyond it (512)  RAMPART_EDGE_EVENT_SPOOL_MB
  --event-aggregates <on|off>  statistics counted here and shipped as minute
                             aggregates, request events for the logs only (on)  RAMPART_EDGE_EVENT_AGGREGATES
  --refusal-tallies <on|off> with the aggregates: nginx counts a flood's repeated
                             refusals instead of logging each (on)  RAMPART_EDGE_REFUSAL_TALLIES
  --aggregate-partial-s <n>  with the aggregates: seconds between shipments of the
                             current minute so far, 0-60; 0 = at its end only (15)  RAMPART_EDGE_AGGREGATE_PARTIAL_S
  --metrics-port <port>      the node's Prometheus metrics (who may scrape: the
                             operator's node exporter setting); 0 = none (9145)  RAMPART_EDGE_METRICS_PORT
  --l4-firewall <auto|off>   the layer-4 rules in the kernel (nftables): auto runs
                             them when root with nft installed (auto)  RAMPART_EDGE_L4_FIREWALL
  --origin-dns <list>        DNS servers that resolve origin host names, ip or
                             ip:port, comma-separated (the system's)  RAMPART_EDGE_ORIGIN_DNS
  --allow-private-origins    origin names may resolve to loopback and private
                             addresses, whatever the operator's setting  RAMPART_ALLOW_PRIVATE_ORIGINS=1
  --self-restart             after an upgrade, start the new release itself
                             (no service manager); else exit 75 for the
                             service manager to restart it  RAMPART_EDGE_SELF_RESTART=1
  --admin-port <port>        ignored (accepted for old service files): nginx's
                             admin server is a unix socket in the state directory
  -h, --help                 this text
  -v, --version              the agent's version
`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const SAFE_PATH_RE = /^\/[A-Za-z0-9._/-]*$/;

/** The `lua/` directory next to the bundle (dist/) or two levels up from the sources (src/agent/). */
export function defaultLuaDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../lua'), path.resolve(here, '../../lua')];
  return candidates.find((dir) => existsSync(path.join(dir, 'rampart/init.lua'))) ?? (candidates[0] as string);
}

function port(value: string, what: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n < 1 || n > 65_535) {
    throw new UsageError(`${what}: not a port number: ${value}`);
  }
  return n;
}

/** `80=18080,443=18443` → Map {80 → 18080, 443 → 18443}. */
export function parsePortMap(text: string): Map<number, number> {
  const map = new Map<number, number>();
  for (const item of text.split(',').map((s) => s.trim())) {
    if (item === '') continue;
    const [from, to, ...rest] = item.split('=');
    if (from === undefined || to === undefined || rest.length > 0) {
      throw new UsageError(`--port-map: expected <port>=<port>, got ${item}`);
    }
    const source = port(from.trim(), '--port-map');
    if (map.has(source)) throw new UsageError(`--port-map: port ${source} is mapped twice`);
    map.set(source, port(to.trim(), '--port-map'));
  }
  return map;
}

function safeDir(value: string, what: string): string {
  const resolved = path.resolve(value);
  if (!SAFE_PATH_RE.test(resolved) || resolved.split('/').includes('..')) {
    throw new UsageError(`${what} must be a path of letters, digits and ._/- only (nginx.conf allowlist): ${resolved}`);
  }
  return resolved.replace(/\/+$/, '') || '/';
}

export type CliResult =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'run'; options: AgentOptions; selfRestart: boolean; warnings: string[] };

/** Parses the command line and the environment into the agent's options. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliResult {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  // `rampart-edge join ...` is what older control planes' node-info page printed.
  const extra = positionals.filter((p, i) => !(i === 0 && p === 'join'));
  if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0]}`);

  const pick = (flag: string | undefined, name: string): string | undefined => {
    const value = flag ?? env[name];
    return value === undefined || value === '' ? undefined : value;
  };

  const controlPlane = pick(values['control-plane'], 'RAMPART_CONTROL_PLANE') ?? null;
  if (controlPlane !== null) {
    let url: URL;
    try {
      url = new URL(controlPlane);
    } catch {
      throw new UsageError(`--control-plane: not a URL: ${controlPlane}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`--control-plane: must be http:// or https://: ${controlPlane}`);
    }
  }

  const listenAddress = pick(values['listen-address'], 'RAMPART_EDGE_LISTEN_ADDRESS');
  if (listenAddress !== undefined && !isIP(listenAddress)) {
    throw new UsageError(`--listen-address: not an IP address: ${listenAddress}`);
  }

  const ipsText = pick(values.ips, 'RAMPART_EDGE_IPS');
  const ips = ipsText === undefined ? reportedIps() : ipsText.split(',').map((s) => s.trim());
  const badIp = ips.find((ip) => !isIP(ip));
  if (badIp !== undefined || ips.length === 0 || ips.length > 32) {
    throw new UsageError(`--ips: 1 to 32 IP addresses expected${badIp !== undefined ? `, not ${badIp}` : ''}`);
  }

  const workersText = pick(values['worker-processes'], 'RAMPART_EDGE_WORKER_PROCESSES') ?? 'auto';
  let workerProcesses: 'auto' | number = 'auto';
  if (workersText !== 'auto') {
    workerProcesses = Number(workersText);
    if (!/^\d+$/.test(workersText) || workerProcesses < 1 || workerProcesses > 64) {
      throw new UsageError(`--worker-processes: auto or 1-64, not ${workersText}`);
    }
  }

  const spoolText = pick(values['event-spool-mb'], 'RAMPART_EDGE_EVENT_SPOOL_MB');
  const eventSpoolMegabytes = spoolText === undefined ? undefined : Number(spoolText);
  if (
    spoolText !== undefined &&
    (!/^\d+$/.test(spoolText) || (eventSpoolMegabytes as number) < 1 || (eventSpoolMegabytes as number) > 1_048_576)
  ) {
    throw new UsageError(`--event-spool-mb: 1-1048576 megabytes, not ${spoolText}`);
  }

  const onOff = (flag: string, name: string): boolean | undefined => {
    const text = pick(values[flag as 'event-aggregates'], name);
    if (text === undefined) return undefined;
    if (text !== 'on' && text !== 'off') throw new UsageError(`--${flag}: on or off, not ${text}`);
    return text === 'on';
  };
  const eventAggregates = onOff('event-aggregates', 'RAMPART_EDGE_EVENT_AGGREGATES');
  const refusalTallies = onOff('refusal-tallies', 'RAMPART_EDGE_REFUSAL_TALLIES');
  const partialText = pick(values['aggregate-partial-s'], 'RAMPART_EDGE_AGGREGATE_PARTIAL_S');
  const aggregatePartialSeconds = partialText === undefined ? undefined : Number(partialText);
  if (partialText !== undefined && (!/^\d+$/.test(partialText) || (aggregatePartialSeconds as number) > 60)) {
    throw new UsageError(`--aggregate-partial-s: 0-60 seconds, not ${partialText}`);
  }

  const metricsText = pick(values['metrics-port'], 'RAMPART_EDGE_METRICS_PORT');
  const metricsPort =
    metricsText === undefined ? NODE_EXPORTER_PORT : metricsText === '0' ? null : port(metricsText, '--metrics-port');

  const l4Firewall = pick(values['l4-firewall'], 'RAMPART_EDGE_L4_FIREWALL') ?? 'auto';
  if (l4Firewall !== 'auto' && l4Firewall !== 'off') {
    throw new UsageError(`--l4-firewall: auto or off, not ${l4Firewall}`);
  }

  const originDns = (pick(values['origin-dns'], 'RAMPART_EDGE_ORIGIN_DNS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const server of originDns) {
    const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(server);
    const address = m?.[1] ?? m?.[2] ?? '';
    if (!isIP(address)) throw new UsageError(`--origin-dns: IP addresses with an optional port, not ${server}`);
    if (m?.[3] !== undefined) port(m[3], '--origin-dns');
  }
  const allowPrivateOrigins =
    values['allow-private-origins'] === true ||
    ['1', 'true', 'yes'].includes((env.RAMPART_ALLOW_PRIVATE_ORIGINS ?? '').toLowerCase());

  // The admin server has no TCP port any more: an old service file's value is ignored, not refused
  // (an upgraded agent restarts with the same arguments and must come up).
  const warnings =
    pick(values['admin-port'], 'RAMPART_EDGE_ADMIN_PORT') === undefined
      ? []
      : [
          "--admin-port (RAMPART_EDGE_ADMIN_PORT) is ignored: nginx's admin server is a unix socket in the state directory",
        ];
  return {
    kind: 'run',
    warnings,
    selfRestart: values['self-restart'] === true || ['1', 'true', 'yes'].includes(env.RAMPART_EDGE_SELF_RESTART ?? ''),
    options: {
      controlPlane,
      joinToken: pick(values['join-token'] ?? values.token, 'RAMPART_JOIN_TOKEN') ?? null,
      stateDir: safeDir(pick(values['state-dir'], 'RAMPART_EDGE_STATE_DIR') ?? DEFAULT_STATE_DIR, '--state-dir'),
      nginxBinary: pick(values.nginx, 'RAMPART_EDGE_NGINX') ?? DEFAULT_NGINX,
      luaDir: safeDir(pick(values['lua-dir'], 'RAMPART_EDGE_LUA_DIR') ?? defaultLuaDir(), '--lua-dir'),
      portMap: parsePortMap(pick(values['port-map'], 'RAMPART_EDGE_PORT_MAP') ?? ''),
      listenAddress,
      hostname: reportedHostname(pick(values.hostname, 'RAMPART_EDGE_HOSTNAME')),
      ips,
      workerProcesses,
      l4Firewall,
      metricsPort,
      ...(eventSpoolMegabytes !== undefined ? { eventSpoolMegabytes } : {}),
      ...(eventAggregates !== undefined ? { eventAggregates } : {}),
      ...(refusalTallies !== undefined ? { refusalTallies } : {}),
      ...(aggregatePartialSeconds !== undefined ? { aggregatePartialSeconds } : {}),
      origins: { ...(originDns.length > 0 ? { servers: originDns } : {}), allowPrivate: allowPrivateOrigins },
    },
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      'control-plane': { type: 'string' },
      'join-token': { type: 'string' },
      token: { type: 'string' },
      'state-dir': { type: 'string' },
      nginx: { type: 'string' },
      'admin-port': { type: 'string' },
      'lua-dir': { type: 'string' },
      'port-map': { type: 'string' },
      'listen-address': { type: 'string' },
      hostname: { type: 'string' },
      ips: { type: 'string' },
      'worker-processes': { type: 'string' },
      'event-spool-mb': { type: 'string' },
      'event-aggregates': { type: 'string' },
      'refusal-tallies': { type: 'string' },
      'aggregate-partial-s': { type: 'string' },
      'self-restart': { type: 'boolean' },
      'origin-dns': { type: 'string' },
      'allow-private-origins': { type: 'boolean' },
      'l4-firewall': { type: 'string' },
      'metrics-port': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}
