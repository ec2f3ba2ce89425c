import type { DuckDBAppender } from '@duckdb/node-api';
import type { EventRow } from './analytics-store.js';

/** An event as a row of the appender of a table of EVENT_COLUMNS (the bench's raw floor appends so too). */
export function appendEvent(appender: DuckDBAppender, e: EventRow): void {
  appender.appendBigInt(BigInt(e.ts));
  appender.appendSmallInt(e.ms);
  appender.appendInteger(e.nodeId);
  appender.appendInteger(e.zoneId);
  appender.appendInteger(e.siteId);
  appender.appendInteger(e.domainId);
  appender.appendVarchar(e.requestId);
  appender.appendVarchar(e.batchId);
  appender.appendVarchar(e.ip);
  appender.appendVarchar(e.country);
  appender.appendInteger(e.city);
  appender.appendVarchar(e.method);
  appender.appendVarchar(e.scheme);
  appender.appendVarchar(e.httpVersion);
  appender.appendVarchar(e.host);
  appender.appendVarchar(e.uri);
  appender.appendVarchar(e.path);
  appender.appendVarchar(e.fileType);
  appender.appendSmallInt(e.status);
  appender.appendBigInt(BigInt(e.bytesIn));
  appender.appendBigInt(BigInt(e.bytesOut));
  appender.appendInteger(e.requestMs);
  appender.appendInteger(e.upstreamMs);
  appender.appendSmallInt(e.upstreamStatus);
  appender.appendVarchar(e.cacheStatus);
  appender.appendVarchar(e.userAgent);
  appender.appendVarchar(e.referer);
  appender.appendVarchar(e.fwKind);
  appender.appendInteger(e.fwRule);
  appender.appendVarchar(e.fwAction);
  appender.appendTinyInt(e.hit);
  appender.appendTinyInt(e.blocked);
  appender.appendTinyInt(e.blacklisted);
  appender.appendTinyInt(e.waf);
  appender.appendVarchar(e.wafPart);
  appender.appendVarchar(e.wafExcerpt);
  appender.appendVarchar(e.wafName);
  appender.appendTinyInt(e.counted);
  appender.endRow();
}
