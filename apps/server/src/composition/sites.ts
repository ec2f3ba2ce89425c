import type { StatisticsService } from '../modules/analytics/statistics.service.js';
import type { AutoCertificatesJob } from '../modules/auto-certificates/auto-certificates.job.js';
import { bindCacheTaskRoutes } from '../modules/cache-tasks/cache-tasks.routes.js';
import { CacheTasksService } from '../modules/cache-tasks/cache-tasks.service.js';
import { bindCertificateRoutes } from '../modules/certificates/certificates.routes.js';
import { CertificatesService } from '../modules/certificates/certificates.service.js';
import { bindClientDomainRoutes } from '../modules/domains/client-domains.routes.js';
import { ClientDomainsService } from '../modules/domains/client-domains.service.js';
import { bindCnameSettingRoutes } from '../modules/domains/cname-settings.routes.js';
import { CnameSettingsService, defaultCnameDomain } from '../modules/domains/cname-settings.service.js';
import { DomainCnameCheckService } from '../modules/domains/domain-cname-check.service.js';
import { DomainInserts } from '../modules/domains/domain-inserts.js';
import { OriginCheck } from '../modules/domains/domain-origins.js';
import { DomainProofJob } from '../modules/domains/domain-proof.job.js';
import { bindDomainProofRoutes } from '../modules/domains/domain-proof.routes.js';
import { DomainProofService } from '../modules/domains/domain-proof.service.js';
import { bindDomainStateRoutes } from '../modules/domains/domain-states.routes.js';
import { DomainStatesService } from '../modules/domains/domain-states.service.js';
import { DomainUpstreamsService } from '../modules/domains/domain-upstreams.service.js';
import { bindDomainRoutes } from '../modules/domains/domains.routes.js';
import { DomainsService } from '../modules/domains/domains.service.js';
import { bindPrivateOriginsRoutes } from '../modules/domains/private-origins.routes.js';
import { PrivateOriginsService } from '../modules/domains/private-origins.service.js';
import { UserDomainsService } from '../modules/domains/user-domains.service.js';
import { bindDomainAccessRoutes } from '../modules/firewall/domain-access.routes.js';
import { DomainAccessService } from '../modules/firewall/domain-access.service.js';
import { bindFirewallL4Routes } from '../modules/firewall/firewall-l4.routes.js';
import { FirewallL4Service } from '../modules/firewall/firewall-l4.service.js';
import { bindFirewallRuleRoutes } from '../modules/firewall/firewall-rules.routes.js';
import { FirewallRulesService } from '../modules/firewall/firewall-rules.service.js';
import { bindReputationRoutes } from '../modules/firewall/reputation.routes.js';
import { AbuseIPSettingService, type AbuseIPsService } from '../modules/firewall/reputation.service.js';
import type { GeoDatabaseService } from '../modules/geo/geo-database.service.js';
import type { NodeCommandsService } from '../modules/nodes/node-commands.service.js';
import type { NodeSettingsService } from '../modules/nodes/node-settings.service.js';
import { bindOverviewRoutes } from '../modules/overview/overview.routes.js';
import { OverviewService } from '../modules/overview/overview.service.js';
import { bindSiteAuthRoutes } from '../modules/site-auth/site-auth.routes.js';
import { SiteAuthService } from '../modules/site-auth/site-auth.service.js';
import { bindSiteModuleRoutes } from '../modules/site-modules/site-modules.routes.js';
import { SiteModulesService } from '../modules/site-modules/site-modules.service.js';
import { bindSitePortRoutes } from '../modules/site-ports/site-ports.routes.js';
import { SitePortsService } from '../modules/site-ports/site-ports.service.js';
import { bindSiteSettingRoutes } from '../modules/site-settings/site-settings.routes.js';
import { SiteSettingsService } from '../modules/site-settings/site-settings.service.js';
import { bindSiteCacheRoutes } from '../modules/sites/site-cache.routes.js';
import { SiteCacheService } from '../modules/sites/site-cache.service.js';
import { bindSiteRoutes } from '../modules/sites/sites.routes.js';
import { SitesService } from '../modules/sites/sites.service.js';
import { DomainServing } from '../modules/snapshots/domain-serving.js';
import { savedPerdefinedSetting } from '../modules/system/system-settings.service.js';
import { CnameResolver } from '../platform/dns/cname-resolver.js';
import { TxtResolver } from '../platform/dns/txt-resolver.js';
import type { Binder } from '../platform/http/bind-route.js';
import { SiteAccess } from '../platform/tenancy/site-access.js';
import type { AppContext } from './context.js';

/** What the site features need from the nodes: cache purges and warm-ups run as node commands. */
export interface SiteNodeServices {
  readonly nodeCommands: NodeCommandsService;
  readonly nodeSettings: NodeSettingsService;
  /** The operators' geo databases: geo rules' cities are checked against them. */
  readonly geo: GeoDatabaseService;
  /** The operators' reputation lists, bound here with the sites' IP trust protection setting. */
  readonly abuseIPs: AbuseIPsService;
  /** Traffic analytics: the resource summary's monthly traffic. */
  readonly statistics: StatisticsService;
  /** The automatic certificates' job: woken when a domain turns auto SSL on. */
  readonly autoCertificates: Pick<AutoCertificatesJob, 'soon'>;
}

/**
 * Sites and everything a site holds: domains (their proof, CNAME targets and checks), certificates,
 * cache rules and tasks, modules, settings and layer-4 ports. Starts the background proof checks.
 */
