import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ALL_ROUTES, API_BASE, buildOpenApiDocument } from '@rampart/contract';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { composeAccounts } from './composition/accounts.js';
import { composeAnalytics } from './composition/analytics.js';
import { composeAutoCertificates } from './composition/auto-certificates.js';
import type { AppConfig, AppContext } from './composition/context.js';
import { composeDbBackups } from './composition/db-backups.js';
import { composeDns } from './composition/dns.js';
import { composeEdge } from './composition/edge.js';
import { createHttpServer } from './composition/http-server.js';
import { createNotifications } from './composition/notifications.js';
import { composeOperator } from './composition/operator.js';
import { createRepositories } from './composition/repositories.js';
import { composeSites } from './composition/sites.js';
import { composeTraffic } from './composition/traffic.js';
import { bindNotifySettingRoutes } from './modules/alerts/notify-settings.routes.js';
import type { AnalyticsJob } from './modules/analytics/analytics.job.js';
import type { AnalyticsStore } from './modules/analytics/analytics-store.js';
import { StatisticsReads } from './modules/analytics/store/statistics-reads.js';
import type { AccountService } from './modules/auth/account.service.js';
import type { AccountsRepository } from './modules/auth/accounts.repository.js';
import type { CreatedRoot } from './modules/auth/bootstrap.js';
import type { ThrottleRule } from './modules/auth/login-throttle.js';
import type { DomainProofJob } from './modules/domains/domain-proof.job.js';
import { LicenseLimits } from './modules/licenses/license-limits.js';
import type { LicenseKeys } from './modules/licenses/licenses.service.js';
import { VENDOR_PUBLIC_KEYS } from './modules/licenses/vendor-keys.js';
import type { LogExportJob } from './modules/log-exports/log-exports.job.js';
import type { NodesRepository } from './modules/nodes/nodes.repository.js';
import { NodeCapacity } from './modules/snapshots/node-capacity.js';
import type { SnapshotsService } from './modules/snapshots/snapshots.service.js';
import { bindNodeExporterHealthRoutes } from './modules/system/node-exporter-health.routes.js';
import { SystemService } from './modules/system/system.service.js';
import { SystemHealthService } from './modules/system/system-health.service.js';
import { SystemSettingsService } from './modules/system/system-settings.service.js';
import { ConfigChanges } from './platform/changes.js';
import { type Clock, systemClock } from './platform/clock.js';
import { checkInstallationKeys } from './platform/crypto/key-check.js';
import { SecretBox } from './platform/crypto/secret-box.js';
import { startChangeBroadcast } from './platform/db/change-broadcast.js';
import type { Database } from './platform/db/database.js';
import { EMBEDDED_VACUUM_TICK_MS, EmbeddedVacuum } from './platform/db/embedded-vacuum.js';
import { transactionScoped } from './platform/db/request-transaction.js';
import { FILE_BLOB_SWEEP_MS, FileBlobStore } from './platform/files/file-blobs.js';
import type { Binder } from './platform/http/bind-route.js';
import { serveConsole } from './platform/http/console-static.js';
import { OutgoingGuard } from './platform/http/outgoing.js';
import { type Resolver, TargetGuard } from './platform/http/target-guard.js';
import { Mailer } from './platform/mail/mailer.js';
import { ControlPlaneMetrics } from './platform/metrics/control-plane-metrics.js';
import type { SettingsRepository } from './platform/settings/settings.repository.js';

export type { AppConfig } from './composition/context.js';

export interface AppOptions {
  readonly config: AppConfig;
  /** Time source for tokens, tickets and throttles; tests move it. */
  readonly clock?: Clock;
  readonly database: Database;
  /** The analytics store, opened (main.ts: DuckDB in DATA_DIR or ClickHouse); closed with the app. */
  readonly analytics: AnalyticsStore;
  /** Pino options or `false`; tests pass a stream to read the log. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Extra routes bound with the same binder, for tests of the mechanism itself. */
  readonly extraRoutes?: (binder: Binder) => void;
  /**
   * A route answering a catalogue code it does not declare (nor imply) answers 101002 instead,
   * and the log says which: the tests' check that the contract's `codes` lists are complete.
   */
  readonly strictRouteCodes?: boolean;
  /**
   * Tests of other mechanisms that call a `sendsOnDemand` route many times (every refused form of
   * an outgoing target): their own allowance instead of ON_DEMAND_SEND_LIMIT.
   */
  readonly onDemandSendLimit?: ThrottleRule;
  /**
   * Tests: every error reply is checked against the contract (the `extra` each code may carry,
   * contract `error-extra.ts`); one that breaks it is logged and answered 101002, so the test fails.
   */
  readonly checkErrorReplies?: boolean;
  /**
   * The keys of offline licences: tests inject a test pair; by default the public keys built into
   * the control plane (modules/licenses/vendor-keys.ts) and the signing key of `config`, if any.
   */
  readonly licenseKeys?: LicenseKeys;
  /** How outgoing destinations' names resolve (the system's resolver by default); tests hand their own. */
  readonly targetResolver?: Resolver;
}

