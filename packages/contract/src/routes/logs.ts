import { z } from 'zod';
import { pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIds } from '../validators/ids.js';
import { isIP } from '../validators/ip.js';
import { EVENT_DECISION_ACTIONS, EVENT_DECISION_KINDS, EVENT_LIMITS } from './analytics-events.js';
import { DOMAIN_TAGS_MAX } from './domains.js';
import { siteTagSchema } from './sites.js';
import { STATISTICS_FILTER_IDS_MAX } from './statistics.js';

/**
 * Access and WAF log search (spec part 2 §3 "Access logs, WAF logs … (filters … startTime,
 * endTime, method, reqID, url)", §7 "Logs": `POST user/logs/access`, `POST user/logs/waf`; the
 * operator's versions on the client prefix with the zone filter; docs/decisions.md "Log search").
 * Every record is one request event the edge shipped (analytics-events.ts), newest first, from the
 * raw events the log setting keeps. Only the caller's sites are searched, inside the query.
 */

/** Longest time range one search covers (the raw events are kept at most this long by default). */
export const LOG_RANGE_MAX_DAYS = 31;
/** Most records one page answers. */
export const LOG_PAGE_SIZE_MAX = 100;
/** How a URL filter matches the request URI (path and query, as sent). */
export const LOG_URL_MATCHES = ['contains', 'prefix'] as const;
/** Text a filter may hold: no control characters (they never reach a log line). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const FILTER_TEXT = /^[^\x00-\x1f\x7f]+$/;

const isoTime = z.string().datetime({ offset: true });
const filterIds = zIds(STATISTICS_FILTER_IDS_MAX, 0).optional();

/** The log search's filters and page (log-exports.ts takes the filters without the page). */
export const logFilterBase = z.object({
  siteIDs: filterIds,
  domainIDs: filterIds,
  /** The domains carrying any of these tags, within the other filters (as the statistics'). */
  domainTags: z.array(siteTagSchema).max(DOMAIN_TAGS_MAX).optional(),
  startTime: isoTime,
  endTime: isoTime,
  /** The client address, exactly (as the edge saw it). */
  ip: z
    .string()
    .max(45)
    .regex(/^[0-9A-Fa-f:.]+$/, 'wrongFormat')
    .refine((s) => isIP(s), { message: 'wrongFormat' })
    .optional(),
  status: z.number().int().min(0).max(999).optional(),
  method: z
    .string()
    .regex(/^[A-Z]{1,16}$/, 'wrongFormat')
    .optional(),
  url: z.string().min(1).max(EVENT_LIMITS.path).regex(FILTER_TEXT, 'wrongFormat').optional(),
  urlMatch: z.enum(LOG_URL_MATCHES).default('contains'),
  reqID: z
    .string()
    .max(EVENT_LIMITS.requestId)
    .regex(/^[A-Za-z0-9._-]+$/, 'wrongFormat')
    .optional(),
  /** The deciding module (an event's fwKind): its refused and collapsed requests alike. */
  decision: z.enum(EVENT_DECISION_KINDS.filter((k) => k !== '') as [string, ...string[]]).optional(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(LOG_PAGE_SIZE_MAX).default(20),
});
/** The WAF log's own filters. */
export const logWafFilters = {
  /** The WAF rule that decided (engine rule ids, WAF_GROUP_RULE_BASE). */
  ruleId: z.number().int().min(1).optional(),
  action: z.enum(EVENT_DECISION_ACTIONS.filter((a) => a !== '') as [string, ...string[]]).optional(),
};
/** The operator's scope filters of a log search: zones and one customer. */
export const logClientFilters = {
  zoneIDs: filterIds,
  userID: z.number().int().positive().optional(),
};
/** The time range is forward and at most LOG_RANGE_MAX_DAYS long. */
export function checkLogRange<T extends { startTime: string; endTime: string }>(value: T, ctx: z.RefinementCtx): void {
  const start = Date.parse(value.startTime);
  const end = Date.parse(value.endTime);
  if (!(end > start)) ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'endBeforeStart' });
  else if (end - start > LOG_RANGE_MAX_DAYS * 86_400_000) {
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'rangeTooLong' });
  }
}

