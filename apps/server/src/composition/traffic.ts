import type { StatisticsService } from '../modules/analytics/statistics.service.js';
import { bindTrafficRoutes } from '../modules/traffic/traffic.routes.js';
import { TrafficService } from '../modules/traffic/traffic.service.js';
import { TRAFFIC_CHECK_TICK_MS, TrafficCheck } from '../modules/traffic/traffic-check.js';
import type { Binder } from '../platform/http/bind-route.js';
import type { AppContext } from './context.js';

/**
 * Traffic packages (docs/decisions.md "Traffic packages"): extra plans, monthly usage from the
 * analytics store, and the background check that restricts sites over their allowance and lifts
 * them when they are under it again.
 */
export function composeTraffic(ctx: AppContext, binder: Binder, statistics: StatisticsService): TrafficCheck {
  const { app, config, repos, clock, transactions } = ctx;
  const monthBytes = (siteIds: readonly number[], year: number, month: number) =>
    statistics.monthBytesBySite(siteIds, year, month);
  const check = new TrafficCheck(
    repos.traffic,
    monthBytes,
    (alert) => ctx.alerts.emit(alert),
    transactions,
    ctx.changes,
    clock,
    (error) => app.log.error({ err: error }, 'traffic check failed'),
  );
  bindTrafficRoutes(binder, new TrafficService(repos.traffic, repos.sites, transactions, check, monthBytes, clock));
  const tickMs = config.trafficCheckTickMs ?? TRAFFIC_CHECK_TICK_MS;
  app.addHook('onReady', async () => check.start(tickMs));
  app.addHook('preClose', async () => check.stop());
  return check;
}
