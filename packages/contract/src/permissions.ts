import type { Locale, Localized } from './locale.js';
import type { AnyRoute, Tier } from './route.js';

/**
 * Permission keys. Every signed-in route carries one key; the server's binder checks
 * the caller's keys against it (101018), so no handler checks permissions by hand.
 *
 * The keys are declared here, not in the route files: {@link PERMISSION_GROUPS} lists them as
 * the console's menus group them (the meta roles), and {@link ROUTE_PERMISSIONS} maps route ids
 * (exact, or a prefix ending in `.*`) to a key — or to a read/write pair, chosen by the method
 * (GET reads, anything else writes). A route may also name its key in `tiers(list, key)`.
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
      ],
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
      key: 'systemManagement',
      name: L('System Management', '系统管理', '系統管理'),
      keys: [
        ...rw('client.settings', 'system settings', '系统设置', '系統設定'),
        ...rw('client.announcements', 'announcements', '公告', '公告'),
      ],
    },
    { key: 'userManagement', name: userManagementName, keys: accountKeys() },
  ],
  admin: [{ key: 'userManagement', name: userManagementName, keys: accountKeys() }],
};

/** A key, or a read/write pair chosen by the route's method. */
export type PermissionRule = string | { readonly read: string; readonly write: string };

const pair = (key: string): PermissionRule => ({ read: `${key}.read`, write: `${key}.write` });

/**
 * Route id (exact, or prefix `area.*`) → key. The longest matching pattern wins, an exact id
 * beats every prefix. POST calls that only read (meta lists, exports) are named one by one.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, PermissionRule>> = {
  // The caller's own account, for every tier.
  'auth.*': SELF_PERMISSION,
  'auth.setAccountPassword': 'accounts.write',
  // Account management, roles and API tokens ({auth} routes of every tier).
  'accounts.*': pair('accounts'),
  'client.accounts.*': pair('accounts'),
  'auth.accounts.*': pair('accounts'),
  'auth.account.*': pair('accounts'),
  // The operation log shows what the accounts below did; switch user acts as one of them.
  'auth.auditLogs.list': 'accounts.read',
  'auth.switchUser': 'accounts.write',
  'roles.*': pair('roles'),
  'roles.meta': 'roles.read',
  'roles.assign': 'accounts.write',
  'apiTokens.*': pair('apiTokens'),

  // User console.
  'user.resourceInfo': 'user.resources.read',
  'user.announcements.*': 'user.resources.read',
  'user.products.*': 'user.resources.read',
  'user.geoips': 'user.resources.read',
  'user.sites.*': pair('user.sites'),
  'user.site.get': 'user.sites.read',
  'user.site.tags.*': pair('user.sites'),
  'user.site.users*': pair('user.sites'),
  'user.domains.*': pair('user.domains'),
  'user.domain.*': pair('user.domains'),
  'user.domains.acrossMeta': 'user.domains.read',
  'user.domains.acrossTags': 'user.domains.read',
  'user.domains.export': 'user.domains.read',
  'user.domains.module.*': 'user.siteSettings.write',
  'user.certificates.*': pair('user.certificates'),
  'user.certificate.*': pair('user.certificates'),
  'user.site.*': pair('user.siteSettings'),

  // Client (operator) console.
  'client.zones.*': pair('client.zones'),
  'client.zone.*': pair('client.zones'),
  'client.groups.*': pair('client.zones'),
  'client.group.*': pair('client.zones'),
  'client.dns.*': pair('client.zones'),
  'client.zone.nodes.*': pair('client.nodes'),
  'client.zone.node.*': pair('client.nodes'),
  'client.zone.metaNodes': 'client.nodes.read',
  'client.nodes.*': pair('client.nodes'),
  'client.node.*': pair('client.nodes'),
  'client.nodeInfo': 'client.nodes.read',
  'client.virtualNodes.*': pair('client.virtualNodes'),
  'client.virtualNode.*': pair('client.virtualNodes'),
  'client.group.line.virtualNodes.*': pair('client.virtualNodes'),
  'client.zone.setting.*': pair('client.settings'),
  'client.zone.settings': 'client.settings.read',
  'client.zone.ports*': pair('client.settings'),
  'client.zone.port.*': pair('client.settings'),
  'client.zone.nginx*': pair('client.settings'),
  'client.zone.preheatCaches.*': pair('client.nodes'),
  'client.setting.*': pair('client.settings'),
  'client.products.*': pair('client.products'),
  'client.product.*': pair('client.products'),
  'client.sites.*': pair('client.sites'),
  'client.site.*': pair('client.sites'),
  'client.domains.*': pair('client.domains'),
  'client.domains.meta': 'client.domains.read',
  'client.monitor.*': pair('client.monitor'),
  'client.announcements.*': pair('client.announcements'),
  'client.announcement.*': pair('client.announcements'),
};

function patternMatches(pattern: string, id: string): boolean {
  if (pattern.endsWith('.*')) return id.startsWith(pattern.slice(0, -1));
  // `area.name*`: the id itself and everything below it (`client.zone.nginx`, `client.zone.nginx.http.put`).
  if (pattern.endsWith('*')) return id.startsWith(pattern.slice(0, -1));
  return pattern === id;
}

/** The key of a route: its own, or the table's best match. `null` for public and node routes, or a route nobody mapped. */
export function permissionOf(route: Pick<AnyRoute, 'id' | 'method' | 'access'>): string | null {
  if (route.access.kind !== 'tiers') return null;
  if (route.access.permission) return route.access.permission;
  let best: { pattern: string; rule: PermissionRule } | null = null;
  for (const [pattern, rule] of Object.entries(ROUTE_PERMISSIONS)) {
    if (!patternMatches(pattern, route.id)) continue;
    const exact = !pattern.endsWith('*');
    const bestExact = best !== null && !best.pattern.endsWith('*');
    if (best === null || (exact && !bestExact) || (exact === bestExact && pattern.length > best.pattern.length)) {
      best = { pattern, rule };
    }
  }
  if (!best) return null;
  if (typeof best.rule === 'string') return best.rule;
  return route.method === 'GET' ? best.rule.read : best.rule.write;
}

/** Every key of a tier (what its root holds), {@link SELF_PERMISSION} included. */
export function tierPermissions(tier: Tier): string[] {
  return [SELF_PERMISSION, ...PERMISSION_GROUPS[tier].flatMap((group) => group.keys.map((k) => k.key))];
}

/** The keys a role of this tier may hold (every key of the tier but {@link SELF_PERMISSION}). */
export function assignablePermissions(tier: Tier): Set<string> {
  return new Set(PERMISSION_GROUPS[tier].flatMap((group) => group.keys.map((k) => k.key)));
}

/** The meta roles of a tier in one language: groups of keys with their names. */
export function metaRolesOf(tier: Tier, locale: Locale) {
  return PERMISSION_GROUPS[tier].map((group) => ({
    key: group.key,
    name: group.name[locale],
    permissions: group.keys.map((k) => ({ key: k.key, name: k.name[locale] })),
  }));
}
