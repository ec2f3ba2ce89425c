/** The settings nginx.conf is rendered from (render.ts), each checked by allowlist, and the prefix layout. */
import { edgeRealIpSchema, edgeStreamPortsSchema, isIP, NO_REAL_IP, nginxTuningSchema } from '@rampart/contract';
import { z } from 'zod';

/** Backtracking bound of every ngx.re match at the edge (lua_regex_match_limit). */
export const EDGE_REGEX_MATCH_LIMIT = 100_000;

const SAFE_PATH_RE = /^\/[A-Za-z0-9._/-]*$/;

const absolutePath = z
  .string()
  .max(1024)
  .regex(SAFE_PATH_RE, 'an absolute path of [A-Za-z0-9._/-] only')
  .refine((p) => !p.split('/').includes('..'), 'no ".." segments');
const port = z.number().int().min(1).max(65_535);

/** The data plane's shared dict: never smaller than this (MiB)… */
export const CONFIG_DICT_MIN_MB = 256;
/** …nor larger. */
export const CONFIG_DICT_MAX_MB = 4096;

/**
 * The shared dict a data plane of `planeBytes` (its entries as JSON, as the agent keeps them on
 * disk) needs at nginx's start: four times that (two record slots per entry while a change is
 * collected, and the dict's slab sizes rounding each record up to a power of two), in powers of two
 * from CONFIG_DICT_MIN_MB to CONFIG_DICT_MAX_MB. A running nginx keeps the size it started with: a
 * reload that changed it would start workers with an empty store (docs/decisions.md).
 */
export function configDictMegabytesFor(planeBytes: number): number {
  const wanted = Math.ceil((4 * planeBytes) / 2 ** 20);
  let size = CONFIG_DICT_MIN_MB;
  while (size < wanted && size < CONFIG_DICT_MAX_MB) size *= 2;
  return size;
}

/** The data plane's dict size a rendered nginx.conf declares (null: none declared). */
export function declaredConfigDictMegabytes(conf: string): number | null {
  const found = /lua_shared_dict rampart_config (\d+)m;/.exec(conf);
  return found ? Number(found[1]) : null;
}

