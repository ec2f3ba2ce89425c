import { describe, expect, it } from 'vitest';
import type { ValidationResult } from '../validation-messages.js';
import {
  ipEntryProblems,
  isHttpUrl,
  MAX_IPS,
  numberedLines,
  splitLines,
  validateBlacklistIPs,
  validateIPList,
  validateIPListText,
  validateWhitelistUrls,
} from './lists.js';

/** `count` distinct IPv4 addresses 10.0.x.y. */
function ips(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `10.0.${Math.floor(i / 256)}.${i % 256}`);
}

describe('splitLines', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['\n\r\n  \n', []],
    ['a', ['a']],
    ['a\nb', ['a', 'b']],
    ['a\r\nb\r\n', ['a', 'b']],
    ['  a  \n\n\t b\t\n', ['a', 'b']],
    ['a b\nc', ['a b', 'c']],
  ])('%j → %o', (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
  });

  it('numbers lines as in the text, blank lines counted', () => {
    expect(numberedLines('\na\r\n\n b ')).toEqual([
      { line: 2, value: 'a' },
      { line: 4, value: 'b' },
    ]);
  });
});

describe('isHttpUrl', () => {
  it.each([
    ['http://example.com', true],
    ['https://example.com/', true],
    ['HTTPS://Example.COM/Path', true],
    ['https://www.example.com/a/b?c=d&e=%20f', true],
    ['https://example.com?x=1', true],
    ['https://example.com:8443/login', true],
    ['http://example.com:1', true],
    ['http://example.com:65535', true],
    ['http://1.2.3.4/x', true],
    ['http://1.2.3.4:8080', true],
    ['http://[::1]/', true],
    ['http://[2001:db8::1]:8080/a', true],
    ['https://münchen.de/straße', true],
    ['https://_acme.example.com/', true],
    ['ftp://example.com', false],
    ['example.com', false],
    ['//example.com', false],
    ['http://', false],
    ['http:///path', false],
    ['http://example', false],
    ['http://example.com:0', false],
    ['http://example.com:65536', false],
    ['http://example.com:080', false],
    ['http://example.com:', false],
    ['http://example.com:port', false],
    ['http://user:pass@example.com/', false],
    ['http://exa mple.com', false],
    ['http://example.com/a b', false],
    ['http://example.com/#top', false],
    ['http://example.com/%zz', false],
    ['http://example.com/<script>', false],
    ['http://[::1', false],
    ['http://[1.2.3.4]/', false],
    ['http://[::1]x/', false],
    ['http://::1/', false],
    ['http://256.1.1.1/', false],
    ['http://01.2.3.4/', false],
  ])('%j → %s', (url, expected) => {
    expect(isHttpUrl(url)).toBe(expected);
  });
});

describe('validateWhitelistUrls', () => {
  it.each<[string, ValidationResult]>([
    ['', { ok: true }],
    ['\n  \n', { ok: true }],
    ['https://example.com/a\nhttp://1.2.3.4/b', { ok: true }],
    ['https://example.com/a\r\n\r\n  https://example.org  ', { ok: true }],
    ['https://example.com/a\nexample.org', { ok: false, key: 'wrongFormat', line: 2, value: 'example.org' }],
    ['\n\nftp://x.com', { ok: false, key: 'wrongFormat', line: 3, value: 'ftp://x.com' }],
  ])('%j → %o', (text, result) => {
    expect(validateWhitelistUrls(text)).toEqual(result);
  });
});

