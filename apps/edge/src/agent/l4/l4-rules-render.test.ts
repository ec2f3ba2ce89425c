import type { L4Rules } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import {
  elementsOf,
  L4RenderError,
  l4Literal,
  renderBlock,
  renderL4Ruleset,
  renderUnblock,
} from './l4-rules-render.js';

const doc: L4Rules = {
  zone: { guardedPorts: [443, 80], synFlood: { rate: 200, burst: 400 }, newConnections: { rate: 50, burst: 0 } },
  regions: [
    { code: 'CN', cidrs: ['1.0.1.0/24', '1.0.2.0/23', '2001:250::/35'] },
    { code: 'RU', cidrs: ['5.3.0.0/16'] },
  ],
  ports: [
    {
      id: 17,
      port: 5000,
      protocol: 'both',
      whitelist: ['10.0.0.1'],
      blacklist: ['192.0.2.9/24', '192.0.2.200', '2001:DB8::1'],
      regions: { mode: 'deny', codes: ['CN', 'RU'] },
      connectionLimit: { max: 3, rate: 10, burst: 20, blockSeconds: 30 },
    },
    {
      id: 18,
      port: 6000,
      protocol: 'tcp',
      whitelist: [],
      blacklist: [],
      regions: { mode: 'allow', codes: ['RU'] },
      connectionLimit: null,
    },
  ],
};

describe('renderL4Ruleset', () => {
  const text = renderL4Ruleset(doc, [{ ip: '203.0.113.7', seconds: 90 }]);

  it('replaces only its own table, in one file: create-if-absent, delete, define', () => {
    const lines = text.split('\n');
    expect(lines.slice(1, 4)).toEqual(['table inet rampart {}', 'delete table inet rampart', 'table inet rampart {']);
    expect(text.match(/^(table|delete|flush|add|insert)\b.*$/gm)).toEqual([
      'table inet rampart {}',
      'delete table inet rampart',
      'table inet rampart {',
    ]);
    expect(text).not.toMatch(/flush ruleset/);
  });

  it('hooks prerouting at raw (before conntrack) and input just before the filter chains', () => {
    expect(text).toContain('chain pre {\n    type filter hook prerouting priority -300; policy accept;');
    expect(text).toContain('chain input {\n    type filter hook input priority -10; policy accept;');
  });

  it('dispatches each port and protocol to its chains; guards the layer-4 and listen ports', () => {
    expect(text).toContain(
      'meta l4proto . th dport vmap { tcp . 5000 : jump p17_pre, udp . 5000 : jump p17_pre, tcp . 6000 : jump p18_pre }',
    );
    expect(text).toContain(
      'meta l4proto . th dport vmap { tcp . 5000 : jump p17_in, udp . 5000 : jump p17_in, tcp . 6000 : jump p18_in }',
    );
    expect(text).toContain('set guarded {\n    type inet_service; elements = { 80, 443, 5000, 6000 }');
  });

  it('writes a port whitelist first, then the blacklist, regions and penalties, merged and normalised', () => {
    const p17 = text.slice(text.indexOf('chain p17_pre {'), text.indexOf('}', text.indexOf('chain p17_pre {')));
    expect(
      p17
        .split('\n')
        .slice(1)
        .map((l) => l.trim()),
    ).toEqual([
      'ip saddr @p17_wl4 accept',
      'ip saddr @p17_bl4 drop',
      'ip saddr @p17_rg4 drop',
      'th dport . ip saddr @pen4 drop',
      'ip6 saddr @p17_wl6 accept',
      'ip6 saddr @p17_bl6 drop',
      'ip6 saddr @p17_rg6 drop',
      'th dport . ip6 saddr @pen6 drop',
      '',
    ]);
    // 192.0.2.200 lies in 192.0.2.9/24 (host bits cleared): one range; IPv6 lower-case, full form.
    expect(text).toContain(
      'set p17_bl4 {\n    type ipv4_addr; flags interval; elements = {\n      192.0.2.0-192.0.2.255\n    }',
    );
    expect(text).toContain(
      'set p17_bl6 {\n    type ipv6_addr; flags interval; elements = {\n      2001:db8:0:0:0:0:0:1\n    }',
    );
    // Two regions in one set, adjacent blocks merged.
    expect(text).toContain('1.0.1.0-1.0.3.255, 5.3.0.0-5.3.255.255');
    // Allow mode: what is not in the region is dropped, in both families (no IPv6 CIDRs: all IPv6).
    expect(text).toContain('ip saddr != @p18_rg4 drop');
    expect(text).toContain('ip6 saddr != @p18_rg6 drop');
  });

  it('limits connections per port and source after conntrack, and blocks for blockSeconds', () => {
    expect(text).toContain(
      'add @cc4 { th dport . ip saddr ct count over 3 } update @pen4 { th dport . ip saddr timeout 30s } drop',
    );
    expect(text).toContain(
      'update @rt6 { th dport . ip6 saddr limit rate over 10/second burst 20 packets } update @pen6 { th dport . ip6 saddr timeout 30s } drop',
    );
    expect(text).toContain('set pen4 { type inet_service . ipv4_addr; flags dynamic,timeout; size 65535; }');
    expect(text).toContain('set cc6 { type inet_service . ipv6_addr; flags dynamic; size 65535; }');
    // Port 18 has no limit: its chain after conntrack only spares its whitelist the zone's rate.
    expect(text).toContain('chain p18_in {\n    ip saddr @p18_wl4 accept\n    ip6 saddr @p18_wl6 accept\n  }');
    const noZoneRate = renderL4Ruleset({ ...doc, zone: { ...doc.zone, newConnections: null } });
    expect(noZoneRate).not.toContain('p18_in');
  });

  it('writes the zone rates and the blocked addresses with their time left', () => {
    expect(text).toContain(
      'tcp flags & (fin | syn | rst | ack) == syn update @syn4 { ip saddr limit rate over 200/second burst 400 packets } drop',
    );
    expect(text).toContain('update @new6 { ip6 saddr limit rate over 50/second } drop');
    expect(text).toContain('elements = {\n      203.0.113.7 timeout 90s\n    }');
  });

  it('renders an empty document as a table that lets everything through', () => {
    const empty = renderL4Ruleset({
      zone: { guardedPorts: [], synFlood: null, newConnections: null },
      regions: [],
      ports: [],
    });
    expect(empty).not.toContain('vmap');
    expect(empty).not.toContain('elements');
    expect(empty).toContain('ip saddr @blocked4 drop');
  });
});

