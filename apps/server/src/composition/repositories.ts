import { AccountZonesRepository } from '../modules/account-zones/account-zones.repository.js';
import { AlertsRepository } from '../modules/alerts/alerts.repository.js';
import { AnalyticsRepository } from '../modules/analytics/analytics.repository.js';
import { LogSamplesRepository } from '../modules/analytics/log-samples.repository.js';
import { AnnouncementsRepository } from '../modules/announcements/announcements.repository.js';
import { ApiTokensRepository } from '../modules/api-tokens/api-tokens.repository.js';
import { AuditRepository } from '../modules/audit/audit.repository.js';
import { AccountsRepository } from '../modules/auth/accounts.repository.js';
import { SessionsRepository } from '../modules/auth/sessions.repository.js';
import { TicketsRepository } from '../modules/auth/tickets.repository.js';
import { AutoCertificatesRepository } from '../modules/auto-certificates/auto-certificates.repository.js';
import { CacheTasksRepository } from '../modules/cache-tasks/cache-tasks.repository.js';
import { CertificatesRepository } from '../modules/certificates/certificates.repository.js';
import { DnsPublishRepository } from '../modules/dns/dns-publish.repository.js';
import { ClientDomainsRepository } from '../modules/domains/client-domains.repository.js';
import { DomainProofRepository } from '../modules/domains/domain-proof.repository.js';
import { DomainsRepository } from '../modules/domains/domains.repository.js';
import { DomainsAcrossSitesRepository } from '../modules/domains/domains-across-sites.repository.js';
import { BlockListRepository } from '../modules/firewall/block-list.repository.js';
import { DomainAccessRepository } from '../modules/firewall/domain-access.repository.js';
import { FirewallL4Repository } from '../modules/firewall/firewall-l4.repository.js';
import { FirewallRulesRepository } from '../modules/firewall/firewall-rules.repository.js';
import { AbuseIPsRepository } from '../modules/firewall/reputation.repository.js';
import { GroupLinesRepository } from '../modules/group-lines/group-lines.repository.js';
import { GroupsRepository } from '../modules/groups/groups.repository.js';
import { LicensesRepository } from '../modules/licenses/licenses.repository.js';
import { LogExportsRepository } from '../modules/log-exports/log-exports.repository.js';
import { LogPushRepository } from '../modules/log-push/log-push.repository.js';
import { LogosRepository } from '../modules/logos/logos.repository.js';
import { MonitorGroupsRepository } from '../modules/monitoring/monitor-groups.repository.js';
import { MonitorNodesRepository } from '../modules/monitoring/monitor-nodes.repository.js';
import { MonitorStatusRepository } from '../modules/monitoring/monitor-status.repository.js';
import { ProbesRepository } from '../modules/monitoring/probes.repository.js';
import { NodeCommandsRepository } from '../modules/nodes/node-commands.repository.js';
import { NodeSocketsRepository } from '../modules/nodes/node-sockets.repository.js';
import { NodeUpgradeRepository } from '../modules/nodes/node-upgrade.repository.js';
import { NodesRepository } from '../modules/nodes/nodes.repository.js';
import { OverviewRepository } from '../modules/overview/overview.repository.js';
import { ProductsRepository } from '../modules/products/products.repository.js';
import { RolesRepository } from '../modules/roles/roles.repository.js';
import { SiteAuthRepository } from '../modules/site-auth/site-auth.repository.js';
import { SiteModulesRepository } from '../modules/site-modules/site-modules.repository.js';
import { SitePortsRepository } from '../modules/site-ports/site-ports.repository.js';
import { SiteSettingsRepository } from '../modules/site-settings/site-settings.repository.js';
import { SiteCacheRepository } from '../modules/sites/site-cache.repository.js';
import { SitesRepository } from '../modules/sites/sites.repository.js';
import { DomainServingRepository } from '../modules/snapshots/domain-serving.repository.js';
import { NodeCapacityRepository } from '../modules/snapshots/node-capacity.repository.js';
import { SnapshotRepository } from '../modules/snapshots/snapshot.repository.js';
import { SubNodesRepository } from '../modules/sub-nodes/sub-nodes.repository.js';
import { SystemStateRepository } from '../modules/system/system-state.repository.js';
import { TrafficRepository } from '../modules/traffic/traffic.repository.js';
import { VirtualNodesRepository } from '../modules/virtual-nodes/virtual-nodes.repository.js';
import { ZoneSettingsRepository } from '../modules/zones/zone-settings.repository.js';
import { ZonesRepository } from '../modules/zones/zones.repository.js';
import type { Db } from '../platform/db/database.js';
import { FileBlobsRepository } from '../platform/files/file-blobs.repository.js';
import { SettingsRepository } from '../platform/settings/settings.repository.js';

