import { describe, expect, it } from 'vitest';
import { dataPlaneSchema, emptyEdgeFirewall } from '../edge/data-plane.js';
import {
  abuseIPFileOf,
  abuseIPRanges,
  decodeAbuseIPFile,
  edgeAbuseIPsSchema,
  edgeReputationSchema,
  encodeAbuseIPFile,
} from '../edge/reputation.js';
import {
  ABUSE_IP_IMPORT_ERRORS_MAX,
  ABUSE_IP_IMPORT_ROWS_MAX,
  abuseIPImportSchema,
  abuseIPInputSchema,
  abuseIPSettingInputSchema,
  formatIP,
  normalizeAbuseIP,
  parseAbuseIPImport,
} from './firewall-reputation.js';

const issueKeys = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('abuse IP entries', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    [' 1.2.3.4 ', '1.2.3.4'],
    ['10.1.2.3/24', '10.1.2.0/24'],
    ['10.1.2.3/32', '10.1.2.3'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8::1/128', '2001:db8::1'],
    ['2001:db8:1234::/32', '2001:db8::/32'],
    ['::', '::'],
    ['::1', '::1'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    // IPv4-mapped addresses and blocks are IPv4 (the edge matches such clients as IPv4).
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
  ])('stores %s as %s', (input, stored) => {
    expect(normalizeAbuseIP(input)?.ip).toBe(stored);
  });

  it('knows the addresses an entry covers', () => {
    expect(normalizeAbuseIP('10.1.2.3/24')).toEqual({
      ip: '10.1.2.0/24',
      version: 4,
      first: 0x0a010200n,
      last: 0x0a0102ffn,
    });
    expect(normalizeAbuseIP('2001:db8::/127')?.last).toBe(0x20010db8000000000000000000000001n);
  });

  it.each(['', 'x', '1.2.3', '1.2.3.4-1.2.3.5', '1.2.3.4/33', '::1/129', '01.2.3.4', 'example.com'])(
    'refuses %j',
    (input) => {
      expect(normalizeAbuseIP(input)).toBeNull();
    },
  );

  it('formats addresses as RFC 5952 does', () => {
    expect(formatIP(6, 0n)).toBe('::');
    expect(formatIP(6, 1n << 112n)).toBe('1::');
    expect(formatIP(6, (1n << 112n) | 1n)).toBe('1::1');
    expect(formatIP(4, 0xc0a80001n)).toBe('192.168.0.1');
  });

  it('takes an entry with a score and memo, naming each bad field', () => {
    expect(abuseIPInputSchema.parse({ ip: '2001:DB8::1', score: 80 })).toEqual({
      ip: '2001:db8::1',
      score: 80,
      memo: '',
    });
    expect(issueKeys(abuseIPInputSchema.safeParse({ ip: '1.2.3.4-1.2.3.5', score: 80 }))).toEqual(['ip:wrongFormat']);
    expect(issueKeys(abuseIPInputSchema.safeParse({ ip: '', score: 80 }))).toEqual(['ip:required']);
    expect(issueKeys(abuseIPInputSchema.safeParse({ score: 80 }))).toEqual(['ip:required']);
    expect(issueKeys(abuseIPInputSchema.safeParse({ ip: '1.2.3.4', score: 0 }))[0]).toMatch(/^score:/);
    expect(issueKeys(abuseIPInputSchema.safeParse({ ip: '1.2.3.4', score: 101 }))[0]).toMatch(/^score:/);
    expect(issueKeys(abuseIPInputSchema.safeParse({ ip: '1.2.3.4', score: 5.5 }))[0]).toMatch(/^score:/);
    expect(issueKeys(abuseIPInputSchema.safeParse({ ip: '1.2.3.4' }))[0]).toMatch(/^score:/);
    expect(issueKeys(abuseIPInputSchema.safeParse({ ip: '1.2.3.4', score: 5, memo: 'x'.repeat(257) }))).toEqual([
      'memo:tooLong',
    ]);
  });
});

