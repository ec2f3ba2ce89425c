import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  LOG_EXPORT_MAX_BYTES_DEFAULT,
  LOG_EXPORT_RETENTION_DAYS_DEFAULT,
} from './modules/log-exports/log-export-files.js';
import { NODE_DOMAINS_MAX } from './modules/snapshots/node-capacity.js';

/**
 * Configuration from the environment (documented in the README). Defaults are safe for a
 * single machine: listen on loopback only, data under ./data, embedded database.
 */
export interface Config {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  /**
   * ClickHouse for traffic analytics (`CLICKHOUSE_URL`, `http://user:password@host:8123/database`);
   * unset means the embedded DuckDB store in `dataDir/analytics`.
   */
  readonly clickhouseUrl: string | undefined;
  /**
   * A ClickHouse cluster behind `clickhouseUrl` (`CLICKHOUSE_CLUSTER`, its name in the servers'
   * `remote_servers`, and `CLICKHOUSE_SHARDS`, one server's HTTP address per shard, comma
   * separated): the store makes its tables on every shard (docs/operator-guide.md "Scaling out").
   */
  readonly clickhouseCluster: { name: string; shards: string[] } | undefined;
  /** PostgreSQL connection string; unset means the embedded PGlite database in `dataDir`. */
  readonly databaseUrl: string | undefined;
  /** Secret for signing tokens: `RAMPART_SECRET`, or a random one kept in `dataDir/secret.key`. */
  readonly secret: string;
  readonly logLevel: string;
  /** The console's production build; `null` when it has not been built. */
  readonly consoleDir: string | null;
  readonly version: string;
  /**
   * The agent package whose release nodes upgrade to (`dist/rampart-edge.js` and `lua/`):
   * `RAMPART_AGENT_RELEASE_DIR`, else the repository's apps/edge; null when there is none.
   */
  readonly agentReleaseDir: string | null;
  /**
   * The bearer token Prometheus scrapes the control plane's `/metrics` with (`RAMPART_METRICS_TOKEN`,
   * at least 32 characters). Unset: `/metrics` is not served (docs/decisions.md "Metrics").
   * Optional so that embedders keep it off.
   */
  readonly metricsToken?: string | null;
  /** Password of the root accounts made on first start; unset means generated and printed once. */
  readonly initPassword: string | undefined;
  /** Address people reach the console at, for links in e-mails; defaults to http://HOST:PORT. */
  readonly publicUrl: string | undefined;
  /** Mail server used until one is set in the console: `smtp[s]://user:pass@host:port?from=addr`. */
  readonly smtpUrl: string | undefined;
  /** Lifetime of access tokens in seconds (default 900). */
  readonly accessTokenTtlSeconds: number;
  /**
   * Access-token signing keys (security list item 40). `RAMPART_TOKEN_SECRET` signs (default: the
   * main secret); `RAMPART_TOKEN_PREVIOUS_SECRETS` (comma-separated) still verify during a
   * rotation's overlap and stop the moment they are removed. Each at least 32 characters.
   */
  readonly tokenSecrets?: { readonly current: string; readonly previous: readonly string[] };
  /**
   * `RAMPART_ALLOW_PRIVATE_ORIGINS=1` lets customers point domains at loopback and private
   * addresses. Off by default: the edge would otherwise reach the node itself and the operator's
   * internal hosts on a customer's behalf (SSRF). Test rigs and private data centres turn it on.
   */
  readonly allowPrivateOrigins: boolean;
  /**
   * `RAMPART_ALLOW_PRIVATE_TARGETS=1` lets the outgoing connections the control plane makes for an
   * operator or a customer (DNS provider APIs, ACME CAs, log push destinations, the operator's SMTP
   * server, the Telegram Bot API) reach loopback and private addresses: platform/http/target-guard.ts.
   * Off by default. A switch of its own, apart from the origins': an operator whose DNS server or
   * log collector sits in its own network need not open the edge to customers' private origins.
   */
  readonly allowPrivateTargets: boolean;
  /**
   * DNS servers that checkCNAME asks (`RAMPART_DNS_SERVERS`, comma-separated `ip` or `ip:port`,
   * `[ipv6]:port`); empty means the system's resolvers (/etc/resolv.conf).
   */
  readonly dnsServers: readonly string[];
  /** How long one name's CNAME check may take, in milliseconds (`RAMPART_DNS_TIMEOUT_MS`, default 5000). */
  readonly dnsTimeoutMs: number;
  /**
   * Most domains one node may serve (`RAMPART_NODE_DOMAIN_LIMIT`, 1 to 200,000, default 200,000:
   * NODE_DOMAINS_MAX): the API refuses writes that would take a node over (401002). The snapshot
   * path (agents that poll whole snapshots) holds a node to the data plane's 50,000 whatever this
   * is, and leaves out whole sites, newest first, beyond it. Optional so that embedders keep the default.
   */
  readonly nodeDomainLimit?: number;
  /**
   * The vendor's offline-licence signing key, only on the vendor's own installation
   * (docs/decisions.md "Licences"): `RAMPART_LICENSE_SIGNING_KEY_FILE`, an Ed25519 private key in
   * PKCS#8 PEM, and `RAMPART_LICENSE_SIGNING_KID`, the id its public half has in vendor-keys.ts.
   * Unset everywhere else: `admin/license/offline/issuing` then answers 101024.
   */
  readonly licenseSigningKey?: { readonly kid: string; readonly privateKeyPem: string } | null;
  /**
   * Log export files (docs/decisions.md "Log export files"): days a finished file is kept
   * (`RAMPART_LOG_EXPORT_RETENTION_DAYS`, 1-365, default 7) and the most bytes all files may take
   * (`RAMPART_LOG_EXPORT_MAX_BYTES`, default 10 GiB; over it, the oldest finished files expire
   * first). Optional so that embedders keep the defaults.
   */
  readonly logExportRetentionDays?: number;
  readonly logExportMaxBytes?: number;
  /** How often the export job looks for queued exports, in ms (default 2000; 0: only when driven, as tests do). */
  readonly logExportTickMs?: number;
  /**
   * Log push (docs/decisions.md "Log push"): how long a batch is retried before it is dead and its
   * event parked (`RAMPART_LOG_PUSH_DEAD_AFTER_SECONDS`, 1-2592000, default 86400: a day), and how
   * long after a batch of events was written the push reads it (`RAMPART_LOG_PUSH_SETTLE_MS`,
   * 0-600000, default 5000). Optional so that embedders keep the defaults.
   */
  readonly logPushDeadAfterSeconds?: number;
  readonly logPushSettleMs?: number;
  /**
   * Log records a second this control plane hands the analytics store before it samples passed
   * requests per site (`RAMPART_LOG_CAPACITY`, 1-10,000,000; unset: the store's measured default,
   * log-sampler.ts LOG_CAPACITY_DEFAULT; docs/operator-guide.md "Log sampling").
   */
  readonly logCapacity?: number;
  /** DuckDB's threads for the embedded analytics store (`RAMPART_ANALYTICS_THREADS`, 1-64; duckdb-store.ts DUCKDB_THREADS_DEFAULT). */
  readonly analyticsThreads?: number;
  /** How long a node's aggregate batch may take to arrive once admitted, in ms (default 30000; tests shorten it). */
  readonly aggregateBodyMs?: number;
  /** How often the push job looks for work, in ms (default 1000; 0: only when woken or driven, as tests may). */
  readonly logPushTickMs?: number;
  /** The retry backoff's first wait and its cap, in ms (defaults 1000 and 300000; tests shorten them). */
  readonly logPushBackoffMs?: { readonly base: number; readonly max: number };
  /**
   * The Telegram Bot API's base URL (`RAMPART_TELEGRAM_API_URL`, default https://api.telegram.org;
   * a local Bot API server, or the tests' stand-in). Optional so that embedders keep the default.
   */
  readonly telegramApiUrl?: string;
  /** How often the alerts job delivers and looks for attack spikes, in ms (default 5000; 0: only when driven, as tests do). */
  readonly alertsTickMs?: number;
  /** How often the config store backup schedule is looked at, in ms (default 60000; 0: never, as tests do). */
  readonly dbBackupTickMs?: number;
  /** How often the traffic check looks for sites over their monthly allowance, in ms (default 60000; 0: only when driven). */
  readonly trafficCheckTickMs?: number;
  /** How often the licences are checked for a near expiry, in ms (default 3600000; 0: only when driven). */
  readonly licenceExpiryTickMs?: number;
  /**
   * How often the embedded database's tables are looked at for vacuum and analyse, in ms (default
   * 60000; 0: only when driven, as tests do). PostgreSQL runs its own autovacuum: unused there.
   */
  readonly embeddedVacuumTickMs?: number;
  /**
   * The DNS publication's timing (modules/dns/dns-reconciler.ts DNS_RECONCILER_DEFAULTS); `false`:
   * no background passes, only the API's (tests drive the reconciler themselves).
   */
  readonly dnsPublish?: Partial<import('./modules/dns/dns-reconciler.js').DnsReconcilerOptions> | false;
  /**
   * Whether customers must prove control of a domain before it goes live, for operators that have
   * not chosen (`RAMPART_DOMAIN_PROOF`, default on; `0` waives it for such operators).
   */
  readonly domainProof: boolean;
  /** How often the background job looks for proof of pending domains, in seconds (`RAMPART_DOMAIN_PROOF_INTERVAL`, default 300; 0 = never). */
  readonly domainProofIntervalSeconds: number;
  /** Automatic certificates' job timing and ACME polling (defaults in auto-certificates.job.ts; tests shorten them). */
  readonly autoCert?: {
    readonly timing?: Partial<import('./modules/auto-certificates/auto-certificates.job.js').AutoCertTiming>;
    readonly acmePolling?: Partial<import('./modules/auto-certificates/acme-settings.service.js').AcmePolling>;
  };
}