export const nginxSettingsSchema = z
  .strictObject({
    /** nginx's -p prefix; pid file and temp directories live under it. */
    prefix: absolutePath,
    httpPorts: z.array(port).max(16),
    httpsPorts: z.array(port).max(16),
    /**
     * The port visitors use for a listen port the agent's `--port-map` moved (the zone's port, the
     * snapshot's number): local → public. A listen port not listed is its own public port. The
     * site firewall matches URLs with the public port (fwUrlMap).
     */
    publicPorts: z
      .array(z.strictObject({ local: port, public: port }))
      .max(32)
      .default([]),
    http2: z.boolean(),
    /**
     * The admin server's unix socket (data-plane pushes, purges): in a directory only the agent's
     * user can enter; the master opens it, no worker connects to it. No TCP port: nothing a
     * customer's origin can point at. At most 100 bytes (the kernel's limit is 107).
     */
    adminSocket: absolutePath.refine((p) => p.length <= 100, 'at most 100 characters (unix socket path)'),
    /** The file holding the node's admin secret (0600): read by the master at start and reload. */
    adminSecretFile: absolutePath,
    /**
     * The machine's own addresses (interfaces and the reported ones): with no listenAddress nginx
     * listens on every address, and no customer origin may be one of them on a listen port.
     */
    ownAddresses: z
      .array(z.string().refine((ip) => isIP(ip) && /^[0-9A-Fa-f:.]+$/.test(ip), 'not an IP literal'))
      .max(256)
      .default([]),
    /** IP literal the public servers bind to; absent = every address (`listen <port>`). */
    listenAddress: z
      .string()
      .refine((ip) => isIP(ip), 'not an IP literal')
      .optional(),
    workerProcesses: z.union([z.literal('auto'), z.number().int().min(1).max(64)]),
    workerConnections: z.number().int().min(64).max(65_536).default(4096),
    /** Absolute path of apps/edge/lua (holds the `rampart` Lua package). */
    luaDir: absolutePath,
    /** Where the agent keeps the geo database as `<sha256>.mmdb` (rampart.firewall_geo); absent: none. */
    geoDir: absolutePath.optional(),
    /** Where the agent keeps the reputation list as `<sha256>.bin` (rampart.firewall_reputation); absent: none. */
    reputationDir: absolutePath.optional(),
    defaultCertificate: z.strictObject({ certPath: absolutePath, keyPath: absolutePath }),
    errorLogPath: absolutePath,
    accessLogPath: absolutePath,
    /**
     * Count a flood's repeated refusals in rampart.refusals instead of logging each (contract
     * edge/refusal-tally.ts). Only for an agent that drains the tallies into the aggregates it ships
     * (the event worker's aggregates): without them a repeat would be in no statistic.
     */
    refusalTallies: z.boolean().default(false),
    /** Size of the `rampart_config` shared dict that holds the data plane (configDictMegabytesFor). */
    configDictMegabytes: z.number().int().min(1).max(CONFIG_DICT_MAX_MB).default(CONFIG_DICT_MIN_MB),
    /** Disk the HTTP cache may use (nginx's cache manager evicts the least recently used beyond it). */
    cacheMaxSizeMegabytes: z.number().int().min(16).max(10_485_760).default(10_240),
    /** Shared memory for cache keys (~8,000 keys per megabyte). */
    cacheKeysMegabytes: z.number().int().min(1).max(4096).default(64),
    proxyConnectTimeoutSeconds: z.number().int().min(1).max(75).default(5),
    proxyReadTimeoutSeconds: z.number().int().min(1).max(3600).default(60),
    proxySendTimeoutSeconds: z.number().int().min(1).max(3600).default(60),
    clientMaxBodyMegabytes: z.number().int().min(1).max(10_240).default(64),
    /**
     * Starts every request id (`<prefix>-<worker pid>-<worker start>-<request serial>`, see rampart.router): the
     * node's id, so ids are unique across the nodes of a control plane.
     */
    requestIdPrefix: z
      .string()
      .regex(/^[a-z0-9]{1,32}$/, 'lower-case letters and digits')
      .default('edge'),
    /**
     * The zone's nginx settings from the snapshot (checked again here against the contract's
     * allowlists). A value they set wins over the agent's own above; one they leave out keeps it.
     */
    tuning: nginxTuningSchema.default({ worker: {}, http: {}, stream: {}, custom: [] }),
    /**
     * The site's layer-4 ports from the snapshot (after the port map), checked again against the
     * contract's schema: integers, protocol and balance keywords, and IP literals only.
     */
    streamPorts: edgeStreamPortsSchema.default([]),
    /**
     * Who may tell the edge the visitor's address (the zone's trust setting, from the snapshot):
     * checked again against the contract's schema — IP literals and CIDRs of our parser, a header
     * from a fixed list — before anything is rendered (realIpLines).
     */
    realIp: edgeRealIpSchema.default(NO_REAL_IP),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<number>();
    const all = [...s.httpPorts, ...s.httpsPorts];
    all.forEach((p) => {
      if (seen.has(p)) ctx.addIssue({ code: 'custom', path: ['httpPorts'], message: `port ${p} is used twice` });
      seen.add(p);
    });
    // A layer-4 port holds its number for TCP and UDP alike (the control plane keeps them apart).
    s.streamPorts.forEach((p, i) => {
      if (seen.has(p.port)) {
        ctx.addIssue({ code: 'custom', path: ['streamPorts', i, 'port'], message: `port ${p.port} is used twice` });
      }
      seen.add(p.port);
    });
    const mapped = new Set<number>();
    s.publicPorts.forEach((m, i) => {
      if (mapped.has(m.local)) {
        ctx.addIssue({ code: 'custom', path: ['publicPorts', i, 'local'], message: `port ${m.local} is mapped twice` });
      }
      mapped.add(m.local);
    });
    if (s.httpPorts.length + s.httpsPorts.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['httpPorts'], message: 'at least one listen port' });
    }
  });

export type NginxSettingsInput = z.input<typeof nginxSettingsSchema>;
export type NginxSettings = z.output<typeof nginxSettingsSchema>;

/**
 * Test-only: raw text added to every public server block, used to inject a directive nginx -t
 * refuses or a location that throws in Lua. Never fed from settings or data-plane documents.
 */
export interface RenderTestHooks {
  serverSnippet?: string;
  /**
   * Tests only: Lua run in the master before the rampart modules load (fault injection, e.g. an
   * ngx.re.find that fails on a marker). Never set by the agent.
   */
  initLua?: string;
}

/** Where the renderer puts the pid file and temp directories (all inside the prefix). */
export function prefixLayout(prefix: string) {
  return {
    pidFile: `${prefix}/logs/nginx.pid`,
    logsDir: `${prefix}/logs`,
    tempDir: `${prefix}/temp`,
    cacheDir: `${prefix}/cache`,
    tempPaths: {
      client_body_temp_path: `${prefix}/temp/client_body`,
      proxy_temp_path: `${prefix}/temp/proxy`,
      fastcgi_temp_path: `${prefix}/temp/fastcgi`,
      uwsgi_temp_path: `${prefix}/temp/uwsgi`,
      scgi_temp_path: `${prefix}/temp/scgi`,
    },
  };
}

export const MODULES_DIR = '/usr/lib/nginx/modules';
export const SYSTEM_LUA_PATH = '/usr/share/lua/5.1/?.lua';
export const SYSTEM_LUA_CPATH = '/usr/lib/x86_64-linux-gnu/lua/5.1/?.so';