describe('refusing anything that is not a literal', () => {
  it('refuses addresses with anything but address characters, and ranges', () => {
    for (const bad of [
      '1.2.3.4 }; flush ruleset; {',
      '1.2.3.4\n',
      'lo',
      '1.2.3.4-1.2.3.5',
      '300.1.1.1',
      '1.2.3.0/33',
      7,
    ]) {
      expect(() => l4Literal(bad), String(bad)).toThrow(L4RenderError);
    }
    expect(() => elementsOf(['10.0.0.1', '10.0.0.1 accept'])).toThrow(L4RenderError);
  });

  it('refuses numbers that are not integers in range, and unknown protocols', () => {
    const port = doc.ports[0] as L4Rules['ports'][number];
    const bad = (p: unknown) => ({ ...doc, ports: [p] }) as L4Rules;
    expect(() => renderL4Ruleset(bad({ ...port, port: '5000; drop' }))).toThrow(L4RenderError);
    expect(() => renderL4Ruleset(bad({ ...port, port: 70_000 }))).toThrow(L4RenderError);
    expect(() => renderL4Ruleset(bad({ ...port, id: 1.5 }))).toThrow(L4RenderError);
    expect(() => renderL4Ruleset(bad({ ...port, protocol: 'tcp . 1 : accept' }))).toThrow(L4RenderError);
    const limit = { max: 3, rate: 10, burst: 20, blockSeconds: 30 };
    expect(() => renderL4Ruleset(bad({ ...port, connectionLimit: { ...limit, max: '3 } accept' } }))).toThrow(
      L4RenderError,
    );
    expect(() => renderL4Ruleset({ ...doc, zone: { ...doc.zone, guardedPorts: [Number.NaN] } })).toThrow(L4RenderError);
    expect(() => renderL4Ruleset(doc, [{ ip: '10.0.0.0/8', seconds: 5 }])).toThrow(L4RenderError);
    expect(() => renderBlock([{ ip: '10.0.0.1', seconds: 0 }])).toThrow(L4RenderError);
    expect(() => renderUnblock(['10.0.0.0/8'])).toThrow(L4RenderError);
    expect(() => renderUnblock(['10.0.0.1 } ; flush ruleset'])).toThrow();
  });

  it('lifts a block without an error when the address is not in the set', () => {
    expect(renderUnblock(['192.0.2.9'])).toBe(
      [
        'add element inet rampart blocked4 { 192.0.2.9 }',
        'delete element inet rampart blocked4 { 192.0.2.9 }',
        '',
      ].join('\n'),
    );
  });

  it('blocks an address again with a fresh timeout in one transaction', () => {
    expect(renderBlock([{ ip: '2001:DB8::5', seconds: 60 }])).toBe(
      [
        'add element inet rampart blocked6 { 2001:db8:0:0:0:0:0:5 }',
        'delete element inet rampart blocked6 { 2001:db8:0:0:0:0:0:5 }',
        'add element inet rampart blocked6 { 2001:db8:0:0:0:0:0:5 timeout 60s }',
        '',
      ].join('\n'),
    );
  });
});
