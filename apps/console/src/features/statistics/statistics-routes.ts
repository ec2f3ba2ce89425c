import {
  clientStatisticsExport,
  clientStatisticsInfo,
  clientStatisticsList,
  clientStatisticsTimeSeries,
  clientStatisticsTop,
  clientStatisticsUpstreamTimes,
  getClientDashboard,
  getUserDashboard,
  putClientDashboard,
  putUserDashboard,
  type Tier,
  userStatisticsExport,
  userStatisticsInfo,
  userStatisticsList,
  userStatisticsTimeSeries,
  userStatisticsTop,
  userStatisticsUpstreamTimes,
} from '@rampart/contract';

/** The consoles that have traffic statistics: the customer's and the operator's. */
export type StatisticsTier = Extract<Tier, 'user' | 'client'>;

export function isStatisticsTier(tier: Tier): tier is StatisticsTier {
  return tier === 'user' || tier === 'client';
}

interface StatisticsRoutes {
  info: typeof clientStatisticsInfo;
  top: typeof clientStatisticsTop;
  timeSeries: typeof clientStatisticsTimeSeries;
  upstreamTimes: typeof clientStatisticsUpstreamTimes;
  list: typeof clientStatisticsList;
  export: typeof clientStatisticsExport;
}

/**
 * The statistics calls of a console (spec part 2 §7: the same calls on the user or client prefix).
 * Both tiers answer the same shapes and take the same body, the operator's with zoneIDs and userID
 * besides: typed as the operator's, the pages set those two only in the operator's console.
 */
export function statisticsRoutes(tier: StatisticsTier): StatisticsRoutes {
  const routes =
    tier === 'user'
      ? {
          info: userStatisticsInfo,
          top: userStatisticsTop,
          timeSeries: userStatisticsTimeSeries,
          upstreamTimes: userStatisticsUpstreamTimes,
          list: userStatisticsList,
          export: userStatisticsExport,
        }
      : {
          info: clientStatisticsInfo,
          top: clientStatisticsTop,
          timeSeries: clientStatisticsTimeSeries,
          upstreamTimes: clientStatisticsUpstreamTimes,
          list: clientStatisticsList,
          export: clientStatisticsExport,
        };
  // The user routes' body is the operator's without zoneIDs and userID (see above).
  return routes as unknown as StatisticsRoutes;
}

/** The permission a console's statistics need. */
export const STATISTICS_PERMISSION: Readonly<Record<StatisticsTier, string>> = {
  user: 'user.statistics.read',
  client: 'client.statistics.read',
};

/** The dashboard layout calls of a console. */
export function dashboardLayoutRoutes(tier: StatisticsTier) {
  return tier === 'user'
    ? { get: getUserDashboard, put: putUserDashboard }
    : { get: getClientDashboard, put: putClientDashboard };
}
