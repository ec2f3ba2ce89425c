import { describe, expect, it } from 'vitest';
import { type DomainNameOptions, validateDomainName } from './domain.js';

const label63 = 'a'.repeat(63);
const label64 = 'a'.repeat(64);
// 253 characters in all, the longest name allowed; one more character makes it too long.
const name253 = `${label63}.${label63}.${label63}.${'b'.repeat(57)}.com`;
const name254 = `${label63}.${label63}.${label63}.${'b'.repeat(58)}.com`;

describe('validateDomainName: accepted', () => {
  it.each<[string, DomainNameOptions | undefined, string]>([
    ['example.com', undefined, 'example.com'],
    ['  Example.COM  ', undefined, 'example.com'],
    ['münchen.de', undefined, 'xn--mnchen-3ya.de'],
    ['MÜNCHEN.DE', undefined, 'xn--mnchen-3ya.de'],
    ['mu\u0308nchen.de', undefined, 'xn--mnchen-3ya.de'],
    ['例子.测试', undefined, 'xn--fsqu00a.xn--0zwm56d'],
    ['例子。测试', undefined, 'xn--fsqu00a.xn--0zwm56d'],
    ['xn--mnchen-3ya.de', undefined, 'xn--mnchen-3ya.de'],
    ['*.example.com', { wildcard: true }, '*.example.com'],
    ['*.münchen.de', { wildcard: true }, '*.xn--mnchen-3ya.de'],
    ['_dmarc.example.com', undefined, '_dmarc.example.com'],
    ['a_b.example.com', undefined, 'a_b.example.com'],
    ['a_b.example.com', { underscore: true }, 'a_b.example.com'],
    [`${label63}.com`, undefined, `${label63}.com`],
    [`${label63}.example.com`, undefined, `${label63}.example.com`],
    ['a.co', undefined, 'a.co'],
    ['1-2.example.io', undefined, '1-2.example.io'],
    ['123.com', undefined, '123.com'],
    ['example.xn--p1ai', undefined, 'example.xn--p1ai'],
    ['a.b.c.d.example.com', undefined, 'a.b.c.d.example.com'],
    [name253, undefined, name253],
  ])('%j %o → %j', (input, opts, ascii) => {
    expect(validateDomainName(input, opts)).toEqual({ ok: true, ascii });
  });
});

describe('validateDomainName: refused', () => {
  it.each<[unknown, DomainNameOptions | undefined, string]>([
    [42, undefined, 'invalid_type'],
    [null, undefined, 'invalid_type'],
    [undefined, undefined, 'invalid_type'],
    [['example.com'], undefined, 'invalid_type'],
    ['exa_mple.com', undefined, 'invalid_sld_underscore'],
    ['www.exa_mple.com', undefined, 'invalid_sld_underscore'],
    [`${label64}.com`, undefined, 'invalid_sld_length'],
    [`www.${label64}.com`, undefined, 'invalid_sld_length'],
    ['.com', undefined, 'invalid_sld_length'],
    ['example.c', undefined, 'invalid_tld'],
    ['example.123', undefined, 'invalid_tld'],
    ['example.c0m', undefined, 'invalid_tld'],
    ['example.co_', undefined, 'invalid_tld'],
    ['example.', undefined, 'invalid_format'],
    ['1.2.3.4', undefined, 'invalid_tld'],
    ['*.example.com', undefined, 'invalid_format'],
    ['*.example.com', { wildcard: false }, 'invalid_format'],
    ['*.com', { wildcard: true }, 'invalid_format'],
    ['a.*.example.com', { wildcard: true }, 'invalid_format'],
    ['**.example.com', { wildcard: true }, 'invalid_format'],
    ['*example.com', { wildcard: true }, 'invalid_format'],
    ['a..b.com', undefined, 'invalid_format'],
    ['-a.com', undefined, 'invalid_format'],
    ['a-.com', undefined, 'invalid_format'],
    ['www.-a.com', undefined, 'invalid_format'],
    ['example', undefined, 'invalid_format'],
    ['', undefined, 'invalid_format'],
    ['exa mple.com', undefined, 'invalid_format'],
    ['example.com.', undefined, 'invalid_format'],
    ['a_b.example.com', { underscore: false }, 'invalid_format'],
    ['_dmarc.example.com', { underscore: false }, 'invalid_format'],
    [`${label64}.example.com`, undefined, 'invalid_format'],
    [name254, undefined, 'invalid_format'],
    [`*.${name253}`, { wildcard: true }, 'invalid_format'],
    ['ex!ample.com', undefined, 'invalid_format'],
    ['user@example.com', undefined, 'invalid_format'],
    ['xn--zz.com', undefined, 'punycode_error'],
    ['xn--99999999999999.com', undefined, 'punycode_error'],
    ['www.xn--ab--c.com', undefined, 'punycode_error'],
  ])('%j %o → %s', (input, opts, reason) => {
    expect(validateDomainName(input, opts)).toEqual({ ok: false, reason });
  });
});
