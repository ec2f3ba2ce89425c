import {
  CACHE_TTL_SECONDS,
  type EdgeStreamPort,
  edgeRealIpSchema,
  edgeStreamPortsSchema,
  GZIP_TYPES,
  isIP,
  type NginxCustomContext,
  type NginxTuning,
  NO_REAL_IP,
  nginxTuningSchema,
  WAF_BODY_LIMIT_BYTES,
} from '@rampart/contract';
import { z } from 'zod';
import { DATA_PLANE_LIMITS } from '../data-plane/schema.js';
import { isOwnSocket, type OwnSockets } from './own-sockets.js';

/** Backtracking bound of every ngx.re match at the edge (lua_regex_match_limit). */
export const EDGE_REGEX_MATCH_LIMIT = 100_000;

/**
 * Renders nginx.conf from zone-level settings only: one generic server per listen port, whatever
 * the number of domains. Per-domain data never passes through here; it is pushed into Lua shared
 * memory (see lua/rampart/admin.lua). Every rendered value is a number, a keyword or a path the
 * agent chose, each checked by allowlist, so nothing in this file can inject a directive. The one
 * per-site input, layer-4 ports, is integers, keywords and IP literals (edgeStreamPortsSchema).
 */

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

/**
 * The access log of the public server on `port`: one format per server, so the scheme and port
 * are constants rather than variables read per request. Every variable is quoted: with
 * escape=json an empty unquoted value breaks the line (edge-notes). The agent reads each line into
 * a request event (apps/edge/src/agent/event-line.ts, docs/decisions.md "Traffic analytics at the
 * edge"): every field it needs is a variable nginx already has, so the log costs no Lua per request.
 */
const accessLogFormat = (scheme: 'http' | 'https', port: number) =>
  [
    ['time', '$time_iso8601'],
    // The event's time: unix seconds with milliseconds (the same cached clock as $time_iso8601).
    ['msec', '$msec'],
    ['request_id', '$rampart_request_id'],
    ['remote_addr', '$remote_addr'],
    ['scheme', scheme],
    ['server_port', String(port)],
    ['host', '$host'],
    ['method', '$request_method'],
    ['uri', '$request_uri'],
    // "HTTP/1.1", "HTTP/2.0", ...; "" when nginx read no request line.
    ['protocol', '$server_protocol'],
    ['status', '$status'],
    // Bytes read (request line, headers and body) and sent (headers and body).
    ['request_length', '$request_length'],
    ['bytes_sent', '$bytes_sent'],
    ['request_time', '$request_time'],
    ['upstream_addr', '$upstream_addr'],
    ['upstream_status', '$upstream_status'],
    ['upstream_response_time', '$upstream_response_time'],
    ['cache_status', '$upstream_cache_status'],
    ['domain_id', '$rampart_domain_id'],
    // Set by rampart.firewall only when a rule decided the request ("" otherwise).
    ['fw_kind', '$rampart_fw_kind'],
    ['fw_rule', '$rampart_fw_rule'],
    ['fw_action', '$rampart_fw_action'],
    // Set by rampart.waf with a WAF decision: the part of the request (WAF_PARTS), a short
    // redacted excerpt of what matched and the name it was under ("" otherwise).
    ['waf_part', '$rampart_waf_part'],
    ['waf_excerpt', '$rampart_waf_excerpt'],
    ['waf_name', '$rampart_waf_name'],
    ['user_agent', '$http_user_agent'],
    ['referer', '$http_referer'],
  ]
    .map(([key, value]) => `"${key}":"${value}"`)
    .join(',');
const accessLogName = (port: number) => `rampart_json_${port}`;

/**
 * The statuses nginx answers by itself that get the edge's own page (rampart.pages) instead of
 * nginx's stock one: requests it refuses before or around routing (400 malformed, 405 TRACE, 413
 * body over the limit, 414 URI and 494 headers over the buffers, 497 plain HTTP on an HTTPS port,
 * 501 unknown transfer coding), the origin's failures (502, 504), 503 and 500 (a Lua error
 * included). 494 and 497 go out as 400. A request
 * whose body stops coming (408) gets no answer at all: nginx closes the connection.
 */
