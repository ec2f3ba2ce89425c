import { type ParsedIP, parseCIDR, parseIP } from './ip.js';

/**
 * Where an origin address points. Customers name their origins by IP, and the edge connects to
 * them from inside the operator's network, so an address that is not public would let a customer
 * reach the node itself or the operator's private hosts (SSRF). Such origins are refused unless
 * the operator allows them for the installation (loopback test rigs, private data centres).
 */
export type AddressScope = 'public' | 'loopback' | 'private' | 'linkLocal' | 'unspecified' | 'multicast' | 'reserved';

const RANGES: ReadonlyArray<readonly [string, AddressScope]> = [
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'private'], // carrier-grade NAT
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'linkLocal'], // includes cloud metadata 169.254.169.254
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // includes 255.255.255.255
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'reserved'], // IPv4-mapped: judged by the IPv4 rules below
  ['64:ff9b::/96', 'reserved'], // NAT64 can reach private IPv4
  ['100::/64', 'reserved'],
  ['2001:db8::/32', 'reserved'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'linkLocal'],
  ['ff00::/8', 'multicast'],
];

const PARSED = RANGES.map(([cidr, scope]) => {
  const parsed = parseCIDR(cidr);
  if (!parsed) throw new Error(`bad range ${cidr}`);
  const bits = parsed.ip.version === 4 ? 32 : 128;
  const shift = BigInt(bits - parsed.prefix);
  return { version: parsed.ip.version, base: parsed.ip.value >> shift, shift, scope };
});

function scopeOfParsed(ip: ParsedIP): AddressScope {
  if (ip.version === 6 && ip.value >> 32n === 0xffffn) {
    // ::ffff:a.b.c.d is the IPv4 address a.b.c.d.
    return scopeOfParsed({ version: 4, value: ip.value & 0xffffffffn });
  }
  for (const range of PARSED) {
    if (range.version === ip.version && ip.value >> range.shift === range.base) return range.scope;
  }
  return 'public';
}

/** The scope of an IP literal, or null when it is not one. */
export function addressScope(ip: string): AddressScope | null {
  const parsed = parseIP(ip);
  return parsed ? scopeOfParsed(parsed) : null;
}

/** True when an origin may be this address: public ones always, others only when the operator allows. */
export function isOriginAddressAllowed(ip: string, allowPrivate: boolean): boolean {
  const scope = addressScope(ip);
  if (scope === null) return false;
  if (scope === 'public') return true;
  // Unspecified and multicast addresses are never a host to connect to.
  return allowPrivate && scope !== 'unspecified' && scope !== 'multicast';
}