export class ConfigError extends Error {}

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be 0-65535, got "${raw}"`);
  return port;
}

function parseTtl(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 900;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 86_400)
    throw new ConfigError(`RAMPART_ACCESS_TOKEN_TTL must be 1-86400 seconds, got "${raw}"`);
  return n;
}

/** `RAMPART_DNS_SERVERS`: each entry must be an address Node's resolver accepts. */
export function parseDnsServers(raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  try {
    if (list.length > 0) new Resolver().setServers(list);
  } catch {
    throw new ConfigError(`RAMPART_DNS_SERVERS must be addresses like 127.0.0.1:53 or [::1]:53, got "${raw}"`);
  }
  return list;
}

function parseDnsTimeout(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 5000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 100 || n > 60_000)
    throw new ConfigError(`RAMPART_DNS_TIMEOUT_MS must be 100-60000, got "${raw}"`);
  return n;
}

function parseNodeDomainLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return NODE_DOMAINS_MAX;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > NODE_DOMAINS_MAX)
    throw new ConfigError(`RAMPART_NODE_DOMAIN_LIMIT must be 1-${NODE_DOMAINS_MAX}, got "${raw}"`);
  return n;
}

function parseWhole(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be ${min}-${max}, got "${raw}"`);
  return n;
}

/** `RAMPART_METRICS_TOKEN`: unset or empty = no `/metrics`; else at least 32 printable characters. */
function parseMetricsToken(raw: string | undefined): string | null {
  if (!raw) return null;
  if (raw.length < 32 || !/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError('RAMPART_METRICS_TOKEN must be at least 32 printable characters without spaces');
  }
  return raw;
}