const ERROR_PAGES = [400, 405, 413, 414, 494, 497, 500, 501, 502, 503, 504] as const;
/**
 * Where error_page sends a status: a URI, not a named location, because nginx cannot hand a
 * request whose request line it could not read (400, 414) to a named location ("empty URI"). The
 * URI starts with "/../", which no client's request can have (nginx resolves dot segments and
 * refuses one above the root with 400), so the location takes no path away from any site.
 */
function errorPageUri(code: number): string {
  return `/../rampart-page/${code}`;
}

/**
 * Not an HTTP status: `return`ed when the router's answer is anything but "proxy to an HTTP
 * origin", so that a single `if` sits on the hot path; its error_page hands over to @rampart_route.
 */
const ROUTE_ELSEWHERE = 599;

/** The zone's custom directives for one context, indented for it. */
function customLines(tuning: NginxTuning, context: NginxCustomContext, indent: string): string[] {
  return tuning.custom.filter((d) => d.context === context).map((d) => `${indent}${d.name} ${d.args.join(' ')};`);
}

/**
 * The stream block: the zone's stream tuning and one server per layer-4 port, proxying to an
 * upstream block of the port's upstreams. Rendered (with the stream module) only when there is
 * a stream value or a port.
 */
function streamBlock(s: NginxSettings): string[] {
  const { proxyConnectTimeoutSeconds: connect, proxyTimeoutSeconds: timeout } = s.tuning.stream;
  if (connect === undefined && timeout === undefined && s.streamPorts.length === 0) return [];
  // An upstream that is one of the node's own listening sockets is left out; a port left with no
  // upstream is not served (nginx refuses an empty upstream block).
  const own = ownSockets(s);
  const ports = s.streamPorts
    .map((p) => ({ ...p, upstreams: p.upstreams.filter((u) => !isOwnSocket(own, u.ip, u.port)) }))
    .filter((p) => p.upstreams.some((u) => !(p.balance === 'ip_hash' && u.backup)));
  return [
    'stream {',
    ...(connect !== undefined ? [`  proxy_connect_timeout ${connect}s;`] : []),
    ...(timeout !== undefined ? [`  proxy_timeout ${timeout}s;`] : []),
    ...ports.flatMap((p) => streamServer(s, p)),
    '}',
    '',
  ];
}

