import { describe, expect, it } from 'vitest';
import { edgeTokenAuthModuleSchema } from '../edge/modules.js';
import { tokenAuthInputSchema, tokenAuthRoutes, tokenAuthValueOk } from './site-module-token-auth.js';

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('token auth input', () => {
  it('takes an auth with defaults: every request, 600 seconds, deny', () => {
    expect(tokenAuthInputSchema.parse({ key: 'abc123' })).toEqual({
      scope: 'all',
      value: '',
      key: 'abc123',
      expire: 600,
      action: 'deny',
    });
  });

  it('checks the value against the scope', () => {
    const ok = (scope: string, value: string) =>
      tokenAuthInputSchema.safeParse({ key: 'abc123', scope, value }).success;
    expect(ok('path', '/live/test.flv')).toBe(true);
    expect(ok('path', 'live/test.flv')).toBe(false);
    expect(ok('directory', '/live')).toBe(true);
    expect(ok('directory', '/li ve')).toBe(false);
    expect(ok('all', '/x')).toBe(false);
    expect(ok('fileTypes', 'flv png apk')).toBe(true);
    expect(ok('fileTypes', 'flv .png')).toBe(false);
    expect(ok('regex', '\\/abc[1-2]')).toBe(true);
    // Outside the safe subset: a look-ahead, a backreference, an unbalanced group.
    expect(ok('regex', '(?=a)b')).toBe(false);
    expect(ok('regex', '(a)\\1')).toBe(false);
    expect(ok('regex', '(abc')).toBe(false);
    expect(paths(tokenAuthInputSchema.safeParse({ key: 'abc123', scope: 'path' }))).toEqual(['value']);
  });

  it('keeps extensions in lower case, one space between, without duplicates', () => {
    expect(tokenAuthInputSchema.parse({ key: 'abc123', scope: 'fileTypes', value: ' FLV  png flv ' }).value).toBe(
      'flv png',
    );
  });

  it('takes keys of 6 to 128 printable characters without spaces', () => {
    const key = (k: string) => tokenAuthInputSchema.safeParse({ key: k });
    expect(key('IamKey').success).toBe(true);
    expect(key('a'.repeat(128)).success).toBe(true);
    expect(paths(key('short'))).toEqual(['key']);
    expect(paths(key('a'.repeat(129)))).toEqual(['key']);
    expect(paths(key('has space'))).toEqual(['key']);
    expect(paths(key('new\nline'))).toEqual(['key']);
  });

  it('bounds expire (0 = no expiry check) and the actions', () => {
    expect(tokenAuthInputSchema.safeParse({ key: 'abc123', expire: 0 }).success).toBe(true);
    expect(paths(tokenAuthInputSchema.safeParse({ key: 'abc123', expire: -1 }))).toEqual(['expire']);
    expect(paths(tokenAuthInputSchema.safeParse({ key: 'abc123', expire: 31_536_001 }))).toEqual(['expire']);
    expect(paths(tokenAuthInputSchema.safeParse({ key: 'abc123', action: 'redirect' }))).toEqual(['action']);
    expect(tokenAuthInputSchema.safeParse({ key: 'abc123', action: 'drop' }).success).toBe(true);
  });

  it('has the spec paths', () => {
    expect(tokenAuthRoutes.list.path).toBe('/user/site/{siteId}/module/tokenAuths');
    expect(tokenAuthRoutes.update.path).toBe('/user/site/{siteId}/module/tokenAuth');
    expect(tokenAuthRoutes.listRules.path).toBe('/user/site/{siteId}/module/tokenAuth/{moduleId}/auths');
    expect(tokenAuthRoutes.addRules.path).toBe('/user/site/{siteId}/module/tokenAuth/{moduleId}/auths');
    expect(tokenAuthRoutes.deleteRules.path).toBe('/user/site/{siteId}/module/tokenAuth/{moduleId}/auths');
    expect(tokenAuthRoutes.updateRule.path).toBe('/user/site/{siteId}/module/tokenAuth/{moduleId}/auth');
  });
});

describe('token auth at the edge', () => {
  const auth = { id: 1, scope: 'path', value: '/a.flv', key: 'abc123', expire: 600, action: 'deny' };
  it('takes a module and checks every value again', () => {
    expect(edgeTokenAuthModuleSchema.safeParse({ id: 1, type: 'tokenAuth', auths: [auth] }).success).toBe(true);
    const bad = (patch: Record<string, unknown>) =>
      paths(edgeTokenAuthModuleSchema.safeParse({ id: 1, type: 'tokenAuth', auths: [{ ...auth, ...patch }] }));
    expect(bad({ value: 'a.flv' })).toEqual(['auths.0.value']);
    expect(bad({ scope: 'regex', value: '(?=x)' })).toEqual(['auths.0.value']);
    expect(bad({ key: 'a b c d e f' })).toEqual(['auths.0.key']);
    expect(bad({ action: 'allow' })).toEqual(['auths.0.action']);
  });
  it('reads a value by scope', () => {
    expect(tokenAuthValueOk('all', '')).toBe(true);
    expect(tokenAuthValueOk('fileTypes', 'FLV')).toBe(true);
  });
});