describe('the site setting', () => {
  it('defaults the threshold and takes the challenge and blocking modes', () => {
    expect(abuseIPSettingInputSchema.parse({ enabled: true, blockType: 1 })).toEqual({
      enabled: true,
      threshold: 60,
      blockType: 1,
    });
    for (const blockType of [1, 3, 4, 10, 11, 12]) {
      expect(abuseIPSettingInputSchema.safeParse({ enabled: true, threshold: 1, blockType }).success).toBe(true);
    }
  });
  it.each([
    [{ enabled: true, threshold: 60, blockType: 6 }, 'blockType:wrongFormat'],
    [{ enabled: true, threshold: 60, blockType: 7 }, 'blockType:wrongFormat'],
    [{ enabled: true, threshold: 60 }, 'blockType:wrongFormat'],
    [{ threshold: 60, blockType: 10 }, 'enabled:required'],
  ])('refuses %j', (input, key) => {
    expect(issueKeys(abuseIPSettingInputSchema.safeParse(input))).toEqual([key]);
  });
  it('refuses a threshold outside 1–100 or not whole', () => {
    for (const threshold of [0, 101, 50.5]) {
      const keys = issueKeys(abuseIPSettingInputSchema.safeParse({ enabled: true, threshold, blockType: 10 }));
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^threshold:/);
    }
  });
});

