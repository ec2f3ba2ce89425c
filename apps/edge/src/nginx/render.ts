import { isIP } from '@rampart/contract';
import { z } from 'zod';
import { DATA_PLANE_LIMITS } from '../data-plane/schema.js';

/**
 * Renders nginx.conf from zone-level settings only: one generic server per listen port, whatever
 * the number of domains. Per-domain data never passes through here; it is pushed into Lua shared
 * memory (see lua/rampart/admin.lua). Every rendered value is a number, a keyword or a path the
 * agent chose, each checked by allowlist, so nothing in this file can inject a directive.
 */

const SAFE_PATH_RE = /^\/[A-Za-z0-9._/-]*$/;

const absolutePath = z
  .string()
  .max(1024)
  .regex(SAFE_PATH_RE, 'an absolute path of [A-Za-z0-9._/-] only')
  .refine((p) => !p.split('/').includes('..'), 'no ".." segments');
const port = z.number().int().min(1).max(65_535);

export const nginxSettingsSchema = z
  .strictObject({
    /** nginx's -p prefix; pid file and temp directories live under it. */
    prefix: absolutePath,
    httpPorts: z.array(port).max(16),
    httpsPorts: z.array(port).max(16),
    http2: z.boolean(),
    /** Loopback-only admin endpoint that receives data-plane pushes. */
    adminPort: port,
    /** IP literal the public servers bind to; absent = every address (`listen <port>`). */
    listenAddress: z
      .string()
      .refine((ip) => isIP(ip), 'not an IP literal')
      .optional(),
    workerProcesses: z.union([z.literal('auto'), z.number().int().min(1).max(64)]),
    workerConnections: z.number().int().min(64).max(65_536).default(4096),
    /** Absolute path of apps/edge/lua (holds the `rampart` Lua package). */
    luaDir: absolutePath,
    defaultCertificate: z.strictObject({ certPath: absolutePath, keyPath: absolutePath }),
    errorLogPath: absolutePath,
    accessLogPath: absolutePath,
    /** Size of the `rampart_config` shared dict that holds the data plane (two generations at a push). */
    configDictMegabytes: z.number().int().min(1).max(4096).default(256),
    proxyConnectTimeoutSeconds: z.number().int().min(1).max(75).default(5),
    proxyReadTimeoutSeconds: z.number().int().min(1).max(3600).default(60),
    proxySendTimeoutSeconds: z.number().int().min(1).max(3600).default(60),
    clientMaxBodyMegabytes: z.number().int().min(1).max(10_240).default(64),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<number>();
    const all = [...s.httpPorts, ...s.httpsPorts, s.adminPort];
    all.forEach((p) => {
      if (seen.has(p)) ctx.addIssue({ code: 'custom', path: ['httpPorts'], message: `port ${p} is used twice` });
      seen.add(p);
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
}

/** Where the renderer puts the pid file and temp directories (all inside the prefix). */
export function prefixLayout(prefix: string) {
  return {
    pidFile: `${prefix}/logs/nginx.pid`,
    logsDir: `${prefix}/logs`,
    tempDir: `${prefix}/temp`,
    tempPaths: {
      client_body_temp_path: `${prefix}/temp/client_body`,
      proxy_temp_path: `${prefix}/temp/proxy`,
      fastcgi_temp_path: `${prefix}/temp/fastcgi`,
      uwsgi_temp_path: `${prefix}/temp/uwsgi`,
      scgi_temp_path: `${prefix}/temp/scgi`,
    },
  };
}

const MODULES_DIR = '/usr/lib/nginx/modules';
const SYSTEM_LUA_PATH = '/usr/share/lua/5.1/?.lua';
const SYSTEM_LUA_CPATH = '/usr/lib/x86_64-linux-gnu/lua/5.1/?.so';

// Every variable quoted: with escape=json an empty unquoted value breaks the line (edge-notes).
const ACCESS_LOG_FORMAT = [
  ['time', '$time_iso8601'],
  ['request_id', '$request_id'],
  ['remote_addr', '$remote_addr'],
  ['scheme', '$scheme'],
  ['server_port', '$server_port'],
  ['host', '$host'],
  ['method', '$request_method'],
  ['uri', '$request_uri'],
  ['status', '$status'],
  ['bytes_sent', '$bytes_sent'],
  ['request_time', '$request_time'],
  ['upstream_addr', '$upstream_addr'],
  ['upstream_status', '$upstream_status'],
  ['upstream_response_time', '$upstream_response_time'],
  ['domain_id', '$rampart_domain_id'],
  ['user_agent', '$http_user_agent'],
]
  .map(([key, value]) => `"${key}":"${value}"`)
  .join(',');

/** Statuses the router answers with a page of its own (see lua/rampart/router.lua). */
const ROUTER_PAGES = [403, 404, 503] as const;
/** Every status the edge answers with its own page. */
const PAGE_STATUSES = [...ROUTER_PAGES, 500, 502, 504] as const;
/** forceSSL redirect codes the router may answer (the data plane's forceSSLCode). */
const REDIRECT_CODES = [301, 302, 307, 308] as const;

function listenAddress(s: NginxSettings, p: number): string {
  if (s.listenAddress === undefined) return String(p);
  return isIP(s.listenAddress) && s.listenAddress.includes(':')
    ? `[${s.listenAddress}]:${p}`
    : `${s.listenAddress}:${p}`;
}

function publicServer(s: NginxSettings, p: number, tls: boolean, hooks: RenderTestHooks): string[] {
  const firstHttpsPort = s.httpsPorts[0];
  const listen = tls
    ? `listen ${listenAddress(s, p)} ssl${s.http2 ? ' http2' : ''} default_server;`
    : `listen ${listenAddress(s, p)} default_server;`;
  return [
    '  server {',
    `    ${listen}`,
    '    server_name _;',
    ...(tls
      ? [
          `    ssl_certificate ${s.defaultCertificate.certPath};`,
          `    ssl_certificate_key ${s.defaultCertificate.keyPath};`,
          '    ssl_certificate_by_lua_block { require("rampart.certs").set_certificate() }',
        ]
      : []),
    // Declared here so Lua can write them; the router fills them per request.
    '    set $rampart_domain_id "";',
    '    set $rampart_origin_scheme "http";',
    '    set $rampart_upstream_host "";',
    '    set $rampart_redirect "";',
    // Where forceSSL redirects: the first HTTPS port (omitted from the URL when it is 443).
    `    set $rampart_https_port "${firstHttpsPort ?? 443}";`,
    '',
    // The edge's own pages: statuses the router returns, and errors reaching the origin.
    ...PAGE_STATUSES.map((code) => `    error_page ${code} = @rampart_${code};`),
    '',
    '    location / {',
    '      set_by_lua_block $rampart_route { return require("rampart.router").route() }',
    // Only `return` inside these `if`s (the one safe use of `if` in a location).
    ...ROUTER_PAGES.map((code) => `      if ($rampart_route = "${code}") { return ${code}; }`),
    ...REDIRECT_CODES.map((code) => `      if ($rampart_route = "${code}") { return ${code} $rampart_redirect; }`),
    '      proxy_pass $rampart_origin_scheme://rampart_$rampart_origin_scheme;',
    '    }',
    ...PAGE_STATUSES.map(
      (code) => `    location @rampart_${code} { content_by_lua_block { require("rampart.pages").send(${code}) } }`,
    ),
    ...(hooks.serverSnippet ? [`    ${hooks.serverSnippet}`] : []),
    '  }',
  ];
}

/** Renders the whole nginx.conf. Throws a ZodError when a setting fails its allowlist. */
export function renderNginxConf(input: NginxSettingsInput, hooks: RenderTestHooks = {}): string {
  const s = nginxSettingsSchema.parse(input);
  const layout = prefixLayout(s.prefix);
  const lines = [
    '# Rendered by @rampart/edge from zone-level settings; per-domain data lives in Lua shared memory.',
    `load_module ${MODULES_DIR}/ndk_http_module.so;`,
    `load_module ${MODULES_DIR}/ngx_http_lua_module.so;`,
    '',
    `worker_processes ${s.workerProcesses};`,
    `pid ${layout.pidFile};`,
    `error_log ${s.errorLogPath} notice;`,
    'worker_shutdown_timeout 30s;',
    '',
    `events { worker_connections ${s.workerConnections}; }`,
    '',
    'http {',
    '  default_type application/octet-stream;',
    '  server_tokens off;',
    '  sendfile on;',
    '  keepalive_timeout 65s;',
    ...Object.entries(layout.tempPaths).map(([directive, dir]) => `  ${directive} ${dir};`),
    `  client_max_body_size ${s.clientMaxBodyMegabytes}m;`,
    '',
    `  log_format rampart_json escape=json '{${ACCESS_LOG_FORMAT}}';`,
    `  access_log ${s.accessLogPath} rampart_json buffer=64k flush=1s;`,
    '',
    `  lua_package_path '${s.luaDir}/?.lua;${SYSTEM_LUA_PATH};;';`,
    `  lua_package_cpath '${SYSTEM_LUA_CPATH};;';`,
    `  lua_shared_dict rampart_config ${s.configDictMegabytes}m;`,
    // Loads the modules in the master (workers inherit them) and touches no data: the shared dict
    // survives a reload and holds what the agent pushed.
    '  init_by_lua_block { require("rampart.init").master() }',
    '',
    '  ssl_protocols TLSv1.2 TLSv1.3;',
    '  ssl_session_cache shared:rampart_ssl:16m;',
    '  ssl_session_timeout 1h;',
    '',
    '  map $http_upgrade $rampart_connection { default upgrade; "" ""; }',
    '  proxy_http_version 1.1;',
    '  proxy_set_header Host $rampart_upstream_host;',
    '  proxy_set_header Connection $rampart_connection;',
    '  proxy_set_header Upgrade $http_upgrade;',
    '  proxy_set_header X-Real-IP $remote_addr;',
    '  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '  proxy_set_header X-Forwarded-Proto $scheme;',
    '  proxy_set_header X-Request-Id $request_id;',
    `  proxy_connect_timeout ${s.proxyConnectTimeoutSeconds}s;`,
    `  proxy_read_timeout ${s.proxyReadTimeoutSeconds}s;`,
    `  proxy_send_timeout ${s.proxySendTimeoutSeconds}s;`,
    '  proxy_next_upstream error timeout;',
    '  proxy_ssl_server_name on;',
    '  proxy_ssl_name $rampart_upstream_host;',
    '  proxy_ssl_protocols TLSv1.2 TLSv1.3;',
    '',
    // The peers come from Lua per request; 0.0.0.1 is a placeholder nginx never connects to.
    // balancer_by_lua must precede keepalive, which wraps it.
    '  upstream rampart_http {',
    '    server 0.0.0.1;',
    '    balancer_by_lua_block { require("rampart.balancer").balance() }',
    '    keepalive 256;',
    '    keepalive_timeout 60s;',
    '  }',
    // No keepalive for HTTPS origins: nginx pools idle connections by address only, so a TLS
    // connection opened with one domain's SNI could carry another domain's request.
    '  upstream rampart_https {',
    '    server 0.0.0.1;',
    '    balancer_by_lua_block { require("rampart.balancer").balance() }',
    '  }',
    '',
    ...s.httpPorts.flatMap((p) => publicServer(s, p, false, hooks)),
    ...s.httpsPorts.flatMap((p) => publicServer(s, p, true, hooks)),
    '',
    '  server {',
    `    listen 127.0.0.1:${s.adminPort};`,
    '    server_name rampart-admin;',
    '    access_log off;',
    `    client_max_body_size ${DATA_PLANE_LIMITS.documentBytes / (1024 * 1024)}m;`,
    '    client_body_buffer_size 16m;',
    '    allow 127.0.0.1;',
    '    deny all;',
    '    location / { content_by_lua_block { require("rampart.admin").handle() } }',
    '  }',
    '}',
    '',
  ];
  return lines.join('\n');
}
