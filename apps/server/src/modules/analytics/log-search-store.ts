import type { AnalyticsStore, Row } from './analytics-store.js';
import { int } from './statistics.queries.js';

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
function covered(p: Pick<LogSearchParts, 'collapsedMinutes' | 'byAddress'>): string {
  const own = `(${KEY}, ts - ts % 60, ip) IN (SELECT ${KEY}, minute, ip FROM collapsed_blocks WHERE ${p.collapsedMinutes})`;
  if (p.byAddress) return own;
  const any = `(${KEY}, ts - ts % 60) IN (SELECT ${KEY}, minute FROM collapsed_blocks WHERE ${p.collapsedMinutes} AND ip = '')`;
  return `(${own} OR ${any})`;
}

/** The two tables' rows of a search (`also`: a further condition ANDed to both), newest first. */
function unionOf(d: AnalyticsStore['dialect'], p: Omit<LogSearchParts, 'limit' | 'offset'>, also = '') {
  const events = `FROM events WHERE ${p.where}${also} AND (fw_kind = '' OR NOT ${covered(p)})`;
  const collapsed = `FROM collapsed_blocks WHERE ${p.where}${also}`;
  const rows =
    `SELECT * FROM (SELECT ${p.columns}, ${d.int64('1')} AS requests, ${d.int64('0')} AS first_ms, ` +
    `${d.int64('0')} AS last_ms ${events} UNION ALL SELECT ${p.columns}, requests, first_ms, last_ms ${collapsed}) ` +
    'ORDER BY ts DESC, ms DESC, request_id DESC';
  return { rows, count: `SELECT (SELECT count(*) ${events}) + (SELECT count(*) ${collapsed}) AS n` };
}

/** One page of log rows (`last_ms` > 0: a collapsed record, `requests` its count) and how many match. */
export async function searchLogRows(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: LogSearchParts,
): Promise<{ rows: Row[]; total: number }> {
  const q = unionOf(store.dialect, p);
  const [rows, counted] = await Promise.all([
    store.query(`${q.rows} LIMIT ${int(p.limit)} OFFSET ${int(p.offset)}`),
    store.query(q.count),
  ]);
  return { rows, total: Number(counted[0]?.n ?? 0) };
}

/** How many rows (requests and collapsed records) a search holds: what a log export writes. */
export async function countLogRows(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: Omit<LogSearchParts, 'limit' | 'offset'>,
): Promise<number> {
  const [row] = await store.query(unionOf(store.dialect, p).count);
  return Number(row?.n ?? 0);
}

/**
 * The next `limit` rows of a search after `last` (the previous chunk's last row, by time and
 * request id; null: from the newest): a log export's chunks, each as the search's rows.
 */
export async function logRowsAfter(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: Omit<LogSearchParts, 'limit' | 'offset'>,
  last: Row | null,
  limit: number,
): Promise<Row[]> {
  let after = '';
  if (last) {
    // Explicit conditions: no tuple comparison (ClickHouse 18.16).
    const ts = int(Number(last.ts));
    const ms = int(Number(last.ms));
    const id = store.dialect.str(String(last.request_id));
    after = ` AND (ts < ${ts} OR (ts = ${ts} AND ms < ${ms}) OR (ts = ${ts} AND ms = ${ms} AND request_id < ${id}))`;
  }
  return store.query(`${unionOf(store.dialect, p, after).rows} LIMIT ${int(limit)}`);
}
