import { z } from 'zod';
import { EDGE_RULE_ACTIONS } from '../edge/challenge.js';
import { WAF_PARTS } from '../edge/waf.js';
import { dataOf, defineRoute, nodeAccess } from '../route.js';
import { isIP } from '../validators/ip.js';

/**
 * The request events of the edge (docs/decisions.md "Traffic analytics"): nginx writes one JSON line
 * per request into its buffered access log (apps/edge/src/nginx/render.ts), the agent reads the
 * lines, spools them on disk in batches (gzip, bounded, oldest dropped first and counted) and ships
 * each batch here, signed like every node-API call. The control plane acknowledges a batch once it
 * is stored; the agent deletes a batch only then. A batch retried after a lost answer counts once:
 * the store keeps a ledger of the batches it took, and a batch whose earlier attempt was cut short
 * is completed by request id (events already stored are left out).
 */

/** Most events one batch carries (the agent cuts its batches at this count or every second). */
export const EVENT_BATCH_MAX = 5000;
/** Most bytes of a gzip batch on the wire, and of the JSON it inflates to. */
export const EVENT_BATCH_GZIP_MAX_BYTES = 4 * 1024 * 1024;
export const EVENT_BATCH_JSON_MAX_BYTES = 48 * 1024 * 1024;
/** The content type of a shipped batch: gzip of the batch's JSON, signed over the gzip bytes. */
export const EVENT_BATCH_CONTENT_TYPE = 'application/vnd.rampart.events+gzip';

/** Longest values an event keeps (the agent cuts longer ones; the store keeps them as cut). */
export const EVENT_LIMITS = {
  requestId: 96,
  host: 255,
  path: 2048,
  userAgent: 512,
  referer: 1024,
  wafExcerpt: 128,
  wafName: 128,
} as const;

/** Where a WAF decision found its match (WAF_PARTS), "" for no WAF decision. */
export const EVENT_WAF_PARTS = ['', ...WAF_PARTS] as const;

/**
 * What decided a request at the edge (`fw_kind` of the access log, set by rampart.firewall,
 * rampart.firewall_headers, rampart.firewall_frequency and rampart.challenge); "" when nothing did.
 */
export const EVENT_DECISION_KINDS = [
  '',
  'whitelist',
  'blacklist',
  'blockList',
  'reputation',
  'geo',
  'header',
  'antiReferer',
  'antiHeader',
  'userAgent',
  'intervalLimit',
  'secondLimit',
  'antiCC',
  'challenge',
  'waf',
  // A Lua ACL module's rule (routes/site-module-acl.ts).
  'acl',
  // A token-auth module's auth refused the request's token (routes/site-module-token-auth.ts).
  'tokenAuth',
  // An auth rule refused a request without a valid credential of its group (routes/site-auth.ts).
  'auth',
] as const;
export type EventDecisionKind = (typeof EVENT_DECISION_KINDS)[number];

/**
 * What the deciding rule did: a rule's action (EDGE_RULE_ACTIONS), `allow` (the whitelist), and a
 * challenge's outcome (`pass`: a valid answer, `fail`: a wrong one), `detect` (a WAF module in detect mode
 * found an attack and let the request through); "" when nothing decided.
 */
export const EVENT_DECISION_ACTIONS = ['', 'allow', 'pass', 'fail', ...EDGE_RULE_ACTIONS, 'detect'] as const;
export type EventDecisionAction = (typeof EVENT_DECISION_ACTIONS)[number];
/** Decisions that kept the request from the origin: counted as blocked. */
export const BLOCKING_DECISION_ACTIONS: ReadonlySet<EventDecisionAction> = new Set([
  'deny',
  'drop',
  'dropBlacklist',
  'fail',
  'shield',
  'code',
  'click',
  'redirect',
  'slider',
]);

/** nginx's `$upstream_cache_status`, or "" when the request was not cached. */
export const EVENT_CACHE_STATUSES = [
  '',
  'MISS',
  'BYPASS',
  'EXPIRED',
  'STALE',
  'UPDATING',
  'REVALIDATED',
  'HIT',
] as const;
export type EventCacheStatus = (typeof EVENT_CACHE_STATUSES)[number];
/** The statuses that count as served from the cache. */
export const CACHE_HIT_STATUSES: ReadonlySet<EventCacheStatus> = new Set(['HIT', 'STALE', 'UPDATING', 'REVALIDATED']);

export const EVENT_HTTP_VERSIONS = ['1.0', '1.1', '2', '3'] as const;

const text = (max: number) => z.string().max(max);
const unixMs = z.number().int().min(0).max(4_102_444_800_000);

/**
 * One request as the agent ships it. Times are the node's clock (nginx's `$msec`); `domainId` is 0
 * for a request that matched no domain (an unknown host: counted for the node, shown to no site).
 */
