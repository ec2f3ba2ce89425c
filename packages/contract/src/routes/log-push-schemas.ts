import { z } from 'zod';
import { isIP } from '../validators/ip.js';
import { outgoingTarget } from '../validators/outgoing-target.js';
import { normalizeHostPort } from '../validators/url.js';
import { addValidationIssue, zDomainName } from '../validators/zod.js';

// The shapes of a push event: its kinds, destinations and filters; the routes are in log-push.ts.
export const LOG_PUSH_TYPES = ['access', 'waf', 'audit'] as const;
export type LogPushType = (typeof LOG_PUSH_TYPES)[number];
export const LOG_PUSH_KINDS = ['webhook', 'syslog', 'elasticsearch', 'splunk'] as const;
export type LogPushKind = (typeof LOG_PUSH_KINDS)[number];
export const SYSLOG_TRANSPORTS = ['tcp', 'tls', 'udp'] as const;
export type SyslogTransport = (typeof SYSLOG_TRANSPORTS)[number];
export const LOG_PUSH_STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** Where a push event is in its delivery: pushing, retrying a batch, or parked after a dead batch. */
export const LOG_PUSH_STATES = ['active', 'retrying', 'dead'] as const;
export type LogPushState = (typeof LOG_PUSH_STATES)[number];
/** The outcome of one batch attempt (a delivery log row). */
export const LOG_PUSH_LOG_STATUSES = ['delivered', 'retrying', 'dead'] as const;
export type LogPushLogStatus = (typeof LOG_PUSH_LOG_STATUSES)[number];
/** Push events per account (101029 with `max` beyond it). */
export const LOG_PUSH_EVENTS_MAX = 10;
/** Ids one delete names. */
export const LOG_PUSH_IDS_MAX = 100;
/** Sites, zones, methods and domains one event's scope or filters name. */
export const LOG_PUSH_LIST_MAX = 100;
/** The signature header of a webhook push: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export const LOG_PUSH_SIGNATURE_HEADER = 'X-Rampart-Signature';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const NO_CONTROL = /^[^\x00-\x1f\x7f]*$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,64}$/;
/** Header names a push may not set: the request's framing and its own headers. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'authorization',
  'x-rampart-signature',
  'te',
  'upgrade',
  'expect',
]);

/** Text without control characters (no CR/LF: nothing reaches a header or a frame broken). */
function zPlainText(max: number, min = 1) {
  return z
    .string()
    .min(min, { message: 'required' })
    .max(max, { message: 'tooLong' })
    .regex(NO_CONTROL, { message: 'invalidCharacter' });
}

/** A secret: printable ASCII only (it goes into a header or a key), write-only. */
const zSecret = z
  .string()
  .min(1, { message: 'required' })
  .max(512, { message: 'tooLong' })
  .regex(/^[\x21-\x7e]+$/, { message: 'invalidCharacter' });

/**
 * A destination URL: `http(s)://host[:port][/path]`, the host a domain name or an IP literal (IPv6
 * in brackets), no user info, no fragment, printable ASCII only (an IDN host in Punycode); the
 * output has its host in lower case. Whether its addresses may be reached is decided by the target guard, at save and at each use.
 */
