import type { AggregateMinute } from '@rampart/contract';
import type { AggregateHighRow, AggregateSketchRow } from './analytics-store.js';

/**
 * A minute record's heavy hitters and sketches as rows of `agg_highdims` and `agg_sketches`
 * (aggregate-sketch-duckdb.ts, aggregate-sketch-clickhouse.ts), placed as its counters are.
 *
 * Heavy hitters: a row per listed value, in the dimensions' tables' shape (DIM_COUNTERS) so that
 * they sum with the raw events' rows wherever those are read: `requests` is the summary's count
 * (space-saving's upper bound; `error` its overestimate at most), the other counters the value's
 * side sums (lower bounds, exact when the error is 0). The addresses' three summaries (by
 * requests, by blacklisted and by WAF requests) make one row per address: `blacklisted` and `waf`
 * are the counts of their own summaries, so a list ordered by them ranks what those summaries
 * counted; an address only they list takes its other counters from their side sums.
 */

type Place = { minute: number; siteId: number; domainId: number; zoneId: number };
type Entry = (string | number)[];

const HIGH_SUMMARIES = ['url', 'referer', 'userAgent'] as const;

/** DIM_COUNTERS of an entry [value, count, error, requests, bytes_out, blocked, blacklisted, waf]: requests is the count. */
const countsOf = (e: Entry): number[] => [
  e[1] as number,
  e[4] as number,
  e[5] as number,
  e[6] as number,
  e[7] as number,
];

/** A row of one literal shape (no spread: a node-minute is ~430,000 of them). */
const highRow = (at: Place, dim: string, value: string, counts: number[], error: number): AggregateHighRow => ({
  minute: at.minute,
  siteId: at.siteId,
  domainId: at.domainId,
  zoneId: at.zoneId,
  dim,
  value,
  counts,
  error,
});

/** Appends a minute record's heavy-hitter rows to `rows` (answered). */
export function highRowsOf(m: AggregateMinute, at: Place, rows: AggregateHighRow[] = []): AggregateHighRow[] {
  const top = m.top;
  // A partial record carries no heavy hitters: its minute's closing record does.
  if (top === undefined) return rows;
  for (const dim of HIGH_SUMMARIES) {
    for (const e of top[dim].entries) rows.push(highRow(at, dim, e[0] as string, countsOf(e), e[2] as number));
  }
  const ips = new Map<string, { counts: number[]; error: number }>();
  for (const e of top.ip.entries) {
    const c = countsOf(e);
    ips.set(e[0] as string, { counts: [c[0]!, c[1]!, c[2]!, 0, 0], error: e[2] as number });
  }
  const decided = [
    [top.ipBlacklisted, 3],
    [top.ipWaf, 4],
  ] as const;
  const listed = new Set(ips.keys());
  for (const [summary, column] of decided) {
    for (const e of summary?.entries ?? []) {
      const value = e[0] as string;
      let row = ips.get(value);
      if (!row) {
        const c = countsOf(e);
        // Listed by a decision alone: its requests counted while listed there (a lower bound).
        row = { counts: [e[3] as number, c[1]!, c[2]!, 0, 0], error: 0 };
        ips.set(value, row);
      } else if (!listed.has(value)) {
        row.counts[0] = Math.max(row.counts[0]!, e[3] as number);
      }
      row.counts[column] = e[1] as number;
    }
  }
  for (const [value, { counts, error }] of ips) rows.push(highRow(at, 'ip', value, counts, error));
  return rows;
}

export function sketchRowOf(m: AggregateMinute, at: Place): AggregateSketchRow {
  const json = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));
  return {
    ...at,
    requests: m.counters[0],
    bytesOut: m.counters[2],
    peakRequests: m.peakRequests,
    peakBytes: m.peakBytesOut,
    ips: json(m.ips),
    blockedIps: json(m.blockedIps),
    blacklistedIps: json(m.blacklistedIps),
    requestMs: json(m.requestMs),
    upstreamMs: json(m.upstreamMs),
  };
}
