import type { Locale, Localized } from './locale.js';
import type { AnyRoute, Tier } from './route.js';

/**
 * Permission keys. Every signed-in route carries one key; the server's binder checks
 * the caller's keys against it (101018), so no handler checks permissions by hand.
 *
 * Each route names its key where it is declared (`access: tiers(['client'], 'client.zones.write')`);
 * {@link PERMISSION_GROUPS} lists the keys as the console's menus group them (the meta roles). A
 * contract test checks that every route's key is one of its tiers' keys.
 *
 * A root account (the top of its tier: no parent of the same tier) holds every key of its tier.
 * A sub-account holds the keys of its role that its parent holds too. {@link SELF_PERMISSION}
 * (the caller's own account: profile, password, second factor) is held by every signed-in account
 * and never appears in a role.
 */

export const SELF_PERMISSION = 'account.self';

export interface PermissionKeyDef {
  readonly key: string;
  readonly name: Localized;
}

export interface PermissionGroup {
  /** The console's menu group (`MenuKey`), e.g. `sitesManagement`. */
  readonly key: string;
  readonly name: Localized;
  readonly keys: readonly PermissionKeyDef[];
}

const L = (en_US: string, zh_CN: string, zh_TW: string): Localized => ({ en_US, zh_CN, zh_TW });

function rw(key: string, en: string, cn: string, tw: string): PermissionKeyDef[] {
  return [
    { key: `${key}.read`, name: L(`View ${en}`, `查看${cn}`, `檢視${tw}`) },
    { key: `${key}.write`, name: L(`Manage ${en}`, `管理${cn}`, `管理${tw}`) },
  ];
}

const userManagementName = L('User Management', '用户管理', '使用者管理');
const accountKeys = (): PermissionKeyDef[] => [
  ...rw('accounts', 'accounts', '账号', '帳號'),
  ...rw('roles', 'roles', '角色', '角色'),
  ...rw('apiTokens', 'API tokens', 'API 令牌', 'API 權杖'),
];

/** Statistics, logs and log push: the same keys under the user's and the client's tier. */
const dataAnalysisGroup = (tier: 'user' | 'client'): PermissionGroup => ({
  key: 'dataAnalysis',
  name: L('Data Analysis', '数据分析', '數據分析'),
  keys: [
    { key: `${tier}.statistics.read`, name: L('View statistics', '查看统计', '檢視統計') },
    {
      key: `${tier}.logs.read`,
      name: L('View access and WAF logs', '查看访问日志和 WAF 日志', '檢視存取日誌和 WAF 日誌'),
    },
    {
      key: `${tier}.logs.write`,
      name: L('Export access and WAF logs', '导出访问日志和 WAF 日志', '匯出存取日誌和 WAF 日誌'),
    },
    ...rw(`${tier}.logPush`, 'log push', '日志推送', '日誌推送'),
  ],
});

/** The keys of each tier, grouped as its console's menu groups them. */
export const PERMISSION_GROUPS: Readonly<Record<Tier, readonly PermissionGroup[]>> = {
  user: [
    {
      key: 'dashboard',
      name: L('Dashboard', '仪表盘', '儀表板'),
      keys: [
        { key: 'user.resources.read', name: L('View resources and announcements', '查看资源和公告', '檢視資源和公告') },
      ],
    },
    {
      key: 'sitesManagement',
      name: L('Sites Management', '网站管理', '網站管理'),
      keys: [
        ...rw('user.sites', 'sites', '网站', '網站'),
        ...rw('user.domains', 'domains', '域名', '網域'),
        ...rw('user.certificates', 'certificates', '证书', '憑證'),
        ...rw('user.siteSettings', 'site settings', '网站设置', '網站設定'),
        ...rw('user.firewall', 'firewall', '防火墙', '防火牆'),
      ],
    },
    dataAnalysisGroup('user'),
    {
      key: 'trafficPkgManagement',
      name: L('Traffic Packages', '流量包', '流量包'),
      keys: [
        {
          key: 'user.traffic.read',
          name: L('View traffic packages and usage', '查看流量包和用量', '檢視流量包和用量'),
        },
      ],
    },
    {
      key: 'systemManagement',
      name: L('System Management', '系统管理', '系統管理'),
      keys: [...rw('user.notify', 'notification settings', '通知设置', '通知設定')],
    },
    { key: 'userManagement', name: userManagementName, keys: accountKeys() },
  ],
  client: [
    {
      key: 'nodeManage',
      name: L('Node Management', '节点管理', '節點管理'),
      keys: [
        ...rw('client.zones', 'zones and groups', '区域和分组', '區域和群組'),
        ...rw('client.nodes', 'nodes', '节点', '節點'),
        ...rw('client.virtualNodes', 'virtual nodes', '虚拟节点', '虛擬節點'),
      ],
    },
    {
      key: 'sitesManagement',
      name: L('Sites Management', '网站管理', '網站管理'),
      keys: [
        ...rw('client.products', 'products', '产品', '產品'),
        ...rw('client.sites', 'sites', '网站', '網站'),
        ...rw('client.domains', 'domains', '域名', '網域'),
      ],
    },
    {
      key: 'monitorManagement',
      name: L('Monitor Management', '监控管理', '監控管理'),
      keys: rw('client.monitor', 'monitors', '监控', '監控'),
    },
    {
      key: 'trafficPkgManagement',
      name: L('Traffic Packages', '流量包', '流量包'),
      keys: rw('client.traffic', 'traffic packages and usage', '流量包和用量', '流量包和用量'),
    },
    {
      key: 'systemManagement',
      name: L('System Management', '系统管理', '系統管理'),
      keys: [
        ...rw('client.settings', 'system settings', '系统设置', '系統設定'),
        ...rw('client.announcements', 'announcements', '公告', '公告'),
        ...rw('client.license', 'licence', '授权', '授權'),
      ],
    },
    dataAnalysisGroup('client'),
    { key: 'userManagement', name: userManagementName, keys: accountKeys() },
  ],
  admin: [
    { key: 'licenses', name: L('Licences', '授权', '授權'), keys: rw('admin.licenses', 'licences', '授权', '授權') },
    { key: 'userManagement', name: userManagementName, keys: accountKeys() },
  ],
};

/** The key a route needs: the one its declaration names (`tiers(list, key)`); `null` for public and node routes. */
export function permissionOf(route: Pick<AnyRoute, 'access'>): string | null {
  return route.access.kind === 'tiers' ? route.access.permission : null;
}

/** Every key of a tier (what its root holds), {@link SELF_PERMISSION} included. */
export function tierPermissions(tier: Tier): string[] {
  return [SELF_PERMISSION, ...PERMISSION_GROUPS[tier].flatMap((group) => group.keys.map((k) => k.key))];
}

/** The keys a role of this tier may hold (every key of the tier but {@link SELF_PERMISSION}). */
export function assignablePermissions(tier: Tier): Set<string> {
  return new Set(PERMISSION_GROUPS[tier].flatMap((group) => group.keys.map((k) => k.key)));
}

/** Groups of keys with their names in one language (the meta roles' shape). */
export function namedPermissionGroups(groups: readonly PermissionGroup[], locale: Locale) {
  return groups.map((group) => ({
    key: group.key,
    name: group.name[locale],
    permissions: group.keys.map((k) => ({ key: k.key, name: k.name[locale] })),
  }));
}

/** The meta roles of a tier in one language: groups of keys with their names. */
export function metaRolesOf(tier: Tier, locale: Locale) {
  return namedPermissionGroups(PERMISSION_GROUPS[tier], locale);
}
