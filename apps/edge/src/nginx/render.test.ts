import { describe, expect, it } from 'vitest';
import {
  CONFIG_DICT_MAX_MB,
  CONFIG_DICT_MIN_MB,
  configDictMegabytesFor,
  declaredConfigDictMegabytes,
  type NginxSettingsInput,
  prefixLayout,
  renderNginxConf,
} from './render.js';

const BASE: NginxSettingsInput = {
  prefix: '/var/lib/rampart/nginx',
  httpPorts: [80, 8080],
  httpsPorts: [443],
  http2: true,
  adminSocket: '/var/lib/rampart/admin/admin.sock',
  adminSecretFile: '/var/lib/rampart/admin.secret',
  workerProcesses: 'auto',
  luaDir: '/opt/rampart/apps/edge/lua',
  defaultCertificate: { certPath: '/var/lib/rampart/certs/default.crt', keyPath: '/var/lib/rampart/certs/default.key' },
  errorLogPath: '/var/lib/rampart/nginx/logs/error.log',
  accessLogPath: '/var/lib/rampart/nginx/logs/access.log',
};

function render(overrides: Record<string, unknown> = {}): string {
  return renderNginxConf({ ...BASE, ...overrides } as NginxSettingsInput);
}

/** The top-level `server {` blocks of a rendered config with their listen lines. */
function servers(conf: string): string[][] {
  return conf
    .split('\n  server {')
    .slice(1)
    .map((block) => [...block.matchAll(/^\s*listen ([^;]+);/gm)].map((m) => m[1] ?? ''));
}

