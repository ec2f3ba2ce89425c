import { describe, expect, it } from 'vitest';
import { regexCanRunAway } from '../validators/regex.js';
import { blacklistRuleInputSchema, firewallUrlProblem, whitelistRuleInputSchema } from './firewall-lists.js';

const issueKeys = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('firewall URL patterns', () => {
  it.each([
    '.*',
    '/*',
    'www.example.com',
    'https?:\\/\\/www.example.com(.*)',
    'https://www.example.com:1234',
    '(www|api)\\.example\\.com/login',
    '^https://shop\\.example\\.com/cart\\?id=[0-9]+$',
  ])('accepts %s', (url) => {
    expect(firewallUrlProblem(url)).toBeNull();
  });

  it.each([
    ['', 'required'],
    ['a'.repeat(257), 'tooLong'],
    ['https://example.com/a b', 'wrongFormat'],
    ['"quoted"', 'wrongFormat'],
    ['(unclosed', 'wrongFormat'],
    ['a{2,1}', 'wrongFormat'],
    ['(?=lookahead)', 'wrongFormat'],
    ['(a+)+$', 'runaway'],
    ['(a|a)*', 'runaway'],
    ['(.*x){2,}', 'runaway'],
    ['((ab)?c)+', 'runaway'],
  ])('refuses %s as %s', (url, problem) => {
    expect(firewallUrlProblem(url)).toBe(problem);
  });

  it('lets a repeated group without inner repeats or alternatives through', () => {
    expect(regexCanRunAway('(ab)+c')).toBe(false);
    expect(regexCanRunAway('(a|b)?c')).toBe(false);
    expect(regexCanRunAway('[(|+]*x')).toBe(false);
  });
});

describe('whitelist and blacklist rules', () => {
  const good = { ips: ['1.2.3.4', '10.0.0.0/8'], url: '.*', methods: { get: true } };

  it('fills left-out methods with false and the memo with ""', () => {
    expect(whitelistRuleInputSchema.parse(good)).toEqual({
      ...good,
      memo: '',
      methods: { get: true, post: false, put: false, delete: false, head: false, patch: false, options: false },
    });
  });

  it('names each bad field with its message key', () => {
    expect(issueKeys(whitelistRuleInputSchema.safeParse({ ...good, methods: {} }))).toEqual(['methods:required']);
    expect(issueKeys(whitelistRuleInputSchema.safeParse({ ...good, ips: ['1.2.3.4', '1.2.3.4'] }))).toEqual([
      'ips.1:duplicateIP',
    ]);
    expect(issueKeys(whitelistRuleInputSchema.safeParse({ ...good, ips: [] }))).toEqual(['ips:required']);
    expect(issueKeys(whitelistRuleInputSchema.safeParse({ ...good, url: '(a+)+' }))).toEqual(['url:runaway']);
    for (const blockType of [6, 7, 13]) {
      expect(issueKeys(blacklistRuleInputSchema.safeParse({ ...good, blockType }))).toEqual(['blockType:wrongFormat']);
    }
    for (const blockType of [1, 2, 3, 4, 5])
      expect(blacklistRuleInputSchema.safeParse({ ...good, blockType }).success).toBe(true);
    for (const blockType of [10, 11, 12])
      expect(blacklistRuleInputSchema.safeParse({ ...good, blockType }).success).toBe(true);
  });

  it('refuses 5001 entries with max5000IPs', () => {
    const ips = Array.from({ length: 5001 }, (_, i) => `10.${i >> 8}.${i & 255}.1`);
    expect(issueKeys(whitelistRuleInputSchema.safeParse({ ...good, ips }))).toEqual(['ips:max5000IPs']);
  });
});
