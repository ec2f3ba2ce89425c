import type { LocaleResources } from './en-us';

export type Namespace = keyof LocaleResources;

/** Every namespace once; the record's type makes a namespace added to the resources fail here until listed. */
const EVERY_NAMESPACE: Readonly<Record<Namespace, true>> = {
  common: true,
  toasts: true,
  auth: true,
  notFound: true,
  routeError: true,
  shell: true,
  account: true,
  zones: true,
  zoneSettings: true,
  nodes: true,
  nodeOps: true,
  monitoring: true,
  nodeUpgrade: true,
  cacheTasks: true,
  products: true,
  sites: true,
  domains: true,
  cache: true,
  certificates: true,
  authGroups: true,
  modules: true,
  lines: true,
  virtualNodes: true,
  siteActions: true,
  autoCertificates: true,
  clientDomains: true,
  siteSettings: true,
  firewall: true,
  blockList: true,
  ports: true,
  accounts: true,
  roles: true,
  apiTokens: true,
  audit: true,
  auditActions: true,
  logos: true,
  licenses: true,
  announcements: true,
  userProducts: true,
  expiringCertificates: true,
  geoDatabase: true,
  abuseIPs: true,
  dbBackup: true,
  systemSettings: true,
  logSetting: true,
  dnsSetting: true,
  notifications: true,
  acmeSetting: true,
  cnameSetting: true,
  overview: true,
  statistics: true,
  logs: true,
  logExport: true,
  logPush: true,
  traffic: true,
  wafEvents: true,
};

export const NAMESPACES = Object.keys(EVERY_NAMESPACE) as Namespace[];

/**
 * The namespaces a signed-out page shows (login and password pages, 404, a route's error page,
 * the toasts and error texts they raise): loaded before the first render, from a chunk of their
 * own. Every other namespace loads with the console's shell.
 */
export const ENTRY_NAMESPACES = [
  'common',
  'toasts',
  'auth',
  'notFound',
  'routeError',
] as const satisfies readonly Namespace[];

export function isEntryNamespace(namespace: string): boolean {
  return (ENTRY_NAMESPACES as readonly string[]).includes(namespace);
}
