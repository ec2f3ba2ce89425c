import { describe, expect, it } from 'vitest';
import { dataPlaneSchema } from './data-plane.js';
import { ipEntryBounds, ipListRanges } from './ip-ranges.js';

describe('ipListRanges', () => {
  it('turns addresses, ranges and CIDRs into merged hex ranges per family', () => {
    expect(
      ipListRanges(['10.0.0.5', '10.0.0.0/30', '10.0.0.4', '192.168.1.10-192.168.1.20', '2001:db8::/127', '::1']),
    ).toEqual({
      v4: [
        ['0a000000', '0a000005'],
        ['c0a8010a', 'c0a80114'],
      ],
      v6: [
        ['00000000000000000000000000000001', '00000000000000000000000000000001'],
        ['20010db8000000000000000000000000', '20010db8000000000000000000000001'],
      ],
    });
  });

  it('covers every address with 0.0.0.0/0 and ::/0, and clears host bits of a CIDR', () => {
    expect(ipListRanges(['0.0.0.0/0', '1.2.3.4']).v4).toEqual([['00000000', 'ffffffff']]);
    expect(ipListRanges(['::/0']).v6).toEqual([['0'.repeat(32), 'f'.repeat(32)]]);
    expect(ipEntryBounds('10.1.2.3/8')).toEqual({ version: 4, from: 0x0a000000n, to: 0x0affffffn });
  });

  it('gives what the data plane schema accepts, and the schema refuses unsorted or overlapping ranges', () => {
    const rule = (v4: [string, string][]) => ({
      version: 'v1',
      domains: [],
      certificates: [],
      firewalls: [{ id: 1, whitelist: [{ id: 1, url: '.*', methods: ['GET'], v4, v6: [] }], blacklist: [] }],
    });
    expect(dataPlaneSchema.safeParse(rule(ipListRanges(['1.1.1.1', '3.3.3.0/24']).v4)).success).toBe(true);
    const overlapping: [string, string][] = [
      ['01010100', '010101ff'],
      ['01010180', '01010190'],
    ];
    expect(dataPlaneSchema.safeParse(rule(overlapping)).success).toBe(false);
    expect(dataPlaneSchema.safeParse(rule([['01010102', '01010101']])).success).toBe(false);
  });
});