/**
 * The control plane's HTTP application: the server (composition/http-server.ts), one context every
 * area builds from (composition/context.ts), then each area's services and routes
 * (composition/accounts.ts, edge.ts, operator.ts, sites.ts), the OpenAPI document and the console.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = await createHttpServer({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    consoleDir: config.consoleDir,
    checkErrorReplies: options.checkErrorReplies === true,
  });

  // Every state-changing console call runs in one transaction with its audit record (request-transaction.ts).
  const transactions = transactionScoped(options.database.db);
  const repos = createRepositories(transactions.db);
  const system = new SystemService(options.database, repos.settings, config.version);
  await system.ensureInstance();
  // Every control plane of one config store signs and seals with the same keys (refused otherwise).
  await checkInstallationKeys(repos.settings, {
    secret: config.secret,
    tokenCurrent: config.tokenSecrets?.current ?? config.secret,
    tokenPrevious: config.tokenSecrets?.previous ?? [],
  });
  const box = new SecretBox(config.secret);
  const clock = options.clock ?? systemClock;
  const metrics = new ControlPlaneMetrics(repos.systemState, clock);
  metrics.observeRequests(app);
  metrics.serve(app, config.metricsToken);
  const systemSettings = new SystemSettingsService(repos.settings, transactions);
  const outgoing = new OutgoingGuard(
    async (operatorId) => (await systemSettings.outgoingUrls(operatorId)).urls,
    new TargetGuard(config.allowPrivateTargets, options.targetResolver),
  );
  const blobs = FileBlobStore.for(options.database.source.kind, repos.fileBlobs, transactions, config.dataDir);
  // Blobs whose last use went with its account, cached copies of blobs removed by any control plane,
  // and (PGlite) content files without a blob; blobs whose content file is missing are logged.
  const sweep = () =>
    blobs
      .sweep()
      .then(({ missing }) => {
        if (missing.length > 0) {
          app.log.error({ missing }, 'file blobs whose content is missing: store the same files again to restore them');
        }
      })
      .catch((err: unknown) => app.log.error({ err }, 'file blob sweep failed'));
  let sweeper: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    await sweep();
    sweeper = setInterval(sweep, FILE_BLOB_SWEEP_MS);
    sweeper.unref();
  });
  app.addHook('onClose', async () => {
    if (sweeper) clearInterval(sweeper);
    await blobs.dispose();
  });
  const base: Omit<AppContext, 'alerts'> = {
    app,
    config,
    clock,
    metrics,
    transactions,
    db: transactions.db,
    repos,
    box,
    blobs,
    mailer: new Mailer(repos.settings, box, config.smtpUrl, outgoing),
    system,
    systemSettings,
    outgoing,
    changes: new ConfigChanges(),
    queuedCommands: new ConfigChanges(),
    monitorTransitions: new ConfigChanges(),
    capacity: new NodeCapacity(config.nodeDomainLimit, repos.nodeCapacity),
    licenseLimits: new LicenseLimits(repos.licenses, clock),
    licenseKeys: options.licenseKeys ?? {
      trusted: VENDOR_PUBLIC_KEYS,
      signing: config.licenseSigningKey ?? null,
    },
    productName: async () => (await system.branding()).title,
    publicUrl: (origin) => config.publicUrl ?? origin,
  };
  // Alerts first: any area may raise one (ctx.alerts.emit).
  const analyticsReads = new StatisticsReads(options.analytics);
  const notifications = createNotifications(base, analyticsReads);
  const ctx: AppContext = { ...base, alerts: notifications.alerts };

  const { binder, account, createdRoots, nodeSignatures } = await composeAccounts(ctx, {
    strictRouteCodes: options.strictRouteCodes,
    onDemandSendLimit: options.onDemandSendLimit,
  });
  // Any successful state-changing console call may change what nodes serve; see ConfigChanges.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 400 && request.url.startsWith(`${API_BASE}/`)) {
      ctx.changes.bump();
    }
  });
  const edge = composeEdge(ctx, binder);
  bindNotifySettingRoutes(binder, notifications.settings, (accountId) => repos.accounts.topOfTier(accountId));
  const { dnsSettings, licenceExpiry } = composeOperator(ctx, binder, edge.monitorStatus);
  const analytics = composeAnalytics(ctx, binder, options.analytics, edge.geo, nodeSignatures.headers);
  bindNodeExporterHealthRoutes(
    binder,
    edge.nodeExporter,
    new SystemHealthService(options.database, analyticsReads, repos.systemState, ctx.licenseLimits, clock),
  );
  const autoCertificatesJob = composeAutoCertificates(ctx, binder, dnsSettings);
  const { domainProofJob, cnameSettings } = composeSites(ctx, binder, {
    ...edge,
    statistics: analytics.statistics,
    autoCertificates: autoCertificatesJob,
  });
  const dnsReconciler = composeDns(ctx, binder, { dnsSettings, cnameSettings, monitorStatus: edge.monitorStatus });
  const dbBackups = composeDbBackups(ctx, binder, options.database);
  const trafficCheck = composeTraffic(ctx, binder, analytics.statistics);
  // PGlite runs no autovacuum of its own (platform/db/embedded-vacuum.ts); PostgreSQL does.
  const source = options.database.source;
  const embeddedVacuum =
    source.kind === 'pglite'
      ? new EmbeddedVacuum(
          source.client,
          (err) => app.log.error({ err }, 'embedded database vacuum failed'),
          (tables) => app.log.info({ tables }, 'embedded database vacuumed'),
        )
      : null;
  if (embeddedVacuum) {
    const tick = config.embeddedVacuumTickMs ?? EMBEDDED_VACUUM_TICK_MS;
    app.addHook('onReady', async () => embeddedVacuum.start(tick));
    app.addHook('preClose', async () => embeddedVacuum.stop());
  }
  options.extraRoutes?.(binder);
  app.decorate('binder', binder);
  app.decorate('rampart', {
    createdRoots,
    settings: repos.settings,
    box,
    mailer: ctx.mailer,
    accounts: repos.accounts,
    account,
    system,
    nodes: repos.nodes,
    changes: ctx.changes,
    snapshots: edge.snapshots,
    planeEntries: edge.planeEntries,
    domainProofJob,
    analyticsJob: analytics.job,
    logExportJob: analytics.exportJob,
    logPushJob: analytics.pushJob,
    dnsSettings,
    alerts: notifications.alerts,
    alertsJob: notifications.alertsJob,
    dnsReconciler,
    autoCertificatesJob,
    dbBackups,
    trafficCheck,
    licenceExpiry,
    embeddedVacuum,
  });

  const document = buildOpenApiDocument(ALL_ROUTES, { title: 'Rampart API', version: config.version });
  app.get(`${API_BASE}/openapi.json`, async () => document);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  // No validator badge: it would call validator.swagger.io, which an offline install cannot reach.
  await app.register(swaggerUi, { routePrefix: `${API_BASE}/docs`, uiConfig: { validatorUrl: null } });

  if (config.consoleDir) await serveConsole(app, config.consoleDir);

  // Several control planes on one PostgreSQL wake each other's polls (platform/db/change-broadcast.ts).
  // Started last, so that a failure building the app above leaves no listening connection behind.
  const broadcast = options.database.broadcast
    ? await startChangeBroadcast(options.database.broadcast, (fn) => transactions.afterCommit(fn), app.log)
    : null;
  broadcast?.broadcast.share('config', ctx.changes);
  broadcast?.broadcast.share('commands', ctx.queuedCommands);
  broadcast?.broadcast.share('monitor', ctx.monitorTransitions);

  app.addHook('onClose', async () => {
    await broadcast?.close();
    await options.database.close();
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    binder: Binder;
    /** The services, for the entry point and for tests that arrange state the API does not expose yet. */
    rampart: {
      createdRoots: CreatedRoot[];
      settings: SettingsRepository;
      box: SecretBox;
      mailer: Mailer;
      accounts: AccountsRepository;
      account: AccountService;
      system: SystemService;
      nodes: NodesRepository;
      changes: ConfigChanges;
      snapshots: SnapshotsService;
      /** The data plane's entry builder (tests shorten its log retention). */
      planeEntries: import('./modules/snapshots/plane-entries.js').PlaneEntryBuilder;
      domainProofJob: DomainProofJob;
      analyticsJob: AnalyticsJob;
      logExportJob: LogExportJob;
      logPushJob: import('./modules/log-push/log-push.job.js').LogPushJob;
      /** The operators' DNS providers (the publishing of later work takes its provider here). */
      dnsSettings: import('./modules/dns/dns-settings.service.js').DnsSettingsService;
      /** Raises alerts (certificate renewal, licence expiry and traffic over a plan are raised by their features). */
      alerts: import('./modules/alerts/alerts.service.js').AlertsService;
      alertsJob: import('./modules/alerts/alerts.job.js').AlertsJob;
      /** Publishes the operators' DNS records (tests run its passes themselves). */
      dnsReconciler: import('./modules/dns/dns-reconciler.js').DnsReconciler;
      autoCertificatesJob: import('./modules/auto-certificates/auto-certificates.job.js').AutoCertificatesJob;
      /** Config store backups (tests wait for a running one with whenIdle). */
      dbBackups: import('./modules/db-backups/db-backups.service.js').DbBackupsService;
      /** Restricts sites over their monthly traffic allowance (tests run its passes themselves). */
      trafficCheck: import('./modules/traffic/traffic-check.js').TrafficCheck;
      /** Raises the "licence about to expire" alert (tests run its passes themselves). */
      licenceExpiry: import('./modules/licenses/licence-expiry.js').LicenceExpiryCheck;
      /** PGlite's autovacuum (null on PostgreSQL, which runs its own). */
      embeddedVacuum: EmbeddedVacuum | null;
    };
  }
  interface FastifyRequest {
    caller?: import('./platform/http/bind-route.js').Caller;
  }
}
