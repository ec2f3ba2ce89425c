import { AggregateIngestService } from '../modules/analytics/aggregate-ingest.service.js';
import { bindAggregateRoutes } from '../modules/analytics/aggregates.routes.js';
import { AnalyticsJob } from '../modules/analytics/analytics.job.js';
import type { AnalyticsStore } from '../modules/analytics/analytics-store.js';
import { DashboardService } from '../modules/analytics/dashboard.service.js';
import { IngestService } from '../modules/analytics/ingest.service.js';
import { L4IngestService } from '../modules/analytics/l4-ingest.service.js';
import { bindL4StatisticsRoutes } from '../modules/analytics/l4-statistics.routes.js';
import { L4StatisticsService } from '../modules/analytics/l4-statistics.service.js';
import { LOG_CAPACITY_DEFAULT, LogSampler } from '../modules/analytics/log-sampler.js';
import { bindLogSettingRoutes } from '../modules/analytics/log-settings.routes.js';
import { LogSettingsService } from '../modules/analytics/log-settings.service.js';
import { bindLogRoutes } from '../modules/analytics/logs.routes.js';
import { LogsService } from '../modules/analytics/logs.service.js';
import { bindStatisticsRoutes } from '../modules/analytics/statistics.routes.js';
import { StatisticsService } from '../modules/analytics/statistics.service.js';
import { L4Reads } from '../modules/analytics/store/l4-reads.js';
import { LogPushReads } from '../modules/analytics/store/log-push-reads.js';
import { StatisticsReads } from '../modules/analytics/store/statistics-reads.js';
import type { GeoDatabaseService } from '../modules/geo/geo-database.service.js';
import {
  LOG_EXPORT_MAX_BYTES_DEFAULT,
  LOG_EXPORT_RETENTION_DAYS_DEFAULT,
  LogExportFiles,
} from '../modules/log-exports/log-export-files.js';
import { LOG_EXPORT_TICK_MS, LogExportJob } from '../modules/log-exports/log-exports.job.js';
import { bindLogExportRoutes } from '../modules/log-exports/log-exports.routes.js';
import { LogExportsService } from '../modules/log-exports/log-exports.service.js';
import {
  LOG_PUSH_BACKOFF,
  LOG_PUSH_BATCH,
  LOG_PUSH_DEAD_AFTER_SECONDS,
  LOG_PUSH_SETTLE_MS,
  LOG_PUSH_TICK_MS,
  LogPushJob,
} from '../modules/log-push/log-push.job.js';
import { bindLogPushRoutes } from '../modules/log-push/log-push.routes.js';
import { LogPushService } from '../modules/log-push/log-push.service.js';
import { LogPushSource } from '../modules/log-push/log-push.source.js';
import type { Binder } from '../platform/http/bind-route.js';
import { type NodeHeaderCheck, NodeIngestAdmission } from '../platform/http/node-admission.js';
import { operatorOf } from '../platform/tenancy/operator.js';
import type { AppContext } from './context.js';

/**
 * Traffic analytics (docs/decisions.md "Traffic analytics"): the nodes' event batches in, the
 * statistics, dashboards and log search out, the log setting (retention and the store's parts), and the job
 * that compacts the store and prunes it by that retention; the log export files and their job.
 */