/**
 * Every repository, built once over the request-scoped database handle (`transactionScoped`), so a
 * repository's queries join the transaction of the call they run in. A new module adds its
 * repository here and takes it from `repos` in its area's composition.
 */
export function createRepositories(db: Db) {
  return {
    accountZones: new AccountZonesRepository(db),
    accounts: new AccountsRepository(db),
    analytics: new AnalyticsRepository(db),
    logSamples: new LogSamplesRepository(db),
    announcements: new AnnouncementsRepository(db),
    traffic: new TrafficRepository(db),
    apiTokens: new ApiTokensRepository(db),
    audit: new AuditRepository(db),
    cacheTasks: new CacheTasksRepository(db),
    certificates: new CertificatesRepository(db),
    clientDomains: new ClientDomainsRepository(db),
    domainProof: new DomainProofRepository(db),
    domains: new DomainsRepository(db),
    domainsAcross: new DomainsAcrossSitesRepository(db),
    groupLines: new GroupLinesRepository(db),
    groups: new GroupsRepository(db),
    licenses: new LicensesRepository(db),
    fileBlobs: new FileBlobsRepository(db),
    logExports: new LogExportsRepository(db),
    logPush: new LogPushRepository(db),
    logos: new LogosRepository(db),
    monitorGroups: new MonitorGroupsRepository(db),
    monitorNodes: new MonitorNodesRepository(db),
    monitorStatus: new MonitorStatusRepository(db),
    alerts: new AlertsRepository(db),
    nodeCapacity: new NodeCapacityRepository(db),
    nodeCommands: new NodeCommandsRepository(db),
    dnsPublish: new DnsPublishRepository(db),
    nodeSockets: new NodeSocketsRepository(db),
    nodeUpgrade: new NodeUpgradeRepository(db),
    nodes: new NodesRepository(db),
    overview: new OverviewRepository(db),
    probes: new ProbesRepository(db),
    products: new ProductsRepository(db),
    roles: new RolesRepository(db),
    sessions: new SessionsRepository(db),
    settings: new SettingsRepository(db),
    systemState: new SystemStateRepository(db),
    siteCache: new SiteCacheRepository(db),
    siteModules: new SiteModulesRepository(db),
    siteAuth: new SiteAuthRepository(db),
    sitePorts: new SitePortsRepository(db),
    siteSettings: new SiteSettingsRepository(db),
    firewallRules: new FirewallRulesRepository(db),
    firewallL4: new FirewallL4Repository(db),
    blockList: new BlockListRepository(db),
    abuseIPs: new AbuseIPsRepository(db),
    autoCertificates: new AutoCertificatesRepository(db),
    domainAccess: new DomainAccessRepository(db),
    domainServing: new DomainServingRepository(db),
    sites: new SitesRepository(db),
    snapshot: new SnapshotRepository(db),
    subNodes: new SubNodesRepository(db),
    tickets: new TicketsRepository(db),
    virtualNodes: new VirtualNodesRepository(db),
    zoneSettings: new ZoneSettingsRepository(db),
    zones: new ZonesRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