describe('renderNginxConf', () => {
  it('keeps bodies up to the WAF inspection limit in memory, unless the zone sets its own buffer', () => {
    expect(render()).toContain('  client_body_buffer_size 132k;');
    const custom = render({
      tuning: {
        worker: {},
        http: {},
        stream: {},
        custom: [{ context: 'http', name: 'client_body_buffer_size', args: ['16k'] }],
      },
    });
    expect(custom.match(/client_body_buffer_size/g)?.length).toBe(2); // the zone's, and the admin server's
    expect(custom).toContain('  client_body_buffer_size 16k;');
    expect(custom).not.toContain('client_body_buffer_size 132k;');
  });

  it('renders one generic server per listen port plus the loopback admin server', () => {
    const conf = render();
    expect(servers(conf)).toEqual([
      ['80 default_server'],
      ['8080 default_server'],
      ['443 ssl http2 default_server'],
      ['unix:/var/lib/rampart/admin/admin.sock'],
    ]);
    expect(conf.match(/server_name _;/g)).toHaveLength(3);
  });

  it('binds the public servers to the configured address, IPv6 in brackets', () => {
    expect(servers(render({ listenAddress: '127.0.0.1', httpPorts: [8080], httpsPorts: [] }))).toEqual([
      ['127.0.0.1:8080 default_server'],
      ['unix:/var/lib/rampart/admin/admin.sock'],
    ]);
    expect(render({ listenAddress: '::1', http2: false })).toContain('listen [::1]:443 ssl default_server;');
  });

  it('loads the modules by absolute path, ndk before lua, before events', () => {
    const conf = render();
    const ndk = conf.indexOf('load_module /usr/lib/nginx/modules/ndk_http_module.so;');
    const lua = conf.indexOf('load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;');
    expect(ndk).toBeGreaterThanOrEqual(0);
    expect(lua).toBeGreaterThan(ndk);
    expect(conf.indexOf('events {')).toBeGreaterThan(lua);
  });

  it('runs the site modules and site settings phases only in the locations those domains are routed to', () => {
    const conf = render();
    const block = (name: string) => conf.slice(conf.indexOf(`location ${name} {`)).split('\n    }')[0] ?? '';
    expect(block('/')).not.toContain('_by_lua_block { require("rampart.modules")');
    expect(block('@rampart_cache_3600')).not.toContain('rampart.filters');
    expect(block('@rampart_cache_3600')).not.toContain('gzip on');
    expect(block('@rampart_modules')).toContain('rewrite_by_lua_block { require("rampart.modules").rewrite() }');
    for (const name of ['@rampart_modules', '@rampart_site_http', '@rampart_cache_3600_site']) {
      expect(block(name)).toContain('header_filter_by_lua_block { require("rampart.filters").header() }');
      expect(block(name)).toContain('gzip on;');
    }
    expect(block('@rampart_cache_60_fixed_site')).toContain('proxy_ignore_headers');
    expect(conf).toContain('lua_regex_match_limit 100000;');
    expect(conf).toContain('lua_malloc_trim 0;');
    // Where a request for an HTTP origin goes after a firewall delay: the hot path's proxy, no Lua.
    expect(block('@rampart_http')).toBe('location @rampart_http {\n      proxy_pass http://rampart_http;');
  });

  it('keeps the pid file, logs and every temp path inside the prefix', () => {
    const conf = render();
    const layout = prefixLayout(BASE.prefix);
    expect(conf).toContain(`pid ${layout.pidFile};`);
    expect(conf).toContain(`error_log ${BASE.errorLogPath} notice;`);
    // Each public server's; with refusal tallies (an agent that ships aggregates), the same file
    // again in its two refusal blocks, where only the refusals rampart.refusals does not tally are
    // written. Without them every refusal is logged by the server's own access_log.
    const servers = BASE.httpPorts.length + BASE.httpsPorts.length;
    const logs = (text: string) =>
      text.match(new RegExp(`access_log ${BASE.accessLogPath} rampart_json_\\d+ buffer`, 'g')) ?? [];
    const conditional = (text: string) =>
      text.match(
        new RegExp(
          `access_log ${BASE.accessLogPath} rampart_json_\\d+ buffer=64k flush=1s if=\\$rampart_log_refusal;`,
          'g',
        ),
      ) ?? [];
    const tallies = (text: string) => text.match(/log_by_lua_block \{ rampart\.refusal\(\) \}/g) ?? [];
    expect(logs(conf)).toHaveLength(servers);
    expect(conditional(conf)).toHaveLength(0);
    expect(tallies(conf)).toHaveLength(0);
    const tallied = render({ refusalTallies: true });
    expect(logs(tallied)).toHaveLength(3 * servers);
    expect(conditional(tallied)).toHaveLength(2 * servers);
    expect(tallies(tallied)).toHaveLength(2 * servers);
    for (const directive of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
      expect(conf).toMatch(new RegExp(`${directive}_temp_path ${BASE.prefix}/temp/${directive};`));
    }
  });

  it('sets the Lua path and a shared dict sized from the settings, and never seeds data at init', () => {
    const conf = render({ configDictMegabytes: 512 });
    expect(conf).toContain(`lua_package_path '${BASE.luaDir}/?.lua;`);
    expect(conf).toContain('lua_shared_dict rampart_config 512m;');
    expect(render()).toContain('lua_shared_dict rampart_config 256m;');
    // The firewall's frequency counters (rampart.firewall_frequency), a fixed size.
    expect(conf).toContain('lua_shared_dict rampart_firewall 32m;');
    expect(conf).toContain('lua_shared_dict rampart_blocklist 16m;');
    expect(conf).toContain('lua_shared_dict rampart_block_events 4m;');
    expect(conf).toContain('lua_shared_dict rampart_refusals 16m;');
    expect(conf).toContain(
      'init_by_lua_block { require("rampart.init").master({ admin_secret_file = "/var/lib/rampart/admin.secret", ' +
        'own_ports = { 80, 8080, 443 }, own_addresses = {  }, every_address = true }) }',
    );
  });

  it("hands the master the node's own listening sockets: the listen address, or every own address", () => {
    const bound = render({ listenAddress: '10.0.0.5', ownAddresses: ['10.0.0.5', '192.0.2.1'] });
    expect(bound).toContain('own_addresses = { "10.0.0.5" }, every_address = false');
    const everywhere = render({ ownAddresses: ['10.0.0.5', '2001:db8::1'] });
    expect(everywhere).toContain('own_addresses = { "10.0.0.5", "2001:db8::1" }, every_address = true');
  });

  it("leaves out a layer-4 upstream that is one of the node's own listening sockets, and a port left with none", () => {
    const port = (id: number, listen: number, upstreams: { ip: string; port: number }[]) => ({
      id,
      port: listen,
      protocol: 'tcp',
      balance: 'round_robin',
      upstreams: upstreams.map((u) => ({ ...u, weight: 1, backup: false })),
    });
    const conf = render({
      listenAddress: '127.0.0.1',
      streamPorts: [
        port(1, 9001, [
          { ip: '127.0.0.1', port: 80 },
          { ip: '::ffff:127.0.0.1', port: 9002 },
          { ip: '127.0.0.1', port: 7000 },
          { ip: '127.0.0.2', port: 443 },
        ]),
        port(2, 9002, [{ ip: '0.0.0.0', port: 9001 }]),
      ],
    });
    expect(conf).toContain(
      'upstream rampart_l4_1 {\n    server 127.0.0.1:7000 weight=1;\n    server 127.0.0.2:443 weight=1;\n  }',
    );
    expect(conf).not.toContain('rampart_l4_2');
  });

  it("quotes every variable of the JSON access log, with each server's scheme as a constant", () => {
    const conf = render();
    const [http, https] = [BASE.httpPorts[0], BASE.httpsPorts[0]];
    const formatOf = (p: number | undefined) =>
      conf.match(new RegExp(`log_format rampart_json_${p} escape=json '(.*)';`))?.[1] ?? '';
    const parse = (format: string) => JSON.parse(format.replaceAll(/\$[a-z0-9_]+/g, 'x')) as Record<string, string>;
    expect(parse(formatOf(http))).toMatchObject({ scheme: 'http' });
    expect(parse(formatOf(https))).toMatchObject({ scheme: 'https' });
    const format = formatOf(http);
    const record = parse(format);
    expect(Object.keys(record)).toEqual(
      expect.arrayContaining([
        'msec',
        'request_id',
        'host',
        'method',
        'uri',
        'protocol',
        'request_length',
        'bytes_sent',
        'cache_status',
        'user_agent',
        'referer',
        'status',
        'upstream_status',
        'request_time',
        'domain_id',
        'fw_kind',
        'fw_rule',
        'fw_action',
        'waf_part',
        'waf_excerpt',
        'waf_name',
      ]),
    );
    // The firewall's fields are variables declared (never set per request) like the router's.
    const declarations = conf.slice(conf.indexOf('location @rampart_declarations {')).split('\n    }')[0] ?? '';
    for (const name of ['fw_kind', 'fw_rule', 'fw_action', 'waf_part', 'waf_excerpt', 'waf_name']) {
      expect(record[name]).toBe('x');
      expect(declarations).toContain(`set $rampart_${name} "";`);
    }
    expect(format.match(/\$[a-z0-9_]+/g)?.length).toBe(format.match(/"\$[a-z0-9_]+"/g)?.length);
    // The request event's fields are nginx's own variables: the log adds no Lua per request.
    expect(JSON.parse(format)).toMatchObject({
      msec: '$msec',
      protocol: '$server_protocol',
      request_length: '$request_length',
      cache_status: '$upstream_cache_status',
      referer: '$http_referer',
    });
  });

  it("gives the firewall each listener's URL with the public port, left out when it is the scheme's default", () => {
    const conf = render({
      httpPorts: [18080, 8080],
      httpsPorts: [18443, 11234],
      publicPorts: [
        { local: 18080, public: 80 },
        { local: 18443, public: 443 },
        { local: 11234, public: 1234 },
      ],
    });
    const map = conf.slice(conf.indexOf('  map $server_port $rampart_fw_url {')).split('\n  }')[0] ?? '';
    expect(map.split('\n').slice(1)).toEqual([
      '    18080 "http://$host$request_uri";',
      '    8080 "http://$host:8080$request_uri";',
      '    18443 "https://$host$request_uri";',
      '    11234 "https://$host:1234$request_uri";',
    ]);
    // Without a port map every listen port is its own public port.
    expect(render()).toContain('    80 "http://$host$request_uri";\n    8080 "http://$host:8080$request_uri";');
    expect(() =>
      render({
        publicPorts: [
          { local: 80, public: 81 },
          { local: 80, public: 82 },
        ],
      }),
    ).toThrow(/twice/);
    expect(() => render({ publicPorts: [{ local: 80, public: '80; include x' }] })).toThrow();
    expect(() => render({ publicPorts: [{ local: 80, public: 0 }] })).toThrow();
  });

  it('has one upstream per origin scheme, balanced in Lua, keepalive for HTTP only', () => {
    const conf = render();
    const block = (name: string) => conf.slice(conf.indexOf(`upstream ${name} {`)).split('\n  }')[0] ?? '';
    const http = block('rampart_http');
    const https = block('rampart_https');
    expect(http).toMatch(/server 0\.0\.0\.1;\s+balancer_by_lua_block .*\s+keepalive \d+;/);
    expect(https).toContain('balancer_by_lua_block');
    expect(https).not.toContain('keepalive');
    expect(conf).toContain('proxy_ssl_server_name on;');
    expect(conf).toContain('proxy_ssl_name $rampart_host_header;');
  });

  it('renders no per-domain value: the settings refuse domain data outright', () => {
    expect(() => render({ domains: [{ name: 'www.example.com' }] })).toThrow();
    expect(() => render({ serverName: 'www.example.com' })).toThrow();
    expect(render()).not.toMatch(/example\.com/);
  });

  it.each([
    'relative/path',
    '/with space',
    '/with;semicolon',
    '/with{brace',
    '/with}brace',
    '/with$variable',
    '/with"quote',
    "/with'quote",
    '/with\nnewline',
    '/with\rreturn',
    '/../etc',
    '/var/lib/../../etc',
    '/with#hash',
    '/with\\backslash',
  ])('refuses the path %j anywhere a path is rendered', (bad) => {
    expect(() => render({ prefix: bad })).toThrow();
    expect(() => render({ luaDir: bad })).toThrow();
    expect(() => render({ errorLogPath: bad })).toThrow();
    expect(() => render({ accessLogPath: bad })).toThrow();
    expect(() => render({ defaultCertificate: { certPath: bad, keyPath: '/k' } })).toThrow();
  });

  it.each([
    ['a port 0', { httpPorts: [0] }],
    ['a port 65536', { httpsPorts: [65_536] }],
    ['a fractional port', { httpPorts: [80.5] }],
    ['a port as a string', { httpPorts: ['80; include /etc/passwd'] }],
    ['a port used twice', { httpPorts: [80], httpsPorts: [80] }],
    ['an admin socket path over 100 characters', { adminSocket: `/${'a'.repeat(100)}` }],
    ['an admin socket outside the allowlist', { adminSocket: '/tmp/a b' }],
    ['an own address that is not an IP literal', { ownAddresses: ['10.0.0.1"; os.exit()'] }],
    ['no public port', { httpPorts: [], httpsPorts: [] }],
    ['0 workers', { workerProcesses: 0 }],
    ['workers as text', { workerProcesses: '2; daemon off' }],
    ['a listen address that is not an IP', { listenAddress: 'localhost' }],
    ['a dict of 0 MiB', { configDictMegabytes: 0 }],
    ['http2 as a string', { http2: 'on' }],
  ])('refuses %s', (_label, overrides) => {
    expect(() => render(overrides)).toThrow();
  });

  it('adds the test-only snippet to public servers only when a test asks for it', () => {
    expect(render()).not.toContain('rampart_test_marker');
    const conf = renderNginxConf(BASE, { serverSnippet: 'rampart_test_marker on;' });
    expect(conf.match(/rampart_test_marker on;/g)).toHaveLength(3);
  });
});

