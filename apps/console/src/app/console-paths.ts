import type { Tier } from '@rampart/contract';

/** Pages every console has, by their path under `/{tier}/` (spec part 1 §2). */
export const CONSOLE_PATHS = {
  login: 'login',
  verifyAccount: 'verifyAccount',
  createPassword: 'createPassword',
  verifyMail: 'verifyMail',
  switchUser: 'switchUser',
  dashboard: 'dashboard',
  changePassword: 'changePassword',
  userInformation: 'userManagement/userInformation',
  twoFactor: 'userManagement/twoFactor',
  logOperation: 'userManagement/logOperation',
  /** Roles and API tokens: the user and client consoles only (spec part 1 §2). */
  roles: 'userManagement/roles',
  apiTokenSetting: 'userManagement/apiTokenSetting',
  /** Traffic analytics: the user and client consoles only (spec part 1 §2, dataAnalysis). */
  statistics: 'dataAnalysis/statistics',
  statisticsCustomize: 'dataAnalysis/statisticsCustomize',
  logger: 'dataAnalysis/logger',
  /** Log export files (the customer's and the operator's). */
  logExport: 'dataAnalysis/logExport',
  /** Log push events and their delivery log (the customer's and the operator's). */
  logPush: 'dataAnalysis/logPush',
  securityAnalysis: 'dataAnalysis/securityAnalysis',
  /** The layer-4 (network) attack analysis: the user console only (the calls are the user's). */
  l4AttackAnalysis: 'dataAnalysis/l4AttackAnalysis',
} as const;

export type ConsolePathName = keyof typeof CONSOLE_PATHS;

/** `/{tier}/{page}`, e.g. `/client/login`. */
export function consolePath(tier: Tier, page: ConsolePathName): string {
  return `/${tier}/${CONSOLE_PATHS[page]}`;
}

/** The account management page of each console (spec part 1 §2: users, users, usersList). */
export const ACCOUNTS_PATHS: Readonly<Record<Tier, string>> = {
  admin: 'userManagement/users',
  client: 'userManagement/users',
  user: 'userManagement/usersList',
};

/** Pages of the client (operator) console, by their path under `/client/` (spec part 1 §2, group/page). */
export const CLIENT_PATHS = {
  zonesList: 'nodeManage/zonesList',
  nodesList: 'nodeManage/nodesList',
  vNode: 'nodeManage/vNode',
  productsList: 'sitesManagement/productsList',
  sitesList: 'sitesManagement/sitesList',
  domains: 'sitesManagement/domains',
  blockList: 'sitesManagement/blockList',
  autoSSLManagement: 'sitesManagement/autoSSLManagement',
  monitorNodeList: 'monitorManagement/monitorNodeList',
  monitorNodeGroup: 'monitorManagement/monitorNodeGroup',
  dnsSetting: 'systemManagement/dnsSetting',
  nginxSetting: 'systemManagement/nginxSetting',
  cname: 'systemManagement/cname',
  /** The operator's ACME certificate authority (automatic certificates) and its EAB credentials. */
  acmeSetting: 'systemManagement/acmeSetting',
  geoDatabase: 'systemManagement/geoDatabase',
  abuseIPs: 'systemManagement/abuseIPs',
  logSetting: 'systemManagement/logSetting',
  /** Backups of the config store: schedule, list, back up now, download, restore. */
  dbBackup: 'systemManagement/dbBackup',
  /** Who may scrape the nodes' Prometheus metrics. */
  nodeExporter: 'systemManagement/nodeExporter',
  /** The health of the installation as the operator sees it. */
  systemHealth: 'systemManagement/systemHealth',
  /** Outgoing URL, account verify, restrict group CIDRs (tabs: pages/client/system/SystemSettingPage.tsx). */
  systemSetting: 'systemManagement/systemSetting',
  /** The control plane's version, the agent release it serves and the nodes not on it. */
  systemUpgrade: 'systemManagement/systemUpgrade',
  /** The operator's default error pages. */
  errorSetting: 'systemManagement/errorSetting',
  /** The settings every new site of the operator starts with. */
  perdefinedSetting: 'systemManagement/perdefinedSetting',
  /** E-mail and Telegram channels and the operator's alert recipients. */
  notification: 'systemManagement/notification',
  /** The operator's licence: what it allows and uses, and the activation of an offline one. */
  license: 'systemManagement/license',
  /** Extra traffic plans and the monthly traffic report (spec part 1 §2, trafficPkgManagement). */
  trafficPkgList: 'trafficPkgManagement/trafficPkgList',
  trafficReport: 'trafficPkgManagement/trafficReport',
  announcementSetting: 'userManagement/announcementSetting',
  customizeLogo: 'userManagement/customizeLogo',
} as const;

/** Pages of the admin (vendor) console, by their path under `/admin/` (spec part 1 §2). */
export const ADMIN_PATHS = {
  licenses: 'licenses',
  offlineLicense: 'offlineLicense',
} as const;

/** Pages of the user (customer) console, by their path under `/user/`. */
export const USER_PATHS = {
  sites: 'sitesManagement/sites',
  /** Followed by the optional `/:id/:name` of the site. */
  sitesSetting: 'sitesManagement/sitesSetting',
  blockList: 'sitesManagement/blockList',
  notifySetting: 'systemManagement/notifySetting',
  /** The customer's extra traffic plans and its monthly report (spec part 1 §2, trafficPkgManagement). */
  trafficPkgList: 'trafficPkgManagement/trafficPkgList',
} as const;

/** `/user/sitesManagement/sitesSetting/{id}/{name}`: one site's settings; the name only titles the page. */
export function siteSettingPath(siteID: number, siteName: string): string {
  return `/user/${USER_PATHS.sitesSetting}/${siteID}/${encodeURIComponent(siteName)}`;
}