describe('validateIPList', () => {
  it.each<[string, string[], ValidationResult]>([
    ['empty list', [], { ok: false, key: 'required' }],
    ['one IPv4', ['1.2.3.4'], { ok: true }],
    [
      'every kind',
      ['1.2.3.4', '10.0.0.0/8', '1.2.3.5-1.2.3.9', '::1', '2001:db8::/32', '2001:db8::1-2001:db8::ff'],
      { ok: true },
    ],
    ['bad entry', ['1.2.3.4', '1.2.3.4/33'], { ok: false, key: 'wrongFormat', line: 2, value: '1.2.3.4/33' }],
    ['IPv6 /129', ['2001:db8::/129'], { ok: false, key: 'wrongFormat', line: 1, value: '2001:db8::/129' }],
    [
      'reversed range',
      ['2001:db8::ff-2001:db8::1'],
      { ok: false, key: 'wrongFormat', line: 1, value: '2001:db8::ff-2001:db8::1' },
    ],
    ['mixed-family range', ['1.2.3.4-::1'], { ok: false, key: 'wrongFormat', line: 1, value: '1.2.3.4-::1' }],
    ['spaced range', ['1.2.3.4 - 1.2.3.5'], { ok: false, key: 'wrongFormat', line: 1, value: '1.2.3.4 - 1.2.3.5' }],
    ['untrimmed entry', [' 1.2.3.4'], { ok: false, key: 'wrongFormat', line: 1, value: ' 1.2.3.4' }],
    ['empty entry', [''], { ok: false, key: 'wrongFormat', line: 1, value: '' }],
    [
      'same IPv4 twice',
      ['1.2.3.4', '5.6.7.8', '1.2.3.4'],
      { ok: false, key: 'duplicateIP', line: 3, value: '1.2.3.4' },
    ],
    ['::1 and 0:0::1', ['::1', '0:0::1'], { ok: false, key: 'duplicateIP', line: 2, value: '0:0::1' }],
    [
      'IPv6 case',
      ['2001:DB8::1', '2001:db8:0:0:0:0:0:1'],
      { ok: false, key: 'duplicateIP', line: 2, value: '2001:db8:0:0:0:0:0:1' },
    ],
    [
      'same CIDR',
      ['2001:db8::/32', '2001:0db8::/32'],
      { ok: false, key: 'duplicateIP', line: 2, value: '2001:0db8::/32' },
    ],
    ['same range', ['::1-::2', '0::1-0::2'], { ok: false, key: 'duplicateIP', line: 2, value: '0::1-0::2' }],
    ['IP and /32 differ', ['1.2.3.4', '1.2.3.4/32'], { ok: true }],
  ])('%s', (_, entries, result) => {
    expect(validateIPList(entries)).toEqual(result);
  });

  it(`accepts exactly ${MAX_IPS} entries`, () => {
    expect(validateIPList(ips(5000))).toEqual({ ok: true });
  });

  it('refuses 5001 entries with max5000IPs', () => {
    expect(validateIPList(ips(5001))).toEqual({ ok: false, key: 'max5000IPs', params: { max: 5000 } });
  });
});

describe('ipEntryProblems', () => {
  it('names every malformed and every repeated entry, in order, with its line', () => {
    const entries = numberedLines('10.0.0.1\n10.0.0.300\n\n10.0.0.1\n::1\nnope\n0:0::1');
    expect(ipEntryProblems(entries)).toEqual([
      { ok: false, key: 'wrongFormat', line: 2, value: '10.0.0.300' },
      { ok: false, key: 'duplicateIP', line: 4, value: '10.0.0.1' },
      { ok: false, key: 'wrongFormat', line: 6, value: 'nope' },
      { ok: false, key: 'duplicateIP', line: 7, value: '0:0::1' },
    ]);
  });

  it(`finds none in ${MAX_IPS} distinct entries, and each repeat when they are all given twice`, () => {
    const list = ips(MAX_IPS).map((value, i) => ({ line: i + 1, value }));
    expect(ipEntryProblems(list)).toEqual([]);
    expect(ipEntryProblems([...list, ...list])).toHaveLength(MAX_IPS);
  });
});

describe('validateIPListText', () => {
  it.each<[string, ValidationResult]>([
    ['', { ok: false, key: 'required' }],
    [' \n\r\n', { ok: false, key: 'required' }],
    ['1.2.3.4\r\n::1\n', { ok: true }],
    ['1.2.3.4\n\n1.2.3.4', { ok: false, key: 'duplicateIP', line: 3, value: '1.2.3.4' }],
    ['1.2.3.4\n\n  nope  ', { ok: false, key: 'wrongFormat', line: 3, value: 'nope' }],
  ])('%j → %o', (text, result) => {
    expect(validateIPListText(text)).toEqual(result);
  });

  it.each([
    [5000, { ok: true }],
    [5001, { ok: false, key: 'max5000IPs', params: { max: 5000 } }],
  ])('%d lines → %o', (count, result) => {
    expect(validateIPListText(ips(count).join('\n'))).toEqual(result);
  });
});

describe('validateBlacklistIPs', () => {
  it.each<[string, ValidationResult]>([
    ['', { ok: true }],
    ['  \n', { ok: true }],
    ['1.2.3.4\n10.0.0.0/8\n1.2.3.5-1.2.3.9', { ok: true }],
    ['2001:db8::/32\r\n2001:db8::1-2001:db8::ff', { ok: true }],
    ['1.2.3.4\n2001:db8::/129', { ok: false, key: 'wrongFormat', line: 2, value: '2001:db8::/129' }],
    ['1.2.3.9-1.2.3.4', { ok: false, key: 'wrongFormat', line: 1, value: '1.2.3.9-1.2.3.4' }],
    ['::1-1.2.3.4', { ok: false, key: 'wrongFormat', line: 1, value: '::1-1.2.3.4' }],
    ['example.com', { ok: false, key: 'wrongFormat', line: 1, value: 'example.com' }],
    ['::1\n0:0::1', { ok: false, key: 'duplicateIP', line: 2, value: '0:0::1' }],
  ])('%j → %o', (text, result) => {
    expect(validateBlacklistIPs(text)).toEqual(result);
  });

  it.each([
    [5000, { ok: true }],
    [5001, { ok: false, key: 'max5000IPs', params: { max: 5000 } }],
  ])('%d lines → %o', (count, result) => {
    expect(validateBlacklistIPs(ips(count).join('\n'))).toEqual(result);
  });
});
