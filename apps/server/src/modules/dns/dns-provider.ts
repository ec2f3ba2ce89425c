import { parseIP } from '@rampart/contract';

/**
 * One interface over the operator's DNS providers (PowerDNS, RFC 2136, Cloudflare, DNSPod): the
 * reconciliation of later work computes the desired record sets, reads what the provider holds
 * with `listRecords`, and writes only the differences with `applyChanges`.
 *
 * Names are absolute, in lower case ASCII, without the trailing dot (`www.cdn.example.com`);
 * record sets are per name, type and line. Values: an address (A, AAAA), a target name (CNAME, no
 * trailing dot) or the text (TXT, unquoted).
 */
export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'TXT'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface RecordSet {
  readonly name: string;
  readonly type: RecordType;
  /** A DNS line id (`client/dns/lines`); providers without lines hold only `default`. */
  readonly line: string;
  readonly ttl: number;
  /** Sorted, distinct. */
  readonly values: readonly string[];
}

export type RecordChange =
  /** Creates the set or replaces what the provider holds under its name, type and line. */
  | { readonly kind: 'upsert'; readonly set: RecordSet }
  /** Removes the set (nothing to do if the provider holds none). */
  | { readonly kind: 'delete'; readonly name: string; readonly type: RecordType; readonly line: string };

export interface DnsProvider {
  /** The zone the provider publishes in (every name is in it). */
  readonly zone: string;
  /** The DNS lines the provider can answer differently on (always includes `default`). */
  readonly lines: readonly string[];
  /** Checks the credentials and zone access; returns what was checked, throws DnsProviderError. */
  test(): Promise<string>;
  /** The A/AAAA/CNAME/TXT record sets the provider holds under `names`. */
  listRecords(names: readonly string[]): Promise<RecordSet[]>;
  /** Writes the changes (in order); throws DnsProviderError at the first the provider refuses. */
  applyChanges(changes: readonly RecordChange[]): Promise<void>;
}

/** A provider refused or failed a call; `message` is the provider's own words (no secrets). */
export class DnsProviderError extends Error {
  override readonly name = 'DnsProviderError';
}

/** Every outgoing call of a provider is bounded by this (ms) unless the provider is given another. */
export const DNS_PROVIDER_TIMEOUT_MS = 10_000;

/** The name of the TXT probe record `test()` writes and removes. */
export function probeName(zone: string): string {
  return `_rampart-probe.${zone}`;
}

/** `name` in canonical form: lower case, no trailing dot. */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** Whether `name` is the zone or under it. */
export function inZone(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`);
}

/** A value in the form the sets carry (addresses normalised, names canonical). */
export function canonicalValue(type: RecordType, value: string): string {
  if (type === 'CNAME') return canonicalName(value);
  if (type === 'AAAA') {
    const bytes = addressBytes(value);
    if (bytes?.length === 16) return formatIPv6(bytes);
  }
  return value;
}

export function recordSet(
  name: string,
  type: RecordType,
  ttl: number,
  values: readonly string[],
  line = 'default',
): RecordSet {
  const canonical = [...new Set(values.map((v) => canonicalValue(type, v)))].sort();
  return { name: canonicalName(name), type, line, ttl, values: canonical };
}

/** Refuses what a provider cannot hold: names outside the zone, lines it has not. */
export function checkChanges(provider: Pick<DnsProvider, 'zone' | 'lines'>, changes: readonly RecordChange[]): void {
  for (const change of changes) {
    const name = change.kind === 'upsert' ? change.set.name : change.name;
    const line = change.kind === 'upsert' ? change.set.line : change.line;
    if (!inZone(name, provider.zone)) throw new DnsProviderError(`${name} is not in zone ${provider.zone}`);
    if (!provider.lines.includes(line)) throw new DnsProviderError(`the provider has no DNS line ${line}`);
    if (change.kind === 'upsert' && change.set.values.length === 0) {
      throw new DnsProviderError(`${name} ${change.set.type}: a record set needs a value`);
    }
  }
}

/** The bytes of an IPv4 (4) or IPv6 (16) address, through the contract's parser; null if it is none. */
export function addressBytes(text: string): Buffer | null {
  const ip = parseIP(text);
  if (ip === null) return null;
  const hex = ip.value.toString(16).padStart(ip.version === 4 ? 8 : 32, '0');
  return Buffer.from(hex, 'hex');
}

/** RFC 5952 text of 16 address bytes (the longest run of two or more zero words becomes `::`). */
export function formatIPv6(bytes: Uint8Array): string {
  const words = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2] ?? 0) << 8) | (bytes[i * 2 + 1] ?? 0));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}