describe('the import', () => {
  it('reads CSV and plain lines, skipping comments, blank lines and a header', () => {
    const text = [
      'ip,score,memo',
      '# a comment',
      '',
      '1.2.3.4,90,seen scanning, twice',
      '  2001:DB8::/32 , 40 ',
      '10.0.0.1',
      '"10.0.0.2",7,"quoted"\r',
    ].join('\n');
    expect(parseAbuseIPImport(text, 55)).toEqual({
      ok: true,
      rows: [
        { ip: '1.2.3.4', score: 90, memo: 'seen scanning, twice', line: 4 },
        { ip: '2001:db8::/32', score: 40, memo: '', line: 5 },
        { ip: '10.0.0.1', score: 55, memo: '', line: 6 },
        { ip: '10.0.0.2', score: 7, memo: 'quoted', line: 7 },
      ],
    });
  });

  it('names every bad line with its reason, all or none', () => {
    const text = [
      '1.2.3.4,50',
      'nope,50',
      '1.2.3.5,0',
      '1.2.3.6,abc',
      `1.2.3.7,5,${'m'.repeat(257)}`,
      '1.2.3.4/32,9',
    ].join('\n');
    const result = parseAbuseIPImport(text, 100);
    expect(result).toEqual({
      ok: false,
      more: 0,
      errors: [
        { line: 2, key: 'abuseIPImportIP', params: { line: 2 } },
        { line: 3, key: 'abuseIPImportScore', params: { line: 3, min: 1, max: 100 } },
        { line: 4, key: 'abuseIPImportScore', params: { line: 4, min: 1, max: 100 } },
        { line: 5, key: 'abuseIPImportMemo', params: { line: 5, max: 256 } },
        // 1.2.3.4/32 is 1.2.3.4.
        { line: 6, key: 'abuseIPImportDuplicate', params: { line: 6, first: 1 } },
      ],
    });
  });

  it(`lists at most ${ABUSE_IP_IMPORT_ERRORS_MAX} bad lines and counts the rest`, () => {
    const text = Array.from({ length: 30 }, (_, i) => `bad${i}`).join('\n');
    const result = parseAbuseIPImport(text, 100);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(ABUSE_IP_IMPORT_ERRORS_MAX);
    expect(result.more).toBe(10);
    expect(result.errors[19]?.line).toBe(20);
  });

  it(`refuses more than ${ABUSE_IP_IMPORT_ROWS_MAX} rows`, () => {
    const rows = Array.from(
      { length: ABUSE_IP_IMPORT_ROWS_MAX + 1 },
      (_, i) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`,
    );
    expect(parseAbuseIPImport(rows.join('\n'), 100)).toEqual({
      ok: false,
      errors: [],
      more: 0,
      tooMany: ABUSE_IP_IMPORT_ROWS_MAX + 1,
    });
    expect(parseAbuseIPImport(rows.slice(1).join('\n'), 100).ok).toBe(true);
  });

  it('takes the body with a mode and a default score', () => {
    expect(abuseIPImportSchema.parse({ text: '1.2.3.4' })).toEqual({
      text: '1.2.3.4',
      mode: 'merge',
      defaultScore: 100,
    });
    expect(issueKeys(abuseIPImportSchema.safeParse({ text: '' }))).toEqual(['text:required']);
    expect(issueKeys(abuseIPImportSchema.safeParse({ text: 'x', mode: 'append' }))).toEqual(['mode:wrongFormat']);
    expect(issueKeys(abuseIPImportSchema.safeParse({ text: 'x', defaultScore: 0 }))[0]).toMatch(/^defaultScore:/);
  });
});

describe('the file the edge reads', () => {
  const entry = (ip: string, score: number) => ({
    ...(normalizeAbuseIP(ip) as NonNullable<ReturnType<typeof normalizeAbuseIP>>),
    score,
  });

  it('cuts overlapping entries so that each address has the highest score', () => {
    const { v4, v6 } = abuseIPRanges([
      entry('10.0.0.0/24', 30),
      entry('10.0.0.128/25', 80),
      entry('10.0.0.200', 20),
      entry('10.0.0.5', 90),
      entry('10.0.1.0/24', 30),
      entry('2001:db8::/127', 50),
    ]);
    expect(v4).toEqual([
      { first: 0x0a000000n, last: 0x0a000004n, score: 30 },
      { first: 0x0a000005n, last: 0x0a000005n, score: 90 },
      { first: 0x0a000006n, last: 0x0a00007fn, score: 30 },
      { first: 0x0a000080n, last: 0x0a0000ffn, score: 80 },
      // 10.0.1.0/24 follows 10.0.0.128/25 with another score: not merged with the 30s before it.
      { first: 0x0a000100n, last: 0x0a0001ffn, score: 30 },
    ]);
    expect(v6).toEqual([{ first: 0x20010db8n << 96n, last: (0x20010db8n << 96n) + 1n, score: 50 }]);
  });

  it('merges adjacent ranges of one score and keeps the whole address space', () => {
    expect(abuseIPRanges([entry('10.0.0.0/25', 40), entry('10.0.0.128/25', 40)]).v4).toEqual([
      { first: 0x0a000000n, last: 0x0a0000ffn, score: 40 },
    ]);
    expect(abuseIPRanges([entry('0.0.0.0/0', 1), entry('255.255.255.255', 2)]).v4).toEqual([
      { first: 0n, last: 0xfffffffen, score: 1 },
      { first: 0xffffffffn, last: 0xffffffffn, score: 2 },
    ]);
  });

  it('encodes a header and fixed-size records, and reads them back', () => {
    const bytes = abuseIPFileOf([
      { ip: '1.2.3.4', score: 70 },
      { ip: '::1', score: 99 },
    ]);
    expect(Buffer.from(bytes.subarray(0, 16)).toString('hex')).toBe(
      `${Buffer.from('RPABUSE1').toString('hex')}0000000100000001`,
    );
    expect(Buffer.from(bytes.subarray(16, 25)).toString('hex')).toBe('010203040102030446');
    expect(bytes.length).toBe(16 + 9 + 33);
    expect(decodeAbuseIPFile(bytes)).toEqual({
      v4: [{ first: 0x01020304n, last: 0x01020304n, score: 70 }],
      v6: [{ first: 1n, last: 1n, score: 99 }],
    });
    expect(decodeAbuseIPFile(bytes.subarray(0, 20))).toBeNull();
    expect(decodeAbuseIPFile(encodeAbuseIPFile({ v4: [], v6: [] }))).toEqual({ v4: [], v6: [] });
  });

  it('builds 100,000 entries in well under the time of a request timeout', () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => ({
      ...entry(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, (i % 100) + 1),
    }));
    const started = Date.now();
    const ranges = abuseIPRanges(entries);
    expect(ranges.v4).toHaveLength(100_000);
    expect(encodeAbuseIPFile(ranges).length).toBe(16 + 9 * 100_000);
    // Under the agent's request timeout (15 s) that the list's download waits for it.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('the reputation part of the data plane', () => {
  const base = { version: 'v1', domains: [], certificates: [] };
  it('takes a site setting and the list hash', () => {
    expect(edgeReputationSchema.safeParse({ threshold: 60, action: 'deny' }).success).toBe(true);
    expect(edgeReputationSchema.safeParse({ threshold: 0, action: 'deny' }).success).toBe(false);
    expect(edgeReputationSchema.safeParse({ threshold: 60, action: 'allow' }).success).toBe(false);
    expect(edgeAbuseIPsSchema.safeParse('b'.repeat(64)).success).toBe(true);
    expect(edgeAbuseIPsSchema.safeParse('../x').success).toBe(false);
    const firewall = { ...emptyEdgeFirewall(1), reputation: { threshold: 60, action: 'drop' as const } };
    expect(dataPlaneSchema.safeParse({ ...base, firewalls: [firewall], abuseIPs: 'c'.repeat(64) }).success).toBe(true);
  });
  it('refuses a challenging setting without challenge keys', () => {
    const firewall = { ...emptyEdgeFirewall(1), reputation: { threshold: 60, action: 'shield' as const } };
    const result = dataPlaneSchema.safeParse({ ...base, firewalls: [firewall] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('a challenge rule without challenge keys');
  });
});
