import { HLL_STANDARD_ERROR, HyperLogLog, type HyperLogLogData } from '@rampart/contract';
import type { AnalyticsStore, Row } from './analytics-store.js';
import { isHighDim } from './rollups.js';

/**
 * The statistics' reads of the nodes' aggregates beyond their counters (aggregate-sketch-rows.ts):
 *
 * - dimension rows: a minute record's low dimensions (`agg_lowdims`, exact) and heavy hitters
 *   (`agg_highdims`) as rows beside the raw events' wherever those are read (a minute counts in a
 *   range when it starts in it). A top summed from heavy hitters is within F of the true counts,
 *   F = Σ of the minutes' floors ≤ N / (k + 1) (N: the requests those minutes counted, k the
 *   summaries' capacity): a value's summed count exceeds its true count by at most the errors of
 *   its minutes, and falls short by at most the floors of the minutes that did not list it; every
 *   value whose true count exceeds F is listed by one minute at least, so it has a row;
 * - distinct addresses: where the scope's range holds minute records, the union of their
 *   HyperLogLogs and of every address the raw rows name (the heavy hitters' addresses are in their
 *   own sketches already: a union counts them once) — exact while the union holds at most
 *   HLL_EXACT_MAX addresses, else an estimate with relative standard error HLL_STANDARD_ERROR;
 * - peaks: per bucket of the card's peak (a minute, or five beyond a day), the busiest minute's
 *   sum of the nodes' own busiest seconds, plus the bucket's other requests (raw events) spread
 *   evenly: the nodes' maxima need not fall in the same second, so the sum is an upper bound of
 *   the busiest second — never a minute's count over 60 where a node counted its seconds.
 */

type Scope = { siteIds: readonly number[]; zoneIds: readonly number[] | null; domainIds: readonly number[] | null };
type Range = { start: number; end: number };
type Where = (scope: Scope, time: string, range: Range) => string;

/** The rows of `dim` in the aggregates' minutes matching `where` (over `minute`), as the statistics' raw rows; `ip4`: the store's address integer of `value`, if it keeps one. */
export const aggregateDimRows = (dim: string, where: string, ip4: string | null): string =>
  `SELECT value, requests, bytes_out, blocked, blacklisted, waf${ip4 ? `, ${ip4} AS ip4` : ''} FROM ${isHighDim(dim) ? 'agg_highdims' : 'agg_lowdims'} WHERE dim = '${dim}' AND ${where}`;

const SKETCH_OF = { all: 'ips', blocked: 'blocked_ips', blacklisted: 'blacklisted_ips' } as const;
const num = (row: Row | undefined, key: string): number => Number(row?.[key] ?? 0) || 0;

export class SketchReads {
  constructor(
    private readonly store: Pick<AnalyticsStore, 'query'>,
    private readonly where: Where,
    /** The statistics' rows of a dimension over a range (raw events, dimension tables and aggregates). */
    private readonly rowsOf: (scope: Scope, range: Range, dim: 'ip') => string,
  ) {}

  /** The minutes of the range a minute record counts in: those that start in it. */
  private minutes(scope: Scope, range: Range): string {
    return this.where(scope, 'minute', range);
  }

  /**
   * Distinct client addresses (with a blocked or blacklisted request when `having`) where minute
   * records count in the range, with the relative standard error of the figure (0: exact); null
   * where none does (the raw events' exact count stands).
   */
  async distinctAddresses(
    scope: Scope,
    range: Range,
    having?: 'blocked' | 'blacklisted',
  ): Promise<{ count: number; standardError: number } | null> {
    if (scope.siteIds.length === 0) return null;
    const rows = await this.store.query(
      `SELECT ${SKETCH_OF[having ?? 'all']} AS s FROM agg_sketches WHERE ${this.minutes(scope, range)}`,
    );
    if (rows.length === 0) return null;
    const union = new HyperLogLog();
    for (const row of rows) {
      const text = String(row.s ?? '');
      if (text === '') continue;
      const sketch = HyperLogLog.from(JSON.parse(text) as HyperLogLogData);
      if (sketch) union.merge(sketch);
    }
    const values = await this.store.query(
      `SELECT DISTINCT value FROM (${this.rowsOf(scope, range, 'ip')}) AS r WHERE value <> ''${having ? ` AND ${having} > 0` : ''}`,
    );
    for (const row of values) union.add(String(row.value));
    return { count: union.count(), standardError: union.exact ? 0 : HLL_STANDARD_ERROR };
  }

  /**
   * The busiest second's requests and bytes where minute records count in the range (see above),
   * over buckets of `unit` seconds (the card's); null where none does.
   */
  async peaks(scope: Scope, range: Range, unit: 60 | 300): Promise<{ requests: number; bytes: number } | null> {
    if (scope.siteIds.length === 0) return null;
    const minutes = await this.store.query(
      `SELECT minute AS m, sum(peak_requests) AS pr, sum(peak_bytes) AS pb, sum(requests) AS rq, sum(bytes_out) AS bo ` +
        `FROM agg_sketches WHERE ${this.minutes(scope, range)} GROUP BY minute`,
    );
    if (minutes.length === 0) return null;
    const buckets = new Map<number, { pr: number; pb: number; rq: number; bo: number }>();
    for (const row of minutes) {
      const m = num(row, 'm');
      const b = m - (m % unit);
      const at = buckets.get(b) ?? { pr: 0, pb: 0, rq: 0, bo: 0 };
      at.pr = Math.max(at.pr, num(row, 'pr'));
      at.pb = Math.max(at.pb, num(row, 'pb'));
      at.rq += num(row, 'rq');
      at.bo += num(row, 'bo');
      buckets.set(b, at);
    }
    const first = Math.min(...buckets.keys());
    const last = Math.max(...buckets.keys());
    const totals = await this.store.query(
      `SELECT bucket AS b, sum(requests) AS rq, sum(bytes_out) AS bo FROM ${unit === 60 ? 'rollup_1m' : 'rollup_5m'} ` +
        `WHERE ${this.where(scope, 'bucket', { start: first, end: last + unit })} GROUP BY bucket`,
    );
    let requests = 0;
    let bytes = 0;
    for (const row of totals) {
      const at = buckets.get(num(row, 'b'));
      if (!at) continue;
      // The bucket's requests the minute records did not count (raw events), spread over its seconds.
      requests = Math.max(requests, at.pr + Math.max(0, num(row, 'rq') - at.rq) / unit);
      bytes = Math.max(bytes, at.pb + Math.max(0, num(row, 'bo') - at.bo) / unit);
    }
    return { requests, bytes };
  }
}
