/**
 * A reader of MaxMind DB files (format 2.x, https://maxmind.github.io/MaxMind-DB/): the checks an
 * uploaded geo or ASN database must pass, the cities a City database offers to the region tree,
 * the autonomous systems an ASN database names, and the lookups of the analytics' ingest (whose
 * answers the services remember per address). The edge reads the geo file with libmaxminddb.
 */

import { formatIP } from '@rampart/contract';
import { Decoder, type MmdbDecoded, MmdbError } from './mmdb-decoder.js';

export type { MmdbDecoded } from './mmdb-decoder.js';
export { MmdbError } from './mmdb-decoder.js';

const METADATA_MARKER = Buffer.from([0xab, 0xcd, 0xef, ...Buffer.from('MaxMind.com', 'ascii')]);
/** The metadata section is at most this far from the end of the file (the format's bound). */
const METADATA_MAX_BYTES = 128 * 1024;

export interface MmdbMetadata {
  nodeCount: number;
  recordSize: 24 | 28 | 32;
  ipVersion: 4 | 6;
  databaseType: string;
  buildEpoch: number;
  languages: string[];
}

const isObject = (v: MmdbDecoded | undefined): v is { [key: string]: MmdbDecoded } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);

/** A city a City database places addresses in. */
export interface MmdbCity {
  geonameId: number;
  country: string;
  /** The city's names by language (the database's `names`: `en`, `zh-CN`, …). */
  names: Record<string, string>;
}

/** An opened MaxMind DB file: its checked metadata, and its cities on demand. */
export class MmdbFile {
  readonly metadata: MmdbMetadata;
  private readonly treeBytes: number;
  private readonly data: Decoder;

  /** Parses and checks the file; throws MmdbError saying what is wrong. */
  constructor(private readonly buf: Buffer) {
    const searchFrom = Math.max(0, buf.length - METADATA_MAX_BYTES);
    const marker = buf.lastIndexOf(METADATA_MARKER);
    if (marker < searchFrom || marker < 0) throw new MmdbError('not a MaxMind DB file (no metadata marker)');
    const metaStart = marker + METADATA_MARKER.length;
    let raw: MmdbDecoded;
    try {
      [raw] = new Decoder(buf.subarray(0, buf.length), metaStart).decode(0);
    } catch (err) {
      throw new MmdbError(`unreadable metadata: ${(err as Error).message}`);
    }
    if (!isObject(raw)) throw new MmdbError('the metadata is not a map');
    const num = (key: string): number => {
      const v = raw[key];
      if (typeof v === 'number') return v;
      if (typeof v === 'bigint' && v <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(v);
      throw new MmdbError(`metadata ${key} missing or not a number`);
    };
    if (num('binary_format_major_version') !== 2) throw new MmdbError('not format version 2');
    const recordSize = num('record_size');
    if (recordSize !== 24 && recordSize !== 28 && recordSize !== 32) {
      throw new MmdbError(`unsupported record size ${recordSize}`);
    }
    const ipVersion = num('ip_version');
    if (ipVersion !== 4 && ipVersion !== 6) throw new MmdbError(`unsupported ip_version ${ipVersion}`);
    const nodeCount = num('node_count');
    const databaseType = raw.database_type;
    if (typeof databaseType !== 'string' || databaseType === '') throw new MmdbError('metadata database_type missing');
    const languages = Array.isArray(raw.languages)
      ? raw.languages.filter((l): l is string => typeof l === 'string')
      : [];
    this.treeBytes = (nodeCount * recordSize * 2) / 8;
    if (nodeCount < 1 || this.treeBytes + 16 > marker) throw new MmdbError('the search tree does not fit the file');
    this.metadata = {
      nodeCount,
      recordSize,
      ipVersion,
      databaseType,
      buildEpoch: num('build_epoch'),
      languages,
    };
    this.data = new Decoder(buf, this.treeBytes + 16);
  }

  /** The two records of tree node `node`. */
  private records(node: number): [number, number] {
    const { recordSize } = this.metadata;
    const at = (node * recordSize * 2) / 8;
    const b = this.buf;
    if (recordSize === 24) return [b.readUIntBE(at, 3), b.readUIntBE(at + 3, 3)];
    if (recordSize === 32) return [b.readUInt32BE(at), b.readUInt32BE(at + 4)];
    const middle = b[at + 3] as number;
    return [((middle & 0xf0) << 20) | b.readUIntBE(at, 3), ((middle & 0x0f) << 24) | b.readUIntBE(at + 4, 3)];
  }

  /** Every data offset the tree points at (a depth-first walk, each node once). */
  private dataOffsets(): Set<number> {
    const { nodeCount } = this.metadata;
    const offsets = new Set<number>();
    const seen = new Uint8Array(nodeCount);
    const stack = [0];
    while (stack.length > 0) {
      const node = stack.pop() as number;
      if (seen[node]) continue;
      seen[node] = 1;
      for (const record of this.records(node)) {
        if (record < nodeCount) stack.push(record);
        else if (record > nodeCount) offsets.add(record - nodeCount - 16);
      }
    }
    return offsets;
  }

  /** The record at a data offset (tests and the city walk). */
  record(offset: number): MmdbDecoded {
    return this.data.decode(offset)[0];
  }

  /** The address's record, or undefined when the database places it nowhere (the analytics' ingest, tests). */
  lookup(ip: string): MmdbDecoded | undefined {
    // An IPv4 database places no IPv6 address (libmaxminddb refuses the lookup): its first 32
    // bits would otherwise be read as an IPv4 address.
    if (this.metadata.ipVersion === 4 && ip.includes(':')) return undefined;
    const bits = ipBits(ip, this.metadata.ipVersion);
    const { nodeCount } = this.metadata;
    let node = 0;
    for (const bit of bits) {
      if (node >= nodeCount) break;
      node = this.records(node)[bit] as number;
    }
    if (node <= nodeCount) return undefined;
    return this.record(node - nodeCount - 16);
  }

  /**
   * The cities of the database (none in a Country database), by GeoNames id. Only each record's
   * `city` and `country` are decoded; the walk yields to the event loop every few thousand records
   * (a GeoLite2 City file holds hundreds of thousands).
   */
  async cities(): Promise<MmdbCity[]> {
    const byId = new Map<number, MmdbCity>();
    let done = 0;
    for (const offset of this.dataOffsets()) {
      if (++done % 5000 === 0) await new Promise((resolve) => setImmediate(resolve));
      const rec = this.data.pick(offset, CITY_KEYS);
      const city = rec.city;
      const country = rec.country;
      if (!isObject(city) || !isObject(country)) continue;
      const id = city.geoname_id;
      const code = country.iso_code;
      if (typeof id !== 'number' || typeof code !== 'string' || byId.has(id)) continue;
      const names: Record<string, string> = {};
      if (isObject(city.names)) {
        for (const [lang, name] of Object.entries(city.names)) if (typeof name === 'string') names[lang] = name;
      }
      byId.set(id, { geonameId: id, country: code.toUpperCase(), names });
    }
    return [...byId.values()];
  }

  /**
   * The autonomous systems the database's records name (asnOf), number → organisation ("" when
   * the record names none). Only the ASN keys of each record are decoded; the walk yields to the
   * event loop every few thousand records, as the cities' walk.
   */
  async asns(): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    let done = 0;
    for (const offset of this.dataOffsets()) {
      if (++done % 5000 === 0) await new Promise((resolve) => setImmediate(resolve));
      const as = asnOf(this.data.pick(offset, ASN_KEYS));
      if (as && !out.get(as.number)) out.set(as.number, as.organization);
    }
    return out;
  }

