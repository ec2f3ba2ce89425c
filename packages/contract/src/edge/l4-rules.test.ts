import { describe, expect, it } from 'vitest';
import { L4_IP_LIST_MAX, type L4Rules, l4RulesSchema } from './l4-rules.js';

const doc = (more: Partial<L4Rules> = {}): L4Rules => ({
  zone: { guardedPorts: [80, 443], synFlood: { rate: 200, burst: 400 }, newConnections: null },
  regions: [{ code: 'CN', cidrs: ['1.0.1.0/24', '2001:250::/35'] }],
  ports: [
    {
      id: 17,
      port: 5000,
      protocol: 'tcp',
      whitelist: ['10.0.0.1', '10.1.0.0/16', '2001:db8::1'],
      blacklist: ['192.0.2.0/24', '2001:db8:1::/48'],
      regions: { mode: 'deny', codes: ['CN'] },
      connectionLimit: { max: 10, rate: 5, burst: 10, blockSeconds: 60 },
    },
  ],
  ...more,
});

const issue = (value: unknown) => {
  const r = l4RulesSchema.safeParse(value);
  return r.success ? null : `${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`;
};

describe('l4RulesSchema', () => {
  it('takes a document with lists, regions and limits', () => {
    expect(issue(doc())).toBeNull();
    expect(issue(doc({ ports: [], regions: [] }))).toBeNull();
  });

  it('refuses anything in an address list that is not an address or CIDR literal', () => {
    for (const bad of [
      '10.0.0.1; flush ruleset',
      '10.0.0.0/33',
      'example.com',
      '10.0.0.1-10.0.0.2',
      '01.2.3.4',
      ' 10.0.0.1',
      '',
    ]) {
      const port = { ...doc().ports[0], blacklist: [bad] };
      expect(issue(doc({ ports: [port as L4Rules['ports'][number]] })), bad).toMatch(/^ports\.0\.blacklist\.0:/);
    }
  });

  it('refuses a region list with plain addresses, and region codes that are not two capitals', () => {
    expect(issue(doc({ regions: [{ code: 'CN', cidrs: ['1.0.1.1'] }] }))).toMatch(/^regions\.0\.cidrs\.0:/);
    expect(issue(doc({ regions: [{ code: 'cn', cidrs: [] }] }))).toMatch(/^regions\.0\.code:/);
    expect(issue(doc({ regions: [{ code: 'CN"', cidrs: [] }] }))).toMatch(/^regions\.0\.code:/);
  });

  it('refuses a port naming a region the document has no CIDRs for, twice-used ports and regions', () => {
    expect(issue(doc({ regions: [] }))).toBe('ports.0.regions.codes.0: no region CN');
    const port = doc().ports[0] as L4Rules['ports'][number];
    expect(issue(doc({ ports: [port, { ...port, id: 18 }] }))).toBe('ports.1.port: port 5000 twice');
    expect(issue(doc({ ports: [port, { ...port, port: 5001 }] }))).toBe('ports.1.id: id 17 twice');
    const cn = { code: 'CN', cidrs: [] };
    expect(issue(doc({ regions: [cn, cn] }))).toBe('regions.1.code: CN twice');
  });

  it('bounds lists, numbers and keywords', () => {
    const port = doc().ports[0] as L4Rules['ports'][number];
    const tooMany = Array.from({ length: L4_IP_LIST_MAX + 1 }, (_, i) => `10.${i >> 8}.${i & 255}.1`);
    expect(issue(doc({ ports: [{ ...port, whitelist: tooMany }] }))).toMatch(/^ports\.0\.whitelist:/);
    expect(issue(doc({ ports: [{ ...port, port: 65_536 }] }))).toMatch(/^ports\.0\.port:/);
    expect(issue(doc({ ports: [{ ...port, protocol: 'icmp' as 'tcp' }] }))).toMatch(/^ports\.0\.protocol:/);
    const limit = { max: 10, rate: null, burst: 0, blockSeconds: 86_401 };
    expect(issue(doc({ ports: [{ ...port, connectionLimit: limit }] }))).toMatch(/blockSeconds:/);
    expect(issue(doc({ ports: [{ ...port, connectionLimit: { ...limit, max: 0, blockSeconds: 0 } }] }))).toMatch(
      /connectionLimit\.max:/,
    );
    expect(issue({ ...doc(), zone: { ...doc().zone, synFlood: { rate: 1.5, burst: 0 } } })).toMatch(
      /^zone\.synFlood\.rate:/,
    );
    expect(issue({ ...doc(), extra: 1 })).not.toBeNull();
  });
});
