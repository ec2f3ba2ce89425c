import {
  type AnyRoute,
  accountRoutes,
  accountZoneRoutes,
  announcementRoutes,
  apiTokenRoutes,
  cacheTaskRoutes,
  certificateRoutes,
  clientDomainRoutes,
  clientSiteRoutes,
  cnameSettingRoutes,
  corsRoutes,
  customHeaderRoutes,
  domainProofRoutes,
  domainRoutes,
  firewallFrequencyRoutes,
  firewallGeoRoutes,
  firewallListRoutes,
  firewallUserAgentRoutes,
  geoDatabaseRoutes,
  groupLineRoutes,
  groupRoutes,
  logoRoutes,
  monitoringRoutes,
  nodeOperationRoutes,
  nodeRoutes,
  nodeUpgradeRoutes,
  OPERATOR_NGINX_SECTION_ROUTES,
  productRoutes,
  proxyRewriteRoutes,
  roleRoutes,
  siteCacheRoutes,
  sitePortRoutes,
  siteRoutes,
  siteSettingRoutes,
  subNodeRoutes,
  urlRedirectRoutes,
  userResourceRoutes,
  virtualNodeRoutes,
  zoneRoutes,
  zoneSettingRoutes,
  zoneTrustRoutes,
} from '@rampart/contract';

/**
 * What a change to each resource makes stale: every read that shows it, on any page. A call that
 * changes a resource names the resource (`invalidates: changes('domains')`), never its own list of
 * routes, so two calls that change the same thing refresh the same reads. A read that shows another
 * resource's data (a certificate's bound domains, a product's site count) is listed under that resource too.
 */
const CHANGES = readsByResource({
  accounts: [accountRoutes.listAccounts, accountRoutes.listSubAccounts],
  accountZones: [accountZoneRoutes.getAccountZones],
  announcements: [announcementRoutes.listClientAnnouncements, announcementRoutes.listUserAnnouncements],
  apiTokens: [apiTokenRoutes.listApiTokens],
  certificates: [
    certificateRoutes.listCertificates,
    certificateRoutes.metaCertificates,
    certificateRoutes.getCertificate,
    domainRoutes.listDomains,
  ],
  blacklistRules: [firewallListRoutes.listBlacklistRules],
  cnameSetting: [cnameSettingRoutes.getCnameSetting],
  // A site's modules of each type; the domain list names the modules bound to each domain.
  corsModules: [corsRoutes.list, domainRoutes.listDomains],
  customHeaderModules: [customHeaderRoutes.list, domainRoutes.listDomains],
  domainProofSetting: [domainProofRoutes.getDomainProofSetting],
  domains: [
    domainRoutes.listDomains,
    domainRoutes.listUpstreams,
    domainRoutes.userDomainsTags,
    clientDomainRoutes.listClientDomains,
    clientDomainRoutes.clientDomainTags,
    certificateRoutes.listCertificates,
    certificateRoutes.getCertificate,
  ],
  geoDatabase: [geoDatabaseRoutes.getGeoDatabase, userResourceRoutes.listGeoIps],
  geoRules: [firewallGeoRoutes.listGeoRules],
  groups: [groupRoutes.listGroups, groupRoutes.metaGroups],
  intervalLimits: [firewallFrequencyRoutes.listIntervalLimits],
  lines: [
    groupLineRoutes.listLineNodes,
    groupLineRoutes.listLineVirtualNodes,
    groupLineRoutes.lineNodeCandidates,
    groupLineRoutes.lineVirtualNodeCandidates,
    groupLineRoutes.lineNodeNums,
    groupRoutes.listGroups,
    virtualNodeRoutes.listVirtualNodes,
  ],
  logos: [logoRoutes.listLogos],
  operatorNginx: Object.values(OPERATOR_NGINX_SECTION_ROUTES).map((routes) => routes.get),
  monitorGroups: [
    monitoringRoutes.listMonitorGroups,
    monitoringRoutes.metaMonitorGroups,
    monitoringRoutes.listMonitorNodes,
    monitoringRoutes.listMonitorGroupNodes,
  ],
  monitors: [
    monitoringRoutes.listMonitorNodes,
    monitoringRoutes.metaMonitors,
    monitoringRoutes.listMonitorCandidates,
    monitoringRoutes.listMonitorGroups,
  ],
  nodes: [
    nodeRoutes.listInitializedNodes,
    nodeRoutes.listUninitializedNodes,
    nodeOperationRoutes.listNodeCommands,
    nodeOperationRoutes.listZoneNodes,
    nodeOperationRoutes.metaZoneNodes,
    nodeUpgradeRoutes.listNodeUpgradeLogs,
    zoneRoutes.listZones,
    groupRoutes.listGroups,
  ],
  products: [productRoutes.listProducts, productRoutes.metaProducts],
  proxyRewriteModules: [proxyRewriteRoutes.list, domainRoutes.listDomains],
  // A module's rules; the module list shows how many it has.
  proxyRewriteRules: [proxyRewriteRoutes.listRules, proxyRewriteRoutes.list],
  purgeTasks: [cacheTaskRoutes.listSitePurgeTasks],
  preheatTasks: [cacheTaskRoutes.listZonePreheatTasks],
  roles: [roleRoutes.listRoles],
  siteCacheRules: [siteCacheRoutes.listCacheRules],
  sitePorts: [sitePortRoutes.listSitePorts, sitePortRoutes.listSitePortUpstreams],
  sites: [
    siteRoutes.listClientSites,
    clientSiteRoutes.siteTags,
    clientSiteRoutes.metaSites,
    siteRoutes.listUserSites,
    siteRoutes.userSiteTags,
    siteRoutes.getUserSite,
    productRoutes.listProducts,
  ],
  secondLimits: [firewallFrequencyRoutes.listSecondLimits],
  siteSettings: [siteSettingRoutes.getGzipSetting, siteSettingRoutes.listRateRules, siteSettingRoutes.getErrorPages],
  siteUsers: [siteRoutes.listSiteUsers],
  subNodes: [subNodeRoutes.listSubNodes],
  urlRedirectModules: [urlRedirectRoutes.list, domainRoutes.listDomains],
  urlRedirectRules: [urlRedirectRoutes.listRules, urlRedirectRoutes.list],
  userAgentRules: [firewallUserAgentRoutes.listUserAgentRules],
  virtualNodeRecords: [virtualNodeRoutes.listVirtualNodeRecords, virtualNodeRoutes.listVirtualNodes],
  virtualNodes: [virtualNodeRoutes.listVirtualNodes],
  whitelistRules: [firewallListRoutes.listWhitelistRules],
  zoneNginx: [zoneSettingRoutes.getZoneNginx],
  zonePorts: [zoneSettingRoutes.listZonePorts],
  zoneReservedPorts: [zoneSettingRoutes.getZoneReservedPorts],
  zoneTrust: [zoneTrustRoutes.getZoneTrust],
  zones: [zoneRoutes.listZones, zoneRoutes.metaZones, zoneRoutes.getZoneSettings],
});

export type Resource = keyof typeof CHANGES;

function readsByResource<K extends string>(reads: Record<K, readonly AnyRoute[]>): Record<K, readonly AnyRoute[]> {
  return reads;
}

/** The reads a change to these resources makes stale, each once. */
export function changes(...resources: Resource[]): readonly AnyRoute[] {
  return [...new Set(resources.flatMap((resource) => CHANGES[resource]))];
}
