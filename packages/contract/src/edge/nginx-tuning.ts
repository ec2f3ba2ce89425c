import { z } from 'zod';

/**
 * A zone's nginx settings (spec part 2 §7 "Zone settings": nginx enable, http, stream, worker,
 * custom). The control plane stores them, the zone's nodes get them in their snapshots, and the
 * agent renders them into nginx.conf, checks the result with `nginx -t` and keeps the running
 * configuration when nginx refuses it (the node then reports the error).
 *
 * Nothing here is free text: the structured sections are numbers and keywords, and a custom
 * directive is a name from an allowlist with arguments of a restricted alphabet, so no setting can
 * open a block, end a directive early, name a file or reach Lua. What the allowlist lets through
 * can still be wrong for nginx (an out-of-range value, a directive twice): that is what `nginx -t`
 * on the node is for.
 */

const seconds = (max: number) => z.number().int().min(1).max(max);

export const nginxWorkerSchema = z.strictObject({
  workerProcesses: z.union([z.literal('auto'), z.number().int().min(1).max(64)]).optional(),
  workerConnections: z.number().int().min(64).max(65_536).optional(),
  workerShutdownTimeoutSeconds: seconds(3600).optional(),
});

export const nginxHttpSchema = z.strictObject({
  keepaliveTimeoutSeconds: z.number().int().min(0).max(3600).optional(),
  keepaliveRequests: z.number().int().min(1).max(1_000_000).optional(),
  clientMaxBodyMegabytes: z.number().int().min(1).max(10_240).optional(),
  clientHeaderTimeoutSeconds: seconds(3600).optional(),
  clientBodyTimeoutSeconds: seconds(3600).optional(),
  sendTimeoutSeconds: seconds(3600).optional(),
  proxyConnectTimeoutSeconds: seconds(75).optional(),
  proxyReadTimeoutSeconds: seconds(3600).optional(),
  proxySendTimeoutSeconds: seconds(3600).optional(),
});

/** Applies to the nodes' stream (layer-4) proxying. */
export const nginxStreamSchema = z.strictObject({
  proxyConnectTimeoutSeconds: seconds(75).optional(),
  proxyTimeoutSeconds: seconds(86_400).optional(),
});

/**
 * Where a custom directive goes: the main context, `events`, `http`, or every public `server`.
 * The names each context accepts are those below; the renderer itself writes the directives the
 * structured sections cover (keepalive_timeout, client_max_body_size, ...), so they are not here.
 */
export const NGINX_CUSTOM_DIRECTIVES = {
  main: ['worker_priority', 'worker_cpu_affinity', 'timer_resolution', 'pcre_jit'],
  events: ['multi_accept', 'accept_mutex', 'accept_mutex_delay'],
  http: [
    'server_names_hash_bucket_size',
    'server_names_hash_max_size',
    'variables_hash_bucket_size',
    'variables_hash_max_size',
    'types_hash_bucket_size',
    'types_hash_max_size',
    'proxy_headers_hash_bucket_size',
    'proxy_headers_hash_max_size',
  ],
  /** Accepted in `http` and in `server`. */
  server: [
    'client_body_buffer_size',
    'client_header_buffer_size',
    'large_client_header_buffers',
    'keepalive_time',
    'lingering_close',
    'lingering_time',
    'lingering_timeout',
    'reset_timedout_connection',
    'tcp_nodelay',
    'tcp_nopush',
    'postpone_output',
    'sendfile_max_chunk',
    'output_buffers',
    'chunked_transfer_encoding',
    'proxy_buffer_size',
    'proxy_buffers',
    'proxy_busy_buffers_size',
    'proxy_buffering',
    'proxy_request_buffering',
    'proxy_max_temp_file_size',
    'proxy_temp_file_write_size',
    'proxy_ignore_client_abort',
    'gzip',
    'gzip_comp_level',
    'gzip_min_length',
    'gzip_types',
    'gzip_proxied',
    'gzip_vary',
    'gzip_buffers',
    'gzip_http_version',
    'ssl_ciphers',
    'ssl_prefer_server_ciphers',
    'ssl_session_tickets',
    'ssl_buffer_size',
    'ssl_ecdh_curve',
    'http2_max_concurrent_streams',
    'http2_chunk_size',
    'merge_slashes',
    'ignore_invalid_headers',
    'underscores_in_headers',
    'log_not_found',
    'absolute_redirect',
    'port_in_redirect',
    'server_name_in_redirect',
  ],
} as const satisfies Record<string, readonly string[]>;
export type NginxCustomContext = keyof typeof NGINX_CUSTOM_DIRECTIVES;
export const NGINX_CUSTOM_CONTEXTS = Object.keys(NGINX_CUSTOM_DIRECTIVES) as NginxCustomContext[];