  /**
   * The networks of every country the database places addresses in, as the fewest CIDR blocks
   * per country (adjacent networks of one country merged), IPv4 and IPv6 apart: country code →
   * { v4, v6 }. An IPv6 database's IPv4 part (::/96) counts as IPv4, its aliases of that part
   * (::ffff:0:0/96, 2002::/16) are not walked twice. Walks the whole tree in address order,
   * yielding to the event loop every NETWORK_WALK_SLICE nodes (a City file has millions).
   */
  async countryNetworks(): Promise<Map<string, { v4: string[]; v6: string[] }>> {
    const { nodeCount, ipVersion } = this.metadata;
    const total = ipVersion === 4 ? 128 - 96 : 128;
    // Where the IPv4 part of an IPv6 tree starts (96 zero bits down), to skip its aliases.
    let v4Root = -1;
    if (ipVersion === 6) {
      let node = 0;
      for (let i = 0; i < 96 && node < nodeCount; i++) node = this.records(node)[0];
      if (node < nodeCount) v4Root = node;
    }
    const codeAt = new Map<number, string | null>();
    const codeOf = (offset: number): string | null => {
      let code = codeAt.get(offset);
      if (code !== undefined) return code;
      code = null;
      try {
        const rec = this.data.pick(offset, COUNTRY_KEYS);
        const raw = isObject(rec.country) ? rec.country.iso_code : rec.country_code;
        if (typeof raw === 'string' && /^[A-Za-z]{2}$/.test(raw)) code = raw.toUpperCase();
      } catch {
        // A record the file cannot decode places its addresses nowhere.
      }
      codeAt.set(offset, code);
      return code;
    };
    const ranges = new Map<string, { v4: Range[]; v6: Range[] }>();
    const add = (code: string, family: 'v4' | 'v6', start: bigint, end: bigint) => {
      let entry = ranges.get(code);
      if (!entry) {
        entry = { v4: [], v6: [] };
        ranges.set(code, entry);
      }
      const list = entry[family];
      const last = list[list.length - 1];
      // The walk goes in address order: a network right after the country's last one extends it.
      if (last && last[1] + 1n === start) last[1] = end;
      else list.push([start, end]);
    };
    // Depth-first, the zero side first: networks come in address order. An entry is a record
    // (a node, or a leaf pointing at data) with the depth and first address of its network.
    const stack: [number, number, bigint][] = [[0, 0, 0n]];
    let walked = 0;
    while (stack.length > 0) {
      if (++walked % NETWORK_WALK_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const [record, depth, start] = stack.pop() as [number, number, bigint];
      const span = BigInt(total - depth);
      if (record > nodeCount) {
        const code = codeOf(record - nodeCount - 16);
        if (code === null) continue;
        const end = start + (1n << span) - 1n;
        if (ipVersion === 4) add(code, 'v4', start, end);
        else if (depth >= 96 && end < 1n << 32n) add(code, 'v4', start, end);
        else add(code, 'v6', start, end);
        continue;
      }
      if (record === nodeCount) continue;
      // An alias of the IPv4 part: only its place at ::/96 counts.
      if (record === v4Root && !(depth === 96 && start === 0n)) continue;
      const [left, right] = this.records(record);
      stack.push([right, depth + 1, start | (1n << (span - 1n))], [left, depth + 1, start]);
    }
    const out = new Map<string, { v4: string[]; v6: string[] }>();
    let converted = 0;
    for (const [code, { v4, v6 }] of [...ranges].sort(([a], [b]) => a.localeCompare(b))) {
      const blocks = { v4: [] as string[], v6: [] as string[] };
      for (const [family, list, bits] of [
        ['v4', v4, 32],
        ['v6', v6, 128],
      ] as const) {
        for (const [a, b] of list) {
          if (++converted % NETWORK_WALK_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
          blocks[family].push(...rangeToCidrs(a, b, bits));
        }
      }
      out.set(code, blocks);
    }
    return out;
  }
}

const CITY_KEYS: ReadonlySet<string> = new Set(['city', 'country']);
/** The keys of the two ASN schemas asnOf reads. */
const ASN_KEYS: ReadonlySet<string> = new Set([
  'autonomous_system_number',
  'autonomous_system_organization',
  'asn',
  'as_name',
  'name',
]);
/** The largest autonomous system number (32 bits, RFC 6793). */
const ASN_MAX = 4_294_967_295;

/**
 * The autonomous system a record names, or null: MaxMind's and DB-IP's schema
 * (`autonomous_system_number`, `autonomous_system_organization`) or the flat one of IPinfo's files
 * (`asn` as a number or "AS13335", `as_name` or `name`). ASN 0 (reserved) counts as none.
 */
export function asnOf(rec: MmdbDecoded | undefined): { number: number; organization: string } | null {
  if (!isObject(rec)) return null;
  let raw: MmdbDecoded | undefined = rec.autonomous_system_number;
  let organization: MmdbDecoded | undefined = rec.autonomous_system_organization;
  if (raw === undefined) {
    raw = rec.asn;
    organization = rec.as_name ?? rec.name;
  }
  let asn: number | null = null;
  if (typeof raw === 'number') asn = raw;
  else if (typeof raw === 'bigint' && raw <= BigInt(ASN_MAX)) asn = Number(raw);
  else if (typeof raw === 'string' && /^(AS)?[0-9]{1,10}$/i.test(raw)) asn = Number(raw.replace(/^AS/i, ''));
  if (asn === null || !Number.isInteger(asn) || asn < 1 || asn > ASN_MAX) return null;
  return { number: asn, organization: typeof organization === 'string' ? organization : '' };
}
const COUNTRY_KEYS: ReadonlySet<string> = new Set(['country', 'country_code']);

/** Tree nodes walked between two yields to the event loop. */
const NETWORK_WALK_SLICE = 10_000;

/** A range of addresses [start, end] of one family, both ends included. */
type Range = [bigint, bigint];

/** The fewest CIDR blocks covering [start, end] (addresses of `bits` bits), in address order. */
export function rangeToCidrs(start: bigint, end: bigint, bits: 32 | 128): string[] {
  const out: string[] = [];
  let at = start;
  while (at <= end) {
    // The largest block aligned at `at` that stays within the range.
    let size = 0;
    while (size < bits) {
      const next = 1n << BigInt(size + 1);
      if (at % next !== 0n || at + next - 1n > end) break;
      size++;
    }
    out.push(`${formatIP(bits === 32 ? 4 : 6, at)}/${bits - size}`);
    at += 1n << BigInt(size);
  }
  return out;
}

function ipBits(ip: string, version: 4 | 6): number[] {
  const bitsOf = (value: number, width: number) =>
    Array.from({ length: width }, (_, i) => (value >> (width - 1 - i)) & 1);
  if (!ip.includes(':')) {
    const v4 = ip.split('.').flatMap((p) => bitsOf(Number(p), 8));
    return version === 6 ? [...Array(96).fill(0), ...v4] : v4;
  }
  const [head = '', tail] = ip.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((g) => bitsOf(g, 16));
}
