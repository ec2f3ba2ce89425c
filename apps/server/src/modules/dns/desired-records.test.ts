import { describe, expect, it } from 'vitest';
import { desiredRecords, type PublishInput, publishedLines } from './desired-records.js';

// The record sets a configuration asks for (desired-records.ts): lines, backup groups, forceBackup,
// virtual nodes and the fail-open rule, on a small network given as data. Sets come sorted by name,
// type and line.
const base: PublishInput = {
  cnameDomain: 'cname.cdn.test',
  zone: 'cdn.test',
  lines: ['default', 'telecom'],
  ttl: 60,
  domains: [{ label: 'aaaa0000aaaa0000', productId: 1, forceBackup: false }],
  productGroups: [
    { productId: 1, groupId: 10, isBackup: false },
    { productId: 1, groupId: 20, isBackup: true },
  ],
  nodePlacements: [
    { groupId: 10, nodeId: 1, line: 'default' },
    { groupId: 10, nodeId: 2, line: 'default' },
    { groupId: 10, nodeId: 3, line: 'telecom' },
    { groupId: 10, nodeId: 4, line: 'unicom' },
    { groupId: 20, nodeId: 5, line: 'default' },
  ],
  virtualPlacements: [],
  virtualRecords: [],
  nodeAddresses: new Map([
    [1, ['192.0.2.1']],
    [2, ['2001:db8::2', '192.0.2.22']],
    [3, ['192.0.2.3']],
    [4, ['192.0.2.4']],
    [5, ['192.0.2.5']],
  ]),
  down: new Set(),
};
const name = 'aaaa0000aaaa0000.cname.cdn.test';
const view = (input: PublishInput) =>
  desiredRecords(input).map((s) => `${s.line} ${s.type} ${s.values.join(',')} ${s.ttl}`);

describe('desiredRecords', () => {
  it('answers per line the provider has with the healthy main nodes, A and AAAA apart', () => {
    expect(desiredRecords(base).every((s) => s.name === name)).toBe(true);
    expect(view(base)).toEqual([
      'default A 192.0.2.1,192.0.2.22 60',
      'telecom A 192.0.2.3 60',
      'default AAAA 2001:db8::2 60',
    ]);
    // A provider with only the default line: the other placements are not published.
    expect(view({ ...base, lines: publishedLines(['default']) })).toEqual([
      'default A 192.0.2.1,192.0.2.22 60',
      'default AAAA 2001:db8::2 60',
    ]);
  });

  it('drops down nodes, uses the backup group when no main node is up, and fails open when none is', () => {
    expect(view({ ...base, down: new Set([2]) })).toContain('default A 192.0.2.1 60');
    expect(view({ ...base, down: new Set([1, 2]) })).toEqual(['default A 192.0.2.5 60', 'telecom A 192.0.2.3 60']);
    expect(view({ ...base, down: new Set([1, 2, 3, 5]) })).toEqual([
      'default A 192.0.2.1,192.0.2.22 60',
      'telecom A 192.0.2.3 60',
      'default AAAA 2001:db8::2 60',
    ]);
  });

  it("answers the backup groups only with the site's forceBackup", () => {
    const forced = { ...base, domains: [{ label: 'aaaa0000aaaa0000', productId: 1, forceBackup: true }] };
    expect(view(forced)).toEqual(['default A 192.0.2.5 60']);
  });

  it('publishes node-IP virtual nodes as their nodes and CNAME virtual nodes as a CNAME where no address is', () => {
    const input: PublishInput = {
      ...base,
      nodePlacements: [{ groupId: 10, nodeId: 1, line: 'default' }],
      virtualPlacements: [
        { groupId: 10, virtualNodeId: 7, line: 'default' },
        { groupId: 10, virtualNodeId: 8, line: 'telecom' },
      ],
      virtualRecords: [
        { virtualNodeId: 7, type: 'node', value: '', nodeId: 4 },
        { virtualNodeId: 8, type: 'cname', value: 'edge.other-cdn.example', nodeId: null },
      ],
    };
    expect(view(input)).toEqual(['default A 192.0.2.1,192.0.2.4 60', 'telecom CNAME edge.other-cdn.example 60']);
    expect(view({ ...input, down: new Set([4]) })).toContain('default A 192.0.2.1 60');
  });

  it('leaves out names outside the zone, disabled nodes (absent addresses) and products without groups', () => {
    expect(view({ ...base, cnameDomain: 'cname.elsewhere.test' })).toEqual([]);
    expect(view({ ...base, nodeAddresses: new Map([[3, ['192.0.2.3']]]) })).toEqual(['telecom A 192.0.2.3 60']);
    expect(view({ ...base, productGroups: [] })).toEqual([]);
  });
});