export function composeSites(ctx: AppContext, binder: Binder, nodes: SiteNodeServices) {
  const { app, config, repos, clock, box, transactions, capacity } = ctx;
  bindSiteRoutes(
    binder,
    new SitesService(
      transactions,
      repos.sites,
      repos.products,
      repos.accounts,
      capacity,
      (accountId) => nodes.statistics.monthTraffic(accountId, clock()),
      ctx.licenseLimits,
      async (operatorId, siteId) => {
        const start = await savedPerdefinedSetting(repos.settings, operatorId);
        if (start)
          await repos.siteSettings.upsertSettings(siteId, {
            gzipEnabled: start.gzip.enabled,
            gzipTypes: start.gzip.types,
            gzipMinLength: start.gzip.minLength,
            gzipUpdatedAt: new Date(),
            errorPageLanguage: start.errorPageLanguage,
          });
      },
    ),
  );
  const siteAccess = new SiteAccess(repos.sites);
  const cnameSettings = new CnameSettingsService(
    repos.settings,
    repos.domains,
    transactions,
    defaultCnameDomain(config.publicUrl),
  );
  bindCnameSettingRoutes(binder, cnameSettings);
  const cnameResolver = new CnameResolver(config.dnsServers, config.dnsTimeoutMs);
  const domainProof = new DomainProofService(
    repos.domainProof,
    repos.settings,
    transactions,
    siteAccess,
    cnameSettings,
    new TxtResolver(config.dnsServers, config.dnsTimeoutMs),
    cnameResolver,
    config.domainProof,
  );
  bindDomainProofRoutes(binder, domainProof);
  bindOverviewRoutes(binder, new OverviewService(repos.overview, cnameSettings, domainProof, clock));
  // Background proof checks; a claim that went live or was lost wakes the nodes' snapshot polls.
  const domainProofJob = new DomainProofJob(domainProof, ctx.changes, app.log);
  domainProofJob.start(config.domainProofIntervalSeconds);
  app.addHook('preClose', async () => domainProofJob.stop());

  const privateOrigins = new PrivateOriginsService(repos.settings, config.allowPrivateOrigins);
  bindPrivateOriginsRoutes(binder, privateOrigins);
  const allowPrivateOrigins = (operatorId: number) => privateOrigins.allowsFor(operatorId);
  const origins = new OriginCheck(repos.nodeSockets, allowPrivateOrigins);
  const domainInserts = new DomainInserts(
    repos.domains,
    repos.sites,
    repos.certificates,
    domainProof,
    capacity,
    ctx.licenseLimits,
    // A domain that turned auto SSL on is issued for now, not at the job's next tick.
    () => transactions.afterCommit(() => nodes.autoCertificates.soon()),
  );
  bindDomainRoutes(binder, {
    domains: new DomainsService(
      repos.domains,
      transactions,
      siteAccess,
      origins,
      cnameSettings,
      domainProof,
      domainInserts,
      repos.certificates,
    ),
    upstreams: new DomainUpstreamsService(repos.domains, transactions, siteAccess, origins),
    cnameCheck: new DomainCnameCheckService(
      repos.domains,
      transactions,
      siteAccess,
      cnameSettings,
      cnameResolver,
      domainProof,
    ),
    across: new UserDomainsService(repos.domainsAcross),
  });
  const serving = new DomainServing(repos.domainServing, repos.snapshot, clock);
  const originHealth = nodes.statistics.originHealth.bind(nodes.statistics);
  bindDomainStateRoutes(
    binder,
    new DomainStatesService(repos.domains, repos.clientDomains, siteAccess, serving, originHealth, clock),
  );
  bindClientDomainRoutes(binder, new ClientDomainsService(repos.clientDomains, repos.domainsAcross, transactions));
  bindCertificateRoutes(binder, new CertificatesService(repos.certificates, transactions, siteAccess, box, clock));
  bindSiteCacheRoutes(binder, new SiteCacheService(transactions, repos.siteCache, repos.sites, siteAccess));
  bindCacheTaskRoutes(
    binder,
    new CacheTasksService(
      transactions,
      repos.cacheTasks,
      repos.siteCache,
      repos.nodeCommands,
      nodes.nodeCommands,
      nodes.nodeSettings,
      siteAccess,
      clock,
    ),
  );
  bindSiteModuleRoutes(binder, new SiteModulesService(transactions, repos.siteModules, repos.sites, siteAccess));
  bindSiteAuthRoutes(binder, new SiteAuthService(transactions, repos.siteAuth, repos.sites, siteAccess, box));
  bindSiteSettingRoutes(binder, new SiteSettingsService(transactions, repos.siteSettings, repos.sites, siteAccess));
  const firewallRules = new FirewallRulesService(
    transactions,
    repos.firewallRules,
    repos.sites,
    siteAccess,
    (operatorId, ids) => nodes.geo.unknownCities(operatorId, ids),
  );
  bindFirewallRuleRoutes(binder, firewallRules);
  bindFirewallL4Routes(
    binder,
    new FirewallL4Service(transactions, repos.firewallL4, repos.sites, repos.sitePorts, siteAccess),
  );
  bindReputationRoutes(
    binder,
    nodes.abuseIPs,
    new AbuseIPSettingService(transactions, repos.firewallRules, repos.sites, siteAccess),
  );
  bindDomainAccessRoutes(
    binder,
    new DomainAccessService(transactions, repos.domainAccess, repos.domains, repos.sites, siteAccess),
  );
  bindSitePortRoutes(
    binder,
    new SitePortsService(
      transactions,
      repos.sitePorts,
      repos.sites,
      siteAccess,
      repos.nodeSockets,
      allowPrivateOrigins,
      ctx.licenseLimits,
    ),
  );
  return { domainProofJob, cnameSettings };
}
