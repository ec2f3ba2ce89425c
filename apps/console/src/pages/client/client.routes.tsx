import type { RouteObject } from 'react-router';
import { apiDocRoute } from '../../app/api-doc-route';
import { CLIENT_PATHS } from '../../app/console-paths';
import {
  ACCESS_PAGES,
  ACCOUNT_PAGES,
  ANALYTICS_PAGES,
  accountsPage,
  type ConsolePage,
  consoleRoutes,
} from '../../app/console-routes';
import { lazyPage } from '../../app/lazy-page';

/**
 * Pages of the client (operator) console behind its session; later issues add theirs here. The
 * DNS setting page is named `dnsSetting`: the after-login rule looks for that name (app/landing.ts).
 */
export const CLIENT_PAGES: readonly ConsolePage[] = [
  ...ACCOUNT_PAGES,
  accountsPage('client'),
  ...ACCESS_PAGES,
  {
    name: 'zonesList',
    path: CLIENT_PATHS.zonesList,
    lazy: lazyPage(
      () => import('./zones/ZonesListPage'),
      (m) => m.ZonesListPage,
    ),
  },
  {
    name: 'nodesList',
    path: CLIENT_PATHS.nodesList,
    lazy: lazyPage(
      () => import('./nodes/NodesListPage'),
      (m) => m.NodesListPage,
    ),
  },
  {
    name: 'vNode',
    path: CLIENT_PATHS.vNode,
    lazy: lazyPage(
      () => import('./virtual-nodes/VirtualNodesPage'),
      (m) => m.VirtualNodesPage,
    ),
  },
  {
    name: 'productsList',
    path: CLIENT_PATHS.productsList,
    lazy: lazyPage(
      () => import('./products/ProductsListPage'),
      (m) => m.ProductsListPage,
    ),
  },
  {
    name: 'sitesList',
    path: CLIENT_PATHS.sitesList,
    lazy: lazyPage(
      () => import('./sites/SitesListPage'),
      (m) => m.SitesListPage,
    ),
  },
  {
    name: 'domains',
    path: CLIENT_PATHS.domains,
    lazy: lazyPage(
      () => import('./domains/DomainsListPage'),
      (m) => m.DomainsListPage,
    ),
  },
  {
    name: 'blockList',
    path: CLIENT_PATHS.blockList,
    lazy: lazyPage(
      () => import('./block-list/ClientBlockListPage'),
      (m) => m.ClientBlockListPage,
    ),
  },
  {
    name: 'autoSSLManagement',
    path: CLIENT_PATHS.autoSSLManagement,
    lazy: lazyPage(
      () => import('./auto-certificates/AutoCertificatesPage'),
      (m) => m.AutoCertificatesPage,
    ),
  },
  ...ANALYTICS_PAGES,
  {
    name: 'monitorNodeList',
    path: CLIENT_PATHS.monitorNodeList,
    lazy: lazyPage(
      () => import('./monitor/MonitorNodesPage'),
      (m) => m.MonitorNodesPage,
    ),
  },
  {
    name: 'monitorNodeGroup',
    path: CLIENT_PATHS.monitorNodeGroup,
    lazy: lazyPage(
      () => import('./monitor/MonitorGroupsPage'),
      (m) => m.MonitorGroupsPage,
    ),
  },
  {
    name: 'nginxSetting',
    path: CLIENT_PATHS.nginxSetting,
    lazy: lazyPage(
      () => import('./settings/NginxSettingPage'),
      (m) => m.NginxSettingPage,
    ),
  },
  {
    name: 'dnsSetting',
    path: CLIENT_PATHS.dnsSetting,
    lazy: lazyPage(
      () => import('./settings/DnsSettingPage'),
      (m) => m.DnsSettingPage,
    ),
  },
  {
    name: 'cname',
    path: CLIENT_PATHS.cname,
    lazy: lazyPage(
      () => import('./settings/CnameSettingPage'),
      (m) => m.CnameSettingPage,
    ),
  },
  {
    name: 'acmeSetting',
    path: CLIENT_PATHS.acmeSetting,
    lazy: lazyPage(
      () => import('./settings/AcmeSettingPage'),
      (m) => m.AcmeSettingPage,
    ),
  },
  {
    name: 'geoDatabase',
    path: CLIENT_PATHS.geoDatabase,
    lazy: lazyPage(
      () => import('./settings/GeoDatabasePage'),
      (m) => m.GeoDatabasePage,
    ),
  },
  {
    name: 'abuseIPs',
    path: CLIENT_PATHS.abuseIPs,
    lazy: lazyPage(
      () => import('./settings/AbuseIPsPage'),
      (m) => m.AbuseIPsPage,
    ),
  },
  {
    name: 'notification',
    path: CLIENT_PATHS.notification,
    lazy: lazyPage(
      () => import('./notifications/NotificationSettingPage'),
      (m) => m.NotificationSettingPage,
    ),
  },
  {
    name: 'systemSetting',
    path: CLIENT_PATHS.systemSetting,
    lazy: lazyPage(
      () => import('./system/SystemSettingPage'),
      (m) => m.SystemSettingPage,
    ),
  },
  {
    name: 'systemUpgrade',
    path: CLIENT_PATHS.systemUpgrade,
    lazy: lazyPage(
      () => import('./system/SystemUpgradePage'),
      (m) => m.SystemUpgradePage,
    ),
  },
  {
    name: 'errorSetting',
    path: CLIENT_PATHS.errorSetting,
    lazy: lazyPage(
      () => import('./system/ErrorSettingPage'),
      (m) => m.ErrorSettingPage,
    ),
  },
  {
    name: 'perdefinedSetting',
    path: CLIENT_PATHS.perdefinedSetting,
    lazy: lazyPage(
      () => import('./system/PerdefinedSettingPage'),
      (m) => m.PerdefinedSettingPage,
    ),
  },
  {
    name: 'logSetting',
    path: CLIENT_PATHS.logSetting,
    lazy: lazyPage(
      () => import('./settings/LogSettingPage'),
      (m) => m.LogSettingPage,
    ),
  },
  {
    name: 'dbBackup',
    path: CLIENT_PATHS.dbBackup,
    lazy: lazyPage(
      () => import('./settings/DbBackupPage'),
      (m) => m.DbBackupPage,
    ),
  },
  {
    name: 'nodeExporter',
    path: CLIENT_PATHS.nodeExporter,
    lazy: lazyPage(
      () => import('./system/NodeExporterPage'),
      (m) => m.NodeExporterPage,
    ),
  },
  {
    name: 'systemHealth',
    path: CLIENT_PATHS.systemHealth,
    lazy: lazyPage(
      () => import('./system/SystemHealthPage'),
      (m) => m.SystemHealthPage,
    ),
  },
  {
    name: 'license',
    path: CLIENT_PATHS.license,
    lazy: lazyPage(
      () => import('./settings/LicensePage'),
      (m) => m.LicensePage,
    ),
  },
  {
    name: 'trafficPkgList',
    path: CLIENT_PATHS.trafficPkgList,
    lazy: lazyPage(
      () => import('./traffic/TrafficPkgListPage'),
      (m) => m.TrafficPkgListPage,
    ),
  },
  {
    name: 'trafficReport',
    path: CLIENT_PATHS.trafficReport,
    lazy: lazyPage(
      () => import('./traffic/TrafficReportPage'),
      (m) => m.TrafficReportPage,
    ),
  },
  {
    name: 'announcementSetting',
    path: CLIENT_PATHS.announcementSetting,
    lazy: lazyPage(
      () => import('./announcements/AnnouncementSettingPage'),
      (m) => m.AnnouncementSettingPage,
    ),
  },
  {
    name: 'customizeLogo',
    path: CLIENT_PATHS.customizeLogo,
    lazy: lazyPage(
      () => import('./logos/CustomizeLogoPage'),
      (m) => m.CustomizeLogoPage,
    ),
  },
];

/** The client (operator) console, /client. */
export const clientRoutes: RouteObject = consoleRoutes('client', { pages: CLIENT_PAGES, open: [apiDocRoute()] });
