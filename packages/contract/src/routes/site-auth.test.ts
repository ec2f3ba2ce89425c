import { describe, expect, it } from 'vitest';
import { edgeDomainAuthSchema } from '../edge/auth.js';
import {
  authRuleInputSchema,
  basicAuthInputSchema,
  jwtAuthCreateSchema,
  jwtAuthInputSchema,
  keyAuthInputSchema,
} from './site-auth.js';

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('auth group contract', () => {
  it('takes exact, prefix and safe regex paths and refuses the rest', () => {
    const rule = { name: 'r', groupID: 1 };
    expect(authRuleInputSchema.safeParse({ ...rule, match: 'prefix', path: '/admin' }).success).toBe(true);
    expect(authRuleInputSchema.safeParse({ ...rule, match: 'regex', path: '^/api/v[0-9]+/' }).success).toBe(true);
    expect(issues(authRuleInputSchema.safeParse({ ...rule, match: 'exact', path: 'admin' }))).toEqual([
      'path:wrongFormat',
    ]);
    expect(issues(authRuleInputSchema.safeParse({ ...rule, match: 'regex', path: '(a+)+\\1' }))).toEqual([
      'path:wrongFormat',
    ]);
    expect(issues(authRuleInputSchema.safeParse({ ...rule, match: 'prefix', path: '' }))).toEqual(['path:required']);
    expect(issues(authRuleInputSchema.safeParse({ ...rule, match: 'prefix', path: '/a', domainIDs: [2, 2] }))).toEqual([
      'domainIDs:duplicate',
    ]);
  });

  it('checks basic user names and passwords', () => {
    expect(basicAuthInputSchema.safeParse({ username: 'alice', password: 'correct horse' }).success).toBe(true);
    expect(basicAuthInputSchema.safeParse({ username: 'a:b', password: 'correct horse' }).success).toBe(false);
    expect(basicAuthInputSchema.safeParse({ username: 'alice', password: 'short' }).success).toBe(false);
    expect(basicAuthInputSchema.safeParse({ username: 'alice', password: 'new\nline!!' }).success).toBe(false);
  });

  it('refuses key auth headers the edge owns and odd keys', () => {
    const key = { name: 'k', key: 'abcdefghijklmnop' };
    expect(keyAuthInputSchema.safeParse({ ...key, location: 'header', param: 'X-Api-Key' }).success).toBe(true);
    expect(keyAuthInputSchema.safeParse({ ...key, location: 'query', param: 'api_key' }).success).toBe(true);
    expect(issues(keyAuthInputSchema.safeParse({ ...key, location: 'header', param: 'Authorization' }))).toEqual([
      'param:wrongFormat',
    ]);
    expect(keyAuthInputSchema.safeParse({ ...key, key: 'short', location: 'query', param: 'k' }).success).toBe(false);
  });

  it('asks an HS256 credential for a secret and an RS/ES one for a public key', () => {
    const secret = 'x'.repeat(32);
    expect(jwtAuthCreateSchema.safeParse({ name: 'j', alg: 'HS256', secret }).success).toBe(true);
    expect(issues(jwtAuthCreateSchema.safeParse({ name: 'j', alg: 'HS256' }))).toEqual(['secret:required']);
    expect(jwtAuthInputSchema.safeParse({ name: 'j', alg: 'HS256' }).success).toBe(true);
    expect(issues(jwtAuthCreateSchema.safeParse({ name: 'j', alg: 'HS256', secret: 'short' }))).toEqual([
      'secret:wrongFormat',
    ]);
    expect(issues(jwtAuthCreateSchema.safeParse({ name: 'j', alg: 'RS256', secret }))).toEqual([
      'secret:wrongFormat',
      'publicKey:required',
    ]);
    const pem = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n';
    expect(jwtAuthCreateSchema.safeParse({ name: 'j', alg: 'ES256', publicKey: pem }).success).toBe(true);
  });

  it('edge: every rule names a group of the entry', () => {
    const group = { id: 1, basic: [], key: [], jwt: [] };
    const rule = { id: 1, match: 'prefix', path: '/a', group: 1 };
    expect(edgeDomainAuthSchema.safeParse({ rules: [rule], groups: [group] }).success).toBe(true);
    expect(issues(edgeDomainAuthSchema.safeParse({ rules: [{ ...rule, group: 2 }], groups: [group] }))).toEqual([
      'rules.0.group:no such group',
    ]);
  });
});
