import {
  SERIES_VALUES,
  type StatisticsCard,
  type StatisticsSeries,
  type StatisticsSeriesType,
  type StatisticsTopRow,
  type Tier,
} from '@rampart/contract';
import { statisticsRoutes } from '../features/statistics/statistics-routes';
import { type FakeApi, ok, okPage } from './fake-api';

/** A card with every figure 0 but those given. */
export function card(type: number, figures: Partial<StatisticsCard> = {}): StatisticsCard {
  return {
    type,
    requests: 0,
    bytesOut: 0,
    bytesIn: 0,
    hitRequests: 0,
    hitBytes: 0,
    blocked: 0,
    blacklisted: 0,
    dropped: 0,
    upstreamRequests: 0,
    upstreamErrors: 0,
    peakBandwidth: 0,
    peakQps: 0,
    uniqueIPs: 0,
    uniqueIPsError: 0,
    countries: 0,
    s2xx: 0,
    s3xx: 0,
    s4xx: 0,
    s5xx: 0,
    statusCodes: {},
    droppedEvents: 0,
    ...figures,
  };
}

/** A series of `type` at `step` from `start`, one point per entry of `rows` (each the values in SERIES_VALUES order). */
export function series(type: StatisticsSeriesType, step: number, start: string, rows: number[][]): StatisticsSeries {
  const keys = [...SERIES_VALUES[type]];
  return {
    type,
    minutesStep: step,
    keys,
    points: rows.map((values, index) => ({
      time: new Date(Date.parse(start) + index * step * 60_000).toISOString(),
      values: keys.map((_, column) => values[column] ?? 0),
    })),
  };
}

export function topRow(key: string, requests: number, over: Partial<StatisticsTopRow> = {}): StatisticsTopRow {
  return { key, name: '', requests, bytesOut: 0, blocked: 0, ...over };
}

interface StatisticsStubs {
  card?: (type: number, body: Record<string, unknown>) => StatisticsCard;
  series?: (type: StatisticsSeriesType, body: Record<string, unknown>) => StatisticsSeries;
  top?: (type: number) => StatisticsTopRow[];
  upstreamTimes?: (body: unknown) => ReturnType<typeof upstreamTimes>;
}

/**
 * Answers every statistics call of the tier: cards, series, tops and the origin's response times
 * from the builders given (all zero, empty by default), an empty per-domain list.
 */
export function stubStatistics(api: FakeApi, tier: Extract<Tier, 'user' | 'client'>, stubs: StatisticsStubs = {}) {
  const routes = statisticsRoutes(tier);
  api.on(routes.info, (request) => {
    const body = request.body as { type: number };
    return ok(stubs.card?.(body.type, body) ?? card(body.type));
  });
  api.on(routes.timeSeries, (request) => {
    const body = request.body as { type: StatisticsSeriesType; minutesStep: number; startTime: string };
    return ok(stubs.series?.(body.type, body) ?? series(body.type, body.minutesStep, body.startTime, [[0]]));
  });
  api.on(routes.top, (request) => ok(stubs.top?.((request.body as { type: number }).type) ?? []));
  api.on(routes.list, okPage([]));
  api.on(routes.upstreamTimes, (request) => ok(stubs.upstreamTimes?.(request.body) ?? upstreamTimes(0)));
}

/** The origin's response times: `count` requests timed (none: no percentile). */
export function upstreamTimes(count: number, p: { p50: number; p95: number; p99: number } | null = null) {
  const total = { count, p50: p?.p50 ?? null, p95: p?.p95 ?? null, p99: p?.p99 ?? null };
  return { total, sites: count === 0 ? [] : [{ siteID: 3, ...total }], relativeError: 0.015625 };
}

/** The bodies the console sent to a route, parsed. */
export function bodies<T = Record<string, unknown>>(api: FakeApi, route: Parameters<FakeApi['sent']>[0]): T[] {
  return api.sent(route).map((request) => request.body as T);
}
