import type { AnyRoute } from '../route.js';
import { firewallL4Routes } from '../rule-kinds/site-firewall-l4.js';
import {
  firewallAntiCCRoutes,
  firewallFrequencyRoutes,
  firewallGeoRoutes,
  firewallHeaderRoutes,
  firewallListRoutes,
  firewallUserAgentRoutes,
} from '../rule-kinds/site-firewall-routes.js';
import { accountZoneRoutes } from './account-zones.js';
import { accountRoutes } from './accounts.js';
import { analyticsAggregateRoutes } from './analytics-aggregates.js';
import { analyticsEventRoutes } from './analytics-events.js';
import { announcementRoutes } from './announcements.js';
import { auditRoutes } from './audit.js';
import { authRoutes } from './auth.js';
import { autoCertificateRoutes } from './auto-certificates.js';
import { blockListRoutes } from './block-list.js';
import { cacheTaskRoutes } from './cache-tasks.js';
import { certificateRoutes } from './certificates.js';
import { expiringCertificateRoutes } from './certificates-expiring.js';
import { clientDomainRoutes } from './client-domains.js';
import { clientSiteRoutes } from './client-sites.js';
import { cnameSettingRoutes } from './cname-settings.js';
import { dashboardRoutes } from './dashboard.js';
import { dbBackupRoutes } from './db-backups.js';
import { dnsCnameRoutes } from './dns-cnames.js';
import { dnsLineRoutes } from './dns-lines.js';
import { dnsPublishRoutes } from './dns-publish.js';
import { dnsSettingRoutes } from './dns-settings.js';
import { domainAccessRoutes } from './domain-access.js';
import { domainProofRoutes } from './domain-proof.js';
import { domainStateRoutes } from './domain-states.js';
import { domainRoutes } from './domains.js';
import { asnDatabaseRoutes, geoDatabaseRoutes } from './firewall-geos.js';
import { zoneL4ProtectionRoutes } from './firewall-l4.js';
import { abuseIPRoutes, firewallReputationRoutes } from './firewall-reputation.js';
import { groupLineRoutes } from './group-lines.js';
import { groupRoutes } from './groups.js';
import { l4CounterRoutes } from './l4-counters.js';
import { licenseRoutes } from './licenses.js';
import { clientLogExportRoutes, logExportRoutes } from './log-exports.js';
import { logPushRoutes } from './log-push.js';
import { logSettingRoutes } from './log-settings.js';
import { logoRoutes } from './logos.js';
import { logRoutes } from './logs.js';
import { monitoringRoutes } from './monitoring.js';
import { l4AttackPageSettingRoutes, networkStatisticsRoutes } from './network-statistics.js';
import { nodeCommandRoutes } from './node-commands.js';
import { nodeExporterRoutes } from './node-exporter.js';
import { nodeInstallRoutes } from './node-install.js';
import { nodeOperationRoutes } from './node-operations.js';
import { nodeUpgradeRoutes } from './node-upgrade.js';
import { nodeRoutes } from './nodes.js';
import { notificationRoutes } from './notifications.js';
import { operatorNginxRoutes } from './operator-nginx.js';
import { overviewRoutes } from './overview.js';
import { privateOriginsRoutes } from './private-origins.js';
import { productRoutes } from './products.js';
import { apiTokenRoutes, roleRoutes } from './roles.js';
import { authCredentialRoutes, authGroupRoutes } from './site-auth.js';
import { siteCacheRoutes } from './site-cache.js';
import { luaAclRoutes } from './site-module-acl.js';
import { tokenAuthRoutes } from './site-module-token-auth.js';
import { wafRoutes } from './site-module-waf.js';
import { siteModuleRoutes } from './site-modules.js';
import { sitePortRoutes } from './site-ports.js';
import { siteSettingRoutes } from './site-settings.js';
import { siteRoutes } from './sites.js';
import { statisticsRoutesOf } from './statistics.js';
import { subNodeRoutes } from './sub-nodes.js';
import { systemRoutes } from './system.js';
import { systemHealthRoutes } from './system-health.js';
import { systemSettingRoutes } from './system-settings.js';
import { trafficRoutes } from './traffic.js';
import { userResourceRoutes } from './user-resources.js';
import { virtualNodeRoutes } from './virtual-nodes.js';
import { zoneSettingRoutes } from './zone-settings.js';
import { zoneTrustRoutes } from './zone-trust.js';
import { zoneRoutes } from './zones.js';

