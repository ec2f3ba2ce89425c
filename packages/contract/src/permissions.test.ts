import { describe, expect, it } from 'vitest';
import {
  assignablePermissions,
  metaRolesOf,
  PERMISSION_GROUPS,
  permissionOf,
  ROUTE_PERMISSIONS,
  SELF_PERMISSION,
  tierPermissions,
} from './permissions.js';
import { TIERS } from './route.js';
import { ALL_ROUTES } from './routes/index.js';

describe('permission keys', () => {
  it('every signed-in route has a key, and the key belongs to each tier that may call it', () => {
    const missing: string[] = [];
    const foreign: string[] = [];
    for (const route of ALL_ROUTES) {
      if (route.access.kind !== 'tiers') continue;
      const key = permissionOf(route);
      if (key === null) {
        missing.push(route.id);
        continue;
      }
      for (const tier of route.access.tiers) {
        if (!tierPermissions(tier).includes(key)) foreign.push(`${route.id} → ${key} (${tier})`);
      }
    }
    expect(missing).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it('public and node routes carry no key', () => {
    for (const route of ALL_ROUTES.filter((r) => r.access.kind !== 'tiers')) expect(permissionOf(route)).toBeNull();
  });

  it('splits read and write by method, exact ids beating prefixes', () => {
    const tiersAccess = { kind: 'tiers', tiers: ['user'] } as const;
    expect(permissionOf({ id: 'user.site.cacheRules.list', method: 'GET', access: tiersAccess })).toBe(
      'user.siteSettings.read',
    );
    expect(permissionOf({ id: 'user.site.cacheRules.add', method: 'POST', access: tiersAccess })).toBe(
      'user.siteSettings.write',
    );
    expect(permissionOf({ id: 'user.site.get', method: 'GET', access: tiersAccess })).toBe('user.sites.read');
    expect(permissionOf({ id: 'user.domains.export', method: 'POST', access: tiersAccess })).toBe('user.domains.read');
    expect(permissionOf({ id: 'user.nothing', method: 'GET', access: tiersAccess })).toBeNull();
    expect(
      permissionOf({ id: 'user.nothing', method: 'GET', access: { kind: 'tiers', tiers: ['user'], permission: 'x' } }),
    ).toBe('x');
  });

  it('every key of the table is declared in a group, and keys are unique per tier', () => {
    const declared = new Set(TIERS.flatMap((tier) => tierPermissions(tier)));
    for (const rule of Object.values(ROUTE_PERMISSIONS)) {
      for (const key of typeof rule === 'string' ? [rule] : [rule.read, rule.write]) expect(declared).toContain(key);
    }
    for (const tier of TIERS) {
      const keys = tierPermissions(tier);
      expect(new Set(keys).size).toBe(keys.length);
      expect(assignablePermissions(tier).has(SELF_PERMISSION)).toBe(false);
    }
  });

  it('names every group and key in the three languages', () => {
    for (const tier of TIERS) {
      for (const group of PERMISSION_GROUPS[tier]) {
        for (const text of [group.name, ...group.keys.map((k) => k.name)]) {
          expect(text.en_US && text.zh_CN && text.zh_TW).toBeTruthy();
        }
      }
    }
    expect(metaRolesOf('user', 'zh_CN')[1]).toMatchObject({ key: 'sitesManagement', name: '网站管理' });
  });
});
