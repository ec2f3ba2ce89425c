import { ALL_ROUTES, LOCALES } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { resources } from '../../i18n/resources';

/**
 * The calls the operation log can list: the server records every console call of a signed-in
 * account that is not a GET (`isAudited` in apps/server/src/modules/audit/audit.service.ts). It
 * also leaves out a few read-only POSTs (READ_ONLY_ROUTES there); those are named here anyway, so
 * that list can change without a record ever showing a bare route id.
 */
const RECORDED = ALL_ROUTES.filter(
  (route) => route.access.kind === 'tiers' && route.method !== 'GET' && route.api !== 'edge',
).map((route) => route.id);

describe('names of the operation log actions', () => {
  it('finds the recorded routes', () => {
    expect(RECORDED).toContain('user.site.purgeCache.create');
    expect(RECORDED).not.toContain('auth.auditLogs.list');
  });

  it.each(LOCALES)('%s names every recorded route', (locale) => {
    const names: Readonly<Record<string, string>> = resources[locale].auditActions;
    expect(RECORDED.filter((id) => !names[id]?.trim())).toEqual([]);
  });

  it('names only routes that the log can list', () => {
    expect(Object.keys(resources.en_US.auditActions).filter((id) => !RECORDED.includes(id))).toEqual([]);
  });
});