export const edgeEventSchema = z.strictObject({
  /** The edge's request id (`<node>-<worker pid>-<worker start>-<serial>`), unique per node. */
  id: z
    .string()
    .min(1)
    .max(EVENT_LIMITS.requestId)
    .regex(/^[A-Za-z0-9._-]+$/),
  time: unixMs,
  domainId: z.number().int().min(0),
  ip: z
    .string()
    .max(45)
    .refine((s) => isIP(s), { message: 'wrongFormat' }),
  method: z
    .string()
    .max(16)
    .regex(/^[A-Z]*$/),
  scheme: z.enum(['http', 'https']),
  /** "1.0", "1.1", "2", "3"; "" when nginx read no request line. */
  httpVersion: z.enum(['', ...EVENT_HTTP_VERSIONS]),
  host: text(EVENT_LIMITS.host),
  /** The request URI with its query, as sent (cut at EVENT_LIMITS.path). */
  path: text(EVENT_LIMITS.path),
  /** The answer's status: an HTTP status, the edge's own 9xx codes, 444 for a closed connection, 499 when the client left. */
  status: z.number().int().min(0).max(999),
  bytesIn: z.number().int().min(0),
  bytesOut: z.number().int().min(0),
  /** Milliseconds from the first byte read to the last byte sent. */
  requestMs: z.number().int().min(0),
  /** Milliseconds the origin took (the last attempt), -1 when no origin was asked. */
  upstreamMs: z.number().int().min(-1),
  /** The origin's status (the last attempt), 0 when no origin answered. */
  upstreamStatus: z.number().int().min(0).max(999),
  cacheStatus: z.enum(EVENT_CACHE_STATUSES),
  userAgent: text(EVENT_LIMITS.userAgent),
  referer: text(EVENT_LIMITS.referer),
  fwKind: z.enum(EVENT_DECISION_KINDS),
  /** The deciding rule's id, 0 when none (or a decision no rule names, as the block list's). */
  fwRule: z.number().int().min(0),
  fwAction: z.enum(EVENT_DECISION_ACTIONS),
  /**
   * A WAF decision's part of the request, a short redacted excerpt of what matched and the name it
   * was under ("" for none). Agents from before the WAF send none of them: they default to "".
   */
  wafPart: z.enum(EVENT_WAF_PARTS).default(''),
  wafExcerpt: text(EVENT_LIMITS.wafExcerpt).default(''),
  /** The argument, cookie, header or upload field the match was in ("" for the path or none). */
  wafName: text(EVENT_LIMITS.wafName).default(''),
});
export type EdgeEvent = z.infer<typeof edgeEventSchema>;

/** A batch as the agent spools and ships it. */
export const edgeEventBatchSchema = z.strictObject({
  /** Unique per node for ever: the agent's spool sequence and the spool's random id. */
  batchId: z.string().regex(/^[a-z0-9]{1,32}-[0-9]{1,16}$/),
  /** Events the spool dropped (full) since the previous batch was cut: counted once with the batch. */
  dropped: z.number().int().min(0),
  events: z.array(edgeEventSchema).max(EVENT_BATCH_MAX),
  /**
   * `false` from an agent that ships the statistics of these requests as aggregates
   * (analytics-aggregates.ts): the events are kept for the logs only and add nothing to the rollups.
   * Absent (an older agent): the events feed the logs and the rollups, as before.
   */
  statistics: z.literal(false).optional(),
});
export type EdgeEventBatch = z.infer<typeof edgeEventBatchSchema>;

const KINDS: ReadonlySet<unknown> = new Set(EVENT_DECISION_KINDS);
const ACTIONS: ReadonlySet<unknown> = new Set(EVENT_DECISION_ACTIONS);
const CACHE: ReadonlySet<unknown> = new Set(EVENT_CACHE_STATUSES);
const VERSIONS: ReadonlySet<unknown> = new Set(['', ...EVENT_HTTP_VERSIONS]);
const WAF_PART_SET: ReadonlySet<unknown> = new Set(EVENT_WAF_PARTS);
/** The keys every event has; the WAF's two are optional (OPTIONAL_EVENT_KEYS). */
const OPTIONAL_EVENT_KEYS = ['wafPart', 'wafExcerpt', 'wafName'] as const;
const EVENT_KEYS = Object.keys(edgeEventSchema.shape).filter(
  (k) => !(OPTIONAL_EVENT_KEYS as readonly string[]).includes(k),
);
const REQUEST_ID = /^[A-Za-z0-9._-]+$/;
const METHOD = /^[A-Z]*$/;
const BATCH_ID = /^[a-z0-9]{1,32}-[0-9]{1,16}$/;