export * from '../rule-kinds/l4-rule-kind.js';
export * from '../rule-kinds/rule-kind.js';
export * from '../rule-kinds/site-firewall.js';
export * from '../rule-kinds/site-firewall-l4.js';
export * from '../rule-kinds/site-firewall-routes.js';
export * from './account-zones.js';
export * from './accounts.js';
export * from './analytics-aggregates.js';
export * from './analytics-events.js';
export * from './announcements.js';
export * from './audit.js';
export * from './auth.js';
export * from './auto-certificates.js';
export * from './block-list.js';
export * from './cache-tasks.js';
export * from './certificates.js';
export * from './certificates-expiring.js';
export * from './client-domains.js';
export * from './client-sites.js';
export * from './cname-settings.js';
export * from './dashboard.js';
export * from './db-backups.js';
export * from './dns-cnames.js';
export * from './dns-lines.js';
export * from './dns-publish.js';
export * from './dns-settings.js';
export * from './domain-access.js';
export * from './domain-proof.js';
export * from './domain-states.js';
export * from './domains.js';
export * from './firewall-anti-cc.js';
export * from './firewall-frequency.js';
export * from './firewall-geos.js';
export * from './firewall-headers.js';
export * from './firewall-l4.js';
export * from './firewall-lists.js';
export * from './firewall-reputation.js';
export * from './firewall-user-agents.js';
export * from './group-lines.js';
export * from './groups.js';
export * from './l4-counters.js';
export * from './licenses.js';
export * from './log-exports.js';
export * from './log-push.js';
export * from './log-settings.js';
export * from './logos.js';
export * from './logs.js';
export * from './monitoring.js';
export * from './network-statistics.js';
export * from './node-commands.js';
export * from './node-exporter.js';
export * from './node-install.js';
export * from './node-operations.js';
export * from './node-upgrade.js';
export * from './nodes.js';
export * from './notifications.js';
export * from './operator-nginx.js';
export * from './overview.js';
export * from './private-origins.js';
export * from './products.js';
export * from './roles.js';
export * from './site-auth.js';
export * from './site-cache.js';
export * from './site-module-acl.js';
export * from './site-module-token-auth.js';
export * from './site-module-waf.js';
export * from './site-modules.js';
export * from './site-ports.js';
export * from './site-settings.js';
export * from './sites.js';
export * from './statistics.js';
export * from './sub-nodes.js';
export * from './system.js';
export * from './system-health.js';
export * from './system-settings.js';
export * from './traffic.js';
export * from './user-resources.js';
export * from './virtual-nodes.js';
export * from './zone-settings.js';
export * from './zone-trust.js';
export * from './zones.js';

/** Every declared call, grouped by area. The server binds each one; a test checks none is left unbound. */
export const ROUTE_GROUPS = {
  system: systemRoutes,
  systemSettings: systemSettingRoutes,
  auth: authRoutes,
  accounts: accountRoutes,
  accountZones: accountZoneRoutes,
  nodes: nodeRoutes,
  nodeCommands: nodeCommandRoutes,
  nodeOperations: nodeOperationRoutes,
  nodeUpgrade: nodeUpgradeRoutes,
  nodeInstall: nodeInstallRoutes,
  subNodes: subNodeRoutes,
  zones: zoneRoutes,
  zoneSettings: zoneSettingRoutes,
  zoneTrust: zoneTrustRoutes,
  operatorNginx: operatorNginxRoutes,
  groups: groupRoutes,
  dnsLines: dnsLineRoutes,
  groupLines: groupLineRoutes,
  virtualNodes: virtualNodeRoutes,
  products: productRoutes,
  sites: siteRoutes,
  clientSites: clientSiteRoutes,
  domains: domainRoutes,
  clientDomains: clientDomainRoutes,
  cnameSettings: cnameSettingRoutes,
  dnsSettings: dnsSettingRoutes,
  notifications: notificationRoutes,
  nodeExporter: nodeExporterRoutes,
  systemHealth: systemHealthRoutes,
  dnsPublish: dnsPublishRoutes,
  dnsCnames: dnsCnameRoutes,
  domainProof: domainProofRoutes,
  domainStates: domainStateRoutes,
  privateOrigins: privateOriginsRoutes,
  certificates: certificateRoutes,
  expiringCertificates: expiringCertificateRoutes,
  autoCertificates: autoCertificateRoutes,
  siteCache: siteCacheRoutes,
  cacheTasks: cacheTaskRoutes,
  siteModules: siteModuleRoutes,
  luaAcls: luaAclRoutes,
  tokenAuths: tokenAuthRoutes,
  wafs: wafRoutes,
  authGroups: authGroupRoutes,
  authCredentials: authCredentialRoutes,
  siteSettings: siteSettingRoutes,
  firewallLists: firewallListRoutes,
  firewallUserAgents: firewallUserAgentRoutes,
  firewallFrequency: firewallFrequencyRoutes,
  firewallAntiCC: firewallAntiCCRoutes,
  firewallHeaders: firewallHeaderRoutes,
  domainAccess: domainAccessRoutes,
  firewallGeos: firewallGeoRoutes,
  firewallL4: firewallL4Routes,
  zoneL4Protection: zoneL4ProtectionRoutes,
  blockList: blockListRoutes,
  geoDatabase: geoDatabaseRoutes,
  asnDatabase: asnDatabaseRoutes,
  firewallReputation: firewallReputationRoutes,
  abuseIPs: abuseIPRoutes,
  sitePorts: sitePortRoutes,
  monitoring: monitoringRoutes,
  userResources: userResourceRoutes,
  announcements: announcementRoutes,
  audit: auditRoutes,
  roles: roleRoutes,
  apiTokens: apiTokenRoutes,
  logos: logoRoutes,
  logSettings: logSettingRoutes,
  logs: logRoutes,
  logExports: logExportRoutes,
  clientLogExports: clientLogExportRoutes,
  logPush: logPushRoutes,
  overview: overviewRoutes,
  statistics: statisticsRoutesOf,
  dashboard: dashboardRoutes,
  analyticsEvents: analyticsEventRoutes,
  l4Counters: l4CounterRoutes,
  analyticsAggregates: analyticsAggregateRoutes,
  networkStatistics: networkStatisticsRoutes,
  l4AttackPageSetting: l4AttackPageSettingRoutes,
  licenses: licenseRoutes,
  dbBackups: dbBackupRoutes,
  traffic: trafficRoutes,
} as const;

export const ALL_ROUTES: readonly AnyRoute[] = Object.values(ROUTE_GROUPS).flatMap((group) =>
  Object.values(group as Record<string, AnyRoute>),
);
