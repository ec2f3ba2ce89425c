import { describe, expect, it } from 'vitest';
import { edgeLuaAclModuleSchema } from '../edge/modules.js';
import { aclConditionSchema, isSafeAclRegex, luaAclRuleInputSchema } from './site-module-acl.js';

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('Lua ACL rule input', () => {
  it('takes a rule with defaults: priority 0, enabled, no redirect URL, condition fields filled', () => {
    const parsed = luaAclRuleInputSchema.parse({
      name: 'bots',
      action: 'deny',
      conditions: [{ field: 'userAgent', operator: 'contains', value: 'bot' }],
    });
    expect(parsed).toEqual({
      name: 'bots',
      priority: 0,
      enabled: true,
      action: 'deny',
      redirectUrl: '',
      conditions: [
        {
          field: 'userAgent',
          operator: 'contains',
          negate: false,
          name: '',
          value: 'bot',
          values: [],
          count: 0,
          seconds: 60,
        },
      ],
    });
  });

  it('needs a redirect URL for redirect, and none for the other actions', () => {
    const base = { name: 'r', conditions: [{ field: 'method', operator: 'in', values: ['GET'] }] };
    expect(paths(luaAclRuleInputSchema.safeParse({ ...base, action: 'redirect' }))).toEqual(['redirectUrl']);
    expect(
      paths(luaAclRuleInputSchema.safeParse({ ...base, action: 'redirect', redirectUrl: 'javascript:x' })),
    ).toEqual(['redirectUrl']);
    expect(luaAclRuleInputSchema.safeParse({ ...base, action: 'redirect', redirectUrl: '/moved' }).success).toBe(true);
    expect(paths(luaAclRuleInputSchema.safeParse({ ...base, action: 'drop', redirectUrl: '/moved' }))).toEqual([
      'redirectUrl',
    ]);
  });

  it('allows one frequency condition per rule', () => {
    const f = { field: 'frequency', operator: 'gt', count: 30, seconds: 60 };
    expect(paths(luaAclRuleInputSchema.safeParse({ name: 'r', action: 'deny', conditions: [f, f] }))).toEqual([
      'conditions.1.field',
    ]);
  });
});

describe('Lua ACL conditions', () => {
  it.each([
    [{ field: 'ip', operator: 'in', values: ['10.0.0.0/8', '::1'] }, []],
    [{ field: 'ip', operator: 'in', values: [] }, ['values']],
    [{ field: 'ip', operator: 'in', values: ['10.0.0.0/33'] }, ['values.0']],
    [{ field: 'country', operator: 'in', values: ['CN', 'us'] }, ['values.1']],
    [{ field: 'method', operator: 'in', values: ['GET', 'CONNECT'] }, ['values.1']],
    [{ field: 'uriPath', operator: 'in', values: ['/'] }, ['operator']],
    [{ field: 'uriPath', operator: 'prefix', value: '' }, ['value']],
    [{ field: 'uriPath', operator: 'exact', value: '' }, []],
    [{ field: 'header', operator: 'exact', name: '', value: 'x' }, ['name']],
    [{ field: 'referer', operator: 'regex', value: '^https?://(a|b)\\.example' }, []],
    [{ field: 'referer', operator: 'regex', value: '(?i)x' }, ['value']],
    [{ field: 'referer', operator: 'regex', value: '\\1' }, ['value']],
    [{ field: 'userAgent', operator: 'exact', value: 'a\u0000' }, ['value']],
    [{ field: 'frequency', operator: 'gte', count: 5, seconds: 10 }, []],
    [{ field: 'frequency', operator: 'gte', count: 5, seconds: 10, negate: true }, ['negate']],
    [{ field: 'frequency', operator: 'exact', count: 5, seconds: 10 }, ['operator']],
  ])('%j → refused at %j', (condition, refused) => {
    expect(paths(aclConditionSchema.safeParse(condition))).toEqual(refused);
  });

  it('regexes: printable ASCII in the safe PCRE subset', () => {
    expect(isSafeAclRegex('Mozilla/5\\.0 \\(compatible; [A-Za-z]+bot')).toBe(true);
    expect(isSafeAclRegex('a{1,100000}')).toBe(false);
    expect(isSafeAclRegex('(?=a)')).toBe(false);
    expect(isSafeAclRegex('')).toBe(false);
  });
});

describe('Lua ACL modules in the data plane', () => {
  const module = (rule: Record<string, unknown>) => ({ id: 1, type: 'luaAcl', siteId: 2, rules: [rule] });
  it('takes rules as the control plane sends them and refuses a redirect without a target', () => {
    const conditions = [{ field: 'ip', negate: false, v4: [['0a000000', '0affffff']], v6: [] }];
    expect(edgeLuaAclModuleSchema.safeParse(module({ id: 3, action: 'deny', target: null, conditions })).success).toBe(
      true,
    );
    expect(
      paths(edgeLuaAclModuleSchema.safeParse(module({ id: 3, action: 'redirect', target: null, conditions }))),
    ).toEqual(['rules.0.target']);
    expect(
      paths(
        edgeLuaAclModuleSchema.safeParse(
          module({
            id: 3,
            action: 'deny',
            target: null,
            conditions: [{ field: 'ip', negate: false, v4: [['0b000000', '0a000000']], v6: [] }],
          }),
        ),
      ),
    ).toEqual(['rules.0.conditions.0.v4']);
  });
});
