import type { AnalyticsStore, Row } from './analytics-store.js';
import { int } from './store/statistics-sql.js';

/**
 * The log search's statements (logs.service.ts): the events and the refused floods the nodes
 * collapsed (collapsed-store.ts) as one list, newest first. A collapsed record stands in place of
 * the events it counts — those of its node, domain, decision and minute from its address, or from
 * any address for a minute's record past the node's cap (address "") unless the search names an
 * address — so a flood's logged first request is not shown beside its record. The conditions come
 * from logConditions (the scope inside), the same for both tables: a record is its sample request
 * with the record's address, summed bytes and last time.
 */

/** The columns of a log record (logs.service.ts LOG_COLUMNS), and what a collapsed record adds. */
export interface LogSearchParts {
  columns: string;
  /** logConditions of the search, ANDed. */
  where: string;
  /** The same scope over the collapsed records' minutes that may hold requests of the range. */
  collapsedMinutes: string;
  /** The search names an address: records past a node's cap of addresses do not stand for its requests. */
  byAddress: boolean;
  limit: number;
  offset: number;
}

const KEY = 'node_id, domain_id, fw_kind, fw_rule, fw_action';

/** The events a collapsed record of the scope counts. */
function covered(p: LogSearchParts): string {
  const own = `(${KEY}, ts - ts % 60, ip) IN (SELECT ${KEY}, minute, ip FROM collapsed_blocks WHERE ${p.collapsedMinutes})`;
  if (p.byAddress) return own;
  const any = `(${KEY}, ts - ts % 60) IN (SELECT ${KEY}, minute FROM collapsed_blocks WHERE ${p.collapsedMinutes} AND ip = '')`;
  return `(${own} OR ${any})`;
}

/** One page of log rows (`last_ms` > 0: a collapsed record, `requests` its count) and how many match. */
export async function searchLogRows(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: LogSearchParts,
): Promise<{ rows: Row[]; total: number }> {
  const d = store.dialect;
  const events = `FROM events WHERE ${p.where} AND (fw_kind = '' OR NOT ${covered(p)})`;
  const collapsed = `FROM collapsed_blocks WHERE ${p.where}`;
  const [rows, counted] = await Promise.all([
    store.query(
      `SELECT * FROM (SELECT ${p.columns}, ${d.int64('1')} AS requests, ${d.int64('0')} AS first_ms, ` +
        `${d.int64('0')} AS last_ms ${events} UNION ALL SELECT ${p.columns}, requests, first_ms, last_ms ${collapsed}) ` +
        `ORDER BY ts DESC, ms DESC, request_id DESC LIMIT ${int(p.limit)} OFFSET ${int(p.offset)}`,
    ),
    store.query(`SELECT (SELECT count(*) ${events}) + (SELECT count(*) ${collapsed}) AS n`),
  ]);
  return { rows, total: Number(counted[0]?.n ?? 0) };
}
