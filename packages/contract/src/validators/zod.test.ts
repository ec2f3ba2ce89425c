import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  zAccount,
  zBatchName,
  zBlacklistIPs,
  zDomainName,
  zEmail,
  zIPList,
  zIPListText,
  zName,
  zPassword,
  zPort,
  zText,
  zWhitelistUrls,
} from './zod.js';

/** The single issue of a failed parse, reduced to what the server reads. */
function issueOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  const issues = result.error?.issues ?? [];
  expect(issues).toHaveLength(1);
  const issue = issues[0] as z.core.$ZodIssue;
  return {
    code: issue.code,
    message: issue.message,
    path: issue.path,
    params: issue.code === 'custom' ? issue.params : undefined,
  };
}

describe('zDomainName', () => {
  it.each<[Parameters<typeof zDomainName>[0], string, string]>([
    [undefined, 'münchen.de', 'xn--mnchen-3ya.de'],
    [undefined, ' Example.COM ', 'example.com'],
    [{ wildcard: true }, '*.例子.测试', '*.xn--fsqu00a.xn--0zwm56d'],
    [undefined, '_dmarc.example.com', '_dmarc.example.com'],
  ])('%o %j → %j', (opts, input, output) => {
    expect(zDomainName(opts).parse(input)).toBe(output);
  });

  it.each<[Parameters<typeof zDomainName>[0], string, string]>([
    [undefined, 'exa_mple.com', 'invalid_sld_underscore'],
    [undefined, `${'a'.repeat(64)}.com`, 'invalid_sld_length'],
    [undefined, 'example.c', 'invalid_tld'],
    [undefined, '*.example.com', 'invalid_format'],
    [{ underscore: false }, '_dmarc.example.com', 'invalid_format'],
    [undefined, 'xn--zz.com', 'punycode_error'],
  ])('%o %j → %s', (opts, input, key) => {
    expect(issueOf(zDomainName(opts), input)).toEqual({ code: 'custom', message: key, path: [], params: { key } });
  });

  it.each([
    [42, 'invalid_type'],
    [undefined, 'invalid_type'],
  ])('%j → %s', (input, key) => {
    expect(issueOf(zDomainName(), input)).toEqual({ code: 'invalid_type', message: key, path: [], params: undefined });
  });
});

describe('IP list schemas', () => {
  it('zIPList passes a valid list through', () => {
    expect(zIPList.parse(['1.2.3.4', '2001:db8::/32'])).toEqual(['1.2.3.4', '2001:db8::/32']);
  });

  it.each<[unknown, object]>([
    [[], { code: 'custom', message: 'required', path: [], params: { key: 'required' } }],
    [
      ['::1', '0:0::1'],
      { code: 'custom', message: 'duplicateIP', path: [1], params: { key: 'duplicateIP', line: 2, value: '0:0::1' } },
    ],
    [
      ['2001:db8::/129'],
      {
        code: 'custom',
        message: 'wrongFormat',
        path: [0],
        params: { key: 'wrongFormat', line: 1, value: '2001:db8::/129' },
      },
    ],
    [
      Array.from({ length: 5001 }, (_, i) => `10.0.${i >> 8}.${i & 255}`),
      { code: 'custom', message: 'max5000IPs', path: [], params: { key: 'max5000IPs', max: 5000 } },
    ],
    [['1.2.3.4', 5], { code: 'invalid_type', message: 'invalid_type', path: [1], params: undefined }],
    [
      '1.2.3.4',
      { code: 'invalid_type', message: 'Invalid input: expected array, received string', path: [], params: undefined },
    ],
  ])('zIPList %#', (input, issue) => {
    expect(issueOf(zIPList, input)).toEqual(issue);
  });

  it('zIPList reports every bad entry, each at its index', () => {
    const result = zIPList.safeParse(['1.2.3.4', 'x', '1.2.3.4', '10.0.0.0/33']);
    expect(result.success ? [] : result.error.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [[1], 'wrongFormat'],
      [[2], 'duplicateIP'],
      [[3], 'wrongFormat'],
    ]);
  });

  it.each<[z.ZodType, string, object]>([
    [zIPListText, '', { code: 'custom', message: 'required', path: [], params: { key: 'required' } }],
    [
      zIPListText,
      '1.2.3.4\n\n1.2.3.4',
      { code: 'custom', message: 'duplicateIP', path: [], params: { key: 'duplicateIP', line: 3, value: '1.2.3.4' } },
    ],
    [
      zBlacklistIPs,
      '1.2.3.9-1.2.3.4',
      {
        code: 'custom',
        message: 'wrongFormat',
        path: [],
        params: { key: 'wrongFormat', line: 1, value: '1.2.3.9-1.2.3.4' },
      },
    ],
    [
      zWhitelistUrls,
      'https://a.com\nnot a url',
      { code: 'custom', message: 'wrongFormat', path: [], params: { key: 'wrongFormat', line: 2, value: 'not a url' } },
    ],
  ])('%#: text %j', (schema, input, issue) => {
    expect(issueOf(schema, input)).toEqual(issue);
  });

  it.each<[z.ZodType, string]>([
    [zIPListText, '1.2.3.4\n::1'],
    [zBlacklistIPs, ''],
    [zWhitelistUrls, ''],
    [zWhitelistUrls, 'https://example.com/a?b=c'],
  ])('%#: keeps valid text %j unchanged', (schema, input) => {
    expect(schema.parse(input)).toBe(input);
  });
});

