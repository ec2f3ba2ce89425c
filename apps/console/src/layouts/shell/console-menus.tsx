import {
  AreaChartOutlined,
  ClusterOutlined,
  DashboardOutlined,
  FundOutlined,
  GlobalOutlined,
  KeyOutlined,
  LockOutlined,
  MonitorOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { SelfInfo, Tier } from '@rampart/contract';
import type { ReactNode } from 'react';
import { ACCOUNTS_PATHS, ADMIN_PATHS, CLIENT_PATHS, CONSOLE_PATHS, USER_PATHS } from '../../app/console-paths';
import type { LocaleResources } from '../../i18n/resources';

export type MenuKey = keyof LocaleResources['shell']['menu'];

/** A page in the sidebar; `path` is relative to `/{tier}/`. */
export interface MenuLeaf {
  readonly key: MenuKey;
  readonly path: string;
  readonly icon?: ReactNode;
  /** Pages without an entry of their own that show this one as current (a site's settings under its list). */
  readonly alsoFor?: readonly string[];
  /** The permission key the page needs (`@rampart/contract` permissions); without it the entry is hidden. */
  readonly permission?: string;
  /** The operator's switch (`GET {auth}/self`) that lists the page; off, the entry is hidden. */
  readonly operatorSwitch?: 'l4AttackPage';
}

/** True when the page at `current` (relative to `/{tier}/`) is this entry's or one it stands for. */
export function isCurrentLeaf(leaf: MenuLeaf, current: string): boolean {
  if (leaf.path === current) return true;
  return (leaf.alsoFor ?? []).some((path) => current === path || current.startsWith(`${path}/`));
}

/** A group of the sidebar (spec part 1 §2: userManagement, sitesManagement, ...). */
export interface MenuGroup {
  readonly key: MenuKey;
  readonly icon?: ReactNode;
  readonly children: readonly MenuLeaf[];
}

export type MenuEntry = MenuLeaf | MenuGroup;

export function isMenuGroup(entry: MenuEntry): entry is MenuGroup {
  return 'children' in entry;
}

/**
 * The entries the signed-in account may use: leaves it lacks the key of, or whose operator's
 * switch is off, go, and so do groups left empty.
 */
export function visibleMenu(
  entries: readonly MenuEntry[],
  self: Pick<SelfInfo, 'permissions' | 'l4AttackPage'>,
): MenuEntry[] {
  const allowed = (leaf: MenuLeaf) =>
    (leaf.permission === undefined || self.permissions.includes(leaf.permission)) &&
    (leaf.operatorSwitch === undefined || self[leaf.operatorSwitch]);
  return entries.flatMap((entry): MenuEntry[] => {
    if (!isMenuGroup(entry)) return allowed(entry) ? [entry] : [];
    const children = entry.children.filter(allowed);
    return children.length > 0 ? [{ ...entry, children }] : [];
  });
}

const dashboard: MenuLeaf = { key: 'dashboard', path: CONSOLE_PATHS.dashboard, icon: <DashboardOutlined /> };
const changePassword: MenuLeaf = { key: 'changePassword', path: CONSOLE_PATHS.changePassword, icon: <LockOutlined /> };
const userInformation: MenuLeaf = { key: 'userInformation', path: CONSOLE_PATHS.userInformation };
const twoFactor: MenuLeaf = { key: 'twoFactor', path: CONSOLE_PATHS.twoFactor };
const logOperation: MenuLeaf = { key: 'logOperation', path: CONSOLE_PATHS.logOperation };
const roles: MenuLeaf = { key: 'roles', path: CONSOLE_PATHS.roles, permission: 'roles.read' };
const apiTokenSetting: MenuLeaf = {
  key: 'apiTokenSetting',
  path: CONSOLE_PATHS.apiTokenSetting,
  permission: 'apiTokens.read',
};
/**
 * userManagement of a console, in the spec's order: its own information, the accounts it manages,
 * roles (user and client), its second factor, the operation log, API tokens (user and client).
 */
function userManagementOf(tier: Tier, extra: readonly MenuLeaf[] = []): MenuGroup {
  const accounts: MenuLeaf = {
    key: tier === 'user' ? 'usersList' : 'users',
    path: ACCOUNTS_PATHS[tier],
    permission: 'accounts.read',
  };
  const access = tier !== 'admin';
  return {
    key: 'userManagement',
    icon: <TeamOutlined />,
    children: [
      userInformation,
      accounts,
      ...(access ? [roles] : []),
      twoFactor,
      { ...logOperation, permission: 'accounts.read' },
      ...(access ? [apiTokenSetting] : []),
      ...extra,
    ],
  };
}

/**
 * Whether the user console lists the layer-4 attack analysis whatever its operator chose (spec part
 * 1 §1: the page is hidden by default; docs/decisions.md "Layer-4 counters"): the vendor's override,
 * `VITE_L4_ATTACK_PAGE=on` when the console is built. Without it the operator's switch
 * (`client/setting/l4AttackPage`, `l4AttackPage` of `GET user/self`) lists it. Hidden, the page is
 * not in the menu; its address still opens it.
 */
export const L4_ATTACK_PAGE_FORCED = import.meta.env.VITE_L4_ATTACK_PAGE === 'on';

/**
 * dataAnalysis of the user and client consoles (spec part 1 §2 order): statistics,
 * statisticsCustomize, logger, logExport, logPush, securityAnalysis, and in the user console
 * l4AttackAnalysis (always with `forceL4Attack`, else when the operator's switch is on).
 */
function dataAnalysisOf(tier: 'user' | 'client', forceL4Attack = false): MenuGroup {
  const permission = `${tier}.statistics.read`;
  return {
    key: 'dataAnalysis',
    icon: <AreaChartOutlined />,
    children: [
      { key: 'statistics', path: CONSOLE_PATHS.statistics, permission },
      { key: 'statisticsCustomize', path: CONSOLE_PATHS.statisticsCustomize, permission },
      { key: 'logger', path: CONSOLE_PATHS.logger, permission: `${tier}.logs.read` },
      { key: 'logExport', path: CONSOLE_PATHS.logExport, permission: `${tier}.logs.read` },
      { key: 'logPush', path: CONSOLE_PATHS.logPush, permission: `${tier}.logPush.read` },
      { key: 'securityAnalysis', path: CONSOLE_PATHS.securityAnalysis, permission },
      ...(tier === 'user'
        ? [
            {
              key: 'l4AttackAnalysis' as const,
              path: CONSOLE_PATHS.l4AttackAnalysis,
              permission,
              ...(forceL4Attack ? {} : { operatorSwitch: 'l4AttackPage' as const }),
            },
          ]
        : []),
    ],
  };
}

/**
 * The sidebar of each console, in the spec's order (part 1 §2). Only pages that work are listed;
 * later issues add their groups and entries here (e.g. dataAnalysis after sitesManagement; usersList,
 * roles, ... inside userManagement). A site's settings (sitesSetting) have no entry: they are opened
 * from the site list, which stays selected meanwhile.
 */
export const CONSOLE_MENUS: Readonly<Record<Tier, readonly MenuEntry[]>> = {
  user: [
    dashboard,
    userManagementOf('user'),
    {
      key: 'sitesManagement',
      icon: <GlobalOutlined />,
      children: [
        {
          key: 'sites',
          path: USER_PATHS.sites,
          alsoFor: [USER_PATHS.sitesSetting],
          permission: 'user.sites.read',
        },
        { key: 'blockList', path: USER_PATHS.blockList, permission: 'user.firewall.read' },
      ],
    },
    dataAnalysisOf('user', L4_ATTACK_PAGE_FORCED),
    {
      key: 'trafficPkgManagement',
      icon: <FundOutlined />,
      children: [{ key: 'trafficPkgList', path: USER_PATHS.trafficPkgList, permission: 'user.traffic.read' }],
    },
    {
      key: 'systemManagement',
      icon: <SettingOutlined />,
      children: [{ key: 'notifySetting', path: USER_PATHS.notifySetting, permission: 'user.notify.read' }],
    },
    changePassword,
  ],
  client: [
    dashboard,
    {
      key: 'nodeManage',
      icon: <ClusterOutlined />,
      children: [
        { key: 'zonesList', path: CLIENT_PATHS.zonesList, permission: 'client.zones.read' },
        { key: 'nodesList', path: CLIENT_PATHS.nodesList, permission: 'client.nodes.read' },
        { key: 'vNode', path: CLIENT_PATHS.vNode, permission: 'client.virtualNodes.read' },
      ],
    },
    {
      key: 'sitesManagement',
      icon: <GlobalOutlined />,
      children: [
        { key: 'productsList', path: CLIENT_PATHS.productsList, permission: 'client.products.read' },
        { key: 'sitesList', path: CLIENT_PATHS.sitesList, permission: 'client.sites.read' },
        { key: 'domains', path: CLIENT_PATHS.domains, permission: 'client.domains.read' },
        { key: 'blockList', path: CLIENT_PATHS.blockList, permission: 'client.sites.read' },
        { key: 'autoSSLManagement', path: CLIENT_PATHS.autoSSLManagement, permission: 'client.domains.read' },
      ],
    },
    dataAnalysisOf('client'),
    {
      key: 'trafficPkgManagement',
      icon: <FundOutlined />,
      children: [
        { key: 'trafficPkgList', path: CLIENT_PATHS.trafficPkgList, permission: 'client.traffic.read' },
        { key: 'trafficReport', path: CLIENT_PATHS.trafficReport, permission: 'client.traffic.read' },
      ],
    },
    {
      key: 'monitorManagement',
      icon: <MonitorOutlined />,
      children: [
        { key: 'monitorNodeList', path: CLIENT_PATHS.monitorNodeList, permission: 'client.monitor.read' },
        { key: 'monitorNodeGroup', path: CLIENT_PATHS.monitorNodeGroup, permission: 'client.monitor.read' },
      ],
    },
    {
      key: 'systemManagement',
      icon: <SettingOutlined />,
      children: [
        // Spec part 1 §2 order: systemSetting, ..., dnsSetting, cname, nginxSetting, errorSetting, ...
        { key: 'systemSetting', path: CLIENT_PATHS.systemSetting, permission: 'client.settings.read' },
        { key: 'systemUpgrade', path: CLIENT_PATHS.systemUpgrade, permission: 'client.nodes.read' },
        { key: 'dnsSetting', path: CLIENT_PATHS.dnsSetting, permission: 'client.settings.read' },
        { key: 'cname', path: CLIENT_PATHS.cname, permission: 'client.settings.read' },
        { key: 'acmeSetting', path: CLIENT_PATHS.acmeSetting, permission: 'client.settings.read' },
        { key: 'nginxSetting', path: CLIENT_PATHS.nginxSetting, permission: 'client.settings.read' },
        { key: 'errorSetting', path: CLIENT_PATHS.errorSetting, permission: 'client.settings.read' },
        { key: 'perdefinedSetting', path: CLIENT_PATHS.perdefinedSetting, permission: 'client.settings.read' },
        { key: 'geoDatabase', path: CLIENT_PATHS.geoDatabase, permission: 'client.settings.read' },
        { key: 'abuseIPs', path: CLIENT_PATHS.abuseIPs, permission: 'client.settings.read' },
        { key: 'logSetting', path: CLIENT_PATHS.logSetting, permission: 'client.settings.read' },
        { key: 'dbBackup', path: CLIENT_PATHS.dbBackup, permission: 'client.settings.read' },
        { key: 'notification', path: CLIENT_PATHS.notification, permission: 'client.settings.read' },
        { key: 'nodeExporter', path: CLIENT_PATHS.nodeExporter, permission: 'client.settings.read' },
        { key: 'systemHealth', path: CLIENT_PATHS.systemHealth, permission: 'client.settings.read' },
        { key: 'license', path: CLIENT_PATHS.license, permission: 'client.license.read' },
      ],
    },
    // The operator alone has announcement and logo settings (spec part 1 §2, userManagement group).
    userManagementOf('client', [
      { key: 'announcementSetting', path: CLIENT_PATHS.announcementSetting, permission: 'client.announcements.read' },
      { key: 'customizeLogo', path: CLIENT_PATHS.customizeLogo, permission: 'client.settings.read' },
    ]),
    changePassword,
  ],
  admin: [
    dashboard,
    {
      key: 'licenses',
      path: ADMIN_PATHS.licenses,
      icon: <SafetyCertificateOutlined />,
      permission: 'admin.licenses.read',
    },
    {
      key: 'offlineLicense',
      path: ADMIN_PATHS.offlineLicense,
      icon: <KeyOutlined />,
      permission: 'admin.licenses.read',
    },
    userManagementOf('admin'),
    changePassword,
  ],
};
