import { HISTOGRAM_RELATIVE_ERROR, Histogram, type HistogramData } from '@rampart/contract';
import type { AnalyticsStore } from '../analytics-store.js';
import { type Range, type Scope, scopeWhere } from './statistics-sql.js';

/**
 * The origin's response times (upstream_ms) of a scope over a range as percentiles, per site and
 * in all: the nodes' minute histograms (agg_sketches.upstream_ms, contract aggregates/histogram.ts;
 * a minute counts when it starts in the range, as the other sketches) merged with the raw events'
 * times of nodes that ship events (`counted = 1`), each value added to the same histogram. A
 * percentile is its bucket's middle: within HISTOGRAM_RELATIVE_ERROR (1.5625 %) of the true
 * nearest-rank value, exact under 64 ms, and the same whichever way the requests came in.
 */

export interface UpstreamTimes {
  /** Requests that reached the origin and got an answer timed. */
  count: number;
  /** Milliseconds; null when no request reached the origin. */
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

const percentiles = (h: Histogram): UpstreamTimes =>
  h.count === 0
    ? { count: 0, p50: null, p95: null, p99: null }
    : { count: h.count, p50: h.percentile(0.5), p95: h.percentile(0.95), p99: h.percentile(0.99) };

export async function upstreamTimes(
  store: Pick<AnalyticsStore, 'query'>,
  scope: Scope,
  range: Range,
): Promise<{ total: UpstreamTimes; sites: (UpstreamTimes & { siteId: number })[]; relativeError: number }> {
  const bySite = new Map<number, Histogram>();
  const of = (site: number) => {
    let h = bySite.get(site);
    if (!h) {
      h = new Histogram();
      bySite.set(site, h);
    }
    return h;
  };
  if (scope.siteIds.length > 0) {
    const [minutes, events] = await Promise.all([
      store.query(
        `SELECT site_id, upstream_ms AS h FROM agg_sketches WHERE ${scopeWhere(scope, 'minute', range)} AND upstream_ms <> ''`,
      ),
      store.query(
        `SELECT site_id, upstream_ms AS v, count(*) AS n FROM events WHERE ${scopeWhere(scope, 'ts', range)} ` +
          'AND counted = 1 AND upstream_ms >= 0 GROUP BY site_id, upstream_ms',
      ),
    ]);
    for (const r of minutes) of(Number(r.site_id)).merge(Histogram.from(JSON.parse(String(r.h)) as HistogramData));
    for (const r of events) of(Number(r.site_id)).add(Number(r.v), Number(r.n));
  }
  const total = new Histogram();
  for (const h of bySite.values()) total.merge(h);
  const sites = [...bySite.entries()].sort(([a], [b]) => a - b).map(([siteId, h]) => ({ siteId, ...percentiles(h) }));
  return { total: percentiles(total), sites, relativeError: HISTOGRAM_RELATIVE_ERROR };
}
