import { describe, expect, it } from 'vitest';
import { edgeDomainAccessSchema } from '../edge/data-plane.js';
import { antiRefererInputSchema } from './domain-access.js';
import { headerRuleInputSchema, headerRuleUpdateSchema } from './firewall-headers.js';

const issueKeys = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

const header = { urlRegex: '.*', header: 'X-Scanner', valueRegex: 'sqlmap', blockType: 10 };
const referer = { urlRegex: '.*', mode: 'allow', referers: ['example.com'], blockType: 10 };

describe('header rules', () => {
  it('default to "matches", enabled, and keep no value pattern for "absent"', () => {
    expect(headerRuleInputSchema.parse(header)).toEqual({ ...header, match: 'matches', enabled: true, memo: '' });
    const absent = headerRuleInputSchema.parse({ ...header, match: 'absent', valueRegex: '(not even a regex' });
    expect(absent).toMatchObject({ match: 'absent', valueRegex: '' });
    expect(headerRuleUpdateSchema.parse({ ...header, id: 3 })).toMatchObject({ id: 3, header: 'X-Scanner' });
  });

  it.each([
    [{ ...header, header: 'X_Y' }, 'header:wrongFormat'],
    [{ ...header, header: 'X-Ü' }, 'header:wrongFormat'],
    [{ ...header, valueRegex: '' }, 'valueRegex:required'],
    [{ ...header, valueRegex: '(a|a)*' }, 'valueRegex:runaway'],
    [{ ...header, valueRegex: 'é' }, 'valueRegex:wrongFormat'],
    [{ ...header, match: 'present' }, 'match:invalidValue'],
    [{ ...header, blockType: 12 }, 'blockType:wrongFormat'],
  ])('refuses %j (%s)', (input, key) => {
    expect(issueKeys(headerRuleInputSchema.safeParse(input))).toEqual([key]);
  });

  it('checks the value pattern of a replace call too', () => {
    expect(issueKeys(headerRuleUpdateSchema.safeParse({ ...header, id: 1, valueRegex: '(' }))).toEqual([
      'valueRegex:wrongFormat',
    ]);
  });
});

describe('anti-referer rules', () => {
  it('keep host patterns in lower-case ASCII, without duplicates; empty referers allowed by default', () => {
    const rule = antiRefererInputSchema.parse({
      ...referer,
      referers: ['Example.COM', '*.Example.com', 'example.com', 'münchen.de'],
    });
    expect(rule).toMatchObject({ referers: ['example.com', '*.example.com', 'xn--mnchen-3ya.de'], allowEmpty: true });
  });

  it.each([
    [{ ...referer, referers: [] }, 'referers:required'],
    [{ ...referer, referers: ['https://example.com'] }, 'referers.0:invalid_format'],
    [{ ...referer, referers: ['example.com:8080'] }, 'referers.0:invalid_format'],
    [{ ...referer, referers: ['*'] }, 'referers.0:invalid_format'],
    [{ ...referer, mode: 'block' }, 'mode:invalidValue'],
  ])('refuses %j (%s)', (input, key) => {
    expect(issueKeys(antiRefererInputSchema.safeParse(input))).toEqual([key]);
  });
});

describe("a domain's lists on the edge", () => {
  const access = {
    referers: [{ id: 1, url: '.*', mode: 'deny', hosts: ['*.leech.example'], allowEmpty: true, action: 'deny' }],
    headers: [{ id: 2, url: '.*', name: 'x-token', value: null, action: 'drop' }],
  };
  it('accepts lower-case hosts and header names, and null for "absent"', () => {
    expect(edgeDomainAccessSchema.safeParse(access).success).toBe(true);
  });
  it.each([
    ['referers.0.hosts.0', { ...access, referers: [{ ...access.referers[0], hosts: ['Leech.example'] }] }],
    ['referers.0.hosts.0', { ...access, referers: [{ ...access.referers[0], hosts: ['*'] }] }],
    ['headers.0.name', { ...access, headers: [{ ...access.headers[0], name: 'X-Token' }] }],
    ['headers.0.value', { ...access, headers: [{ ...access.headers[0], value: '(' }] }],
  ])('refuses %s', (path, input) => {
    const result = edgeDomainAccessSchema.safeParse(input);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual([path]);
  });
});
