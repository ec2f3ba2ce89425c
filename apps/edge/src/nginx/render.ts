import { type EdgeStreamPort, isIP, WAF_BODY_LIMIT_BYTES } from '@rampart/contract';
import { DATA_PLANE_LIMITS } from '../data-plane/schema.js';
import { isOwnSocket, type OwnSockets } from './own-sockets.js';
import { accessLogFormat, accessLogName, customLines, fwUrlMap, listenAddress, publicServer } from './public-server.js';
import {
  EDGE_REGEX_MATCH_LIMIT,
  MODULES_DIR,
  type NginxSettings,
  type NginxSettingsInput,
  nginxSettingsSchema,
  prefixLayout,
  type RenderTestHooks,
  SYSTEM_LUA_CPATH,
  SYSTEM_LUA_PATH,
} from './settings.js';

export * from './settings.js';

/**
 * Renders nginx.conf from zone-level settings only: one generic server per listen port, whatever
 * the number of domains. Per-domain data never passes through here; it is pushed into Lua shared
 * memory (see lua/rampart/admin.lua). Every rendered value is a number, a keyword or a path the
 * agent chose, each checked by allowlist, so nothing in this file can inject a directive. The one
 * per-site input, layer-4 ports, is integers, keywords and IP literals (edgeStreamPortsSchema).
 */

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
    // The connection came from a trusted proxy: never escalated to the kernel (rampart.escalate).
    '  geo $realip_remote_addr $rampart_trusted_peer {',
    '    default 0;',
    ...trusted.map((entry) => `    ${entry} 1;`),
    '  }',
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
    ...s.httpPorts.map((p) => `  log_format ${accessLogName(p)} escape=json '{${accessLogFormat('http')}}';`),
    ...s.httpsPorts.map((p) => `  log_format ${accessLogName(p)} escape=json '{${accessLogFormat('https')}}';`),
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
    // Refusal tallies (rampart.refusals): four entries and a queue slot per (minute, domain, address,
    // decision), ~700 bytes, so ~20,000 tallies; a full dict evicts none (the refusal is logged whole).
    '  lua_shared_dict rampart_refusals 16m;',
    // The challenge image pool (rampart.challenge_pool): the current and the previous pool the
    // agent drew, ~1.4 MB each (64 code images, 32 slider puzzles).
    '  lua_shared_dict rampart_challenge_pool 8m;',
    // Code and slider tokens already answered (rampart.challenge): ~40,000 within their 5 minutes;
    // when full the oldest go first.
    '  lua_shared_dict rampart_challenge_used 4m;',
    // Backtracking bound of every ngx.re match (site modules' regex rules): a pathological pattern
    // fails (no match) instead of holding a worker.
    `  lua_regex_match_limit ${EDGE_REGEX_MATCH_LIMIT};`,
    // No malloc_trim every 1,000 requests (the Lua module's default, run in the log phase): it walked
    // the worker's heap and handed pages back that the next requests faulted in again, ~5% of the
    // passing request's CPU in the bench, and plain nginx keeps its freed memory too.
    '  lua_malloc_trim 0;',
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