/** An upstream's address: only IP literals reach here (checked by the schema and again below). */
function upstreamAddress(ip: string, port: number): string {
  if (!isIP(ip) || !/^[0-9A-Fa-f:.]+$/.test(ip)) throw new Error('stream upstream is not an IP literal');
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/**
 * One layer-4 port: its upstream block and its server. Client-IP balancing is `hash
 * $remote_addr consistent`, with which nginx allows no backup server: backups are left out then.
 */
function streamServer(s: NginxSettings, p: EdgeStreamPort): string[] {
  const name = `rampart_l4_${p.id}`;
  const hash = p.balance === 'ip_hash';
  const servers = p.upstreams.filter((u) => !(hash && u.backup));
  return [
    `  upstream ${name} {`,
    ...(hash ? ['    hash $remote_addr consistent;'] : []),
    ...servers.map(
      (u) => `    server ${upstreamAddress(u.ip, u.port)} weight=${u.weight}${u.backup ? ' backup' : ''};`,
    ),
    '  }',
    '  server {',
    ...(p.protocol !== 'udp' ? [`    listen ${listenAddress(s, p.port)};`] : []),
    ...(p.protocol !== 'tcp' ? [`    listen ${listenAddress(s, p.port)} udp;`] : []),
    `    proxy_pass ${name};`,
    '  }',
  ];
}

function listenAddress(s: NginxSettings, p: number): string {
  if (s.listenAddress === undefined) return String(p);
  return isIP(s.listenAddress) && s.listenAddress.includes(':')
    ? `[${s.listenAddress}]:${p}`
    : `${s.listenAddress}:${p}`;
}

/**
 * One named location per cache lifetime and origin policy (packages/contract/src/routes/site-cache.ts):
 * the router picks one by name, so no rule change needs a reload. `…_fixed` ignores the origin's
 * Cache-Control and Expires; both keep nginx's refusal to store a response that sets a cookie.
 * The key ($rampart_cache_key) starts with the site's cache generation, so clearing a site is a
 * new generation; the pool (http or https origin) comes from $rampart_cache_pass, an upstream name.
 */
function cacheLocations(): string[] {
  return CACHE_TTL_SECONDS.flatMap((ttl) =>
    [false, true].flatMap((fixed) => [cacheLocation(ttl, fixed, false), cacheLocation(ttl, fixed, true)]),
  );
}

/**
 * One cache location; the `_site` twin (for domains with site modules or site settings) adds the
 * site filters, so cached domains without either run no Lua there.
 */
function cacheLocation(ttl: number, fixed: boolean, site: boolean): string {
  return [
    `    location ${cacheLocationName(ttl, fixed)}${site ? '_site' : ''} {`,
    ...(site ? SITE_FILTERS : []),
    '      proxy_cache rampart_cache;',
    '      proxy_cache_key $rampart_cache_key;',
    `      proxy_cache_valid 200 206 301 302 ${ttl}s;`,
    ...(fixed ? ['      proxy_ignore_headers Cache-Control Expires X-Accel-Expires;'] : []),
    '      proxy_cache_lock on;',
    '      proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504;',
    '      add_header X-Cache-Status $upstream_cache_status always;',
    '      proxy_pass $rampart_cache_pass;',
    '    }',
  ].join('\n');
}

/**
 * The filters of the locations for domains with site modules or site settings (compression and
 * error pages, packages/contract/src/routes/site-settings.ts): fixed directives (gzip takes no
 * variables). gzip is on for every offered type; rampart.filters' header filter runs the modules'
 * response headers and rampart.settings' filter, which runs before nginx's gzip filter, vetoes what
 * the site did not ask for (everything, for a site without compression) and swaps in the site's
 * error pages.
 */
const SITE_FILTERS = [
  '      gzip on;',
  // text/html is always compressed when gzip is on; naming it again is a warning.
  `      gzip_types ${GZIP_TYPES.filter((t) => t !== 'text/html').join(' ')};`,
  '      gzip_min_length 0;',
  '      gzip_proxied any;',
  '      gzip_vary on;',
  '      header_filter_by_lua_block { require("rampart.filters").header() }',
  '      body_filter_by_lua_block { require("rampart.filters").body() }',
];

/** The locations of sites with compression or pages and no cache rule for the request. */
function siteLocations(): string[] {
  return (['http', 'https'] as const).map((scheme) =>
    [
      `    location @rampart_site_${scheme} {`,
      ...SITE_FILTERS,
      `      proxy_pass ${scheme}://rampart_${scheme};`,
      '    }',
    ].join('\n'),
  );
}

/** The named location for a lifetime (seconds) and origin policy; the router builds the same name. */
function cacheLocationName(ttl: number, fixed: boolean): string {
  return `@rampart_cache_${ttl}${fixed ? '_fixed' : ''}`;
}

function publicServer(s: NginxSettings, p: number, tls: boolean, hooks: RenderTestHooks): string[] {
  // With the PROXY protocol on, every connection to the public ports starts with a PROXY header.
  const proxy = s.realIp.proxyProtocol ? ' proxy_protocol' : '';
  const listen = tls
    ? `listen ${listenAddress(s, p)} ssl${s.http2 ? ' http2' : ''}${proxy} default_server;`
    : `listen ${listenAddress(s, p)}${proxy} default_server;`;
  return [
    '  server {',
    `    ${listen}`,
    '    server_name _;',
    // The servers share one file and its buffer (nginx opens a path once).
    `    access_log ${s.accessLogPath} ${accessLogName(p)} buffer=64k flush=1s;`,
    ...(tls
      ? [
          `    ssl_certificate ${s.defaultCertificate.certPath};`,
          `    ssl_certificate_key ${s.defaultCertificate.keyPath};`,
          '    ssl_certificate_by_lua_block { require("rampart.certs").set_certificate() }',
        ]
      : []),
    ...ERROR_PAGES.map((code) => `    error_page ${code} = ${errorPageUri(code)};`),
    `    error_page ${ROUTE_ELSEWHERE} = @rampart_route;`,
    // Every location but the hot path is reached through error_page (599 → @rampart_route →
    // ngx.exec); without this nginx would not apply the error pages a second time there, and an
    // origin failure in them would get nginx's stock page.
    '    recursive_error_pages on;',
    '',
    // The hot path: one Lua call that routes by Host (rampart.router), one `if` (the one safe use:
    // only `return` inside), and a proxy to the HTTP origin pool balanced in Lua.
    '    location / {',
    '      set_by_lua_block $rampart_route { return rampart.route() }',
    `      if ($rampart_route) { return ${ROUTE_ELSEWHERE}; }`,
    '      proxy_pass http://rampart_http;',
    '    }',
    // Everything else the router answered: the edge's own page, a forceSSL redirect, or an HTTPS
    // origin (the method and body are kept: a named location is not a new request).
    // (or, after the WAF read a body or a per-second limit waited, the HTTP origin: elsewhere()
    // sets the pool here rather than handing the request on to @rampart_http, one internal
    // redirect less for every request with a body on a WAF's domain)
    '    location @rampart_route {',
    '      set $rampart_route_pass https://rampart_https;',
    '      rewrite_by_lua_block { require("rampart.router").elsewhere() }',
    '      proxy_pass $rampart_route_pass;',
    '    }',
    // A request for an HTTP origin that a per-second firewall limit delayed: @rampart_route waited
    // and hands it on here (the hot path's proxy, reached without the router's set_by_lua).
    '    location @rampart_http {',
    '      proxy_pass http://rampart_http;',
    '    }',
    // Domains with site modules (rampart.modules): redirects, CORS preflights and the request to
    // the origin in the rewrite phase, response headers (and the site settings' filters) in the
    // filters; the origin pool (http or https) comes from $rampart_cache_pass like the cache
    // locations'.
    '    location @rampart_modules {',
    '      rewrite_by_lua_block { require("rampart.modules").rewrite() }',
    ...SITE_FILTERS,
    '      proxy_pass $rampart_cache_pass;',
    '    }',
    ...ERROR_PAGES.map(
      (code) =>
        `    location = ${errorPageUri(code)} { internal; content_by_lua_block { require("rampart.pages").send_error(${code}) } }`,
    ),
    ...cacheLocations(),
    ...siteLocations(),
    // Declares the variables the router writes (see the note at uninitialized_variable_warn).
    '    location @rampart_declarations {',
    '      set $rampart_domain_id "";',
    '      set $rampart_upstream_host "";',
    '      set $rampart_request_id "";',
    '      set $rampart_cache_key "";',
    '      set $rampart_cache_pass "";',
    '      set $rampart_fw_kind "";',
    '      set $rampart_fw_rule "";',
    '      set $rampart_fw_action "";',
    '      set $rampart_waf_part "";',
    '      set $rampart_waf_excerpt "";',
    '      set $rampart_waf_name "";',
    '      return 404;',
    '    }',
    ...customLines(s.tuning, 'server', '    '),
    ...(hooks.serverSnippet ? [`    ${hooks.serverSnippet}`] : []),
    '  }',
  ];
}

/**
 * `$rampart_fw_url`, the absolute URL the site firewall's patterns are matched against
 * (rampart.firewall, packages/contract/src/routes/firewall-lists.ts): `scheme://host[:port]/path?query`
 * with the port visitors use (the zone's, before the agent's port map) and without it when it is the
 * scheme's default. One entry per listen port, keyed by the local port nginx reports; nginx builds
 * the value only when the firewall reads it (a domain with rules, a rule whose address and method
 * matched), never for other requests.
 */
function fwUrlMap(s: NginxSettings): string[] {
  const publicPort = (p: number) => s.publicPorts.find((m) => m.local === p)?.public ?? p;
  const entry = (scheme: 'http' | 'https', p: number) => {
    const pub = publicPort(p);
    const authority = pub === (scheme === 'http' ? 80 : 443) ? '$host' : `$host:${pub}`;
    return `    ${p} "${scheme}://${authority}$request_uri";`;
  };
  return [
    '  map $server_port $rampart_fw_url {',
    ...s.httpPorts.map((p) => entry('http', p)),
    ...s.httpsPorts.map((p) => entry('https', p)),
    '  }',
  ];
}

/**
 * The realip module's directives for the zone's trust setting (docs/decisions.md "The visitor's
 * address behind proxies"): a header or PROXY address is believed only on a connection from a
 * trusted proxy, the right-most untrusted address of X-Forwarded-For wins (`real_ip_recursive`),
 * and nginx replaces the client address for the whole request ($remote_addr,
 * $binary_remote_addr: the firewall, the zone limits and the access log). Nobody trusted: nothing.
 */
function realIpLines(s: NginxSettings): string[] {
  const { trusted, header, proxyProtocol } = s.realIp;
  if (trusted.length === 0) return [];
  for (const entry of trusted) {
    // The schema parsed each entry; this keeps anything but an address or CIDR out of the file.
    if (!/^[0-9A-Fa-f:.]+(\/[0-9]{1,3})?$/.test(entry)) throw new Error('trusted proxy is not an IP or CIDR');
  }
  return [
    ...trusted.map((entry) => `  set_real_ip_from ${entry};`),
    `  real_ip_header ${proxyProtocol ? 'proxy_protocol' : header};`,
    '  real_ip_recursive on;',
  ];
}

/** Whether nginx listens on every address (no listen address, or an unspecified one). */
function listensEverywhere(s: NginxSettings): boolean {
  return s.listenAddress === undefined || s.listenAddress === '0.0.0.0' || s.listenAddress === '::';
}

/**
 * The Lua options of the master's init (rampart.init): the admin secret's file, and the node's own
 * listening sockets no customer origin may be (rampart.node_self): every listen port (public and
 * layer-4) on the listen address, or, listening on every address, on loopback and the machine's
 * own addresses. Paths, integers and IP literals only (allowlisted above), each quoted.
 */
function ownSockets(s: NginxSettings): OwnSockets {
  const everyAddress = listensEverywhere(s);
  return {
    ports: new Set([...s.httpPorts, ...s.httpsPorts, ...s.streamPorts.map((p) => p.port)]),
    addresses: everyAddress ? s.ownAddresses : [s.listenAddress as string],
    everyAddress,
  };
}

function initOptions(s: NginxSettings): string {
  const own = ownSockets(s);
  const ports = [...own.ports];
  const addresses = own.addresses;
  const everywhere = own.everyAddress;
  for (const ip of addresses) {
    if (!/^[0-9A-Fa-f:.]+$/.test(ip)) throw new Error('own address is not an IP literal');
  }
  const fields = [
    `admin_secret_file = "${s.adminSecretFile}"`,
    `own_ports = { ${ports.join(', ')} }`,
    `own_addresses = { ${addresses.map((a) => `"${a}"`).join(', ')} }`,
    `every_address = ${everywhere}`,
    // Where the agent keeps the geo database (rampart.firewall_geo).
    ...(s.geoDir !== undefined ? [`geo_dir = "${s.geoDir}"`] : []),
    // Where the agent keeps the reputation list (rampart.firewall_reputation).
    ...(s.reputationDir !== undefined ? [`reputation_dir = "${s.reputationDir}"`] : []),
  ];
  return `{ ${fields.join(', ')} }`;
}

/** Renders the whole nginx.conf. Throws a ZodError when a setting fails its allowlist. */
export function renderNginxConf(input: NginxSettingsInput, hooks: RenderTestHooks = {}): string {
  const s = nginxSettingsSchema.parse(input);
  const layout = prefixLayout(s.prefix);
  const { worker, http } = s.tuning;
  const stream = streamBlock(s);
  const lines = [
    '# Rendered by @rampart/edge from zone-level settings; per-domain data lives in Lua shared memory.',
    `load_module ${MODULES_DIR}/ndk_http_module.so;`,
    `load_module ${MODULES_DIR}/ngx_http_lua_module.so;`,
    // ngx_cache_purge (libnginx-mod-http-cache-purge): removes one cache key, file and shared-memory
    // entry together, for URL purges (rampart.purge).
    `load_module ${MODULES_DIR}/ngx_http_cache_purge_module.so;`,
    ...(stream.length > 0 ? [`load_module ${MODULES_DIR}/ngx_stream_module.so;`] : []),
    '',
    `worker_processes ${worker.workerProcesses ?? s.workerProcesses};`,
    `pid ${layout.pidFile};`,
    `error_log ${s.errorLogPath} notice;`,
    `worker_shutdown_timeout ${worker.workerShutdownTimeoutSeconds ?? 30}s;`,
    ...customLines(s.tuning, 'main', ''),
    '',
    'events {',
    `  worker_connections ${worker.workerConnections ?? s.workerConnections};`,
    ...customLines(s.tuning, 'events', '  '),
    '}',
    '',
    ...stream,
    'http {',
    '  default_type application/octet-stream;',
    '  server_tokens off;',
    '  sendfile on;',
    `  keepalive_timeout ${http.keepaliveTimeoutSeconds ?? 65}s;`,
    `  keepalive_requests ${http.keepaliveRequests ?? 1000};`,
    `  client_header_timeout ${http.clientHeaderTimeoutSeconds ?? 60}s;`,
    `  client_body_timeout ${http.clientBodyTimeoutSeconds ?? 60}s;`,
    `  send_timeout ${http.sendTimeoutSeconds ?? 60}s;`,
    ...Object.entries(layout.tempPaths).map(([directive, dir]) => `  ${directive} ${dir};`),
    `  client_max_body_size ${http.clientMaxBodyMegabytes ?? s.clientMaxBodyMegabytes}m;`,
    // The WAF (rampart.waf) reads bodies up to WAF_BODY_LIMIT_BYTES (128 KB) from memory: a body up to
    // that size stays in one buffer (a larger one goes to a temp file, and the WAF module's fail
    // mode decides). nginx allocates min(Content-Length, this) per request with a body. A zone that
    // sets its own (custom http directive) keeps it: the WAF then reads a spilled body from its file.
    ...(s.tuning.custom.some((d) => d.context === 'http' && d.name === 'client_body_buffer_size')
      ? []
      : [`  client_body_buffer_size ${Math.ceil(WAF_BODY_LIMIT_BYTES / 1024) + 4}k;`]),
    ...customLines(s.tuning, 'http', '  '),
    '',
    ...s.httpPorts.map((p) => `  log_format ${accessLogName(p)} escape=json '{${accessLogFormat('http', p)}}';`),
    ...s.httpsPorts.map((p) => `  log_format ${accessLogName(p)} escape=json '{${accessLogFormat('https', p)}}';`),
    // The node's tag, read once per worker by the router to build request ids (rampart.router).
    `  map $pid $rampart_node { default "${s.requestIdPrefix}"; }`,
    '',
    // Variables the router (Lua) writes. `set` declares them; it runs only in this location, which
    // no request reaches (nginx declares variables for the whole http block but runs `set` only
    // where it stands), so the hot path pays nothing for the declarations. Unset reads are "".
    '  uninitialized_variable_warn off;',
    `  map $rampart_upstream_host $rampart_host_header { "" $host; default $rampart_upstream_host; }`,
    // Where forceSSL redirects: the first HTTPS port (omitted from the URL when it is 443).
    `  map $pid $rampart_https_port { default "${s.httpsPorts[0] ?? 443}"; }`,
    ...fwUrlMap(s),
    '',
    ...realIpLines(s),
    `  lua_package_path '${s.luaDir}/?.lua;${SYSTEM_LUA_PATH};;';`,
    `  lua_package_cpath '${SYSTEM_LUA_CPATH};;';`,
    `  lua_shared_dict rampart_config ${s.configDictMegabytes}m;`,
    // Counters and bans of the zone limits (rampart.limits): ~100,000 client addresses; when full,
    // the least recently used entries go first.
    '  lua_shared_dict rampart_limits 16m;',
    // Counters and bans of the site firewall's frequency limits (rampart.firewall_frequency): one
    // key per rule and client address it covers (plus one per ban), ~128 bytes each, so ~250,000
    // (rule, address) pairs. When full, the least recently used go first: a counter that starts
    // again or a ban that ends early lets more requests through, never refuses one wrongly.
    '  lua_shared_dict rampart_firewall 32m;',
    // The block list (rampart.blocklist): one key per blocked (site, client address), ~90 bytes
    // with the dict's node, 128 after slab rounding, so ~120,000 blocks. A full dict refuses new blocks (their
    // request is still dropped) rather than evicting ones the control plane lists.
    '  lua_shared_dict rampart_blocklist 16m;',
    // The block reports the agent has not collected yet: at most 10,000 events, ~256 bytes each in the dict.
    '  lua_shared_dict rampart_block_events 4m;',
    // The challenge image pool (rampart.challenge_pool): the current and the previous pool the
    // agent drew, ~1.4 MB each (64 code images, 32 slider puzzles).
    '  lua_shared_dict rampart_challenge_pool 8m;',
    // Code and slider tokens already answered (rampart.challenge): ~40,000 within their 5 minutes;
    // when full the oldest go first.
    '  lua_shared_dict rampart_challenge_used 4m;',
    // Backtracking bound of every ngx.re match (site modules' regex rules): a pathological pattern
    // fails (no match) instead of holding a worker.
    `  lua_regex_match_limit ${EDGE_REGEX_MATCH_LIMIT};`,
    `  proxy_cache_path ${layout.cacheDir} levels=1:2 keys_zone=rampart_cache:${s.cacheKeysMegabytes}m max_size=${s.cacheMaxSizeMegabytes}m inactive=7d use_temp_path=off;`,
    // Loads the modules in the master (workers inherit them) and touches no data: the shared dict
    // survives a reload and holds what the agent pushed.
    `  init_by_lua_block { ${hooks.initLua ? `${hooks.initLua} ` : ''}require("rampart.init").master(${initOptions(s)}) }`,
    '',
    '  ssl_protocols TLSv1.2 TLSv1.3;',
    '  ssl_session_cache shared:rampart_ssl:16m;',
    '  ssl_session_timeout 1h;',
    '',
    '  map $http_upgrade $rampart_connection { default upgrade; "" ""; }',
    '  proxy_http_version 1.1;',
    '  proxy_set_header Host $rampart_host_header;',
    '  proxy_set_header Connection $rampart_connection;',
    '  proxy_set_header Upgrade $http_upgrade;',
    '  proxy_set_header X-Real-IP $remote_addr;',
    '  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '  proxy_set_header X-Forwarded-Proto $scheme;',
    '  proxy_set_header X-Request-Id $rampart_request_id;',
    `  proxy_connect_timeout ${http.proxyConnectTimeoutSeconds ?? s.proxyConnectTimeoutSeconds}s;`,
    `  proxy_read_timeout ${http.proxyReadTimeoutSeconds ?? s.proxyReadTimeoutSeconds}s;`,
    `  proxy_send_timeout ${http.proxySendTimeoutSeconds ?? s.proxySendTimeoutSeconds}s;`,
    '  proxy_next_upstream error timeout;',
    '  proxy_ssl_server_name on;',
    '  proxy_ssl_name $rampart_host_header;',
    '  proxy_ssl_protocols TLSv1.2 TLSv1.3;',
    '',
    // The peers come from Lua per request; 0.0.0.1 is a placeholder nginx never connects to.
    // balancer_by_lua must precede keepalive, which wraps it.
    '  upstream rampart_http {',
    '    server 0.0.0.1;',
    '    balancer_by_lua_block { rampart.balance() }',
    '    keepalive 256;',
    '    keepalive_timeout 60s;',
    '  }',
    // No keepalive for HTTPS origins: nginx pools idle connections by address only, so a TLS
    // connection opened with one domain's SNI could carry another domain's request.
    '  upstream rampart_https {',
    '    server 0.0.0.1;',
    '    balancer_by_lua_block { rampart.balance() }',
    '  }',
    '',
    ...s.httpPorts.flatMap((p) => publicServer(s, p, false, hooks)),
    ...s.httpsPorts.flatMap((p) => publicServer(s, p, true, hooks)),
    '',
    '  server {',
    `    listen unix:${s.adminSocket};`,
    '    server_name rampart-admin;',
    '    access_log off;',
    `    client_max_body_size ${DATA_PLANE_LIMITS.documentBytes / (1024 * 1024)}m;`,
    '    client_body_buffer_size 16m;',
    '    allow unix:;',
    '    deny all;',
    '    location / { content_by_lua_block { require("rampart.admin").handle() } }',
    // One cache key per subrequest from rampart.purge, which sets $rampart_purge_key.
    '    location = /rampart-purge { internal; proxy_cache_purge rampart_cache $rampart_purge_key; }',
    '    location @rampart_admin_declarations { set $rampart_purge_key ""; return 404; }',
    '  }',
    '}',
    '',
  ];
  return lines.join('\n');
}
