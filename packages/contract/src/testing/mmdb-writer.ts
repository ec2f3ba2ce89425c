/**
 * A minimal MaxMind DB (format 2.0) writer for tests: the product ships no geo database and tests
 * fetch none, so they build a small one (docs/decisions.md "Geo rules"). It writes an IPv6 tree
 * (IPv4 networks under ::/96, as MaxMind's databases keep them) with 24-bit records, a data section
 * without pointers and the metadata map. Enough for libmaxminddb and the server's reader; not for
 * large databases.
 */

/** A value the data section holds. Integers become uint32 (or uint64 beyond), other numbers doubles. */
export type MmdbValue =
  | string
  | number
  | bigint
  | boolean
  | MmdbTyped
  | MmdbPointer
  | MmdbValue[]
  | { [key: string]: MmdbValue };

/** A pointer to the value at `offset` of the data section (as real databases share their maps). */
export class MmdbPointer {
  constructor(readonly offset: number) {}
}

/** An unsigned integer written with the given type (the metadata's fields must have theirs). */
export class MmdbTyped {
  constructor(
    readonly type: 'uint16' | 'uint32' | 'uint64',
    readonly value: number | bigint,
  ) {}
}
const TYPED_CODES = { uint16: 5, uint32: 6, uint64: 9 } as const;

export interface MmdbNetwork {
  /** `a.b.c.d/len` or an IPv6 CIDR. */
  cidr: string;
  data: { [key: string]: MmdbValue };
}

export interface MmdbOptions {
  databaseType: string;
  languages?: string[];
  description?: string;
  buildEpoch?: number;
  /** Bits per record: 24 (the default), 28 (GeoLite2's) or 32. */
  recordSize?: 24 | 28 | 32;
  /** For tests of the upload's checks: values written into the metadata as they are. */
  metadataOverrides?: { [key: string]: MmdbValue };
}

function ipv4Bits(ip: string): number[] {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new Error(`not an IPv4 address: ${ip}`);
  }
  return parts.flatMap((p) => Array.from({ length: 8 }, (_, i) => (p >> (7 - i)) & 1));
}

function ipv6Bits(ip: string): number[] {
  const [head = '', tail] = ip.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  if (all.length !== 8) throw new Error(`not an IPv6 address: ${ip}`);
  return all.flatMap((g) => Array.from({ length: 16 }, (_, i) => (g >> (15 - i)) & 1));
}

/** The 128 bits of a network's prefix and its length in the IPv6 tree. */
function prefixBits(cidr: string): number[] {
  const [ip = '', len] = cidr.split('/');
  if (ip.includes(':')) return ipv6Bits(ip).slice(0, len === undefined ? 128 : Number(len));
  return [...Array(96).fill(0), ...ipv4Bits(ip).slice(0, len === undefined ? 32 : Number(len))];
}

function control(type: number, size: number): number[] {
  const out: number[] = [];
  let sizeBits: number;
  let extra: number[] = [];
  if (size < 29) sizeBits = size;
  else if (size < 285) {
    sizeBits = 29;
    extra = [size - 29];
  } else if (size < 65_821) {
    sizeBits = 30;
    const v = size - 285;
    extra = [v >> 8, v & 0xff];
  } else {
    sizeBits = 31;
    const v = size - 65_821;
    extra = [(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff];
  }
  if (type <= 7) out.push((type << 5) | sizeBits);
  else out.push(sizeBits, type - 7);
  return [...out, ...extra];
}

function uintBytes(value: bigint): number[] {
  const out: number[] = [];
  let v = value;
  while (v > 0n) {
    out.unshift(Number(v & 0xffn));
    v >>= 8n;
  }
  return out;
}

/** The data-section bytes of one value (no pointers). */
export function encodeMmdbValue(value: MmdbValue): number[] {
  if (typeof value === 'string') {
    const bytes = [...Buffer.from(value, 'utf8')];
    return [...control(2, bytes.length), ...bytes];
  }
  if (typeof value === 'boolean') return control(14, value ? 1 : 0);
  if (value instanceof MmdbPointer) {
    const { offset } = value;
    if (offset < 2048) return [0x20 | (offset >> 8), offset & 0xff];
    const v = offset - 2048;
    if (v < 524_288) return [0x28 | (v >> 16), (v >> 8) & 0xff, v & 0xff];
    throw new Error('pointer beyond the test writer');
  }
  if (value instanceof MmdbTyped) {
    const bytes = uintBytes(BigInt(value.value));
    return [...control(TYPED_CODES[value.type], bytes.length), ...bytes];
  }
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value) && value >= 0)) {
    const big = BigInt(value);
    const bytes = uintBytes(big);
    const type = big < 65_536n ? 5 : big < 4_294_967_296n ? 6 : 9;
    return [...control(type, bytes.length), ...bytes];
  }
  if (typeof value === 'number') {
    const buf = Buffer.alloc(8);
    buf.writeDoubleBE(value);
    return [...control(3, 8), ...buf];
  }
  if (Array.isArray(value)) return [...control(11, value.length), ...value.flatMap(encodeMmdbValue)];
  const entries = Object.entries(value);
  return [
    ...control(7, entries.length),
    ...entries.flatMap(([k, v]) => [...encodeMmdbValue(k), ...encodeMmdbValue(v)]),
  ];
}