/** The vendor's licence signing key from the environment, or null (see `Config.licenseSigningKey`). */
export function loadLicenseSigningKey(env: NodeJS.ProcessEnv): { kid: string; privateKeyPem: string } | null {
  const file = env.RAMPART_LICENSE_SIGNING_KEY_FILE;
  if (!file) return null;
  const kid = env.RAMPART_LICENSE_SIGNING_KID;
  if (!kid) throw new ConfigError('RAMPART_LICENSE_SIGNING_KID must name the key of RAMPART_LICENSE_SIGNING_KEY_FILE');
  return { kid, privateKeyPem: readFileSync(file, 'utf8') };
}

/** The access-token signing secrets: the current one and those still accepted during a rotation. */
export function loadTokenSecrets(env: NodeJS.ProcessEnv, secret: string): { current: string; previous: string[] } {
  const current = env.RAMPART_TOKEN_SECRET || secret;
  if (current.length < 32) throw new ConfigError('RAMPART_TOKEN_SECRET must be at least 32 characters');
  const previous = (env.RAMPART_TOKEN_PREVIOUS_SECRETS ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (previous.some((value) => value.length < 32)) {
    throw new ConfigError('each of RAMPART_TOKEN_PREVIOUS_SECRETS must be at least 32 characters');
  }
  return { current, previous: previous.filter((value) => value !== current) };
}

/** Reads the signing secret, making and storing one (mode 0600) on first start. */
export function loadSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  const fromEnv = env.RAMPART_SECRET;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.length < 32) throw new ConfigError('RAMPART_SECRET must be at least 32 characters');
    return fromEnv;
  }
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
    throw new ConfigError(`${file} is shorter than 32 characters; remove it or set RAMPART_SECRET`);
  }
  const made = randomBytes(48).toString('base64url');
  writeFileSync(file, `${made}\n`, { mode: 0o600, flag: 'wx' });
  return made;
}

