import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ALL_ROUTES, API_BASE, buildOpenApiDocument, LOGO_IMAGE_MAX_BYTES } from '@rampart/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from './config.js';
import { AccountZonesRepository } from './modules/account-zones/account-zones.repository.js';
import { bindAccountZoneRoutes } from './modules/account-zones/account-zones.routes.js';
import { AccountZonesService } from './modules/account-zones/account-zones.service.js';
import { createZoneScopeCheck } from './modules/account-zones/zone-scope-check.js';
import { bindAccountRoutes } from './modules/accounts/accounts.routes.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { AnnouncementsRepository } from './modules/announcements/announcements.repository.js';
import { bindAnnouncementRoutes } from './modules/announcements/announcements.routes.js';
import { AnnouncementsService } from './modules/announcements/announcements.service.js';
import { ApiTokensRepository } from './modules/api-tokens/api-tokens.repository.js';
import { bindApiTokenRoutes } from './modules/api-tokens/api-tokens.routes.js';
import { ApiTokensService } from './modules/api-tokens/api-tokens.service.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { bindAuditRoutes } from './modules/audit/audit.routes.js';
import { AuditService } from './modules/audit/audit.service.js';
import { SwitchUserService } from './modules/audit/switch-user.service.js';
import { AccountService } from './modules/auth/account.service.js';
import { AccountsRepository } from './modules/auth/accounts.repository.js';
import { bindAuthRoutes } from './modules/auth/auth.routes.js';
import { createAuthenticator } from './modules/auth/authenticator.js';
import { type CreatedRoot, ensureRootAccounts } from './modules/auth/bootstrap.js';
import { CredentialGuard } from './modules/auth/credential-guard.js';
import { LoginService } from './modules/auth/login.service.js';
import { RefreshCookie, servedOverHttps } from './modules/auth/refresh-cookie.js';
import { SessionsRepository } from './modules/auth/sessions.repository.js';
import { TicketsRepository } from './modules/auth/tickets.repository.js';
import { TokenService } from './modules/auth/token.service.js';
import { CacheTasksRepository } from './modules/cache-tasks/cache-tasks.repository.js';
import { bindCacheTaskRoutes } from './modules/cache-tasks/cache-tasks.routes.js';
import { CacheTasksService } from './modules/cache-tasks/cache-tasks.service.js';
import { CertificatesRepository } from './modules/certificates/certificates.repository.js';
import { bindCertificateRoutes } from './modules/certificates/certificates.routes.js';
import { CertificatesService } from './modules/certificates/certificates.service.js';
import { ClientDomainsRepository } from './modules/domains/client-domains.repository.js';
import { bindClientDomainRoutes } from './modules/domains/client-domains.routes.js';
import { ClientDomainsService } from './modules/domains/client-domains.service.js';
import { bindCnameSettingRoutes } from './modules/domains/cname-settings.routes.js';
import { CnameSettingsService, defaultCnameDomain } from './modules/domains/cname-settings.service.js';
import { DomainCnameCheckService } from './modules/domains/domain-cname-check.service.js';
import { DomainInserts } from './modules/domains/domain-inserts.js';
import { OriginCheck } from './modules/domains/domain-origins.js';
import { DomainProofJob } from './modules/domains/domain-proof.job.js';
import { DomainProofRepository } from './modules/domains/domain-proof.repository.js';
import { bindDomainProofRoutes } from './modules/domains/domain-proof.routes.js';
import { DomainProofService } from './modules/domains/domain-proof.service.js';
import { DomainUpstreamsService } from './modules/domains/domain-upstreams.service.js';
import { DomainsRepository } from './modules/domains/domains.repository.js';
import { bindDomainRoutes } from './modules/domains/domains.routes.js';
import { DomainsService } from './modules/domains/domains.service.js';
import { DomainsAcrossSitesRepository } from './modules/domains/domains-across-sites.repository.js';
import { UserDomainsService } from './modules/domains/user-domains.service.js';
import { GroupLinesRepository } from './modules/group-lines/group-lines.repository.js';
import { bindGroupLineRoutes } from './modules/group-lines/group-lines.routes.js';
import { GroupLinesService } from './modules/group-lines/group-lines.service.js';
import { GroupsRepository } from './modules/groups/groups.repository.js';
import { bindGroupRoutes } from './modules/groups/groups.routes.js';
import { GroupsService } from './modules/groups/groups.service.js';
import { LogosRepository } from './modules/logos/logos.repository.js';
import { bindLogoRoutes } from './modules/logos/logos.routes.js';
import { LogosService } from './modules/logos/logos.service.js';
import { MonitorGroupsRepository } from './modules/monitoring/monitor-groups.repository.js';
import { MonitorNodesRepository } from './modules/monitoring/monitor-nodes.repository.js';
import { MonitorStatusRepository } from './modules/monitoring/monitor-status.repository.js';
import { MonitorStatusService } from './modules/monitoring/monitor-status.service.js';
import { bindMonitoringRoutes } from './modules/monitoring/monitoring.routes.js';
import { MonitoringService } from './modules/monitoring/monitoring.service.js';
import { ProbesRepository } from './modules/monitoring/probes.repository.js';
import { ProbesService } from './modules/monitoring/probes.service.js';
import { AgentReleases } from './modules/nodes/agent-releases.js';
import { NodeCommandsRepository } from './modules/nodes/node-commands.repository.js';
import { NodeCommandsService } from './modules/nodes/node-commands.service.js';
import { bindNodeOperationRoutes } from './modules/nodes/node-operations.routes.js';
import { NodeSettingsService } from './modules/nodes/node-settings.service.js';
import { createNodeAuthenticator } from './modules/nodes/node-signature.js';
import { NodeSocketsRepository } from './modules/nodes/node-sockets.repository.js';
import { NodeUpgradeRepository } from './modules/nodes/node-upgrade.repository.js';
import { bindNodeUpgradeRoutes } from './modules/nodes/node-upgrade.routes.js';
import { NodeUpgradeService } from './modules/nodes/node-upgrade.service.js';
import { NodesRepository } from './modules/nodes/nodes.repository.js';
import { bindNodeRoutes } from './modules/nodes/nodes.routes.js';
import { NodesService } from './modules/nodes/nodes.service.js';
import { ProductsRepository } from './modules/products/products.repository.js';
import { bindProductRoutes } from './modules/products/products.routes.js';
import { ProductsService } from './modules/products/products.service.js';
import { PermissionResolver } from './modules/roles/permission-resolver.js';
import { RolesRepository } from './modules/roles/roles.repository.js';
import { bindRoleRoutes } from './modules/roles/roles.routes.js';
import { RolesService } from './modules/roles/roles.service.js';
import { edgeModulesOf } from './modules/site-modules/site-modules.edge.js';
import { SiteModulesRepository } from './modules/site-modules/site-modules.repository.js';
import { bindSiteModuleRoutes } from './modules/site-modules/site-modules.routes.js';
import { SiteModulesService } from './modules/site-modules/site-modules.service.js';
import { edgeStreamPorts } from './modules/site-ports/site-ports.edge.js';
import { SitePortsRepository } from './modules/site-ports/site-ports.repository.js';
import { bindSitePortRoutes } from './modules/site-ports/site-ports.routes.js';
import { SitePortsService } from './modules/site-ports/site-ports.service.js';
import { edgeSiteSettings } from './modules/site-settings/site-settings.edge.js';
import { SiteSettingsRepository } from './modules/site-settings/site-settings.repository.js';
import { bindSiteSettingRoutes } from './modules/site-settings/site-settings.routes.js';
import { SiteSettingsService } from './modules/site-settings/site-settings.service.js';
import { SiteAccess } from './modules/sites/site-access.js';
import { edgeCachePolicies } from './modules/sites/site-cache.edge.js';
import { SiteCacheRepository } from './modules/sites/site-cache.repository.js';
import { bindSiteCacheRoutes } from './modules/sites/site-cache.routes.js';
import { SiteCacheService } from './modules/sites/site-cache.service.js';
import { SitesRepository } from './modules/sites/sites.repository.js';
import { bindSiteRoutes } from './modules/sites/sites.routes.js';
import { SitesService } from './modules/sites/sites.service.js';
import { NodeCapacity } from './modules/snapshots/node-capacity.js';
import { NodeCapacityRepository } from './modules/snapshots/node-capacity.repository.js';
import { SnapshotRepository } from './modules/snapshots/snapshot.repository.js';
import { SnapshotBuilder } from './modules/snapshots/snapshot-builder.js';
import { SnapshotsService } from './modules/snapshots/snapshots.service.js';
import { SubNodesRepository } from './modules/sub-nodes/sub-nodes.repository.js';
import { bindSubNodeRoutes } from './modules/sub-nodes/sub-nodes.routes.js';
import { SubNodesService } from './modules/sub-nodes/sub-nodes.service.js';
import { SettingsRepository } from './modules/system/settings.repository.js';
import { bindSystemRoutes } from './modules/system/system.routes.js';
import { SystemService } from './modules/system/system.service.js';
import { VirtualNodesRepository } from './modules/virtual-nodes/virtual-nodes.repository.js';
import { bindVirtualNodeRoutes } from './modules/virtual-nodes/virtual-nodes.routes.js';
import { VirtualNodesService } from './modules/virtual-nodes/virtual-nodes.service.js';
import { operatorNginxTuning } from './modules/zones/operator-nginx.edge.js';
import { bindOperatorNginxRoutes } from './modules/zones/operator-nginx.routes.js';
import { OperatorNginxService } from './modules/zones/operator-nginx.service.js';
import { ZoneSettingsRepository } from './modules/zones/zone-settings.repository.js';
import { bindZoneSettingRoutes } from './modules/zones/zone-settings.routes.js';
import { ZoneSettingsService } from './modules/zones/zone-settings.service.js';
import { ZonesRepository } from './modules/zones/zones.repository.js';
import { bindZoneRoutes } from './modules/zones/zones.routes.js';
import { ZonesService } from './modules/zones/zones.service.js';
import { ConfigChanges } from './platform/changes.js';
import { type Clock, systemClock } from './platform/clock.js';
import { SecretBox } from './platform/crypto/secret-box.js';
import type { Database } from './platform/db/database.js';
import { transactionScoped } from './platform/db/request-transaction.js';
import { CnameResolver } from './platform/dns/cname-resolver.js';
import { TxtResolver } from './platform/dns/txt-resolver.js';
import { clientErrorReply, frameworkErrorReply, installErrorHandling } from './platform/errors/error-handler.js';
import { type Binder, createBinder } from './platform/http/bind-route.js';
import { serveConsole, wantsConsolePage } from './platform/http/console-static.js';
import { registerMultipart } from './platform/http/multipart.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { escapeUndecodablePath, parseQueryString } from './platform/http/url-decoding.js';
import { Mailer } from './platform/mail/mailer.js';

