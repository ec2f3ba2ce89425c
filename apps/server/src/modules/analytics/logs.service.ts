import type { LogFilter, LogRecord, LogSampled } from '@rampart/contract';
import type { Caller } from '../../platform/http/bind-route.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import { analyticsScope } from './analytics-scope.js';
import type { AnalyticsStore, Row, SqlDialect } from './analytics-store.js';
import type { LogSampleRow, LogSamplesRepository } from './log-samples.repository.js';
import { searchLogRows } from './log-search-store.js';
import { rangeOf } from './statistics.service.js';
import { int, type Scope, scopeWhere } from './store/statistics-sql.js';

export type LogKind = 'access' | 'waf';

/** The events' columns a log record is made of (recordOf). */
export const LOG_COLUMNS =
  'ts, ms, node_id, zone_id, site_id, domain_id, request_id, host, ip, country, method, scheme, http_version, ' +
  'uri, status, bytes_in, bytes_out, request_ms, upstream_ms, upstream_status, cache_status, user_agent, ' +
  'referer, fw_kind, fw_rule, fw_action, waf_part, waf_excerpt, waf_name';

/**
 * Access and WAF log search (routes/logs.ts; docs/decisions.md "Log search") over the raw events
 * of the analytics store and the refused floods the nodes collapsed, each in place of the events it
 * counts (log-search-store.ts): the caller's sites first (analyticsScope, inside the SQL as the
 * statistics), then the filters, newest first. Numbers enter the statement as checked integers,
 * strings only as their bytes in hexadecimal (SqlDialect.str), never as text.
 */
export class LogsService {
  constructor(
    private readonly store: AnalyticsStore,
    private readonly repo: AnalyticsRepository,
    private readonly samples: Pick<LogSamplesRepository, 'inRange'>,
  ) {}

  async search(
    caller: Caller,
    kind: LogKind,
    filter: LogFilter,
  ): Promise<{ data: LogRecord[]; total: number; sampled: LogSampled[] }> {
    const scope = await analyticsScope(this.repo, caller, filter);
    if (scope.siteIds.length === 0) return { data: [], total: 0, sampled: [] };
    const range = rangeOf(filter);
    const sampled = this.samples.inRange(scope.siteIds, range.start - (range.start % 60), range.end);
    const { rows, total } = await searchLogRows(this.store, {
      ...logSearchParts(this.store.dialect, scope, kind, filter),
      limit: filter.pageSize,
      offset: (filter.page - 1) * filter.pageSize,
    });
    return { data: rows.map(searchRecordOf), total, sampled: sampledSpans(await sampled) };
  }
}

/**
 * The sampled minutes (by site, then minute) as spans: a site's consecutive minutes at the same
 * rate together. A minute's rate is what arrived over what was kept, at least 2 (it was sampled).
 */
export function sampledSpans(rows: readonly LogSampleRow[]): LogSampled[] {
  const spans: { siteID: number; rate: number; from: number; to: number }[] = [];
  for (const r of rows) {
    const rate = Math.max(2, Math.round(r.seen / Math.max(1, r.kept)));
    const last = spans.at(-1);
    if (last && last.siteID === r.siteId && last.rate === rate && last.to === r.minute) last.to = r.minute + 60;
    else spans.push({ siteID: r.siteId, rate, from: r.minute, to: r.minute + 60 });
  }
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return spans.map(({ siteID, rate, from, to }) => ({ siteID, rate, start: iso(from), end: iso(to) }));
}

/** What a log search or export reads (log-search-store.ts): the columns, conditions and the collapsed records' minutes. */
export function logSearchParts(d: SqlDialect, scope: Scope, kind: LogKind, filter: LogConditionFilter) {
  const range = rangeOf(filter);
  return {
    columns: LOG_COLUMNS,
    where: logConditions(d, scope, kind, filter).join(' AND '),
    // A record's time is its last request's: its minute may start before the range.
    collapsedMinutes: scopeWhere(scope, 'minute', { start: range.start - 60, end: range.end }),
    byAddress: filter.ip !== undefined,
  };
}

/** The filter a log search or export is made of (what `where` ANDs): the scope and time range first. */
export type LogConditionFilter = Pick<
  LogFilter,
  'startTime' | 'endTime' | 'ip' | 'status' | 'method' | 'reqID' | 'url' | 'urlMatch' | 'ruleId' | 'action' | 'decision'
>;

/**
 * The conditions of a log search or export, ANDed by the caller: the scope (sites, zones, domains)
 * and the time range, then each filter. Numbers enter as checked integers, strings only through the
 * dialect (their bytes in hexadecimal).
 */
export function logConditions(d: SqlDialect, scope: Scope, kind: LogKind, filter: LogConditionFilter): string[] {
  const where = [scopeWhere(scope, 'ts', rangeOf(filter))];
  if (kind === 'waf') where.push(`fw_kind = 'waf'`);
  if (filter.ip !== undefined) where.push(`ip = ${d.str(filter.ip.toLowerCase())}`);
  if (filter.status !== undefined) where.push(`status = ${int(filter.status)}`);
  if (filter.method !== undefined) where.push(`method = ${d.str(filter.method)}`);
  if (filter.decision !== undefined) where.push(`fw_kind = ${d.str(filter.decision)}`);
  if (filter.reqID !== undefined) where.push(`request_id = ${d.str(filter.reqID)}`);
  if (filter.url !== undefined) {
    where.push(filter.urlMatch === 'prefix' ? d.startsWith('uri', filter.url) : d.contains('uri', filter.url));
  }
  if (kind === 'waf' && filter.ruleId !== undefined) where.push(`fw_rule = ${int(filter.ruleId)}`);
  if (kind === 'waf' && filter.action !== undefined) where.push(`fw_action = ${d.str(filter.action)}`);
  return where;
}

const str = (v: number | string | undefined) => (v === undefined ? '' : String(v));
const num = (v: number | string | undefined) => Number(v ?? 0);

/** A row of the log search: a record, and a collapsed record's count and times (log-search-store.ts). */
export function searchRecordOf(r: Row): LogRecord {
  const record = recordOf(r);
  const last = num(r.last_ms);
  if (last === 0) return record;
  const collapsed = { count: num(r.requests), first: new Date(num(r.first_ms)).toISOString(), last: record.time };
  return { ...record, collapsed };
}

/** A row of LOG_COLUMNS as a log record. */
export function recordOf(r: Row): LogRecord {
  return {
    reqID: str(r.request_id),
    time: new Date(num(r.ts) * 1000 + num(r.ms)).toISOString(),
    nodeID: num(r.node_id),
    zoneID: num(r.zone_id),
    siteID: num(r.site_id),
    domainID: num(r.domain_id),
    host: str(r.host),
    ip: str(r.ip),
    country: str(r.country),
    method: str(r.method),
    scheme: str(r.scheme),
    httpVersion: str(r.http_version),
    url: str(r.uri),
    status: num(r.status),
    bytesIn: num(r.bytes_in),
    bytesOut: num(r.bytes_out),
    requestMs: num(r.request_ms),
    upstreamMs: num(r.upstream_ms),
    upstreamStatus: num(r.upstream_status),
    cacheStatus: str(r.cache_status),
    userAgent: str(r.user_agent),
    referer: str(r.referer),
    fwKind: str(r.fw_kind),
    fwRule: num(r.fw_rule),
    fwAction: str(r.fw_action),
    wafPart: str(r.waf_part),
    wafExcerpt: str(r.waf_excerpt),
    wafName: str(r.waf_name),
  };
}
