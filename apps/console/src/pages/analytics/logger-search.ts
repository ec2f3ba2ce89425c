import {
  clientAccessLogs,
  clientWafLogs,
  EVENT_DECISION_KINDS,
  type LOG_URL_MATCHES,
  userAccessLogs,
  userWafLogs,
} from '@rampart/contract';

export type LogKind = 'access' | 'waf';
export type UrlMatch = (typeof LOG_URL_MATCHES)[number];

/** The filters of the search row, as typed (sent only when set). */
export interface SearchFields {
  ip?: string;
  status?: number;
  method?: string;
  url?: string;
  urlMatch: UrlMatch;
  reqID?: string;
  /** The deciding module (an event's fwKind). */
  decision?: string;
  ruleId?: number;
  action?: string;
}

/** The time range the page starts with, in hours (the logs of the last hour). */
export const DEFAULT_HOURS = 1;
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
/** The modules a search may name as the decision (the access log's filter). */
export const DECISIONS = EVENT_DECISION_KINDS.filter((k) => k !== '');

/**
 * The routes of a console's log search: the operator's take zones and a customer besides, typed as
 * the operator's (the customer's page never sets those two), as the statistics' routes are.
 */
export function logRoutes(tier: 'user' | 'client') {
  return tier === 'user'
    ? {
        access: userAccessLogs as unknown as typeof clientAccessLogs,
        waf: userWafLogs as unknown as typeof clientWafLogs,
      }
    : { access: clientAccessLogs, waf: clientWafLogs };
}

/** The URL's search parameters of the page: the log, then each filter of the search row. */
export const LOG_SEARCH_KEYS = [
  'kind',
  'ip',
  'status',
  'method',
  'url',
  'urlMatch',
  'reqID',
  'decision',
  'ruleId',
  'action',
] as const;
export type LogSearchKey = (typeof LOG_SEARCH_KEYS)[number];

/** The search row's fields as the URL holds them (numbers that are not whole are left out). */
export function fieldsOf(filters: Partial<Record<LogSearchKey, string>>): SearchFields {
  const whole = (text: string | undefined) => {
    const n = Number(text);
    return text !== undefined && Number.isInteger(n) ? n : undefined;
  };
  return {
    ip: filters.ip,
    status: whole(filters.status),
    method: filters.method,
    url: filters.url,
    urlMatch: filters.urlMatch === 'prefix' ? 'prefix' : 'contains',
    reqID: filters.reqID,
    decision: filters.decision,
    ruleId: whole(filters.ruleId),
    action: filters.action,
  };
}

/** The search row's fields as URL parameters (the default match left out). */
export function paramsOf(fields: SearchFields): Partial<Record<LogSearchKey, string | undefined>> {
  return {
    ip: fields.ip,
    status: fields.status === undefined ? undefined : String(fields.status),
    method: fields.method,
    url: fields.url,
    urlMatch: fields.urlMatch === 'prefix' ? 'prefix' : undefined,
    reqID: fields.reqID,
    decision: fields.decision,
    ruleId: fields.ruleId === undefined ? undefined : String(fields.ruleId),
    action: fields.action,
  };
}

/** The fields a search sends: those set, the WAF's only on the WAF log. */
export function sent(fields: SearchFields, kind: LogKind): Partial<SearchFields> {
  const out: Partial<SearchFields> = {};
  if (fields.ip) out.ip = fields.ip;
  if (fields.status !== undefined) out.status = fields.status;
  if (fields.method) out.method = fields.method;
  if (fields.url) {
    out.url = fields.url;
    out.urlMatch = fields.urlMatch;
  }
  if (fields.reqID) out.reqID = fields.reqID;
  if (fields.decision && kind === 'access') out.decision = fields.decision;
  if (kind === 'waf') {
    if (fields.ruleId !== undefined) out.ruleId = fields.ruleId;
    if (fields.action) out.action = fields.action;
  }
  return out;
}
