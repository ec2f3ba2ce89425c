import type { StatisticsSeriesType } from '@rampart/contract';
import { routeQuery } from '../../app/route-query';
import { type StatisticsTier, statisticsRoutes } from './statistics-routes';
import type { StatisticsBody } from './use-statistics-filter';

/** A card (3, 4, 5, 14, 15) over the filter. */
export function cardQuery(tier: StatisticsTier, body: StatisticsBody, type: number) {
  return routeQuery(tier, statisticsRoutes(tier).info, { body: { ...body, type } });
}

/** A top list over the filter, `top` rows at most. */
export function topQuery(tier: StatisticsTier, body: StatisticsBody, type: number, top: number) {
  return routeQuery(tier, statisticsRoutes(tier).top, { body: { ...body, type, top } });
}

/** A time series over the filter, one point per `minutesStep`. */
export function seriesQuery(tier: StatisticsTier, body: StatisticsBody, type: StatisticsSeriesType, step: number) {
  return routeQuery(tier, statisticsRoutes(tier).timeSeries, { body: { ...body, type, minutesStep: step } });
}

/** The origin's response time percentiles over the filter. */
export function upstreamTimesQuery(tier: StatisticsTier, body: StatisticsBody) {
  return routeQuery(tier, statisticsRoutes(tier).upstreamTimes, { body });
}
