import type { EventRow } from './analytics-store.js';

/** Column name and DuckDB type of the events table, in the appender's order (ClickHouse maps the types). */
export const EVENT_COLUMNS: readonly [keyof EventRow, string, string][] = [
  ['ts', 'ts', 'BIGINT'],
  ['ms', 'ms', 'SMALLINT'],
  ['nodeId', 'node_id', 'INTEGER'],
  ['zoneId', 'zone_id', 'INTEGER'],
  ['siteId', 'site_id', 'INTEGER'],
  ['domainId', 'domain_id', 'INTEGER'],
  ['requestId', 'request_id', 'VARCHAR'],
  ['batchId', 'batch_id', 'VARCHAR'],
  ['ip', 'ip', 'VARCHAR'],
  ['country', 'country', 'VARCHAR'],
  ['city', 'city', 'INTEGER'],
  ['method', 'method', 'VARCHAR'],
  ['scheme', 'scheme', 'VARCHAR'],
  ['httpVersion', 'http_version', 'VARCHAR'],
  ['host', 'host', 'VARCHAR'],
  ['uri', 'uri', 'VARCHAR'],
  ['path', 'path', 'VARCHAR'],
  ['fileType', 'file_type', 'VARCHAR'],
  ['status', 'status', 'SMALLINT'],
  ['bytesIn', 'bytes_in', 'BIGINT'],
  ['bytesOut', 'bytes_out', 'BIGINT'],
  ['requestMs', 'request_ms', 'INTEGER'],
  ['upstreamMs', 'upstream_ms', 'INTEGER'],
  ['upstreamStatus', 'upstream_status', 'SMALLINT'],
  ['cacheStatus', 'cache_status', 'VARCHAR'],
  ['userAgent', 'user_agent', 'VARCHAR'],
  ['referer', 'referer', 'VARCHAR'],
  ['fwKind', 'fw_kind', 'VARCHAR'],
  ['fwRule', 'fw_rule', 'INTEGER'],
  ['fwAction', 'fw_action', 'VARCHAR'],
  ['hit', 'hit', 'TINYINT'],
  ['blocked', 'blocked', 'TINYINT'],
  ['blacklisted', 'blacklisted', 'TINYINT'],
  ['waf', 'waf', 'TINYINT'],
  // Added with the WAF: stores from before get them (empty) on open, last, in this order.
  ['wafPart', 'waf_part', 'VARCHAR'],
  ['wafExcerpt', 'waf_excerpt', 'VARCHAR'],
  ['wafName', 'waf_name', 'VARCHAR'],
  // Added with the nodes' aggregates: 0 for an event kept for the logs only (its statistics came as aggregates).
  ['counted', 'counted', 'TINYINT'],
];
/** Columns added to the events table after it first shipped, with the value of older rows: added on open by both stores. */
export const ADDED_EVENT_COLUMNS: ReadonlyMap<string, string> = new Map([
  ...['waf_part', 'waf_excerpt', 'waf_name'].map((c) => [c, "''"] as const),
  ['counted', '1'],
]);

/** ClickHouse type of each DuckDB type of EVENT_COLUMNS, with the range of the integers. */
export const CLICKHOUSE_TYPES: Record<string, { type: string; min?: number; max?: number }> = {
  BIGINT: { type: 'Int64', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
  INTEGER: { type: 'Int32', min: -(2 ** 31), max: 2 ** 31 - 1 },
  SMALLINT: { type: 'Int16', min: -(2 ** 15), max: 2 ** 15 - 1 },
  TINYINT: { type: 'Int8', min: -(2 ** 7), max: 2 ** 7 - 1 },
  VARCHAR: { type: 'String' },
};

export const CLICKHOUSE_EVENT_COLUMNS = EVENT_COLUMNS.map(([field, name, duck]) => {
  const t = CLICKHOUSE_TYPES[duck];
  if (!t) throw new Error(`no ClickHouse type for ${duck}`);
  return { field, name, ...t };
});

/** Checks an event's fields against the column types: ClickHouse would wrap an integer that does not fit. */
export function checkEvent(e: EventRow): void {
  for (const c of CLICKHOUSE_EVENT_COLUMNS) {
    const v = e[c.field];
    if (c.type === 'String') {
      if (typeof v !== 'string') throw new Error(`event ${c.name}: not a string`);
    } else if (typeof v !== 'number' || !Number.isInteger(v) || v < (c.min ?? 0) || v > (c.max ?? 0)) {
      throw new Error(`event ${c.name}: ${String(v)} is not an integer that fits ${c.type}`);
    }
  }
}