export function composeAnalytics(
  ctx: AppContext,
  binder: Binder,
  store: AnalyticsStore,
  geo: GeoDatabaseService,
  /** The nodes' signature over a request's headers (modules/nodes/node-signature.ts), for the ingests' admission. */
  nodeHeaders: NodeHeaderCheck,
) {
  const { app, clock, repos } = ctx;
  // One admission per ingest call, each with its own places.
  const admission = (route: string) =>
    new NodeIngestAdmission(nodeHeaders, {
      bodyMs: ctx.config.aggregateBodyMs,
      onRefused: (reason) => ctx.metrics.ingestRefused(route, reason),
    });
  const repo = repos.analytics;
  const statistics = new StatisticsService(new StatisticsReads(store), repo, (operatorId, ids, locale) =>
    geo.cityNames(operatorId, ids, locale),
  );
  const ingest = new IngestService(
    store,
    repo,
    (operatorId) => geo.locator(operatorId),
    clock,
    (outcome) => ctx.metrics.ingested(outcome),
    {
      sampler: new LogSampler(ctx.config.logCapacity ?? LOG_CAPACITY_DEFAULT[store.kind], clock),
      samples: repos.logSamples,
    },
  );
  bindStatisticsRoutes(binder, statistics, new DashboardService(repo), ingest, clock, admission('events').admit);
  bindAggregateRoutes(binder, new AggregateIngestService(store, repo, ingest, clock), admission('aggregates'));
  bindL4StatisticsRoutes(
    binder,
    new L4IngestService(
      store,
      repo,
      (operatorId) => geo.locator(operatorId),
      (operatorId) => geo.asnLocator(operatorId),
      clock,
    ),
    new L4StatisticsService(new L4Reads(store), repo, (operatorId, asns) => geo.asnNames(operatorId, asns)),
    admission('l4').admit,
  );
  bindLogRoutes(binder, new LogsService(store, repo, repos.logSamples));
  const logSettings: LogSettingsService = new LogSettingsService(
    repos.settings,
    store,
    async () => (await repos.accounts.findRoot('client'))?.id,
    {
      retentionDays: ctx.config.logExportRetentionDays ?? LOG_EXPORT_RETENTION_DAYS_DEFAULT,
      maxBytes: ctx.config.logExportMaxBytes ?? LOG_EXPORT_MAX_BYTES_DEFAULT,
    },
    // The export job is made below; a setting is only put once the app serves.
    (limits): Promise<void> => exportJob.applyLimits(limits),
  );
  bindLogSettingRoutes(binder, logSettings);
  const job = new AnalyticsJob(
    store,
    clock,
    (error) => app.log.error({ err: error }, 'analytics upkeep failed'),
    () => logSettings.retention(),
    (rawBefore) => repos.logSamples.prune(rawBefore),
  );
  job.start();
  // Log export files: the calls, and the job that writes them (started once the app is ready).
  const exportFiles = new LogExportFiles(ctx.config.dataDir, ctx.blobs);
  bindLogExportRoutes(binder, new LogExportsService(ctx.transactions, repos.logExports, exportFiles, clock));
  const exportJob: LogExportJob = new LogExportJob(
    repos.logExports,
    repo,
    store,
    exportFiles,
    clock,
    { inForce: () => logSettings.exportLimits(), tickMs: ctx.config.logExportTickMs ?? LOG_EXPORT_TICK_MS },
    (error) => app.log.error({ err: error }, 'log export job failed'),
    // What an export covers is its account's scope when it runs, as the calls resolve it.
    async (accountId) => {
      const account = await repos.accounts.findById(accountId);
      if (!account) return null;
      const zoneScope =
        account.tier === 'client' && !account.isRoot ? await repos.accountZones.scopeOf(account.id) : null;
      return { tier: account.tier, accountId, operatorId: operatorOf(account), zoneScope };
    },
  );
  // Log push: the events' calls, and the job that delivers them (docs/decisions.md "Log push").
  const pushSource = new LogPushSource(new LogPushReads(store), repos.logPush);
  let pushJob: LogPushJob | null = null;
  const push = new LogPushService(ctx.transactions, repos.logPush, repo, pushSource, ctx.box, clock, ctx.outgoing, () =>
    pushJob?.wake(),
  );
  bindLogPushRoutes(binder, push);
  pushJob = new LogPushJob(
    repos.logPush,
    push,
    pushSource,
    repo,
    clock,
    {
      tickMs: ctx.config.logPushTickMs ?? LOG_PUSH_TICK_MS,
      settleMs: ctx.config.logPushSettleMs ?? LOG_PUSH_SETTLE_MS,
      deadAfterMs: (ctx.config.logPushDeadAfterSeconds ?? LOG_PUSH_DEAD_AFTER_SECONDS) * 1000,
      backoff: ctx.config.logPushBackoffMs ?? LOG_PUSH_BACKOFF,
      limits: LOG_PUSH_BATCH,
      connectTimeoutMs: 5000,
      requestTimeoutMs: 30_000,
    },
    (error) => app.log.error({ err: error }, 'log push job failed'),
  );
  const pushJobStarted = pushJob;
  app.addHook('onReady', async () => {
    await exportJob.start();
    pushJobStarted.start();
  });
  app.addHook('onClose', async () => {
    job.stop();
    await exportJob.stop();
    await pushJobStarted.stop();
    await store.close();
    await exportFiles.dispose();
  });
  return { statistics, job, exportJob, pushJob: pushJobStarted };
}
