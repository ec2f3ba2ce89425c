import {
  dashboardRoutes as d,
  statisticsRoutesOf as r,
  type StatisticsDomainRow,
  shipNodeEvents,
} from '@rampart/contract';
import { sendAttachment } from '../../platform/http/attachment.js';
import type { Binder, BindOptions } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import { csvCell } from '../domains/domains-csv.presenter.js';
import { DashboardService } from './dashboard.service.js';
import type { IngestService } from './ingest.service.js';
import type { StatisticsService } from './statistics.service.js';

const CSV_COLUMNS = [
  'domain',
  'site',
  'requests',
  'bytesOut',
  'bytesIn',
  'hitRequests',
  'blocked',
  's4xx',
  's5xx',
] as const;

/** The per-domain totals as CSV (CRLF lines, every cell neutralised against spreadsheet formulas). */
export function statisticsCsv(rows: StatisticsDomainRow[]): string {
  const lines = [
    CSV_COLUMNS.join(','),
    ...rows.map((r) =>
      [r.domain, r.siteName, r.requests, r.bytesOut, r.bytesIn, r.hitRequests, r.blocked, r.s4xx, r.s5xx]
        .map(csvCell)
        .join(','),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

export function bindStatisticsRoutes(
  binder: Binder,
  statistics: StatisticsService,
  dashboards: DashboardService,
  ingest: IngestService,
  clock: () => number,
  /** The events' admission (platform/http/node-admission.ts): signature over the headers, places. */
  admitEvents: BindOptions['admit'],
): void {
  for (const route of [r.userStatisticsInfo, r.clientStatisticsInfo] as const) {
    binder.bind(route, async ({ body }, { caller }) => ({ data: await statistics.card(caller, body) }));
  }
  for (const route of [r.userStatisticsTop, r.clientStatisticsTop] as const) {
    binder.bind(route, async ({ body }, { caller, request }) => ({
      data: await statistics.top(caller, body, requestLocale(request)),
    }));
  }
  for (const route of [r.userStatisticsTimeSeries, r.clientStatisticsTimeSeries] as const) {
    binder.bind(route, async ({ body }, { caller }) => ({ data: await statistics.series(caller, body) }));
  }
  for (const route of [r.userStatisticsUpstreamTimes, r.clientStatisticsUpstreamTimes] as const) {
    binder.bind(route, async ({ body }, { caller }) => ({ data: await statistics.upstreamTimes(caller, body) }));
  }
  for (const route of [r.userStatisticsList, r.clientStatisticsList] as const) {
    binder.bind(route, async ({ body }, { caller }) => statistics.domains(caller, body));
  }
  for (const route of [r.userStatisticsExport, r.clientStatisticsExport] as const) {
    binder.bind(route, async ({ body }, { caller, reply }) => {
      const { data } = await statistics.domains(caller, body, true);
      const stamp = new Date(clock()).toISOString().replace(/[-:]/g, '').slice(0, 15);
      sendAttachment(reply, {
        fileName: `statistics-${stamp}.csv`,
        type: 'text/csv; charset=utf-8',
        body: statisticsCsv(data),
      });
      return '';
    });
  }
  binder.bind(d.getUserDashboard, async (_input, { caller }) => ({ data: await dashboards.get(caller.accountId) }));
  binder.bind(d.getClientDashboard, async (_input, { caller }) => ({ data: await dashboards.get(caller.accountId) }));
  binder.bind(d.putUserDashboard, async ({ body }, { caller }) => {
    await dashboards.save(caller.accountId, body.widgets);
  });
  binder.bind(d.putClientDashboard, async ({ body }, { caller }) => {
    await dashboards.save(caller.accountId, body.widgets);
  });
  binder.bind(d.getDefaultDashboard, async () => ({ data: DashboardService.defaults() }));
  binder.bind(shipNodeEvents, async ({ body }, { node }) => ({ data: await ingest.ingest(node.nodeId, body) }), {
    admit: admitEvents,
  });
}
