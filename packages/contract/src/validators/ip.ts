/**
 * IP address, range and CIDR parsing. Pure string work with no Node APIs: the consoles run the
 * same checks in the browser before a form is sent.
 */

export type IPVersion = 4 | 6;

export interface ParsedIP {
  readonly version: IPVersion;
  /** The address as an unsigned integer (32 bits for v4, 128 for v6). */
  readonly value: bigint;
}

/** Prefix length bound and address width of each family. */
const BITS: Readonly<Record<IPVersion, number>> = { 4: 32, 6: 128 };

// One decimal octet 0–255 without leading zeros: `01` is ambiguous (octal in some parsers), so it is refused.
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4_RE = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const HEX_GROUP_RE = /^[0-9a-fA-F]{1,4}$/;
// Prefix lengths are plain decimals; `/08` is refused for the same reason as octet `01`.
const PREFIX_RE = /^(?:0|[1-9]\d{0,2})$/;

export function isIPv4(s: string): boolean {
  return IPV4_RE.test(s);
}

export function isIPv6(s: string): boolean {
  return parseIPv6(s) !== null;
}

export function isIP(s: string): boolean {
  return parseIP(s) !== null;
}

/** Parses an IPv4 or IPv6 address (RFC 4291 text forms, no zone id) into its integer value. */
export function parseIP(s: string): ParsedIP | null {
  const v4 = parseIPv4(s);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseIPv6(s);
  if (v6 !== null) return { version: 6, value: v6 };
  return null;
}

function parseIPv4(s: string): bigint | null {
  if (!IPV4_RE.test(s)) return null;
  // The octets summed as a Number (exact to 2^32) and made a bigint once: a bigint step per octet cost more.
  let value = 0;
  for (const octet of s.split('.')) value = value * 256 + Number(octet);
  return BigInt(value);
}

/**
 * RFC 4291 §2.2: eight 16-bit hex groups, at most one `::` standing for one or more zero groups,
 * and optionally the last 32 bits written as a dotted IPv4 address.
 */
function parseIPv6(s: string): bigint | null {
  if (s.length === 0 || s.length > 45 || !/^[0-9a-fA-F:.]+$/.test(s)) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const compressed = halves.length === 2;

  const head = groupsOf(halves[0] ?? '', !compressed);
  const tail = compressed ? groupsOf(halves[1] ?? '', true) : [];
  if (head === null || tail === null) return null;
  const count = head.length + tail.length;
  if (compressed ? count > 7 : count !== 8) return null;

  const groups = [...head, ...new Array<number>(8 - count).fill(0), ...tail];
  // Two groups at a time (32 bits, exact as a Number): four bigint steps rather than eight.
  let value = 0n;
  for (let i = 0; i < 8; i += 2)
    value = (value << 32n) | BigInt((groups[i] as number) * 0x10000 + (groups[i + 1] as number));
  return value;
}

/**
 * The 16-bit groups of one side of a `::` (or of the whole address). An IPv4 tail is allowed
 * only where it ends the address, and counts as two groups.
 */
function groupsOf(part: string, mayEndWithIPv4: boolean): number[] | null {
  if (part === '') return [];
  const pieces = part.split(':');
  const groups: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] ?? '';
    if (HEX_GROUP_RE.test(piece)) {
      groups.push(Number.parseInt(piece, 16));
    } else if (mayEndWithIPv4 && i === pieces.length - 1) {
      const v4 = parseIPv4(piece);
      if (v4 === null) return null;
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    } else {
      // Empty pieces come from a stray leading/trailing `:` or `:::`.
      return null;
    }
  }
  return groups;
}

/** `address/prefix` with the prefix 0–32 for IPv4 and 0–128 for IPv6. Host bits may be set. */
export function parseCIDR(s: string): { readonly ip: ParsedIP; readonly prefix: number } | null {
  const slash = s.indexOf('/');
  if (slash < 0) return null;
  const ip = parseIP(s.slice(0, slash));
  const prefixText = s.slice(slash + 1);
  if (ip === null || !PREFIX_RE.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= BITS[ip.version] ? { ip, prefix } : null;
}

export function isCIDR(s: string): boolean {
  return parseCIDR(s) !== null;
}

/** `first-last`: two addresses of the same family, first ≤ last, no spaces around the hyphen. */
export function parseIPRange(s: string): { readonly from: ParsedIP; readonly to: ParsedIP } | null {
  const parts = s.split('-');
  if (parts.length !== 2) return null;
  const from = parseIP(parts[0] ?? '');
  const to = parseIP(parts[1] ?? '');
  if (from === null || to === null || from.version !== to.version || from.value > to.value) return null;
  return { from, to };
}

export function isIPRange(s: string): boolean {
  return parseIPRange(s) !== null;
}

/** An entry of a blacklist / IP list: a single address, a range or a CIDR block. */
export function isBlacklistIPEntry(s: string): boolean {
  return canonicalIPEntry(s) !== null;
}

/**
 * A comparable form of a blacklist entry, so that differently written equal entries (`::1` and
 * `0:0::1`, `2001:DB8::1` and `2001:db8::1`) are recognised as duplicates. Kinds are kept apart:
 * `1.2.3.4`, `1.2.3.4/32` and `1.2.3.4-1.2.3.4` are distinct entries, as are an IPv4 address and
 * its IPv4-mapped IPv6 form. Null when the entry is not valid.
 */
export function canonicalIPEntry(s: string): string | null {
  const ip = parseIP(s);
  if (ip !== null) return keyOf(ip);
  const cidr = parseCIDR(s);
  if (cidr !== null) return `${keyOf(cidr.ip)}/${cidr.prefix}`;
  const range = parseIPRange(s);
  if (range !== null) return `${keyOf(range.from)}-${range.to.value.toString(16)}`;
  return null;
}

function keyOf(ip: ParsedIP): string {
  return `v${ip.version}:${ip.value.toString(16)}`;
}

/**
 * Whether `address` is `entry` (an address) or inside it (a CIDR). An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, how a dual-stack socket reports an IPv4 peer) counts as its IPv4 address.
 */
export function addressInEntry(address: string, entry: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = parseIP(mapped?.[1] ?? address);
  if (ip === null) return false;
  const single = parseIP(entry);
  if (single !== null) return single.version === ip.version && single.value === ip.value;
  const cidr = parseCIDR(entry);
  if (cidr === null || cidr.ip.version !== ip.version) return false;
  const shift = BigInt(BITS[ip.version] - cidr.prefix);
  return ip.value >> shift === cidr.ip.value >> shift;
}
