import { describe, expect, it } from 'vitest';
import {
  assignablePermissions,
  metaRolesOf,
  PERMISSION_GROUPS,
  permissionOf,
  SELF_PERMISSION,
  tierPermissions,
} from './permissions.js';
import { type AnyRoute, publicAccess, TIERS } from './route.js';
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
    // The keys the removed route table resolved for these routes, now named on the routes themselves.
    const route = (id: string): AnyRoute => {
      const found = ALL_ROUTES.find((r) => r.id === id);
      if (!found) throw new Error(`no route ${id}`);
      return found;
    };
    expect(permissionOf(route('user.site.cacheRules.list'))).toBe('user.siteSettings.read');
    expect(permissionOf(route('user.site.cacheRules.add'))).toBe('user.siteSettings.write');
    expect(permissionOf(route('user.site.get'))).toBe('user.sites.read');
    expect(permissionOf(route('user.domains.export'))).toBe('user.domains.read');
    expect(permissionOf({ access: publicAccess })).toBeNull();
    expect(permissionOf({ access: { kind: 'tiers', tiers: ['user'], permission: 'x' } })).toBe('x');
  });

  it('every key of the table is declared in a group, and keys are unique per tier', () => {
    const declared = new Set(TIERS.flatMap((tier) => tierPermissions(tier)));
    for (const route of ALL_ROUTES) {
      const key = permissionOf(route);
      if (key !== null) expect(declared).toContain(key);
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
