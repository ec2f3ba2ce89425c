import {
  type EdgeEvent,
  EVENT_CACHE_STATUSES,
  EVENT_DECISION_ACTIONS,
  EVENT_DECISION_KINDS,
  EVENT_LIMITS,
  EVENT_WAF_PARTS,
  type EventCacheStatus,
  edgeEventSchema,
  isIP,
} from '@rampart/contract';

/**
 * One line of nginx's JSON access log (apps/edge/src/nginx/render.ts accessLogFormat) as a request
 * event (packages/contract/src/routes/analytics-events.ts). nginx writes every value as a string:
 * "" for a variable it does not have (escape=json), "-" for some it has without a value (no
 * upstream time), and lists ("0.010, 0.020 : 0.003") when a request went to several origins or
 * through internal redirects; the event keeps the last attempt's. Strings longer than the
 * contract's limits are cut here, so a long user agent never costs the whole event.
 */

const CACHE_STATUSES: ReadonlySet<string> = new Set(EVENT_CACHE_STATUSES);
const HTTP_VERSIONS: Record<string, EdgeEvent['httpVersion']> = {
  'HTTP/1.0': '1.0',
  'HTTP/1.1': '1.1',
  'HTTP/2.0': '2',
  'HTTP/3.0': '3',
};

/** Cuts `value` to `max` UTF-16 units (the schema's measure) without leaving half a surrogate pair. */
export function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  const code = value.charCodeAt(max - 1);
  return value.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** A log field as text: a missing field or nginx's "-" is "". */
function text(value: unknown): string {
  return typeof value === 'string' && value !== '-' ? value : '';
}

/** The last value of an upstream list ("502, 200 : 304" → "304"). */
function lastOf(value: string): string {
  const at = Math.max(value.lastIndexOf(','), value.lastIndexOf(':'));
  return (at < 0 ? value : value.slice(at + 1)).trim();
}

/** A non-negative integer field; `fallback` for "", "-" and anything that is not one. */
function integer(value: string, fallback: number): number {
  return /^\d{1,15}$/.test(value) ? Number(value) : fallback;
}

/** nginx's "seconds.milliseconds" as whole milliseconds; `fallback` when there is none. */
function milliseconds(value: string, fallback: number): number {
  if (!/^\d{1,12}(\.\d{1,3})?$/.test(value)) return fallback;
  return Math.round(Number(value) * 1000);
}

const KINDS: ReadonlySet<string> = new Set(EVENT_DECISION_KINDS);
const ACTIONS: ReadonlySet<string> = new Set(EVENT_DECISION_ACTIONS);
const WAF_PARTS: ReadonlySet<string> = new Set(EVENT_WAF_PARTS);
const ID = /^[A-Za-z0-9._-]{1,96}$/;

/**
 * The schema's checks of the fields the parser does not already bring into range (the numbers it
 * makes with `integer` and `milliseconds`, the cut strings and the allowlisted ones are): a whole
 * event through zod costs as much as the JSON parse, and the agent does it for every request on a
 * node whose cores nginx needs. Only a failing event goes through the schema, for its reason;
 * event-line.test.ts checks that the two agree.
 */
export function plainlyValid(e: EdgeEvent): boolean {
  return (
    ID.test(e.id) &&
    e.time >= 0 &&
    e.time <= 4_102_444_800_000 &&
    e.status >= 0 &&
    e.status <= 999 &&
    (e.scheme === 'http' || e.scheme === 'https') &&
    KINDS.has(e.fwKind) &&
    ACTIONS.has(e.fwAction) &&
    WAF_PARTS.has(e.wafPart) &&
    e.ip.length <= 45 &&
    isIP(e.ip)
  );
}

export type ParsedLine = { ok: true; event: EdgeEvent } | { ok: false; reason: string };

/**
 * Parses one access-log line into an event. A request nginx refused before routing (a malformed
 * request line, plain HTTP on an HTTPS port) has no request id: `fallbackId` names it (the spool
 * gives one unique per node for ever). Any line that is not an event after conversion is refused
 * with the first reason, never thrown.
 */
export function parseEventLine(line: string, fallbackId: () => string): ParsedLine {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, reason: 'not an object' };
  const f = raw as Record<string, unknown>;
  const method = text(f.method);
  const cacheStatus = text(f.cache_status);
  const candidate: EdgeEvent = {
    id: text(f.request_id) || fallbackId(),
    time: milliseconds(text(f.msec), -1),
    domainId: integer(text(f.domain_id), 0),
    ip: text(f.remote_addr),
    // nginx takes letters, "_" and "-" in a method; the event only the letters (else none).
    method: /^[A-Z]{1,16}$/.test(method) ? method : '',
    scheme: text(f.scheme) as EdgeEvent['scheme'],
    httpVersion: HTTP_VERSIONS[text(f.protocol)] ?? '',
    host: cut(text(f.host), EVENT_LIMITS.host),
    path: cut(text(f.uri), EVENT_LIMITS.path),
    status: integer(text(f.status), -1),
    bytesIn: integer(text(f.request_length), 0),
    bytesOut: integer(text(f.bytes_sent), 0),
    requestMs: milliseconds(text(f.request_time), 0),
    upstreamMs: milliseconds(lastOf(text(f.upstream_response_time)), -1),
    upstreamStatus: integer(lastOf(text(f.upstream_status)), 0),
    cacheStatus: (CACHE_STATUSES.has(cacheStatus) ? cacheStatus : '') as EventCacheStatus,
    userAgent: cut(text(f.user_agent), EVENT_LIMITS.userAgent),
    referer: cut(text(f.referer), EVENT_LIMITS.referer),
    fwKind: text(f.fw_kind) as EdgeEvent['fwKind'],
    fwRule: integer(text(f.fw_rule), 0),
    fwAction: text(f.fw_action) as EdgeEvent['fwAction'],
    wafPart: text(f.waf_part) as EdgeEvent['wafPart'],
    wafExcerpt: cut(text(f.waf_excerpt), EVENT_LIMITS.wafExcerpt),
    wafName: cut(text(f.waf_name), EVENT_LIMITS.wafName),
  };
  if (plainlyValid(candidate)) return { ok: true, event: candidate };
  const checked = edgeEventSchema.safeParse(candidate);
  if (checked.success) return { ok: true, event: checked.data };
  const issue = checked.error.issues[0];
  return { ok: false, reason: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
}
