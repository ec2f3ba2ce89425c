import { describe, expect, it } from 'vitest';
import { escapeUndecodablePath, parseQueryString } from './url-decoding.js';

describe('parseQueryString', () => {
  it('reads names, values, repeats and spaces as the default parser does', () => {
    const parsed = parseQueryString('a=1&b=x+y&b=%E4%B8%AD&c&=e&&d=%25ED');
    expect({ ...parsed }).toEqual({ a: '1', b: ['x y', '中'], c: '', '': 'e', d: '%ED' });
  });

  it.each([
    ['%00', '\u0000'],
    ['%ED%A0%80', '\udced\udca0\udc80'],
    ['a%FFb', 'a\udcffb'],
    ['%E0%A4', '\udce0\udca4'],
    ['%C0%AF', '\udcc0\udcaf'], // an overlong '/'
    ['%F0%9F%98%80%FF', '😀\udcff'],
    ['100%', '100%'],
  ])('decodes %s with undecodable bytes as escaped surrogates', (raw, decoded) => {
    expect(parseQueryString(`v=${raw}`).v).toBe(decoded);
  });
});

describe('escapeUndecodablePath', () => {
  it.each([
    ['/api/v1/user/site/1', '/api/v1/user/site/1'],
    ['/a/%E4%B8%AD?q=%FF', '/a/%E4%B8%AD?q=%FF'],
    ['/a/x%ED%A0%80y/b', '/a/x%00%00%00y/b'],
    ['/a/%FF%E4%B8%AD?q=1', '/a/%00%E4%B8%AD?q=1'],
    ['/a/%E4%B8', '/a/%00%00'],
  ])('%s → %s', (url, rewritten) => {
    expect(escapeUndecodablePath(url)).toBe(rewritten);
  });
});
