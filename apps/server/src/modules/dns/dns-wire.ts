import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { addressBytes, DnsProviderError, formatIPv6, type RecordType } from './dns-provider.js';

/**
 * The DNS wire format the RFC 2136 provider needs (RFC 1035 messages, RFC 2136 UPDATE, RFC 8945
 * TSIG), sent over TCP (RFC 7766: two-byte length prefix). Only what the provider uses: queries
 * for one name and type, updates that delete or add record sets, and TSIG signing and checking of
 * both.
 */

export const TYPE_CODES: Readonly<Record<RecordType | 'SOA' | 'TSIG', number>> = {
  A: 1,
  CNAME: 5,
  SOA: 6,
  TXT: 16,
  AAAA: 28,
  TSIG: 250,
};
const CLASS_IN = 1;
const CLASS_NONE = 254;
const CLASS_ANY = 255;
const OPCODE_UPDATE = 5;
export const RCODE_NAMES: Readonly<Record<number, string>> = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
  6: 'YXDOMAIN',
  7: 'YXRRSET',
  8: 'NXRRSET',
  9: 'NOTAUTH',
  10: 'NOTZONE',
  16: 'BADSIG',
  17: 'BADKEY',
  18: 'BADTIME',
};

/** A name in wire form (uncompressed; letters kept as given). */
export function encodeName(name: string): Buffer {
  const trimmed = name.replace(/\.$/, '');
  const parts: Buffer[] = [];
  if (trimmed !== '') {
    for (const label of trimmed.split('.')) {
      const bytes = Buffer.from(label, 'ascii');
      if (bytes.length === 0 || bytes.length > 63) throw new DnsProviderError(`invalid DNS name ${name}`);
      parts.push(Buffer.from([bytes.length]), bytes);
    }
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/** Reads a (possibly compressed) name at `offset`; returns it without trailing dot and where it ends. */
export function decodeName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let pos = offset;
  let end = -1;
  for (let hops = 0; hops < 64; hops++) {
    const len = message[pos];
    if (len === undefined) throw new DnsProviderError('truncated DNS message');
    if (len === 0) {
      if (end < 0) end = pos + 1;
      return { name: labels.join('.'), end };
    }
    if ((len & 0xc0) === 0xc0) {
      if (end < 0) end = pos + 2;
      pos = message.readUInt16BE(pos) & 0x3fff;
      continue;
    }
    labels.push(message.toString('ascii', pos + 1, pos + 1 + len));
    pos += 1 + len;
  }
  throw new DnsProviderError('DNS name compression loop');
}

export function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** RDATA of one value. */
export function encodeRdata(type: RecordType, value: string): Buffer {
  switch (type) {
    case 'A':
    case 'AAAA': {
      const bytes = addressBytes(value);
      if (bytes === null || bytes.length !== (type === 'A' ? 4 : 16)) {
        throw new DnsProviderError(`${value} is not an ${type === 'A' ? 'IPv4' : 'IPv6'} address`);
      }
      return bytes;
    }
    case 'CNAME':
      return encodeName(value);
    case 'TXT': {
      const text = Buffer.from(value, 'utf8');
      const chunks: Buffer[] = [];
      for (let i = 0; i === 0 || i < text.length; i += 255) {
        const chunk = text.subarray(i, i + 255);
        chunks.push(Buffer.from([chunk.length]), chunk);
      }
      return Buffer.concat(chunks);
    }
  }
}

function decodeRdata(message: Buffer, type: number, start: number, length: number): string | null {
  const rdata = message.subarray(start, start + length);
  if (type === TYPE_CODES.A && length === 4) return Array.from(rdata).join('.');
  if (type === TYPE_CODES.AAAA && length === 16) return formatIPv6(rdata);
  if (type === TYPE_CODES.CNAME) return decodeName(message, start).name.toLowerCase();
  if (type === TYPE_CODES.TXT) {
    const parts: Buffer[] = [];
    for (let i = 0; i < rdata.length; ) {
      const len = rdata[i] ?? 0;
      parts.push(rdata.subarray(i + 1, i + 1 + len));
      i += 1 + len;
    }
    return Buffer.concat(parts).toString('utf8');
  }
  return null;
}

export interface ResourceRecord {
  readonly name: string;
  readonly type: number;
  readonly klass: number;
  readonly ttl: number;
  /** The decoded value for A, AAAA, CNAME and TXT; null for other types. */
  readonly value: string | null;
  /** Offset of the record in the message (TSIG checking cuts there). */
  readonly offset: number;
  readonly rdataStart: number;
  readonly rdataLength: number;
}

export interface Message {
  readonly id: number;
  readonly rcode: number;
  readonly answers: readonly ResourceRecord[];
  readonly additionals: readonly ResourceRecord[];
}

/** Parses a message's header, answers and additionals (authority records are skipped). */
export function parseMessage(message: Buffer): Message {
  if (message.length < 12) throw new DnsProviderError('truncated DNS message');
  const id = message.readUInt16BE(0);
  const rcode = message.readUInt16BE(2) & 0x0f;
  const [qd, an, ns, ar] = [4, 6, 8, 10].map((o) => message.readUInt16BE(o)) as [number, number, number, number];
  let pos = 12;
  for (let i = 0; i < qd; i++) pos = decodeName(message, pos).end + 4;
  const records: ResourceRecord[] = [];
  for (let i = 0; i < an + ns + ar; i++) {
    const offset = pos;
    const { name, end } = decodeName(message, pos);
    if (end + 10 > message.length) throw new DnsProviderError('truncated DNS message');
    const type = message.readUInt16BE(end);
    const klass = message.readUInt16BE(end + 2);
    const ttl = message.readUInt32BE(end + 4);
    const rdataLength = message.readUInt16BE(end + 8);
    const rdataStart = end + 10;
    if (rdataStart + rdataLength > message.length) throw new DnsProviderError('truncated DNS message');
    records.push({
      name: name.toLowerCase(),
      type,
      klass,
      ttl,
      value: decodeRdata(message, type, rdataStart, rdataLength),
      offset,
      rdataStart,
      rdataLength,
    });
    pos = rdataStart + rdataLength;
  }
  return { id, rcode, answers: records.slice(0, an), additionals: records.slice(an + ns) };
}

function header(id: number, flags: number, counts: [number, number, number, number]): Buffer {
  return Buffer.concat([u16(id), u16(flags), ...counts.map(u16)]);
}

/** A query for `name`/`type` (no recursion wanted: the server is authoritative). */
export function buildQuery(id: number, name: string, type: RecordType | 'SOA'): Buffer {
  return Buffer.concat([header(id, 0, [1, 0, 0, 0]), encodeName(name), u16(TYPE_CODES[type]), u16(CLASS_IN)]);
}

export type UpdateOp =
  /** Deletes the whole record set of `name`/`type`. */
  | { readonly op: 'deleteSet'; readonly name: string; readonly type: RecordType }
  /** Deletes one record of a set. */
  | { readonly op: 'deleteValue'; readonly name: string; readonly type: RecordType; readonly value: string }
  | {
      readonly op: 'add';
      readonly name: string;
      readonly type: RecordType;
      readonly ttl: number;
      readonly value: string;
    };

/** An RFC 2136 UPDATE of `zone` (no prerequisites) doing `ops` in order. */
export function buildUpdate(id: number, zone: string, ops: readonly UpdateOp[]): Buffer {
  const parts: Buffer[] = [
    header(id, OPCODE_UPDATE << 11, [1, 0, ops.length, 0]),
    encodeName(zone),
    u16(TYPE_CODES.SOA),
    u16(CLASS_IN),
  ];
  for (const op of ops) {
    parts.push(encodeName(op.name), u16(TYPE_CODES[op.type]));
    if (op.op === 'deleteSet') {
      parts.push(u16(CLASS_ANY), u32(0), u16(0));
    } else {
      const rdata = encodeRdata(op.type, op.value);
      parts.push(
        u16(op.op === 'add' ? CLASS_IN : CLASS_NONE),
        u32(op.op === 'add' ? op.ttl : 0),
        u16(rdata.length),
        rdata,
      );
    }
  }
  return Buffer.concat(parts);
}

export interface TsigKey {
  readonly name: string;
  readonly algorithm: 'hmac-sha256' | 'hmac-sha512';
  /** The secret, base64. */
  readonly secret: string;
}

const FUDGE = 300;

function time48(seconds: number): Buffer {
  const b = Buffer.alloc(6);
  b.writeUIntBE(seconds, 0, 6);
  return b;
}

function tsigMac(key: TsigKey, parts: readonly Buffer[]): Buffer {
  const hmac = createHmac(key.algorithm === 'hmac-sha256' ? 'sha256' : 'sha512', Buffer.from(key.secret, 'base64'));
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

/** The TSIG variables of RFC 8945 §4.3.3 (names in canonical lower case). */
function tsigVariables(key: TsigKey, timeSigned: number, error: number, other: Buffer): Buffer {
  return Buffer.concat([
    encodeName(key.name.toLowerCase()),
    u16(CLASS_ANY),
    u32(0),
    encodeName(key.algorithm),
    time48(timeSigned),
    u16(FUDGE),
    u16(error),
    u16(other.length),
    other,
  ]);
}

/**
 * Signs `message` (its ARCOUNT not counting the TSIG); returns the signed message and its MAC. An
 * answer is signed over the MAC of the request it answers first (`requestMac`, RFC 8945 §5.3).
 */
export function signMessage(
  message: Buffer,
  key: TsigKey,
  now = Date.now(),
  requestMac?: Buffer,
): { signed: Buffer; mac: Buffer } {
  const timeSigned = Math.floor(now / 1000);
  const prior = requestMac ? [u16(requestMac.length), requestMac] : [];
  const mac = tsigMac(key, [...prior, message, tsigVariables(key, timeSigned, 0, Buffer.alloc(0))]);
  const rdata = Buffer.concat([
    encodeName(key.algorithm),
    time48(timeSigned),
    u16(FUDGE),
    u16(mac.length),
    mac,
    message.subarray(0, 2),
    u16(0),
    u16(0),
  ]);
  const tsig = Buffer.concat([
    encodeName(key.name),
    u16(TYPE_CODES.TSIG),
    u16(CLASS_ANY),
    u32(0),
    u16(rdata.length),
    rdata,
  ]);
  const signed = Buffer.concat([message, tsig]);
  signed.writeUInt16BE(message.readUInt16BE(10) + 1, 10);
  return { signed, mac };
}

/**
 * Checks the TSIG of a response to a request whose MAC was `requestMac` (RFC 8945 §5.3); throws
 * when it is missing, signed by another key or wrong. A server that could not check the request
 * answers without a MAC and with the TSIG error set: that error is reported.
 */
export function verifyResponse(response: Buffer, parsed: Message, key: TsigKey, requestMac: Buffer): void {
  const tsig = parsed.additionals.at(-1);
  if (!tsig || tsig.type !== TYPE_CODES.TSIG) throw new DnsProviderError('the server did not sign its answer (TSIG)');
  let pos = tsig.rdataStart;
  const algorithm = decodeName(response, pos);
  pos = algorithm.end;
  const timeSigned = response.readUIntBE(pos, 6);
  const macSize = response.readUInt16BE(pos + 8);
  const mac = response.subarray(pos + 10, pos + 10 + macSize);
  pos += 10 + macSize;
  const originalId = response.readUInt16BE(pos);
  const error = response.readUInt16BE(pos + 2);
  const otherLen = response.readUInt16BE(pos + 4);
  const other = response.subarray(pos + 6, pos + 6 + otherLen);
  if (error !== 0) throw new DnsProviderError(`TSIG ${RCODE_NAMES[error] ?? `error ${error}`}`);
  if (tsig.name !== key.name.toLowerCase().replace(/\.$/, '') || algorithm.name.toLowerCase() !== key.algorithm) {
    throw new DnsProviderError('the answer is signed with another TSIG key');
  }
  const unsigned = Buffer.from(response.subarray(0, tsig.offset));
  unsigned.writeUInt16BE(originalId, 0);
  unsigned.writeUInt16BE(unsigned.readUInt16BE(10) - 1, 10);
  const expected = tsigMac(key, [
    u16(requestMac.length),
    requestMac,
    unsigned,
    tsigVariables(key, timeSigned, 0, other),
  ]);
  if (expected.length !== mac.length || !timingSafeEqual(expected, mac)) {
    throw new DnsProviderError('the TSIG signature of the answer is wrong');
  }
  if (Math.abs(Date.now() / 1000 - timeSigned) > FUDGE) throw new DnsProviderError('TSIG BADTIME in the answer');
}

export function randomId(): number {
  return randomInt(0, 0x10000);
}