describe('field schemas', () => {
  it.each<[string, z.ZodType, unknown, string, Record<string, unknown>]>([
    ['zEmail', zEmail, '', 'required', {}],
    ['zEmail', zEmail, 'nope', 'emailError', {}],
    ['zAccount', zAccount, 'a b', 'wrongFormat', {}],
    ['zAccount', zAccount, 'a'.repeat(257), 'tooLong', { max: 256 }],
    ['zPassword', zPassword, '', 'required', {}],
    ['zName', zName, ' ', 'required', {}],
    ['zBatchName', zBatchName, 'a\nb c', 'wrongFormat', { line: 2, value: 'b c' }],
    ['zPort', zPort, '0', 'invalidPort', {}],
    ['zPort', zPort, 70000, 'invalidPort', {}],
    ['zPort', zPort, '80a', 'wrongFormat', {}],
    ['zPort', zPort, '', 'required', {}],
    ['zText(10)', zText(10), 'x'.repeat(11), 'tooLong', { max: 10 }],
  ])('%s %j → %s', (_, schema, input, key, params) => {
    expect(issueOf(schema, input)).toEqual({ code: 'custom', message: key, path: [], params: { key, ...params } });
  });

  it.each<[string, z.ZodType, unknown, unknown]>([
    ['zEmail', zEmail, 'a@example.com', 'a@example.com'],
    ['zAccount', zAccount, 'alice-01', 'alice-01'],
    ['zPassword', zPassword, 'pw', 'pw'],
    ['zName', zName, 'Alice Bob', 'Alice Bob'],
    ['zBatchName', zBatchName, 'a\nb', 'a\nb'],
    ['zPort', zPort, '8080', 8080],
    ['zPort', zPort, 443, 443],
    ['zText(10)', zText(10), 'x'.repeat(10), 'x'.repeat(10)],
    ['zText(10)', zText(10), '', ''],
  ])('%s %j → %j', (_, schema, input, output) => {
    expect(schema.parse(input)).toEqual(output);
  });

  it.each<[string, z.ZodType, unknown, string]>([
    ['zEmail', zEmail, undefined, 'required'],
    ['zEmail', zEmail, 5, 'invalid_type'],
    ['zPort', zPort, undefined, 'required'],
    ['zPort', zPort, true, 'invalid_type'],
  ])('%s %j → %s (type failure)', (_, schema, input, key) => {
    const issue = issueOf(schema, input);
    expect(issue.message).toBe(key);
    expect(issue.params).toBeUndefined();
  });

  it('reports the field path inside an object', () => {
    const body = z.object({ email: zEmail, domains: z.array(zDomainName()) });
    const result = body.safeParse({ email: 'x', domains: ['example.com', 'exa_mple.com'] });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['email', 'emailError'],
      ['domains.1', 'invalid_sld_underscore'],
    ]);
  });
});
