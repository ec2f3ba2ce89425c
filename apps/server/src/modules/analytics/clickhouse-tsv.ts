import type { EventRow } from './analytics-store.js';

/** What TabSeparated escapes in a string (the backslash, and what would end a field or a row). */
const TSV_SPECIAL = /[\\\t\n\r\0\b\f]/;
const TSV_SPECIAL_ALL = /[\\\t\n\r\0\b\f]/g;
const TSV_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '\\0',
  '\b': '\\b',
  '\f': '\\f',
};
/** A string as a TabSeparated field (most need no escape: tested before replacing). */
export function tsvField(value: string): string {
  return TSV_SPECIAL.test(value) ? value.replace(TSV_SPECIAL_ALL, (c) => TSV_ESCAPES[c] as string) : value;
}

/**
 * An event as a TabSeparated row, its fields in EVENT_COLUMNS's order (the integers checked by
 * checkEvent first). Spelt out and joined as an array: per million rows, joined and encoded, 2.3 s
 * of CPU against 10.6 s for a template literal of the 73 pieces (a string of 73 parts, flattened
 * when the rows are joined) and 10.0 s for JSON.stringify of an object (JSONEachRow, before).
 */
export function eventTsv(e: EventRow): string {
  const t = tsvField;
  return [
    e.ts,
    e.ms,
    e.nodeId,
    e.zoneId,
    e.siteId,
    e.domainId,
    t(e.requestId),
    t(e.batchId),
    t(e.ip),
    t(e.country),
    e.city,
    t(e.method),
    t(e.scheme),
    t(e.httpVersion),
    t(e.host),
    t(e.uri),
    t(e.path),
    t(e.fileType),
    e.status,
    e.bytesIn,
    e.bytesOut,
    e.requestMs,
    e.upstreamMs,
    e.upstreamStatus,
    t(e.cacheStatus),
    t(e.userAgent),
    t(e.referer),
    t(e.fwKind),
    e.fwRule,
    t(e.fwAction),
    e.hit,
    e.blocked,
    e.blacklisted,
    e.waf,
    t(e.wafPart),
    t(e.wafExcerpt),
    t(e.wafName),
    e.counted,
  ].join('\t');
}
