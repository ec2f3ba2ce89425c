/**
 * A reader of MaxMind DB files (format 2.x, https://maxmind.github.io/MaxMind-DB/): the checks an
 * uploaded geo or ASN database must pass, the cities a City database offers to the region tree,
 * the autonomous systems an ASN database names, and the lookups of the analytics' ingest (whose
 * answers the services remember per address). The edge reads the geo file with libmaxminddb.
 */

import { formatIP } from '@rampart/contract';

const METADATA_MARKER = Buffer.from([0xab, 0xcd, 0xef, ...Buffer.from('MaxMind.com', 'ascii')]);
/** The metadata section is at most this far from the end of the file (the format's bound). */
const METADATA_MAX_BYTES = 128 * 1024;

export type MmdbDecoded = string | number | bigint | boolean | Buffer | MmdbDecoded[] | { [key: string]: MmdbDecoded };

export class MmdbError extends Error {
  override readonly name = 'MmdbError';
}

/** A value's control bytes read: its type, payload size and where the payload starts (absolute). */
interface Header {
  type: number;
  size: number;
  at: number;
  /** For a pointer: the offset it points at, and `at` is just past it. */
  pointer?: number;
}

/** Decodes values of a data section (or the metadata) held in `buf` from `base`. */
class Decoder {
  constructor(
    private readonly buf: Buffer,
    /** Where offsets (and pointers) count from. */
    private readonly base: number,
    /** Nesting bound: a crafted file cannot recurse without end. */
    private readonly maxDepth = 64,
  ) {}

  private byte(i: number): number {
    const b = this.buf[i];
    if (b === undefined) throw new MmdbError('data runs past the end of the file');
    return b;
  }

  private header(offset: number): Header {
    let at = this.base + offset;
    const ctrl = this.byte(at++);
    let type = ctrl >> 5;
    if (type === 1) {
      // A pointer: size bits say how many bytes follow.
      const ss = (ctrl >> 3) & 3;
      const vvv = ctrl & 7;
      const b = (i: number) => this.byte(at + i);
      let pointer: number;
      if (ss === 0) pointer = (vvv << 8) | b(0);
      else if (ss === 1) pointer = ((vvv << 16) | (b(0) << 8) | b(1)) + 2048;
      else if (ss === 2) pointer = ((vvv << 24) | (b(0) << 16) | (b(1) << 8) | b(2)) + 526_336;
      else pointer = b(0) * 2 ** 24 + ((b(1) << 16) | (b(2) << 8) | b(3));
      return { type, size: 0, at: at + ss + 1, pointer };
    }
    if (type === 0) type = 7 + this.byte(at++);
    let size = ctrl & 31;
    if (size === 29) size = 29 + this.byte(at++);
    else if (size === 30) {
      size = 285 + ((this.byte(at) << 8) | this.byte(at + 1));
      at += 2;
    } else if (size === 31) {
      size = 65_821 + ((this.byte(at) << 16) | (this.byte(at + 1) << 8) | this.byte(at + 2));
      at += 3;
    }
    return { type, size, at };
  }

  /** The offset just past the value at `offset`, read without building it (a pointer is not followed). */
  skip(offset: number, depth = 0): number {
    if (depth > this.maxDepth) throw new MmdbError('data nested too deeply');
    const h = this.header(offset);
    if (h.pointer !== undefined) return h.at - this.base;
    if (h.type === 14) return h.at - this.base;
    if (h.type === 7 || h.type === 11) {
      let next = h.at - this.base;
      const items = h.type === 7 ? h.size * 2 : h.size;
      for (let i = 0; i < items; i++) next = this.skip(next, depth + 1);
      return next;
    }
    if (h.at + h.size > this.buf.length) throw new MmdbError('data runs past the end of the file');
    return h.at + h.size - this.base;
  }

  /**
   * The values of the map at `offset` (a pointer to one followed) whose keys are among `wanted`,
   * decoded; the other values are skipped unread.
   */
  pick(offset: number, wanted: ReadonlySet<string>): Record<string, MmdbDecoded> {
    let h = this.header(offset);
    if (h.pointer !== undefined) h = this.header(h.pointer);
    const out: Record<string, MmdbDecoded> = {};
    if (h.type !== 7) return out;
    let next = h.at - this.base;
    for (let i = 0; i < h.size; i++) {
      const [key, afterKey] = this.decode(next);
      if (typeof key === 'string' && wanted.has(key)) {
        const [value, afterValue] = this.decode(afterKey);
        out[key] = value;
        next = afterValue;
      } else {
        next = this.skip(afterKey);
      }
    }
    return out;
  }

  /** The value at `offset` (from base) and the offset just past it. */
  decode(offset: number, depth = 0): [MmdbDecoded, number] {
    if (depth > this.maxDepth) throw new MmdbError('data nested too deeply');
    const h = this.header(offset);
    if (h.pointer !== undefined) return [this.decode(h.pointer, depth + 1)[0], h.at - this.base];
    const { type, size, at } = h;
    const end = at + size;
    const take = (): Buffer => {
      if (end > this.buf.length) throw new MmdbError('data runs past the end of the file');
      return this.buf.subarray(at, end);
    };
    const uint = (): number | bigint => {
      const bytes = take();
      if (size <= 6) return size === 0 ? 0 : bytes.readUIntBE(0, size);
      let v = 0n;
      for (const b of bytes) v = (v << 8n) | BigInt(b);
      return v;
    };
    switch (type) {
      case 2:
        return [take().toString('utf8'), end - this.base];
      case 3:
        if (size !== 8) throw new MmdbError('a double of the wrong size');
        return [take().readDoubleBE(0), end - this.base];
      case 4:
        return [Buffer.from(take()), end - this.base];
      case 5:
      case 6:
        return [Number(uint()), end - this.base];
      case 8:
        return [size === 0 ? 0 : take().readIntBE(0, Math.min(size, 6)), end - this.base];
      case 9:
      case 10:
        return [BigInt(uint()), end - this.base];
      case 14:
        return [size !== 0, at - this.base];
      case 15:
        if (size !== 4) throw new MmdbError('a float of the wrong size');
        return [take().readFloatBE(0), end - this.base];
      case 7: {
        const out: { [key: string]: MmdbDecoded } = {};
        let next = at - this.base;
        for (let i = 0; i < size; i++) {
          const [key, afterKey] = this.decode(next, depth + 1);
          if (typeof key !== 'string') throw new MmdbError('a map key that is not a string');
          const [value, afterValue] = this.decode(afterKey, depth + 1);
          out[key] = value;
          next = afterValue;
        }
        return [out, next];
      }
      case 11: {
        const out: MmdbDecoded[] = [];
        let next = at - this.base;
        for (let i = 0; i < size; i++) {
          const [value, after] = this.decode(next, depth + 1);
          out.push(value);
          next = after;
        }
        return [out, next];
      }
      default:
        throw new MmdbError(`unknown data type ${type}`);
    }
  }
}

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
