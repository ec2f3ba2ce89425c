import { describe, expect, it } from 'vitest';
import { edgeWafModuleSchema, WAF_GROUPS } from '../edge/waf.js';
import { wafGroupRuleIds, wafRoutes, wafSettingsSchema } from './site-module-waf.js';
import { bindModuleRoutes, MODULE_BINDING_FIELD } from './site-modules.js';

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.error?.issues.map((i) => i.path.join('.')) ?? [];
const rule = { ruleId: 100_012, group: null, part: 'query', name: 'q', path: '/search' } as const;

describe('WAF module settings', () => {
  it('default to block, every group, medium, open and no exclusions', () => {
    expect(wafSettingsSchema.parse({})).toEqual({
      mode: 'block',
      groups: [...WAF_GROUPS],
      sensitivity: 'medium',
      failMode: 'open',
      exclusions: [],
    });
  });

  it('keep the groups in their order, once each; none is allowed', () => {
    expect(wafSettingsSchema.parse({ groups: ['xss', 'sqli', 'xss'] }).groups).toEqual(['sqli', 'xss']);
    expect(wafSettingsSchema.parse({ groups: [] }).groups).toEqual([]);
    expect(paths(wafSettingsSchema.safeParse({ groups: ['sqli', 'lfi'] }))).toEqual(['groups.1']);
  });

  it('keep an exclusion given twice once and drop the name of one on `path` or `any`', () => {
    const group = { ruleId: null, group: 'traversal', part: 'any', name: 'x', path: '' } as const;
    expect(wafSettingsSchema.parse({ exclusions: [rule, group, rule] }).exclusions).toEqual([
      rule,
      { ...group, name: '' },
    ]);
  });

  it('refuse an exclusion naming both or neither of a rule and a group, or a rule outside every group', () => {
    const bad = (e: Record<string, unknown>) => paths(wafSettingsSchema.safeParse({ exclusions: [{ ...rule, ...e }] }));
    expect(bad({ group: 'sqli' })).toEqual(['exclusions.0.ruleId']);
    expect(bad({ ruleId: null })).toEqual(['exclusions.0.ruleId']);
    expect(bad({ ruleId: 99_999 })).toEqual(['exclusions.0.ruleId']);
    expect(bad({ path: 'search' })).toEqual(['exclusions.0.path']);
    expect(bad({ name: 'a b' })).toEqual(['exclusions.0.name']);
  });

  it('are what the edge reads', () => {
    const settings = wafSettingsSchema.parse({ mode: 'detect', exclusions: [rule] });
    expect(edgeWafModuleSchema.safeParse({ id: 1, type: 'waf', siteId: 2, ...settings }).success).toBe(true);
  });
});

describe('WAF routes', () => {
  it('follow the module calls of the spec', () => {
    expect(wafRoutes.list.path).toBe('/user/site/{siteId}/module/wafs');
    expect(wafRoutes.create.path).toBe('/user/site/{siteId}/module/wafs');
    expect(wafRoutes.update.path).toBe('/user/site/{siteId}/module/waf');
    expect(wafRoutes.delete.path).toBe('/user/site/{siteId}/module/wafs');
    expect(wafRoutes.defaultRules.path).toBe('/user/module/wafs/defaultRules');
    expect(wafRoutes.advExists.path).toBe('/user/site/{siteId}/firewall/setting/adv/exists');
    expect(bindModuleRoutes.waf.path).toBe('/user/site/{siteId}/domains/module/waf');
    expect(MODULE_BINDING_FIELD.waf).toBe('moduleID');
  });

  it('name the id range of each group', () => {
    expect(wafGroupRuleIds('sqli')).toEqual({ ruleIdMin: 100_000, ruleIdMax: 100_999 });
    expect(wafGroupRuleIds('protocol')).toEqual({ ruleIdMin: 113_000, ruleIdMax: 113_999 });
  });
});