export const zPushUrl = outgoingTarget(
  z
    .string()
    .max(2048, { message: 'tooLong' })
    .transform((value, ctx) => {
      const m = /^(https?):\/\/(\[[0-9A-Fa-f:.]+\](?::\d+)?|[^/?#@\s[\]]+)(\/[^#\s]*)?$/iu.exec(value);
      if (!m || !/^[\x21-\x7e]+$/.test(value)) {
        addValidationIssue(ctx, { ok: false, key: 'invalidURL' });
        return z.NEVER;
      }
      const scheme = (m[1] ?? '').toLowerCase();
      const authority = m[2] ?? '';
      let hostPort: string;
      if (authority.startsWith('[')) {
        const v6 = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(authority);
        const port = v6?.[2] === undefined ? undefined : Number(v6[2]);
        if (!v6 || !isIP(v6[1] ?? '') || (port !== undefined && (port < 1 || port > 65535))) {
          addValidationIssue(ctx, { ok: false, key: 'invalidURL' });
          return z.NEVER;
        }
        hostPort = `[${(v6[1] ?? '').toLowerCase()}]${port === undefined ? '' : `:${port}`}`;
      } else {
        const checked = normalizeHostPort(authority);
        if (!checked.ok) {
          addValidationIssue(ctx, { ok: false, key: checked.key === 'invalidPort' ? 'invalidPort' : 'invalidURL' });
          return z.NEVER;
        }
        hostPort = checked.value;
      }
      return `${scheme}://${hostPort}${m[3] ?? '/'}`;
    }),
  'url',
);

/** A syslog host: a domain name or an IP literal (IPv6 without brackets). */
export const zPushHost = outgoingTarget(
  z
    .string()
    .max(253, { message: 'tooLong' })
    .transform((value, ctx) => {
      if (isIP(value)) return value.toLowerCase();
      const checked = normalizeHostPort(value);
      if (!checked.ok || value.includes(':')) {
        addValidationIssue(ctx, { ok: false, key: 'wrongFormat' });
        return z.NEVER;
      }
      return checked.value;
    }),
  'host',
);

const zPushPort = z
  .number({ message: 'invalidPort' })
  .int({ message: 'invalidPort' })
  .min(1, { message: 'invalidPort' })
  .max(65535, { message: 'invalidPort' });

const headerName = z
  .string()
  .regex(HEADER_TOKEN, { message: 'wrongFormat' })
  .refine((h) => !RESERVED_HEADERS.has(h.toLowerCase()), { message: 'headerNameNotAllowed' });

/** What a webhook, syslog, Elasticsearch or Splunk destination is given (secrets optional on update). */
const webhookIn = z.object({
  kind: z.literal('webhook'),
  url: zPushUrl,
  /** One extra header sent with every push (e.g. an auth token the receiver wants). */
  headerName: headerName.optional(),
  /** The header's value (write-only, kept when left out of an update). */
  headerValue: zPlainText(1024).optional(),
  /** The HMAC-SHA256 key of the signature header (write-only, kept when left out of an update). */
  secret: zSecret.optional(),
});
const syslogIn = z.object({
  kind: z.literal('syslog'),
  host: zPushHost,
  port: zPushPort,
  transport: z.enum(SYSLOG_TRANSPORTS),
  /** RFC 5424 APP-NAME (printable ASCII, at most 48). */
  appName: z
    .string()
    .regex(/^[\x21-\x7e]{1,48}$/, { message: 'wrongFormat' })
    .default('rampart'),
});
const elasticsearchIn = z.object({
  kind: z.literal('elasticsearch'),
  /** The cluster's base URL; pushes go to `<url>/_bulk` (Elasticsearch or OpenSearch). */
  url: zPushUrl,
  /** The index (Elasticsearch's index name rules: lower case, no `\ / * ? " < > | , #` or spaces). */
  index: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._+-]{0,254}$/, { message: 'wrongFormat' })
    .refine((s) => s !== '.' && s !== '..', { message: 'wrongFormat' }),
  /** Basic auth (the password is write-only) or an API key (write-only); at most one of them. */
  username: z
    .string()
    .regex(/^[\x21-\x39\x3b-\x7e]{1,128}$/, { message: 'wrongFormat' })
    .optional(),
  password: zSecret.optional(),
  apiKey: zSecret.optional(),
});
const splunkIn = z.object({
  kind: z.literal('splunk'),
  /** The HEC base URL (e.g. `https://splunk.example.com:8088`); pushes go to `/services/collector/event`. */
  url: zPushUrl,
  /** The HEC token (write-only, kept when left out of an update). */
  token: zSecret.optional(),
  /** Optional index and sourcetype set on every event. */
  index: z
    .string()
    .regex(/^[a-z0-9_][a-z0-9_-]{0,79}$/, { message: 'wrongFormat' })
    .optional(),
  sourcetype: z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/, { message: 'wrongFormat' })
    .optional(),
});
export const logPushDestinationInSchema = z
  .discriminatedUnion('kind', [webhookIn, syslogIn, elasticsearchIn, splunkIn])
  .superRefine((d, ctx) => {
    if (d.kind === 'webhook' && d.headerValue !== undefined && d.headerName === undefined) {
      ctx.addIssue({ code: 'custom', path: ['headerName'], message: 'required' });
    }
    if (d.kind === 'elasticsearch') {
      if (d.password !== undefined && d.username === undefined) {
        ctx.addIssue({ code: 'custom', path: ['username'], message: 'required' });
      }
      if (d.apiKey !== undefined && d.username !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'invalidValue' });
      }
    }
  });
export type LogPushDestinationIn = z.output<typeof logPushDestinationInSchema>;

/** A destination as answers show it: without its secrets, `hasSecret` telling whether one is set. */
export const logPushDestinationSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('webhook'),
    url: z.string(),
    headerName: z.string().nullable(),
    hasSecret: z.boolean(),
  }),
  z.object({
    kind: z.literal('syslog'),
    host: z.string(),
    port: z.number().int(),
    transport: z.enum(SYSLOG_TRANSPORTS),
    appName: z.string(),
    hasSecret: z.boolean(),
  }),
  z.object({
    kind: z.literal('elasticsearch'),
    url: z.string(),
    index: z.string(),
    username: z.string().nullable(),
    hasSecret: z.boolean(),
  }),
  z.object({
    kind: z.literal('splunk'),
    url: z.string(),
    index: z.string().nullable(),
    sourcetype: z.string().nullable(),
    hasSecret: z.boolean(),
  }),
]);
export type LogPushDestination = z.infer<typeof logPushDestinationSchema>;

/** Which records of the log go (access and WAF logs; the audit log takes none). */
export const logPushFiltersSchema = z
  .object({
    statusClasses: z.array(z.enum(LOG_PUSH_STATUS_CLASSES)).max(LOG_PUSH_STATUS_CLASSES.length).default([]),
    methods: z
      .array(z.string().regex(/^[A-Z]{1,16}$/, { message: 'wrongFormat' }))
      .max(LOG_PUSH_LIST_MAX, { message: 'tooMany' })
      .default([]),
    domains: z
      .array(zDomainName({ wildcard: false }))
      .max(LOG_PUSH_LIST_MAX, { message: 'tooMany' })
      .default([]),
  })
  .default({ statusClasses: [], methods: [], domains: [] });
export type LogPushFilters = z.output<typeof logPushFiltersSchema>;