describe('the zone trust setting (realIp)', () => {
  it('renders nothing while nobody is trusted', () => {
    const conf = render();
    expect(conf).not.toContain('set_real_ip_from');
    expect(conf).not.toContain('proxy_protocol');
  });

  it('trusts the listed proxies for the chosen header, right-most untrusted address first', () => {
    const conf = render({
      realIp: { trusted: ['10.0.0.0/8', '2001:db8::1'], header: 'X-Real-IP', proxyProtocol: false },
    });
    expect(conf).toContain(
      '  set_real_ip_from 10.0.0.0/8;\n  set_real_ip_from 2001:db8::1;\n  real_ip_header X-Real-IP;\n  real_ip_recursive on;',
    );
    expect(conf).not.toContain('proxy_protocol');
  });

  it('puts proxy_protocol on the public ports only, and takes the address from it', () => {
    const conf = render({ realIp: { trusted: ['192.0.2.1'], header: 'X-Forwarded-For', proxyProtocol: true } });
    expect(servers(conf)).toEqual([
      ['80 proxy_protocol default_server'],
      ['8080 proxy_protocol default_server'],
      ['443 ssl http2 proxy_protocol default_server'],
      ['unix:/var/lib/rampart/admin/admin.sock'],
    ]);
    expect(conf).toContain('real_ip_header proxy_protocol;');
  });

  it.each([
    [{ trusted: ['10.0.0.1; include /etc/passwd'], header: 'X-Forwarded-For', proxyProtocol: false }],
    [{ trusted: ['10.0.0.0/33'], header: 'X-Forwarded-For', proxyProtocol: false }],
    [{ trusted: ['10.0.0.1', '10.0.0.1'], header: 'X-Forwarded-For', proxyProtocol: false }],
    [{ trusted: [], header: 'X-Client-IP', proxyProtocol: false }],
  ])('refuses %j before rendering', (realIp) => {
    expect(() => render({ realIp })).toThrow();
  });
});

describe('the data-plane dict size', () => {
  it('follows the plane on disk: four times its bytes, in powers of two, from 256 MiB to 4 GiB', () => {
    const MiB = 2 ** 20;
    expect(configDictMegabytesFor(0)).toBe(CONFIG_DICT_MIN_MB);
    expect(configDictMegabytesFor(64 * MiB)).toBe(256);
    expect(configDictMegabytesFor(64 * MiB + 1)).toBe(512);
    expect(configDictMegabytesFor(300 * MiB)).toBe(2048);
    expect(configDictMegabytesFor(10_000 * MiB)).toBe(CONFIG_DICT_MAX_MB);
  });

  it('is read back from a rendered config, so a running nginx keeps the size it started with', () => {
    expect(declaredConfigDictMegabytes(render({ configDictMegabytes: 1024 }))).toBe(1024);
    expect(declaredConfigDictMegabytes(render())).toBe(CONFIG_DICT_MIN_MB);
    expect(declaredConfigDictMegabytes('events {}')).toBeNull();
  });
});
