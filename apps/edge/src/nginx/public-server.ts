import { CACHE_TTL_SECONDS, GZIP_TYPES, isIP, type NginxCustomContext, type NginxTuning } from '@rampart/contract';
import type { NginxSettings, RenderTestHooks } from './settings.js';

// The public servers of nginx.conf (render.ts): their access log, error pages, the hot path and the
// named locations the router hands requests to.

/**
 * The access log of the public server on `port`: one format per server, so the scheme is a
 * constant rather than a variable read per request. The line is formatted and written for every
 * request: it carries the fields the request event is made of and nothing more
 * (access-log-format.test.ts). Every variable is quoted: with escape=json an empty unquoted value
 * breaks the line (edge-notes). The agent reads each line into
 * a request event (apps/edge/src/agent/events/event-line.ts, docs/decisions.md "Traffic analytics at the
 * edge"): every field it needs is a variable nginx already has, so the log costs no Lua per request.
 */
export const accessLogFormat = (scheme: 'http' | 'https') =>
  [
    // The event's time: unix seconds with milliseconds (nginx's cached clock).
    ['msec', '$msec'],
    ['request_id', '$rampart_request_id'],
    ['remote_addr', '$remote_addr'],
    ['scheme', scheme],
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
export const accessLogName = (port: number) => `rampart_json_${port}`;

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
export function customLines(tuning: NginxTuning, context: NginxCustomContext, indent: string): string[] {
  return tuning.custom.filter((d) => d.context === context).map((d) => `${indent}${d.name} ${d.args.join(' ')};`);
}

export function listenAddress(s: NginxSettings, p: number): string {
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

/** The access log of the router's refusal blocks: the server's, for the refusals rampart.refusals does not count. */
function refusalLog(s: NginxSettings, p: number): string[] {
  if (!s.refusalTallies) return [];
  return [
    '        log_by_lua_block { rampart.refusal() }',
    `        access_log ${s.accessLogPath} ${accessLogName(p)} buffer=64k flush=1s if=$rampart_log_refusal;`,
  ];
}

export function publicServer(s: NginxSettings, p: number, tls: boolean, hooks: RenderTestHooks): string[] {
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
    // A firewall's deny and drop are answered here, in the phase that decided them (no internal
    // redirect, no second Lua phase): the page the router chose (pages.body) with pages.send's
    // headers, its type from default_type (no `types`: a path's extension does not choose it; a
    // proxied response keeps the origin's type, default_type applies only to nginx's own answers).
    '      types { }',
    '      default_type "text/html; charset=utf-8";',
    // Each refusal block logs only the first of a flood's refusals (rampart.refusals counts the rest:
    // its log phase sets $rampart_log_refusal for the ones to log). An access_log here replaces the
    // server's; same file, format and buffer.
    '      if ($rampart_route = 4030) {',
    '        add_header Cache-Control no-store always;',
    '        add_header Vary Accept-Language always;',
    ...refusalLog(s, p),
    '        return 403 "$rampart_page$rampart_page_id$rampart_page_end";',
    '      }',
    '      if ($rampart_route = 444) {',
    ...refusalLog(s, p),
    '        return 444;',
    '      }',
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
    '      set $rampart_page "";',
    '      set $rampart_page_id "";',
    '      set $rampart_page_end "";',
    '      set $rampart_log_refusal "";',
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
export function fwUrlMap(s: NginxSettings): string[] {
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