function findConsoleDir(env: NodeJS.ProcessEnv, here: string): string | null {
  const candidates = env.CONSOLE_DIR
    ? [path.resolve(env.CONSOLE_DIR)]
    : // from src/ (tsx) or dist/ (bundle): both sit two levels below apps/
      [path.resolve(here, '../../console/dist'), path.resolve(here, '../../../console/dist')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? null;
}

function findAgentReleaseDir(env: NodeJS.ProcessEnv, here: string): string | null {
  if (env.RAMPART_AGENT_RELEASE_DIR) return path.resolve(env.RAMPART_AGENT_RELEASE_DIR);
  // From src/ (tsx) or dist/ (bundle), apps/edge is two levels up; whether it holds a release of
  // this version is checked on each upgrade call, so a later build is picked up.
  const dir = path.resolve(here, '../../edge');
  return existsSync(path.join(dir, 'lua')) ? dir : null;
}

function parseProofInterval(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 300;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 86_400)
    throw new ConfigError(`RAMPART_DOMAIN_PROOF_INTERVAL must be 0-86400 seconds, got "${raw}"`);
  return n;
}

function parseClickHouseCluster(env: NodeJS.ProcessEnv): Config['clickhouseCluster'] {
  const name = env.CLICKHOUSE_CLUSTER || '';
  const shards = (env.CLICKHOUSE_SHARDS || '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (name === '' && shards.length === 0) return undefined;
  if (!env.CLICKHOUSE_URL) throw new ConfigError('CLICKHOUSE_CLUSTER and CLICKHOUSE_SHARDS need CLICKHOUSE_URL');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new ConfigError(`CLICKHOUSE_CLUSTER must be letters, digits and _ (the cluster's name), got "${name}"`);
  if (shards.length === 0) throw new ConfigError('CLICKHOUSE_SHARDS must name one HTTP address per shard');
  for (const shard of shards) {
    let url: URL | null = null;
    try {
      url = new URL(shard);
    } catch {}
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new ConfigError(`CLICKHOUSE_SHARDS: "${shard}" is not an http:// or https:// address`);
  }
  return { name, shards };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, here = import.meta.dirname): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = loadSecret(env, dataDir);
  return {
    host: env.HOST || '127.0.0.1',
    port: parsePort(env.PORT, 8080),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    clickhouseUrl: env.CLICKHOUSE_URL || undefined,
    clickhouseCluster: parseClickHouseCluster(env),
    secret,
    tokenSecrets: loadTokenSecrets(env, secret),
    logLevel: env.LOG_LEVEL || 'info',
    consoleDir: findConsoleDir(env, here),
    version: env.RAMPART_VERSION || '0.1.0',
    agentReleaseDir: findAgentReleaseDir(env, here),
    initPassword: env.RAMPART_INIT_PASSWORD || undefined,
    metricsToken: parseMetricsToken(env.RAMPART_METRICS_TOKEN),
    publicUrl: env.PUBLIC_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    telegramApiUrl: env.RAMPART_TELEGRAM_API_URL || undefined,
    accessTokenTtlSeconds: parseTtl(env.RAMPART_ACCESS_TOKEN_TTL),
    allowPrivateOrigins: ['1', 'true', 'yes'].includes((env.RAMPART_ALLOW_PRIVATE_ORIGINS ?? '').toLowerCase()),
    allowPrivateTargets: ['1', 'true', 'yes'].includes((env.RAMPART_ALLOW_PRIVATE_TARGETS ?? '').toLowerCase()),
    dnsServers: parseDnsServers(env.RAMPART_DNS_SERVERS),
    dnsTimeoutMs: parseDnsTimeout(env.RAMPART_DNS_TIMEOUT_MS),
    nodeDomainLimit: parseNodeDomainLimit(env.RAMPART_NODE_DOMAIN_LIMIT),
    licenseSigningKey: loadLicenseSigningKey(env),
    logExportRetentionDays: parseWhole(
      'RAMPART_LOG_EXPORT_RETENTION_DAYS',
      env.RAMPART_LOG_EXPORT_RETENTION_DAYS,
      LOG_EXPORT_RETENTION_DAYS_DEFAULT,
      1,
      365,
    ),
    logExportMaxBytes: parseWhole(
      'RAMPART_LOG_EXPORT_MAX_BYTES',
      env.RAMPART_LOG_EXPORT_MAX_BYTES,
      LOG_EXPORT_MAX_BYTES_DEFAULT,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    logPushDeadAfterSeconds: parseWhole(
      'RAMPART_LOG_PUSH_DEAD_AFTER_SECONDS',
      env.RAMPART_LOG_PUSH_DEAD_AFTER_SECONDS,
      86_400,
      1,
      2_592_000,
    ),
    logPushSettleMs: parseWhole('RAMPART_LOG_PUSH_SETTLE_MS', env.RAMPART_LOG_PUSH_SETTLE_MS, 5000, 0, 600_000),
    ...(env.RAMPART_LOG_CAPACITY
      ? { logCapacity: parseWhole('RAMPART_LOG_CAPACITY', env.RAMPART_LOG_CAPACITY, 0, 1, 10_000_000) }
      : {}),
    ...(env.RAMPART_ANALYTICS_THREADS
      ? { analyticsThreads: parseWhole('RAMPART_ANALYTICS_THREADS', env.RAMPART_ANALYTICS_THREADS, 1, 1, 64) }
      : {}),
    domainProof: !['0', 'false', 'no', 'off'].includes((env.RAMPART_DOMAIN_PROOF ?? '').toLowerCase()),
    domainProofIntervalSeconds: parseProofInterval(env.RAMPART_DOMAIN_PROOF_INTERVAL),
    trafficCheckTickMs: parseWhole(
      'RAMPART_TRAFFIC_CHECK_TICK_MS',
      env.RAMPART_TRAFFIC_CHECK_TICK_MS,
      60_000,
      0,
      86_400_000,
    ),
    embeddedVacuumTickMs: parseWhole(
      'RAMPART_EMBEDDED_VACUUM_TICK_MS',
      env.RAMPART_EMBEDDED_VACUUM_TICK_MS,
      60_000,
      0,
      86_400_000,
    ),
  };
}
