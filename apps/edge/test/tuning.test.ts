import {
  NGINX_CUSTOM_DIRECTIVES,
  type NginxCustomContext,
  type NginxCustomDirective,
  type NginxTuning,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { NginxConfigError } from '../src/nginx/nginx-process.js';
import { renderNginxConf } from '../src/nginx/render.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

/** A value nginx 1.22 accepts for each allowlisted custom directive. */
const SAMPLES: Record<string, string[]> = {
  worker_priority: ['0'],
  worker_cpu_affinity: ['auto'],
  timer_resolution: ['100ms'],
  pcre_jit: ['on'],
  multi_accept: ['on'],
  accept_mutex: ['off'],
  accept_mutex_delay: ['500ms'],
  server_names_hash_bucket_size: ['64'],
  server_names_hash_max_size: ['512'],
  variables_hash_bucket_size: ['64'],
  variables_hash_max_size: ['1024'],
  types_hash_bucket_size: ['64'],
  types_hash_max_size: ['2048'],
  proxy_headers_hash_bucket_size: ['64'],
  proxy_headers_hash_max_size: ['1024'],
  client_body_buffer_size: ['16k'],
  client_header_buffer_size: ['1k'],
  large_client_header_buffers: ['4', '16k'],
  keepalive_time: ['1h'],
  lingering_close: ['on'],
  lingering_time: ['30s'],
  lingering_timeout: ['5s'],
  reset_timedout_connection: ['on'],
  tcp_nodelay: ['on'],
  tcp_nopush: ['on'],
  postpone_output: ['1460'],
  sendfile_max_chunk: ['2m'],
  output_buffers: ['2', '32k'],
  chunked_transfer_encoding: ['on'],
  proxy_buffer_size: ['8k'],
  proxy_buffers: ['8', '8k'],
  proxy_busy_buffers_size: ['16k'],
  proxy_buffering: ['on'],
  proxy_request_buffering: ['on'],
  proxy_max_temp_file_size: ['1024m'],
  proxy_temp_file_write_size: ['16k'],
  proxy_ignore_client_abort: ['off'],
  gzip: ['on'],
  gzip_comp_level: ['5'],
  gzip_min_length: ['1000'],
  gzip_types: ['text/css', 'application/json'],
  gzip_proxied: ['any'],
  gzip_vary: ['on'],
  gzip_buffers: ['16', '8k'],
  gzip_http_version: ['1.1'],
  ssl_ciphers: ['HIGH:!aNULL:!MD5'],
  ssl_prefer_server_ciphers: ['on'],
  ssl_session_tickets: ['off'],
  ssl_buffer_size: ['4k'],
  ssl_ecdh_curve: ['auto'],
  http2_max_concurrent_streams: ['128'],
  http2_chunk_size: ['8k'],
  merge_slashes: ['on'],
  ignore_invalid_headers: ['on'],
  underscores_in_headers: ['off'],
  log_not_found: ['off'],
  absolute_redirect: ['on'],
  port_in_redirect: ['on'],
  server_name_in_redirect: ['off'],
};

const tuning = (more: Partial<NginxTuning>): NginxTuning => ({ worker: {}, http: {}, stream: {}, custom: [], ...more });
const every = (context: NginxCustomContext, names: readonly string[]): NginxCustomDirective[] =>
  names.map((name) => ({ context, name, args: SAMPLES[name] ?? [] }));

let origin: Origin;
let edge: Edge;

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(document('served', [domain(1, 'site.example.com', [upstream(origin.port)])]));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

async function stillServing(): Promise<void> {
  expect(servedBy((await request(edge.httpPort, 'site.example.com')).body)).toBe('origin');
}

describe("a zone's nginx settings on a real nginx", () => {
  it('has a sample for every allowlisted directive', () => {
    const names = Object.values(NGINX_CUSTOM_DIRECTIVES).flat();
    expect(names.filter((n) => !(n in SAMPLES))).toEqual([]);
  });

  it('accepts every allowlisted custom directive in each context that lists it, and keeps serving', async () => {
    const before = await edge.nginx.currentVersion();
    const custom = [
      ...every('main', NGINX_CUSTOM_DIRECTIVES.main),
      ...every('events', NGINX_CUSTOM_DIRECTIVES.events),
      ...every('http', NGINX_CUSTOM_DIRECTIVES.http),
      ...every('server', NGINX_CUSTOM_DIRECTIVES.server),
    ];
    const conf = edge.render({ tuning: tuning({ custom }) });
    expect(conf).toContain('\nworker_priority 0;\n');
    expect(conf).toMatch(/events \{\n {2}worker_connections \d+;\n {2}multi_accept on;/);
    expect(conf).toContain('\n  server_names_hash_bucket_size 64;\n');
    // A server directive stands in every public server (one HTTP, one HTTPS here), not in the admin one.
    expect(conf.match(/^ {4}gzip_types text\/css application\/json;$/gm)).toHaveLength(2);
    await edge.nginx.reload(conf);
    expect(await edge.nginx.currentVersion()).not.toBe(before);
    await stillServing();

    // The server list works at http level too.
    await edge.nginx.reload(edge.render({ tuning: tuning({ custom: every('http', NGINX_CUSTOM_DIRECTIVES.server) }) }));
    await stillServing();
  });

  it('renders the structured worker, http and stream sections, which nginx accepts', async () => {
    const conf = edge.render({
      tuning: tuning({
        worker: { workerProcesses: 1, workerConnections: 2048, workerShutdownTimeoutSeconds: 10 },
        http: {
          keepaliveTimeoutSeconds: 30,
          keepaliveRequests: 500,
          clientMaxBodyMegabytes: 8,
          clientHeaderTimeoutSeconds: 15,
          clientBodyTimeoutSeconds: 20,
          sendTimeoutSeconds: 25,
          proxyConnectTimeoutSeconds: 3,
          proxyReadTimeoutSeconds: 90,
          proxySendTimeoutSeconds: 91,
        },
        stream: { proxyConnectTimeoutSeconds: 7, proxyTimeoutSeconds: 300 },
      }),
    });
    for (const line of [
      'worker_processes 1;',
      'worker_shutdown_timeout 10s;',
      '  worker_connections 2048;',
      '  keepalive_timeout 30s;',
      '  keepalive_requests 500;',
      '  client_max_body_size 8m;',
      '  client_header_timeout 15s;',
      '  client_body_timeout 20s;',
      '  send_timeout 25s;',
      '  proxy_connect_timeout 3s;',
      '  proxy_read_timeout 90s;',
      '  proxy_send_timeout 91s;',
      'load_module /usr/lib/nginx/modules/ngx_stream_module.so;',
      'stream {\n  proxy_connect_timeout 7s;\n  proxy_timeout 300s;\n}',
    ]) {
      expect(conf).toContain(line);
    }
    await edge.nginx.reload(conf);
    expect(await edge.nginx.workerPids()).toHaveLength(1);
    await stillServing();
  });

  it('leaves out the stream block and module while the stream section is empty', () => {
    const conf = edge.render({ tuning: tuning({}) });
    expect(conf).not.toContain('stream {');
    expect(conf).not.toContain('ngx_stream_module');
    expect(conf).toContain('keepalive_timeout 65s;');
  });

  it('keeps the running config when nginx refuses an allowlisted directive with a bad value', async () => {
    await edge.nginx.reload(edge.render());
    const version = await edge.nginx.currentVersion();
    const bad = edge.render({
      tuning: tuning({ custom: [{ context: 'http', name: 'gzip_comp_level', args: ['99'] }] }),
    });
    const error = await edge.nginx.reload(bad).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(NginxConfigError);
    expect((error as NginxConfigError).emerg.join('\n')).toMatch(
      /value must be between 1 and 9 .*\(gzip_comp_level 99;\)/,
    );
    expect(await edge.nginx.currentVersion()).toBe(version);
    await stillServing();
  });

  it('refuses, before nginx sees them, a name off the allowlist, a name in the wrong context and unsafe arguments', () => {
    const attempt = (custom: unknown[]) => () =>
      renderNginxConf({ ...edge.settings, tuning: tuning({ custom: custom as NginxCustomDirective[] }) });
    expect(attempt([{ context: 'http', name: 'include', args: ['/etc/passwd'] }])).toThrow(ZodError);
    expect(attempt([{ context: 'server', name: 'content_by_lua_block', args: ['x'] }])).toThrow(ZodError);
    expect(attempt([{ context: 'main', name: 'gzip', args: ['on'] }])).toThrow(ZodError);
    for (const arg of ['on;', 'a b', '"x"', '$host', '{', '}', '#x', 'a\\b', 'x\nload_module', '']) {
      expect(attempt([{ context: 'http', name: 'gzip', args: [arg] }])).toThrow(ZodError);
    }
    expect(attempt([{ context: 'http', name: 'gzip', args: ['on'], extra: 1 }])).toThrow(ZodError);
  });
});
