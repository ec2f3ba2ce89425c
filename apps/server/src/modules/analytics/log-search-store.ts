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
 *
 * A node may ship one (node, domain, decision, minute, address) in several records — partial
 * minutes, a correction, a restart — each with what came since: they are shown as one (`merged`),
 * their counts and bytes summed, first and last the earliest and latest, the sample that of the
 * earliest record with a logged request (not a tally's), and the filters apply to that record.
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

/**
 * The events a collapsed record of the scope counts. Where the store hashes well (ClickHouse), the
 * sets hold two 64-bit hashes of a record's key (16 bytes each, not its address and decision).
 */
function covered(p: Pick<LogSearchParts, 'collapsedMinutes' | 'byAddress'>, d: AnalyticsStore['dialect']): string {
  const keyed = (columns: string) => {
    const h = d.hash64;
    return h ? `${h(columns)}, ${h(`'log-search', ${columns}`)}` : columns;
  };
  const minute = d.int64('ts - ts % 60');
  const own = `(${keyed(`${KEY}, ${minute}, ip`)}) IN (SELECT ${keyed(`${KEY}, minute, ip`)} FROM collapsed_blocks WHERE ${p.collapsedMinutes})`;
  if (p.byAddress) return own;
  const any = `(${keyed(`${KEY}, ${minute}`)}) IN (SELECT ${keyed(`${KEY}, minute`)} FROM collapsed_blocks WHERE ${p.collapsedMinutes} AND ip = '')`;
  return `(${own} OR ${any})`;
}

/** The collapsed records' columns a merge sums or recomputes (the others are the chosen record's, or the group's). */
const MERGED = new Set(['ts', 'ms', 'bytes_in', 'bytes_out']);
/** What one merged record is: the node, domain, decision, minute and address. */
const GROUP = ['node_id', 'domain_id', 'fw_kind', 'fw_rule', 'fw_action', 'minute', 'ip'];
/** Orders a group's records: any with a logged request before those of a tally alone, then the earliest. */
const RANK = `CASE WHEN request_id = 'tally' THEN 10000000000000 ELSE 0 END + first_ms`;
/**
 * What a GROUP is keyed by in the merge: where the store hashes well (ClickHouse), two 64-bit
 * hashes of its columns, a fixed 16 bytes per group however long the address and decision (two
 * groups would have to agree on both hashes to be taken for one); else (DuckDB) its columns.
 */
function groupIds(d: AnalyticsStore['dialect']): { select: string; names: string[] } {
  const columns = GROUP.join(', ');
  if (d.hash64) {
    return {
      select: `${d.hash64(columns)} AS k_h1, ${d.hash64(`'log-search', ${columns}`)} AS k_h2`,
      names: ['k_h1', 'k_h2'],
    };
  }
  return { select: GROUP.map((c) => `${c} AS k_${c}`).join(', '), names: GROUP.map((c) => `k_${c}`) };
}

/**
 * The scope's collapsed records, those of one GROUP merged into one row of the log columns, in two
 * passes so that what a query holds per group does not grow with the sample's width (a large
 * flood's records ran ClickHouse past its memory per query with an aggregate state per sample
 * column): first each group's counts, times and the rank of its chosen record (a few integers per
 * group), then the records of that rank joined to them as they stream by. Plain GROUP BY and JOIN
 * USING: ClickHouse 18 has no window functions and joins on equal columns only. Records of one
 * group sharing the chosen rank (the same first time) are one row: the first of them.
 */
function merged(p: Pick<LogSearchParts, 'columns' | 'collapsedMinutes'>, d: AnalyticsStore['dialect']): string {
  const columns = p.columns.split(',').map((c) => c.trim());
  const ids = groupIds(d);
  const key = ids.names.join(', ');
  const groups =
    `SELECT ${ids.select}, min(${RANK}) AS g_rank, sum(requests) AS g_requests, min(first_ms) AS g_first_ms, ` +
    `max(last_ms) AS g_last_ms, sum(bytes_in) AS g_bytes_in, sum(bytes_out) AS g_bytes_out ` +
    `FROM collapsed_blocks WHERE ${p.collapsedMinutes} GROUP BY ${key}`;
  const read = [...new Set([...columns.filter((c) => !MERGED.has(c)), ...GROUP])];
  const records =
    `SELECT ${ids.select}, ${RANK} AS c_rank, ${read.map((c) => `${c} AS c_${c}`).join(', ')} ` +
    `FROM collapsed_blocks WHERE ${p.collapsedMinutes}`;
  const kept = columns.filter((c) => !MERGED.has(c)).map((c) => `c_${c} AS ${c}`);
  // ALL, not ANY: `groups` has one row per key, so ALL keeps every record of a group beside it. ANY
  // would too on ClickHouse 18.16, but from 20.1 (any_join_distinct_right_table_keys = 0) an ANY
  // INNER JOIN keeps one row per key of both sides: only the first record streamed would pass, and
  // a group whose first record is not the chosen one would vanish with the WHERE below.
  const joined =
    `SELECT ${kept.join(', ')}, ${d.int64(d.idiv('g_last_ms', '1000'))} AS ts, ${d.int64('g_last_ms % 1000')} AS ms, ` +
    `${d.int64('g_bytes_in')} AS bytes_in, ${d.int64('g_bytes_out')} AS bytes_out, ` +
    `${d.int64('g_requests')} AS requests, ${d.int64('g_first_ms')} AS first_ms, ` +
    `${d.int64('g_last_ms')} AS last_ms, ${mergedKey(d)} AS row_key ` +
    `FROM (${records}) AS records ${d.windows ? '' : 'ALL '}INNER JOIN (${groups}) AS groups USING (${key}) ` +
    'WHERE c_rank = g_rank';
  // One row per group where several of its records share the chosen rank.
  const one = d.windows
    ? `${joined} QUALIFY row_number() OVER (PARTITION BY ${key}) = 1`
    : `${joined} LIMIT 1 BY ${key}`;
  return `(${one}) AS merged`;
}

/**
 * What tells apart rows sharing a time and request id (the collapsed records of a tally share
 * 'tally'; `row_key`, the last of the order and of a keyset cursor): an event's batch, a merged
 * record's GROUP. Events and records never share one ('e' and 'c' first).
 */
const TEXT_GROUP = new Set(['fw_kind', 'fw_action', 'ip']);
const EVENT_KEY = "concat('e:', batch_id)";
const mergedKey = (d: AnalyticsStore['dialect']) =>
  `concat('c:', ${GROUP.map((c) => (TEXT_GROUP.has(c) ? `c_${c}` : d.text(`c_${c}`))).join(", ':', ")})`;

/** The two tables' rows of a search (`also`: a further condition ANDed to both), newest first (or oldest). */
function unionOf(
  d: AnalyticsStore['dialect'],
  p: Omit<LogSearchParts, 'limit' | 'offset'>,
  also: (key: string) => string = () => '',
  order: 'ASC' | 'DESC' = 'DESC',
) {
  const events = `FROM events WHERE ${p.where}${also(EVENT_KEY)} AND (fw_kind = '' OR NOT ${covered(p, d)})`;
  const collapsed = `FROM ${merged(p, d)} WHERE ${p.where}${also('row_key')}`;
  const rows =
    `SELECT * FROM (SELECT ${p.columns}, ${d.int64('1')} AS requests, ${d.int64('0')} AS first_ms, ` +
    `${d.int64('0')} AS last_ms, ${EVENT_KEY} AS row_key ${events} UNION ALL ` +
    `SELECT ${p.columns}, requests, first_ms, last_ms, row_key ${collapsed}) ` +
    `ORDER BY ts ${order}, ms ${order}, request_id ${order}, row_key ${order}`;
  return { rows, count: `SELECT (SELECT count(*) ${events}) + (SELECT count(*) ${collapsed}) AS n` };
}

/**
 * How many collapsed records one statement merges at most (bar those of a single minute): past it a
 * search walks bounded time windows, newest first, so that no query holds every group of the
 * searched range (a group never spans minutes). `windowRecords` in the parts overrides it.
 */
export const WINDOW_RECORDS = 250_000;

/** A window of the rows' times, seconds: `lo` <= ts < `hi` (null: unbounded). */
interface Window {
  lo: number | null;
  hi: number | null;
}

type Scope = Omit<LogSearchParts, 'limit' | 'offset'> & { windowRecords?: number };

/**
 * The windows a search walks, newest first: one unbounded window while the scope's collapsed
 * records are few enough to merge at once; else cut at minutes so that each window's own minutes
 * hold at most `windowRecords` records (or one minute's). `spread`: how far a merged record's time
 * (its latest record's) lies from its minute, the least and the most, so that a window merges every
 * minute whose groups may fall in it.
 */
async function windowsOf(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: Scope,
): Promise<{ windows: Window[]; spread: [number, number] }> {
  const cap = p.windowRecords ?? WINDOW_RECORDS;
  const d = store.dialect;
  const off = `${d.idiv('last_ms', '1000')} - minute`;
  const [all] = await store.query(
    `SELECT ${d.int64('count(*)')} AS n, ${d.int64(`min(${off})`)} AS lo, ${d.int64(`max(${off})`)} AS hi ` +
      `FROM collapsed_blocks WHERE ${p.collapsedMinutes}`,
  );
  const spread: [number, number] = [Number(all?.lo ?? 0), Number(all?.hi ?? 0)];
  if (Number(all?.n ?? 0) <= cap) return { windows: [{ lo: null, hi: null }], spread };
  const minutes = await store.query(
    `SELECT minute, ${d.int64('count(*)')} AS n FROM collapsed_blocks WHERE ${p.collapsedMinutes} ` +
      'GROUP BY minute ORDER BY minute DESC',
  );
  const windows: Window[] = [];
  let hi: number | null = null;
  let oldest = 0;
  let held = 0;
  for (const m of minutes) {
    const n = Number(m.n);
    if (held > 0 && held + n > cap) {
      windows.push({ lo: oldest, hi });
      hi = oldest;
      held = 0;
    }
    held += n;
    oldest = Number(m.minute);
  }
  windows.push({ lo: null, hi });
  return { windows, spread };
}

/**
 * The search narrowed to one window: its rows' times, and the collapsed minutes whose groups may
 * fall in it (`spread`) or whose records may cover its events (from the minute of its start), more
 * being harmless: a merged record outside the window is left by its time, a covered set matches
 * whole keys.
 */
function within<T extends Scope>(p: T, w: Window, spread: [number, number]): T {
  if (w.lo === null && w.hi === null) return p;
  const ts: string[] = [];
  const minute: string[] = [];
  if (w.lo !== null) {
    ts.push(`ts >= ${int(w.lo)}`);
    minute.push(`minute >= ${int(w.lo - Math.max(spread[1], 0) - (((w.lo % 60) + 60) % 60))}`);
  }
  if (w.hi !== null) {
    ts.push(`ts < ${int(w.hi)}`);
    minute.push(`minute < ${int(w.hi - Math.min(spread[0], 0) + 1)}`);
  }
  return {
    ...p,
    where: `${p.where} AND ${ts.join(' AND ')}`,
    collapsedMinutes: `${p.collapsedMinutes} AND ${minute.join(' AND ')}`,
  };
}

/** Each window's count of rows, newest first. */
async function countsOf(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: Scope,
  walk: { windows: Window[]; spread: [number, number] },
): Promise<number[]> {
  const counts: number[] = [];
  for (const w of walk.windows) {
    const [row] = await store.query(unionOf(store.dialect, within(p, w, walk.spread)).count);
    counts.push(Number(row?.n ?? 0));
  }
  return counts;
}

/** One page of log rows (`last_ms` > 0: a collapsed record, `requests` its count) and how many match. */
export async function searchLogRows(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: LogSearchParts & { windowRecords?: number },
): Promise<{ rows: Row[]; total: number }> {
  const walk = await windowsOf(store, p);
  if (walk.windows.length === 1) {
    const q = unionOf(store.dialect, p);
    const [rows, counted] = await Promise.all([
      store.query(`${q.rows} LIMIT ${int(p.limit)} OFFSET ${int(p.offset)}`),
      store.query(q.count),
    ]);
    return { rows, total: Number(counted[0]?.n ?? 0) };
  }
  const counts = await countsOf(store, p, walk);
  const rows: Row[] = [];
  let skip = p.offset;
  for (const [i, w] of walk.windows.entries()) {
    const n = counts[i] ?? 0;
    if (rows.length >= p.limit) break;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const take = Math.min(p.limit - rows.length, n - skip);
    const q = unionOf(store.dialect, within(p, w, walk.spread));
    rows.push(...(await store.query(`${q.rows} LIMIT ${int(take)} OFFSET ${int(skip)}`)));
    skip = 0;
  }
  return { rows, total: counts.reduce((a, b) => a + b, 0) };
}

/** How many rows (requests and collapsed records) a search holds: what a log export writes. */
export async function countLogRows(store: Pick<AnalyticsStore, 'query' | 'dialect'>, p: Scope): Promise<number> {
  const walk = await windowsOf(store, p);
  return (await countsOf(store, p, walk)).reduce((a, b) => a + b, 0);
}

/** Where a keyset cursor stands: a row's time, request id and `row_key` (unique per row). */
export interface LogRowPosition {
  ts: number;
  ms: number;
  request: string;
  key: string;
}

/**
 * The rows past `at` in the order `op` ('<': newest first, '>': oldest first) over the whole key,
 * as explicit conditions (no tuple comparison in ClickHouse 18.16), given the row key's expression.
 */
function past(d: AnalyticsStore['dialect'], at: LogRowPosition | null, op: '<' | '>'): (key: string) => string {
  if (!at) return () => '';
  const ts = int(at.ts);
  const ms = int(at.ms);
  const id = d.str(at.request);
  const key = d.str(at.key);
  return (k) =>
    ` AND (ts ${op} ${ts} OR (ts = ${ts} AND ms ${op} ${ms}) OR (ts = ${ts} AND ms = ${ms} AND request_id ${op} ${id})` +
    ` OR (ts = ${ts} AND ms = ${ms} AND request_id = ${id} AND ${k} ${op} ${key}))`;
}

/** A row's keyset position. */
export const positionOf = (r: Row): LogRowPosition => ({
  ts: Number(r.ts),
  ms: Number(r.ms),
  request: String(r.request_id),
  key: String(r.row_key ?? ''),
});

/**
 * The next `limit` rows of a search after `last` (the previous chunk's last row; null: from the
 * newest), newest first: a log export's chunks, each as the search's rows.
 */
export async function logRowsAfter(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: Scope,
  last: Row | null,
  limit: number,
): Promise<Row[]> {
  const at = last ? positionOf(last) : null;
  return walkRows(store, p, past(store.dialect, at, '<'), limit, 'DESC', (w) => !at || w.lo === null || w.lo <= at.ts);
}

/**
 * The next `limit` rows of a search after `last` (the previous chunk's last row's position; null:
 * from the oldest), oldest first: a manual log push's batches.
 */
export async function logRowsFrom(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: Scope,
  last: LogRowPosition | null,
  limit: number,
): Promise<Row[]> {
  return walkRows(
    store,
    p,
    past(store.dialect, last, '>'),
    limit,
    'ASC',
    (w) => !last || w.hi === null || w.hi > last.ts,
  );
}

/** Up to `limit` rows past a cursor, window by window in the order (`open`: a window that may hold some). */
async function walkRows(
  store: Pick<AnalyticsStore, 'query' | 'dialect'>,
  p: Scope,
  after: (key: string) => string,
  limit: number,
  order: 'ASC' | 'DESC',
  open: (w: Window) => boolean,
): Promise<Row[]> {
  const walk = await windowsOf(store, p);
  const windows = order === 'DESC' ? walk.windows : [...walk.windows].reverse();
  const rows: Row[] = [];
  for (const w of windows) {
    if (rows.length >= limit) break;
    if (!open(w)) continue;
    const q = unionOf(store.dialect, within(p, w, walk.spread), after, order).rows;
    rows.push(...(await store.query(`${q} LIMIT ${int(limit - rows.length)}`)));
  }
  return rows;
}
