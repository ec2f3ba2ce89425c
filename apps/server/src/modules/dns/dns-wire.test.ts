import { describe, expect, it } from 'vitest';
import { addressBytes, formatIPv6, recordSet } from './dns-provider.js';
import {
  buildQuery,
  buildUpdate,
  decodeName,
  encodeName,
  encodeRdata,
  parseMessage,
  signMessage,
  type TsigKey,
  verifyResponse,
} from './dns-wire.js';

const key: TsigKey = { name: 'Rampart-Key', algorithm: 'hmac-sha256', secret: Buffer.alloc(32, 7).toString('base64') };

describe('DNS wire format', () => {
  it('encodes names and reads compressed ones back', () => {
    expect(encodeName('a.bc.')).toEqual(Buffer.from([1, 97, 2, 98, 99, 0]));
    expect(encodeName('')).toEqual(Buffer.from([0]));
    expect(() => encodeName(`${'x'.repeat(64)}.test`)).toThrow('invalid DNS name');
    // "www" followed by a pointer to "example.test" at offset 0.
    const message = Buffer.concat([encodeName('example.test'), Buffer.from([3, 119, 119, 119, 0xc0, 0])]);
    expect(decodeName(message, 14)).toEqual({ name: 'www.example.test', end: 20 });
    const loop = Buffer.from([0xc0, 0]);
    expect(() => decodeName(loop, 0)).toThrow('loop');
  });

  it('writes TXT values longer than 255 bytes as several strings, and addresses as bytes', () => {
    const long = 'x'.repeat(300);
    const rdata = encodeRdata('TXT', long);
    expect(rdata[0]).toBe(255);
    expect(rdata[256]).toBe(45);
    expect(rdata.length).toBe(302);
    expect(encodeRdata('TXT', '')).toEqual(Buffer.from([0]));
    expect(encodeRdata('A', '192.0.2.1')).toEqual(Buffer.from([192, 0, 2, 1]));
    expect(() => encodeRdata('A', '2001:db8::1')).toThrow('not an IPv4');
    expect(formatIPv6(addressBytes('2001:db8:0:0:1:0:0:1') as Buffer)).toBe('2001:db8::1:0:0:1');
    expect(formatIPv6(addressBytes('::') as Buffer)).toBe('::');
    expect(formatIPv6(addressBytes('::ffff:192.0.2.1') as Buffer)).toBe('::ffff:c000:201');
    expect(recordSet('WWW.Example.Test.', 'AAAA', 60, ['2001:DB8::1', '2001:db8:0::1']).values).toEqual([
      '2001:db8::1',
    ]);
  });

  it('builds an UPDATE with its zone, deletes and adds', () => {
    const update = buildUpdate(0x1234, 'example.test', [
      { op: 'deleteSet', name: 'www.example.test', type: 'A' },
      { op: 'add', name: 'www.example.test', type: 'A', ttl: 60, value: '192.0.2.1' },
    ]);
    expect(update.readUInt16BE(0)).toBe(0x1234);
    expect(update.readUInt16BE(2) >> 11).toBe(5);
    expect([4, 6, 8, 10].map((o) => update.readUInt16BE(o))).toEqual([1, 0, 2, 0]);
  });

  it('signs with TSIG and checks an answer signed the same way; a changed byte or key is refused', () => {
    const { signed, mac } = signMessage(buildQuery(7, 'example.test', 'SOA'), key);
    const parsed = parseMessage(signed);
    expect(parsed.additionals.at(-1)).toMatchObject({ name: 'rampart-key', type: 250 });
    expect(signed.readUInt16BE(10)).toBe(1);

    // An answer signed over the request's MAC, as a server signs it.
    const answer = signMessage(buildQuery(7, 'example.test', 'SOA'), key, Date.now(), mac).signed;
    expect(() => verifyResponse(answer, parseMessage(answer), key, mac)).not.toThrow();
    const tampered = Buffer.from(answer);
    tampered[3] = (tampered[3] ?? 0) ^ 0x01;
    expect(() => verifyResponse(tampered, parseMessage(tampered), key, mac)).toThrow(
      'signature of the answer is wrong',
    );
    const other = { ...key, secret: Buffer.alloc(32, 8).toString('base64') };
    expect(() => verifyResponse(answer, parseMessage(answer), other, mac)).toThrow('wrong');
    const unsigned = buildQuery(7, 'example.test', 'SOA');
    expect(() => verifyResponse(unsigned, parseMessage(unsigned), key, mac)).toThrow('did not sign');
  });
});
