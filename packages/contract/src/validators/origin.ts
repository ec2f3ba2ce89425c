import { z } from 'zod';
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
  ['192.88.99.0/24', 'reserved'], // former 6to4 relay anycast
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // includes 255.255.255.255
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  // Forms that carry an IPv4 address (mapped, compatible, SIIT, 6to4, NAT64 96, Teredo) are judged
  // by that address before this table is read: see embeddedIPv4.
  ['64:ff9b:1::/48', 'private'], // local-use NAT64 (RFC 8215): the operator's own translator
  ['100::/64', 'reserved'], // discard-only
  ['2001:2::/48', 'reserved'], // benchmarking
  ['2001:10::/28', 'reserved'], // ORCHID
  ['2001:20::/28', 'reserved'], // ORCHIDv2
  ['2001:db8::/32', 'reserved'], // documentation
  ['3fff::/20', 'reserved'], // documentation (RFC 9637)
  ['fc00::/7', 'private'],
  ['fec0::/10', 'private'], // deprecated site-local
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

const V4_MASK = 0xffffffffn;

/**
 * The IPv4 addresses an IPv6 address hands the packet to, for the forms that embed one: a
 * connection to `::ffff:127.0.0.1`, `::127.0.0.1`, `2002:7f00:1::1` or `64:ff9b::7f00:1` ends at
 * 127.0.0.1 on a host or network that translates or tunnels it. Null for a plain IPv6 address.
 */
function embeddedIPv4(value: bigint): bigint[] | null {
  const top96 = value >> 32n;
  const low32 = value & V4_MASK;
  // ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (SIIT, RFC 7915).
  if (top96 === 0xffffn || top96 === 0xffff0000n) return [low32];
  // ::a.b.c.d (IPv4-compatible, deprecated); :: and ::1 are IPv6's own unspecified and loopback.
  if (top96 === 0n && value > 1n) return [low32];
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix, RFC 6052).
  if (top96 === 0x0064ff9b0000000000000000n) return [low32];
  // 2002:AABB:CCDD::/48 (6to4, RFC 3056): the relay forwards to AA.BB.CC.DD.
  if (value >> 112n === 0x2002n) return [(value >> 80n) & V4_MASK];
  // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC (Teredo, RFC 4380): the server, and the client with its bits inverted.
  if (value >> 96n === 0x20010000n) return [(value >> 64n) & V4_MASK, ~value & V4_MASK];
  return null;
}

/** Scopes from the most to the least restrictive, to judge an address that embeds several. */
const SEVERITY: readonly AddressScope[] = [
  'unspecified',
  'multicast',
  'loopback',
  'linkLocal',
  'private',
  'reserved',
  'public',
];

function scopeOfParsed(ip: ParsedIP): AddressScope {
  if (ip.version === 6) {
    const embedded = embeddedIPv4(ip.value);
    if (embedded) {
      const scopes = embedded.map((value) => scopeOfParsed({ version: 4, value }));
      return SEVERITY.find((scope) => scopes.includes(scope)) ?? 'public';
    }
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

/**
 * A host name an origin may be (RFC 1123, strict): two or more labels of ASCII letters, digits and
 * inner hyphens (no underscore, no port, no path, no trailing dot), at most 253 characters, and a
 * last label of letters or an `xn--` A-label, so it can never read as an IPv4 address. The node
 * resolves it and holds every address it answers to the rule above (docs/decisions
 * "Hostname origins"); the name itself is only ever compared and looked up, never rendered.
 */
const ORIGIN_HOST_RE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
export const ORIGIN_HOST_MAX = 253;

export function isOriginHostName(s: string): boolean {
  return s.length <= ORIGIN_HOST_MAX && ORIGIN_HOST_RE.test(s);
}

/** An origin's address as the API takes it: an IP literal or a lower-case host name. */
export function isOriginAddress(s: string): boolean {
  return parseIP(s) !== null || isOriginHostName(s);
}

/**
 * The fields that name an origin a node connects to, with what each takes (`ipOrName`: an IP
 * literal or a host name; `ip`: a literal only), so a test can walk every route of the contract
 * and find each of them (`registeredFields(schema, originAddresses)`).
 */
export const originAddresses = z.registry<{ readonly takes: 'ipOrName' | 'ip' }>();

/** Marks `schema` as naming an origin address (answers `schema` itself). */
export function originAddressField<T extends z.ZodType>(schema: T, takes: 'ipOrName' | 'ip'): T {
  originAddresses.add(schema, { takes });
  return schema;
}