export interface AppOptions {
  readonly config: Pick<
    Config,
    | 'version'
    | 'agentReleaseDir'
    | 'consoleDir'
    | 'logLevel'
    | 'secret'
    | 'initPassword'
    | 'publicUrl'
    | 'smtpUrl'
    | 'accessTokenTtlSeconds'
    | 'allowPrivateOrigins'
    | 'dnsServers'
    | 'dnsTimeoutMs'
    | 'domainProof'
    | 'domainProofIntervalSeconds'
    | 'tokenSecrets'
    | 'nodeDomainLimit'
  >;
  /** Time source for tokens, tickets and throttles; tests move it. */
  readonly clock?: Clock;
  readonly database: Database;
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
   * Tests: every error reply is checked against the contract (the `extra` each code may carry,
   * contract `error-extra.ts`); one that breaks it is logged and answered 101002, so the test fails.
   */
  readonly checkErrorReplies?: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? {
      level: options.config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    // A caller's request id is kept only when it looks like one, so it cannot forge log content.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // One line per request is written by the onResponse hook below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // Undecodable bytes in a query value become unpaired surrogates, which the binder refuses (101003).
    routerOptions: { querystringParser: parseQueryString },
    // Undecodable bytes in the path become %00, so the route matches and the binder names the parameter.
    rewriteUrl: (req) => escapeUndecodablePath(req.url ?? '/'),
    // Requests Node's parser refuses (headers or URL over the limit) answer in the catalogue's shape.
    clientErrorHandler: clientErrorReply,
    frameworkErrors: frameworkErrorReply,
  });

  const consoleDir = options.config.consoleDir;
  installErrorHandling(
    app,
    (request, reply) =>
      consoleDir && wantsConsolePage(request.method, request.url)
        ? reply.header('cache-control', 'no-cache').sendFile('index.html', consoleDir)
        : null,
    { checkReplies: options.checkErrorReplies === true },
  );

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerSecurityHeaders(app);

  // One structured line per request. The path is logged without its query string, which may carry tokens.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        reqId: request.id,
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        tier: request.caller?.tier,
        account: request.caller?.accountId,
      },
      'request',
    );
  });

  const clock = options.clock ?? systemClock;
  // Every state-changing console call runs in one transaction with its audit record (request-transaction.ts).
  const transactions = transactionScoped(options.database.db);
  const db = transactions.db;
  const settings = new SettingsRepository(db);
  const system = new SystemService(options.database, settings, options.config.version);
  await system.ensureInstance();

  const box = new SecretBox(options.config.secret);
  const mailer = new Mailer(settings, box, options.config.smtpUrl);
  const accountsRepo = new AccountsRepository(db);
  const sessionsRepo = new SessionsRepository(db);
  const ticketsRepo = new TicketsRepository(db);
  const productName = async () => (await system.branding()).title;
  const tokens = new TokenService(
    options.config.tokenSecrets?.current ?? options.config.secret,
    sessionsRepo,
    clock,
    app.log,
    options.config.accessTokenTtlSeconds,
    options.config.tokenSecrets?.previous ?? [],
  );
  const credentialGuard = new CredentialGuard(clock);
  const login = new LoginService(
    accountsRepo,
    ticketsRepo,
    tokens,
    mailer,
    box,
    clock,
    app.log,
    options.config.secret,
    productName,
    credentialGuard,
  );
  const account = new AccountService(
    accountsRepo,
    sessionsRepo,
    ticketsRepo,
    tokens,
    mailer,
    box,
    clock,
    productName,
    credentialGuard,
    options.config.secret,
  );
  const createdRoots = await ensureRootAccounts(accountsRepo, options.config.initPassword);

  const nodesRepo = new NodesRepository(db);
  const nodesService = new NodesService(nodesRepo, box, clock);

  // Keep the body as received: node-API requests are signed over its exact bytes.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    parseJson(request, body as string, done);
  });
  // Form data for the logo uploads; the largest slot bounds every file.
  await registerMultipart(app, Math.max(...Object.values(LOGO_IMAGE_MAX_BYTES)));

  const audit = new AuditService(new AuditRepository(db));
  const rolesRepo = new RolesRepository(db);
  const permissionResolver = new PermissionResolver(rolesRepo);
  const accountZonesRepo = new AccountZonesRepository(db);
  const binder = createBinder(
    app,
    {
      account: createAuthenticator(tokens, sessionsRepo, permissionResolver, accountsRepo, clock, (id) =>
        accountZonesRepo.scopeOf(id),
      ),
      node: createNodeAuthenticator(nodesRepo, box, clock),
    },
    {
      audit,
      zoneScope: createZoneScopeCheck(accountZonesRepo),
      transactions,
      codes: {
        // Test tooling: each answered code appended as `<routeId> <code>` (how the `codes` lists were filled).
        recordFile: process.env.RAMPART_RECORD_ROUTE_CODES || undefined,
        strict: options.strictRouteCodes,
      },
    },
  );
  bindAccountZoneRoutes(binder, new AccountZonesService(accountZonesRepo, accountsRepo, transactions));
  bindSystemRoutes(binder, system);
  const refreshCookie = new RefreshCookie(servedOverHttps(options.config.publicUrl));
  bindAuthRoutes(binder, login, tokens, account, refreshCookie);
  bindRoleRoutes(binder, new RolesService(rolesRepo));
  bindApiTokenRoutes(
    binder,
    new ApiTokensService(new ApiTokensRepository(db), sessionsRepo, transactions, tokens, clock),
  );
  // Any successful state-changing console call may change what nodes serve; see ConfigChanges.
  const changes = new ConfigChanges();
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 400 && request.url.startsWith(`${API_BASE}/`)) changes.bump();
  });
  const capacity = new NodeCapacity(options.config.nodeDomainLimit, new NodeCapacityRepository(db));
  // What each feature puts into a node's data plane: its *.edge.ts projection over its repository.
  const siteCacheRepo = new SiteCacheRepository(db);
  const siteModulesRepo = new SiteModulesRepository(db);
  const sitePortsRepo = new SitePortsRepository(db);
  const siteSettingsRepo = new SiteSettingsRepository(db);
  const snapshots = new SnapshotsService(
    new SnapshotBuilder(
      new SnapshotRepository(db),
      {
        streamPorts: (ownerId, nodeGroups, listenPorts, now) =>
          edgeStreamPorts(sitePortsRepo, ownerId, nodeGroups, listenPorts, now),
        cachePolicies: (siteIds) => edgeCachePolicies(siteCacheRepo, siteIds),
        modules: (domainIds) => edgeModulesOf(siteModulesRepo, domainIds),
        siteSettings: (siteIds) => edgeSiteSettings(siteSettingsRepo, siteIds),
        nginxTuning: (ownerId) => operatorNginxTuning(settings, ownerId),
      },
      box,
      { domains: capacity.domainLimit },
    ),
    changes,
    clock,
    (nodeId, problem) => app.log.warn({ nodeId, problem }, 'node snapshot incomplete'),
  );
  // Held node polls would otherwise keep a graceful shutdown waiting for up to their full wait.
  app.addHook('preClose', async () => snapshots.close());
  const monitorStatus = new MonitorStatusService(new MonitorStatusRepository(db));
  // Queued node commands wake the agents' command polls, as configuration changes wake snapshot polls.
  const commandsRepo = new NodeCommandsRepository(db);
  const nodeCommands = new NodeCommandsService(commandsRepo, nodesRepo, transactions, new ConfigChanges(), clock);
  app.addHook('preClose', async () => nodeCommands.close());
  const releases = new AgentReleases(options.config.agentReleaseDir, options.config.version);
  const upgrades = new NodeUpgradeService(new NodeUpgradeRepository(db), releases, nodeCommands, commandsRepo, clock);
  bindNodeRoutes(
    binder,
    nodesService,
    snapshots,
    (origin) => options.config.publicUrl ?? origin,
    (node, version) => upgrades.reported(node.nodeId, node.ownerId, version),
    (operatorId, nodeIds) => monitorStatus.statesOf(operatorId, nodeIds),
  );
  bindNodeUpgradeRoutes(binder, upgrades, releases);
  const zonesRepo = new ZonesRepository(db);
  const nodeSettings = new NodeSettingsService(nodesRepo, zonesRepo, transactions);
  bindNodeOperationRoutes(binder, nodesService, nodeCommands, nodeSettings, snapshots);
  bindSubNodeRoutes(binder, new SubNodesService(new SubNodesRepository(db), nodesRepo, transactions));
  const zoneSettingsRepo = new ZoneSettingsRepository(db);
  const groupLinesRepo = new GroupLinesRepository(db);
  const zonesService = new ZonesService(zonesRepo, {
    zoneSettings: zoneSettingsRepo,
    accountZones: accountZonesRepo,
    nodes: nodesRepo,
    groupLines: groupLinesRepo,
    transactions,
    capacity,
  });
  bindZoneRoutes(binder, zonesService);
  const zoneSettings = new ZoneSettingsService(
    zoneSettingsRepo,
    new SitePortsRepository(db),
    zonesService,
    transactions,
    clock,
  );
  bindZoneSettingRoutes(binder, zoneSettings);
  bindOperatorNginxRoutes(binder, new OperatorNginxService(settings, transactions));
  bindGroupRoutes(binder, new GroupsService(new GroupsRepository(db), zonesRepo));
  bindGroupLineRoutes(binder, new GroupLinesService(groupLinesRepo, transactions, capacity));
  bindVirtualNodeRoutes(
    binder,
    new VirtualNodesService(new VirtualNodesRepository(db), zonesRepo, groupLinesRepo, capacity, transactions),
  );
  const productsRepo = new ProductsRepository(db);
  bindProductRoutes(binder, new ProductsService(productsRepo, transactions, capacity));
  const sitesRepo = new SitesRepository(db);
  bindSiteRoutes(binder, new SitesService(transactions, sitesRepo, productsRepo, accountsRepo, capacity));
  const siteAccess = new SiteAccess(sitesRepo);
  const domainsRepo = new DomainsRepository(db);
  const domainsAcross = new DomainsAcrossSitesRepository(db);
  const certificatesRepo = new CertificatesRepository(db);
  const cnameSettings = new CnameSettingsService(
    settings,
    domainsRepo,
    transactions,
    defaultCnameDomain(options.config.publicUrl),
  );
  bindCnameSettingRoutes(binder, cnameSettings);
  const cnameResolver = new CnameResolver(options.config.dnsServers, options.config.dnsTimeoutMs);
  const domainProof = new DomainProofService(
    new DomainProofRepository(db),
    settings,
    transactions,
    siteAccess,
    cnameSettings,
    new TxtResolver(options.config.dnsServers, options.config.dnsTimeoutMs),
    cnameResolver,
    options.config.domainProof,
  );
  bindDomainProofRoutes(binder, domainProof);
  // Background proof checks; a claim that went live or was lost wakes the nodes' snapshot polls.
  const domainProofJob = new DomainProofJob(domainProof, changes, app.log);
  domainProofJob.start(options.config.domainProofIntervalSeconds);
  app.addHook('preClose', async () => domainProofJob.stop());
  const origins = new OriginCheck(new NodeSocketsRepository(db), options.config.allowPrivateOrigins);
  const domainInserts = new DomainInserts(domainsRepo, sitesRepo, certificatesRepo, domainProof, capacity);
  bindDomainRoutes(binder, {
    domains: new DomainsService(
      domainsRepo,
      transactions,
      siteAccess,
      origins,
      cnameSettings,
      domainProof,
      domainInserts,
      certificatesRepo,
    ),
    upstreams: new DomainUpstreamsService(domainsRepo, transactions, siteAccess, origins),
    cnameCheck: new DomainCnameCheckService(
      domainsRepo,
      transactions,
      siteAccess,
      cnameSettings,
      cnameResolver,
      domainProof,
    ),
    across: new UserDomainsService(domainsAcross),
  });
  bindClientDomainRoutes(
    binder,
    new ClientDomainsService(new ClientDomainsRepository(db), domainsAcross, transactions),
  );
  bindCertificateRoutes(binder, new CertificatesService(certificatesRepo, transactions, siteAccess, box, clock));
  bindSiteCacheRoutes(binder, new SiteCacheService(transactions, siteCacheRepo, sitesRepo, siteAccess));
  bindCacheTaskRoutes(
    binder,
    new CacheTasksService(
      transactions,
      new CacheTasksRepository(db),
      siteCacheRepo,
      commandsRepo,
      nodeCommands,
      nodeSettings,
      siteAccess,
      clock,
    ),
  );
  bindSiteModuleRoutes(binder, new SiteModulesService(transactions, siteModulesRepo, sitesRepo, siteAccess));
  bindSiteSettingRoutes(binder, new SiteSettingsService(transactions, siteSettingsRepo, sitesRepo, siteAccess));
  bindSitePortRoutes(
    binder,
    new SitePortsService(
      transactions,
      sitePortsRepo,
      sitesRepo,
      siteAccess,
      new NodeSocketsRepository(db),
      options.config.allowPrivateOrigins,
    ),
  );
  bindAccountRoutes(
    binder,
    new AccountsService(accountsRepo, sessionsRepo, ticketsRepo, transactions, mailer, clock, productName),
    (origin) => options.config.publicUrl ?? origin,
  );
  bindAnnouncementRoutes(binder, new AnnouncementsService(new AnnouncementsRepository(db), transactions));
  bindLogoRoutes(binder, new LogosService(new LogosRepository(db), transactions, system));
  bindMonitoringRoutes(
    binder,
    new MonitoringService(new MonitorNodesRepository(db), new MonitorGroupsRepository(db), transactions, clock),
    monitorStatus,
    new ProbesService(new ProbesRepository(db), transactions, clock),
  );
  bindAuditRoutes(binder, audit, new SwitchUserService(accountsRepo, tokens), refreshCookie);
  options.extraRoutes?.(binder);
  app.decorate('binder', binder);
  app.decorate('rampart', {
    createdRoots,
    settings,
    box,
    mailer,
    accounts: accountsRepo,
    account,
    system,
    nodes: nodesRepo,
    changes,
    snapshots,
    domainProofJob,
  });

  const document = buildOpenApiDocument(ALL_ROUTES, { title: 'Rampart API', version: options.config.version });
  app.get(`${API_BASE}/openapi.json`, async () => document);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  // No validator badge: it would call validator.swagger.io, which an offline install cannot reach.
  await app.register(swaggerUi, { routePrefix: `${API_BASE}/docs`, uiConfig: { validatorUrl: null } });

  if (consoleDir) await serveConsole(app, consoleDir);

  app.addHook('onClose', async () => {
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
      domainProofJob: DomainProofJob;
    };
  }
  interface FastifyRequest {
    caller?: import('./platform/http/bind-route.js').Caller;
  }
}