const userAccessBody = logFilterBase.superRefine(checkLogRange);
const userWafBody = logFilterBase.extend(logWafFilters).superRefine(checkLogRange);
const clientAccessBody = logFilterBase.extend(logClientFilters).superRefine(checkLogRange);
const clientWafBody = logFilterBase.extend({ ...logWafFilters, ...logClientFilters }).superRefine(checkLogRange);
/** What the service takes: every filter of every version (those a version lacks stay undefined). */
export type LogFilter = z.output<typeof clientWafBody>;

/** One request as the logs show it: the whole stored event. */
export const logRecordSchema = z.object({
  reqID: z.string(),
  /** ISO time with milliseconds (the node's clock). */
  time: z.string(),
  nodeID: z.number().int(),
  zoneID: z.number().int(),
  siteID: z.number().int(),
  domainID: z.number().int(),
  host: z.string(),
  ip: z.string(),
  /** ISO 3166 alpha-2 code, "" when unknown. */
  country: z.string(),
  method: z.string(),
  scheme: z.string(),
  httpVersion: z.string(),
  /** The request URI with its query, as sent. */
  url: z.string(),
  status: z.number().int(),
  bytesIn: z.number(),
  bytesOut: z.number(),
  requestMs: z.number().int(),
  upstreamMs: z.number().int(),
  upstreamStatus: z.number().int(),
  cacheStatus: z.string(),
  userAgent: z.string(),
  referer: z.string(),
  fwKind: z.string(),
  fwRule: z.number().int(),
  fwAction: z.string(),
  /** A WAF decision's part of the request (WAF_PARTS) and a redacted excerpt of the match. */
  wafPart: z.string(),
  wafExcerpt: z.string(),
  /** The argument, cookie, header or upload field the match was in ("" for the path or none). */
  wafName: z.string(),
  /**
   * A refused flood collapsed at the edge (analytics-aggregates.ts `collapsed`): this many requests
   * from `ip` ("" for a minute's addresses past the node's cap) refused by the decision (fwKind,
   * fwRule, fwAction) in one minute, the first and last at these times (ISO; `time` is the last).
   * The rest of the record is the first request (the sample), its bytes the sums. Absent on a
   * record of one request.
   */
  collapsed: z.object({ count: z.number().int(), first: z.string(), last: z.string() }).optional(),
});
export type LogRecord = z.infer<typeof logRecordSchema>;

/**
 * Minutes in which a site's passed requests reached the control plane faster than the log store
 * keeps up, so its logs kept 1 in `rate` of them (docs/decisions.md "Log sampling"); `start` and
 * `end` (ISO) bound the minutes. The statistics count every request whatever the logs kept.
 */
export const logSampledSchema = z.object({
  siteID: z.number().int(),
  rate: z.number().int().min(2),
  start: z.string(),
  end: z.string(),
});
export type LogSampled = z.infer<typeof logSampledSchema>;
/** A page of the log search: its records, and the sampled spans of the searched sites and range. */
const logPage = pageOf(logRecordSchema).extend({ sampled: z.array(logSampledSchema) });

const userLogs = tiers(['user'], 'user.logs.read');
const clientLogs = tiers(['client'], 'client.logs.read');

const route = routeFamily({ tags: ['logs'], write: userLogs });

export const userAccessLogs = route.post('user.logs.access', '/user/logs/access', {
  summary: "The access log of the caller's sites: requests in the time range matching the filters, newest first, paged",
  body: userAccessBody,
  response: logPage,
});
export const userWafLogs = route.post('user.logs.waf', '/user/logs/waf', {
  summary: "The WAF log of the caller's sites: requests a WAF module blocked or detected, newest first, paged",
  body: userWafBody,
  response: logPage,
});
export const clientAccessLogs = route.post('client.logs.access', '/client/logs/access', {
  access: clientLogs,
  summary: "The access log of the operator's sites (optionally by zone and customer), newest first, paged",
  body: clientAccessBody,
  response: logPage,
});
export const clientWafLogs = route.post('client.logs.waf', '/client/logs/waf', {
  access: clientLogs,
  summary: "The WAF log of the operator's sites (optionally by zone and customer), newest first, paged",
  body: clientWafBody,
  response: logPage,
});

export const logRoutes = { userAccessLogs, userWafLogs, clientAccessLogs, clientWafLogs } as const;