const isInt = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const isText = (v: unknown, max: number): boolean => typeof v === 'string' && v.length <= max;

/** {@link edgeEventSchema} as plain checks (see isEdgeEventBatch); an absent WAF field passes, as the schema takes it (its default). */
export function isEdgeEvent(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const e = v as Record<string, unknown>;
  let keys = 0;
  for (const key in e) {
    if (!Object.hasOwn(e, key)) continue;
    keys++;
  }
  const hasPart = Object.hasOwn(e, 'wafPart');
  const hasExcerpt = Object.hasOwn(e, 'wafExcerpt');
  const hasName = Object.hasOwn(e, 'wafName');
  if (keys !== EVENT_KEYS.length + (hasPart ? 1 : 0) + (hasExcerpt ? 1 : 0) + (hasName ? 1 : 0)) return false;
  // An optional key present as undefined takes its default, as in the schema.
  if (hasPart && e.wafPart !== undefined && !WAF_PART_SET.has(e.wafPart)) return false;
  if (hasExcerpt && e.wafExcerpt !== undefined && !isText(e.wafExcerpt, EVENT_LIMITS.wafExcerpt)) return false;
  if (hasName && e.wafName !== undefined && !isText(e.wafName, EVENT_LIMITS.wafName)) return false;
  return (
    typeof e.id === 'string' &&
    e.id.length >= 1 &&
    e.id.length <= EVENT_LIMITS.requestId &&
    REQUEST_ID.test(e.id) &&
    isInt(e.time, 0, 4_102_444_800_000) &&
    isInt(e.domainId, 0) &&
    typeof e.ip === 'string' &&
    e.ip.length <= 45 &&
    isIP(e.ip) &&
    typeof e.method === 'string' &&
    e.method.length <= 16 &&
    METHOD.test(e.method) &&
    (e.scheme === 'http' || e.scheme === 'https') &&
    VERSIONS.has(e.httpVersion) &&
    isText(e.host, EVENT_LIMITS.host) &&
    isText(e.path, EVENT_LIMITS.path) &&
    isInt(e.status, 0, 999) &&
    isInt(e.bytesIn, 0) &&
    isInt(e.bytesOut, 0) &&
    isInt(e.requestMs, 0) &&
    isInt(e.upstreamMs, -1) &&
    isInt(e.upstreamStatus, 0, 999) &&
    CACHE.has(e.cacheStatus) &&
    isText(e.userAgent, EVENT_LIMITS.userAgent) &&
    isText(e.referer, EVENT_LIMITS.referer) &&
    KINDS.has(e.fwKind) &&
    isInt(e.fwRule, 0) &&
    ACTIONS.has(e.fwAction)
  );
}

/**
 * {@link edgeEventBatchSchema} as plain checks (a batch of 5,000 events costs the schema ~13 ms of
 * the control plane's CPU, these well under a tenth of it): true exactly when the schema accepts
 * the value as it is (the contract's tests compare the two on valid batches and on every field
 * broken in every way the schema refuses). The node API takes a batch this passes without the
 * schema, and asks the schema for the issues of one it does not.
 */
export function isEdgeEventBatch(value: unknown): value is EdgeEventBatch {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const b = value as Record<string, unknown>;
  let keys = 0;
  for (const key in b) if (Object.hasOwn(b, key)) keys++;
  if (b.statistics !== undefined && b.statistics !== false) return false;
  if (
    keys !== (Object.hasOwn(b, 'statistics') ? 4 : 3) ||
    typeof b.batchId !== 'string' ||
    !BATCH_ID.test(b.batchId) ||
    !isInt(b.dropped, 0)
  )
    return false;
  const events = b.events;
  if (!Array.isArray(events) || events.length > EVENT_BATCH_MAX) return false;
  for (const e of events) if (!isEdgeEvent(e)) return false;
  return true;
}

export const shipNodeEvents = defineRoute({
  id: 'edge.events',
  api: 'edge',
  method: 'POST',
  path: '/events',
  access: nodeAccess,
  // 101005 with HTTP 503 and Retry-After: the control plane has as many batches in flight as it takes.
  codes: [101005],
  summary: `A node ships a batch of request events (${EVENT_BATCH_CONTENT_TYPE}: gzip of the batch's JSON, signed over the gzip bytes); the answer acknowledges it, and a batch sent again counts once`,
  tags: ['edge'],
  request: { body: edgeEventBatchSchema, bodyCheck: isEdgeEventBatch },
  response: dataOf(
    z.object({
      /** Events stored by this call (0 for a batch already taken). */
      stored: z.number().int(),
      /** The batch had been taken before (a retry after a lost answer). */
      duplicate: z.boolean(),
    }),
  ),
});

export const analyticsEventRoutes = { shipNodeEvents } as const;
