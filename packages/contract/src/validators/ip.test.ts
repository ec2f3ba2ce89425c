import { describe, expect, it } from 'vitest';
import {
  canonicalIPEntry,
  isBlacklistIPEntry,
  isCIDR,
  isIP,
  isIPRange,
  isIPv4,
  isIPv6,
  parseCIDR,
  parseIP,
  parseIPRange,
} from './ip.js';

describe('isIPv4', () => {
  it.each([
    ['0.0.0.0', true],
    ['1.2.3.4', true],
    ['255.255.255.255', true],
    ['10.0.0.10', true],
    ['256.1.1.1', false],
    ['01.2.3.4', false],
    ['1.2.3.04', false],
    ['00.0.0.0', false],
    ['1.2.3', false],
    ['1.2.3.4.5', false],
    ['1.2.3.', false],
    [' 1.2.3.4', false],
    ['1.2.3.4 ', false],
    ['1.2.3.-4', false],
    ['a.b.c.d', false],
    ['', false],
  ])('%j → %s', (input, expected) => {
    expect(isIPv4(input)).toBe(expected);
  });
});

describe('isIPv6', () => {
  it.each([
    ['::', true],
    ['::1', true],
    ['1::', true],
    ['2001:db8::1', true],
    ['2001:DB8::1', true],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', true],
    ['1:2:3:4:5:6:7:8', true],
    ['1:2:3:4:5:6:7::', true],
    ['::2:3:4:5:6:7:8', true],
    ['::ffff:1.2.3.4', true],
    ['::1.2.3.4', true],
    ['1:2:3:4:5:6:1.2.3.4', true],
    ['64:ff9b::192.0.2.33', true],
    ['1:2:3:4:5:6:7:8:9', false],
    ['1:2:3:4:5:6:7', false],
    ['1:2:3:4:5:6:7:8::', false],
    ['1::2::3', false],
    [':::', false],
    [':1:2:3:4:5:6:7', false],
    ['1:2:3:4:5:6:7:', false],
    ['12345::1', false],
    ['g::1', false],
    ['fe80::1%eth0', false],
    ['::ffff:1.2.3', false],
    ['::ffff:01.2.3.4', false],
    ['::1.2.3.4:1', false],
    ['1:2:3:4:5:6:7:1.2.3.4', false],
    ['1.2.3.4', false],
    ['[::1]', false],
    ['', false],
  ])('%j → %s', (input, expected) => {
    expect(isIPv6(input)).toBe(expected);
  });
});

describe('parseIP', () => {
  it.each([
    ['0.0.0.0', { version: 4, value: 0n }],
    ['1.2.3.4', { version: 4, value: 0x01020304n }],
    ['255.255.255.255', { version: 4, value: 0xffffffffn }],
    ['::', { version: 6, value: 0n }],
    ['::1', { version: 6, value: 1n }],
    ['0:0::1', { version: 6, value: 1n }],
    ['::ffff:1.2.3.4', { version: 6, value: 0xffff01020304n }],
    ['2001:db8::ff', { version: 6, value: (0x20010db8n << 96n) | 0xffn }],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', { version: 6, value: (1n << 128n) - 1n }],
    ['1.2.3.256', null],
    ['nope', null],
  ])('%j → %o', (input, expected) => {
    expect(parseIP(input)).toEqual(expected);
    expect(isIP(input)).toBe(expected !== null);
  });
});

describe('isCIDR', () => {
  it.each([
    ['10.0.0.0/8', true],
    ['0.0.0.0/0', true],
    ['1.2.3.4/32', true],
    ['192.168.1.5/24', true],
    ['2001:db8::/32', true],
    ['::/0', true],
    ['::1/128', true],
    ['::ffff:1.2.3.0/120', true],
    ['1.2.3.4/33', false],
    ['2001:db8::/129', false],
    ['1.2.3.4/08', false],
    ['1.2.3.4/', false],
    ['/24', false],
    ['1.2.3.4/-1', false],
    ['1.2.3.4/24/1', false],
    ['1.2.3.4 /24', false],
    ['01.2.3.4/24', false],
  ])('%j → %s', (input, expected) => {
    expect(isCIDR(input)).toBe(expected);
  });

  it('parses the prefix', () => {
    expect(parseCIDR('2001:db8::/32')).toEqual({ ip: { version: 6, value: 0x20010db8n << 96n }, prefix: 32 });
  });
});

describe('isIPRange', () => {
  it.each([
    ['1.2.3.4-1.2.3.10', true],
    ['1.2.3.4-1.2.3.4', true],
    ['0.0.0.0-255.255.255.255', true],
    ['2001:db8::1-2001:db8::ff', true],
    ['::1-::2', true],
    ['::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['1.2.3.10-1.2.3.4', false],
    ['2001:db8::ff-2001:db8::1', false],
    ['1.2.3.4-::ffff:1.2.3.5', false],
    ['::1-1.2.3.4', false],
    ['1.2.3.4 - 1.2.3.10', false],
    ['1.2.3.4 -1.2.3.10', false],
    ['1.2.3.4- 1.2.3.10', false],
    ['1.2.3.4-1.2.3.5-1.2.3.6', false],
    ['1.2.3.4-', false],
    ['-1.2.3.4', false],
    ['1.2.3.0/24-1.2.4.0/24', false],
  ])('%j → %s', (input, expected) => {
    expect(isIPRange(input)).toBe(expected);
  });

  it('keeps both ends', () => {
    expect(parseIPRange('::1-::2')).toEqual({ from: { version: 6, value: 1n }, to: { version: 6, value: 2n } });
  });
});

describe('isBlacklistIPEntry', () => {
  it.each([
    ['1.2.3.4', true],
    ['2001:db8::1', true],
    ['10.0.0.0/8', true],
    ['2001:db8::/32', true],
    ['1.2.3.4-1.2.3.5', true],
    ['2001:db8::1-2001:db8::ff', true],
    ['2001:db8::/129', false],
    ['example.com', false],
    ['1.2.3.*', false],
    ['', false],
  ])('%j → %s', (input, expected) => {
    expect(isBlacklistIPEntry(input)).toBe(expected);
  });
});

describe('canonicalIPEntry', () => {
  it.each([
    ['::1', '0:0::1'],
    ['2001:DB8::1', '2001:0db8:0:0:0:0:0:1'],
    ['::ffff:1.2.3.4', '::ffff:102:304'],
    ['2001:db8::/32', '2001:0db8::/32'],
    ['::1-::2', '0::1-0:0::2'],
  ])('%j equals %j', (a, b) => {
    expect(canonicalIPEntry(a)).toBe(canonicalIPEntry(b));
  });

  it.each([
    ['1.2.3.4', '1.2.3.4/32'],
    ['1.2.3.4', '1.2.3.4-1.2.3.4'],
    ['1.2.3.4', '::ffff:1.2.3.4'],
    ['10.0.0.0/8', '10.0.0.0/16'],
  ])('%j differs from %j', (a, b) => {
    expect(canonicalIPEntry(a)).not.toBe(canonicalIPEntry(b));
  });

  it('is null for an invalid entry', () => {
    expect(canonicalIPEntry('1.2.3.4/33')).toBeNull();
  });
});
