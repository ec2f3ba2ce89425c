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

  // Every IPv6 form that carries an IPv4 address is judged by that address, so an origin written
  // as one of them cannot reach the node's loopback, the metadata service or a private host.
  it.each([
    // IPv4-mapped, including the uncompressed and hex-tail spellings
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'linkLocal'],
    ['::ffff:8.8.8.8', 'public'],
    // IPv4-compatible (deprecated)
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['::169.254.169.254', 'linkLocal'],
    ['::0.0.0.2', 'unspecified'],
    ['::8.8.8.8', 'public'],
    // SIIT (RFC 7915)
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'linkLocal'],
    ['::ffff:0:192.168.0.1', 'private'],
    ['::ffff:0:8.8.8.8', 'public'],
    // 6to4
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a9fe:a9fe::1', 'linkLocal'],
    ['2002:c0a8:1::', 'private'],
    ['2002:0a00:0001:ffff:ffff:ffff:ffff:ffff', 'private'],
    ['2002:e000:1::1', 'multicast'],
    ['2002:808:808::1', 'public'],
    // NAT64, well-known prefix and local-use prefix
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::10.1.2.3', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::8.8.8.8', 'private'],
    ['64:ff9b:1:ffff::1', 'private'],
    // Teredo: server 8.8.8.8 (0808:0808), client inverted
    ['2001:0:808:808:0:0:80ff:fffe', 'loopback'], // client 127.0.0.1
    ['2001:0:808:808::f5ff:fffe', 'private'], // client 10.0.0.1
    ['2001:0:7f00:1::f7f7:f7f7', 'loopback'], // server 127.0.0.1, client 8.8.8.8
    ['2001:0:808:808::f7f7:f7f7', 'public'], // both 8.8.8.8
    // other special-purpose IPv6 ranges
    ['fec0::1', 'private'],
    ['2001:2::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['192.88.99.1', 'reserved'],
  ])('embedded or special form %s is %s', (ip, scope) => {
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
    for (const ip of ['::127.0.0.1', '::ffff:0:127.0.0.1', '2002:7f00:1::1', '2002:a9fe:a9fe::1', '64:ff9b::7f00:1']) {
      expect(isOriginAddressAllowed(ip, false), ip).toBe(false);
    }
  });

  it('allows loopback and private origins when the operator allows them, never unspecified or multicast', () => {
    expect(isOriginAddressAllowed('127.0.0.1', true)).toBe(true);
    expect(isOriginAddressAllowed('10.0.0.1', true)).toBe(true);
    expect(isOriginAddressAllowed('0.0.0.0', true)).toBe(false);
    expect(isOriginAddressAllowed('ff02::1', true)).toBe(false);
  });
});