/** The names a context accepts (`http` also takes the `server` list: those work in both). */
export function customDirectivesOf(context: NginxCustomContext): readonly string[] {
  return context === 'http'
    ? [...NGINX_CUSTOM_DIRECTIVES.http, ...NGINX_CUSTOM_DIRECTIVES.server]
    : NGINX_CUSTOM_DIRECTIVES[context];
}

/**
 * One argument: letters, digits and `. _ : / = + , @ % ! -` (sizes, times, keywords, MIME types,
 * cipher strings). No white space, quotes, `;`, braces, `#`, `$` or backslash.
 */
export const NGINX_ARG_RE = /^[A-Za-z0-9._:/=+,@%!-]{1,128}$/;
export const NGINX_CUSTOM_MAX = 64;

const nginxArg = z.string().superRefine((arg, ctx) => {
  if (!NGINX_ARG_RE.test(arg)) ctx.addIssue({ code: 'custom', message: 'nginxArgNotAllowed', input: arg });
});

export const nginxCustomDirectiveSchema = z
  .strictObject({
    context: z.enum(NGINX_CUSTOM_CONTEXTS as [NginxCustomContext, ...NginxCustomContext[]]),
    name: z.string().max(64),
    args: z.array(nginxArg).min(1).max(16),
  })
  .superRefine((d, ctx) => {
    if (!customDirectivesOf(d.context).includes(d.name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'nginxDirectiveNotAllowed',
        params: { key: 'nginxDirectiveNotAllowed', context: d.context },
      });
    }
  });
export type NginxCustomDirective = z.infer<typeof nginxCustomDirectiveSchema>;

export const nginxCustomSchema = z.array(nginxCustomDirectiveSchema).max(NGINX_CUSTOM_MAX);

/** The four sections as a zone stores them and a snapshot carries them; a missing value is nginx's default. */
export const nginxTuningSchema = z.strictObject({
  worker: nginxWorkerSchema.default({}),
  http: nginxHttpSchema.default({}),
  stream: nginxStreamSchema.default({}),
  custom: nginxCustomSchema.default([]),
});
export type NginxTuning = z.output<typeof nginxTuningSchema>;
export type NginxTuningSection = keyof NginxTuning;
export const NGINX_TUNING_SECTIONS = ['worker', 'http', 'stream', 'custom'] as const satisfies NginxTuningSection[];

/** What the nodes use where a zone sets nothing (shown as placeholders in the console). */
export const NGINX_TUNING_DEFAULTS = {
  worker: { workerProcesses: 'auto', workerConnections: 4096, workerShutdownTimeoutSeconds: 30 },
  http: {
    keepaliveTimeoutSeconds: 65,
    keepaliveRequests: 1000,
    clientMaxBodyMegabytes: 64,
    clientHeaderTimeoutSeconds: 60,
    clientBodyTimeoutSeconds: 60,
    sendTimeoutSeconds: 60,
    proxyConnectTimeoutSeconds: 5,
    proxyReadTimeoutSeconds: 60,
    proxySendTimeoutSeconds: 60,
  },
  stream: { proxyConnectTimeoutSeconds: 60, proxyTimeoutSeconds: 600 },
} as const satisfies {
  worker: Required<z.infer<typeof nginxWorkerSchema>>;
  http: Required<z.infer<typeof nginxHttpSchema>>;
  stream: Required<z.infer<typeof nginxStreamSchema>>;
};

export const EMPTY_NGINX_TUNING: NginxTuning = { worker: {}, http: {}, stream: {}, custom: [] };

/**
 * What a node runs: the operator's settings, overridden value by value by its zone's (when the zone
 * turned them on), with the zone's custom directives after the operator's. A directive both set is
 * rendered twice, and nginx -t on the node says whether that is allowed.
 */
export function mergeNginxTuning(operator: NginxTuning, zone: NginxTuning | null): NginxTuning {
  if (zone === null) return operator;
  return {
    worker: { ...operator.worker, ...zone.worker },
    http: { ...operator.http, ...zone.http },
    stream: { ...operator.stream, ...zone.stream },
    custom: [...operator.custom, ...zone.custom],
  };
}
