import { describe, expect, it } from 'vitest';
import { addressScope, isOriginAddressAllowed } from './origin.js';

describe('addressScope', () => {
  it.each([
    ['1.1.1.1', 'public'],
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['2001:db8::1', 'reserved'],
  ])('%s is %s', (ip, scope) => {
    expect(addressScope(ip)).toBe(scope);
  });

  it('answers null for what is not an IP literal', () => {
    expect(addressScope('example.com')).toBeNull();
    expect(addressScope('127.1')).toBeNull();
  });
});

describe('isOriginAddressAllowed', () => {
  it('allows public addresses and refuses the rest by default', () => {
    expect(isOriginAddressAllowed('1.1.1.1', false)).toBe(true);
    expect(isOriginAddressAllowed('127.0.0.1', false)).toBe(false);
    expect(isOriginAddressAllowed('169.254.169.254', false)).toBe(false);
    expect(isOriginAddressAllowed('::ffff:192.168.0.1', false)).toBe(false);
  });

  it('allows loopback and private origins when the operator allows them, never unspecified or multicast', () => {
    expect(isOriginAddressAllowed('127.0.0.1', true)).toBe(true);
    expect(isOriginAddressAllowed('10.0.0.1', true)).toBe(true);
    expect(isOriginAddressAllowed('0.0.0.0', true)).toBe(false);
    expect(isOriginAddressAllowed('ff02::1', true)).toBe(false);
  });
});