interface TrieNode {
  children: [TrieNode | number | null, TrieNode | number | null];
}

/** A MaxMind DB file holding `networks` (later ones win where they overlap an earlier one's leaf). */
export function writeMmdb(networks: MmdbNetwork[], options: MmdbOptions): Buffer {
  const data: number[] = [];
  const offsets: number[] = [];
  for (const network of networks) {
    offsets.push(data.length);
    data.push(...encodeMmdbValue(network.data));
  }
  const root: TrieNode = { children: [null, null] };
  networks.forEach((network, index) => {
    const bits = prefixBits(network.cidr);
    if (bits.length === 0) throw new Error('a network needs a prefix');
    let node = root;
    for (let i = 0; i < bits.length - 1; i++) {
      const bit = bits[i] as 0 | 1;
      let next = node.children[bit];
      if (next === null || typeof next === 'number') {
        next = { children: [next, next] };
        node.children[bit] = next;
      }
      node = next;
    }
    node.children[bits[bits.length - 1] as 0 | 1] = -(index + 1);
  });
  // Number the nodes breadth first.
  const order: TrieNode[] = [];
  const ids = new Map<TrieNode, number>();
  const queue: TrieNode[] = [root];
  while (queue.length > 0) {
    const node = queue.shift() as TrieNode;
    ids.set(node, order.length);
    order.push(node);
    for (const child of node.children) if (child !== null && typeof child !== 'number') queue.push(child);
  }
  const nodeCount = order.length;
  const record = (child: TrieNode | number | null): number => {
    if (child === null) return nodeCount;
    if (typeof child === 'number') return nodeCount + 16 + (offsets[-child - 1] as number);
    return ids.get(child) as number;
  };
  const recordSize = options.recordSize ?? 24;
  const nodeBytes = (recordSize * 2) / 8;
  const tree = Buffer.alloc(nodeCount * nodeBytes);
  order.forEach((node, i) => {
    const [left, right] = [record(node.children[0]), record(node.children[1])];
    const at = i * nodeBytes;
    if (recordSize === 24) {
      tree.writeUIntBE(left, at, 3);
      tree.writeUIntBE(right, at + 3, 3);
    } else if (recordSize === 32) {
      tree.writeUInt32BE(left, at);
      tree.writeUInt32BE(right, at + 4);
    } else {
      // 28 bits: the middle byte holds the high nibble of each record.
      tree.writeUIntBE(left & 0xffffff, at, 3);
      tree[at + 3] = ((left >>> 24) << 4) | (right >>> 24);
      tree.writeUIntBE(right & 0xffffff, at + 4, 3);
    }
  });
  const metadata: { [key: string]: MmdbValue } = {
    binary_format_major_version: new MmdbTyped('uint16', 2),
    binary_format_minor_version: new MmdbTyped('uint16', 0),
    build_epoch: new MmdbTyped('uint64', options.buildEpoch ?? 1_700_000_000),
    database_type: options.databaseType,
    description: { en: options.description ?? 'Rampart test database' },
    ip_version: new MmdbTyped('uint16', 6),
    languages: options.languages ?? ['en'],
    node_count: new MmdbTyped('uint32', nodeCount),
    record_size: new MmdbTyped('uint16', recordSize),
    ...options.metadataOverrides,
  };
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    Buffer.from(data),
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com', 'ascii'),
    Buffer.from(encodeMmdbValue(metadata)),
  ]);
}

/** A City-style record: country and, with `city`, the city's geoname id and names. */
export function geoRecord(
  country: string,
  city?: { geonameId: number; names: { [lang: string]: string } },
): { [key: string]: MmdbValue } {
  return {
    continent: { code: 'XX' },
    country: { iso_code: country, names: { en: country } },
    ...(city ? { city: { geoname_id: city.geonameId, names: city.names } } : {}),
  };
}

/** A GeoLite2-ASN-style record: the autonomous system's number and organisation. */
export function asnRecord(asn: number, organization: string): { [key: string]: MmdbValue } {
  return { autonomous_system_number: asn, autonomous_system_organization: organization };
}
