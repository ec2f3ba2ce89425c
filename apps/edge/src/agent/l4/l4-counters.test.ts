import { tcpFlagsOf } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import {
  type CounterListing,
  deltasOf,
  parseCounterListing,
  parseTableHandle,
  portIdsOf,
  recordsOf,
} from './l4-counters.js';
import { renderL4Ruleset } from './l4-rules-render.js';

const listing = (sets: Record<string, [number, Record<string, [number, number]>]>): CounterListing =>
  new Map(
    Object.entries(sets).map(([name, [handle, elements]]) => [
      name,
      {
        handle: `1.${handle}`,
        elements: new Map(Object.entries(elements).map(([k, [packets, bytes]]) => [k, { packets, bytes }])),
      },
    ]),
  );

describe('tcpFlagsOf', () => {
  it('names the usual combinations and leaves the rest as other', () => {
    expect([0x02, 0x12, 0x10, 0x18, 0x01, 0x11, 0x19, 0x04, 0x14, 0x00, 0x03, 0x20, 0x52].map(tcpFlagsOf)).toEqual([
      'SYN',
      'SYN+ACK',
      'ACK',
      'PSH+ACK',
      'FIN',
      'FIN',
      'FIN',
      'RST',
      'RST',
      'other',
      'other',
      'other',
      'SYN+ACK',
    ]);
  });
});

describe('the counter reader', () => {
  it('parses an nft -j listing of a counter set', () => {
    const parsed = parseCounterListing(
      JSON.stringify({
        nftables: [
          { metainfo: { version: '1.0.6' } },
          {
            set: {
              family: 'inet',
              name: 'cnts_all4',
              table: 'rampart',
              handle: 7,
              elem: [
                { elem: { val: { concat: ['tcp', 7000, '10.0.0.1'] }, counter: { packets: 3, bytes: 180 } } },
                {
                  elem: {
                    val: { concat: ['udp', 7000, '10.0.0.2'] },
                    expires: 100,
                    counter: { packets: 1, bytes: 30 },
                  },
                },
              ],
            },
          },
          { set: { family: 'inet', name: 'other', table: 'hostfw', handle: 1, elem: [] } },
        ],
      }),
    );
    expect([...parsed.keys()]).toEqual(['cnts_all4']);
    expect(parsed.get('cnts_all4')?.handle).toBe('7');
    expect([...(parsed.get('cnts_all4')?.elements ?? [])]).toEqual([
      ['tcp . 7000 . 10.0.0.1', { packets: 3, bytes: 180 }],
      ['udp . 7000 . 10.0.0.2', { packets: 1, bytes: 30 }],
    ]);
  });

  it('finds the handle of the agent`s table in a listing of the tables', () => {
    const tables = (...items: object[]) => JSON.stringify({ nftables: [{ metainfo: { version: '1.0.6' } }, ...items] });
    expect(
      parseTableHandle(
        tables(
          { table: { family: 'ip', name: 'rampart', handle: 3 } },
          { table: { family: 'inet', name: 'hostfw', handle: 4 } },
          { table: { family: 'inet', name: 'rampart', handle: 9 } },
        ),
      ),
    ).toBe(9);
    expect(parseTableHandle(tables({ table: { family: 'inet', name: 'hostfw', handle: 4 } }))).toBeNull();
    expect(parseTableHandle(tables())).toBeNull();
  });

  it('counts the growth since the previous listing; a new set (table replaced) or a counter gone down counts whole', () => {
    const before = listing({
      cnt_all: [1, { 'tcp . 80': [10, 1000], 'udp . 80': [5, 500] }],
      cnt_pass: [2, { 'tcp . 80': [4, 400] }],
    });
    const after = listing({
      cnt_all: [1, { 'tcp . 80': [15, 1600], 'udp . 80': [2, 200] }],
      cnt_pass: [9, { 'tcp . 80': [1, 60] }],
    });
    const d = deltasOf(before, after);
    expect(d.get('cnt_all')?.get('tcp . 80')).toEqual({ packets: 5, bytes: 600 });
    expect(d.get('cnt_all')?.get('udp . 80')).toEqual({ packets: 2, bytes: 200 });
    expect(d.get('cnt_pass')?.get('tcp . 80')).toEqual({ packets: 1, bytes: 60 });
    expect(deltasOf(after, after).get('cnt_all')?.size).toBe(0);
  });

  it('turns deltas into records by port id: dropped = entered − passed', () => {
    const ids = portIdsOf([
      { id: 3, port: 80, protocol: 'both', whitelist: [], blacklist: [], regions: null, connectionLimit: null },
    ]);
    const deltas = deltasOf(
      new Map(),
      listing({
        cnt_all: [1, { 'tcp . 80': [10, 1000], 'tcp . 81': [7, 70] }],
        cnt_pass: [2, { 'tcp . 80': [4, 400] }],
        cntf_all: [3, { '80 . 2': [8, 800], '80 . 16': [2, 200] }],
        cntf_pass: [4, { '80 . 2': [2, 200], '80 . 16': [2, 200] }],
        cnts_all4: [5, { 'tcp . 80 . 10.0.0.1': [10, 1000] }],
        cnts_pass4: [6, { 'tcp . 80 . 10.0.0.1': [4, 400] }],
        cnt_node: [7, { gre: [1, 100] }],
      }),
    );
    const records = recordsOf(deltas, ids, 600);
    const of = (outcome: string, dimension: string, key: string) =>
      records.find((r) => r.outcome === outcome && r.dimension === dimension && r.key === key);
    expect(of('drop', 'protocol', 'tcp')).toEqual({
      minute: 600,
      portId: 3,
      outcome: 'drop',
      dimension: 'protocol',
      key: 'tcp',
      packets: 6,
      bytes: 600,
    });
    expect(of('pass', 'protocol', 'tcp')?.packets).toBe(4);
    expect(of('drop', 'tcpFlags', 'SYN')?.packets).toBe(6);
    expect(of('drop', 'tcpFlags', 'ACK')).toBeUndefined();
    expect(of('drop', 'source', '10.0.0.1')?.packets).toBe(6);
    expect(of('pass', 'protocol', 'gre')).toMatchObject({ portId: 0, packets: 1, bytes: 100 });
    // Port 81 is no port of the document: not counted.
    expect(records.filter((r) => r.portId !== 3 && r.portId !== 0)).toEqual([]);
  });

  it('a packet counted as passed before it was counted as entering is not a drop (carried to the next reading)', () => {
    const ids = portIdsOf([
      { id: 3, port: 80, protocol: 'tcp', whitelist: [], blacklist: [], regions: null, connectionLimit: null },
    ]);
    const carry = new Map();
    // Reading 1: the passing stage already saw a packet the entering stage's read missed.
    const one = recordsOf(
      deltasOf(new Map(), listing({ cnt_all: [1, { 'tcp . 80': [0, 0] }], cnt_pass: [2, { 'tcp . 80': [1, 60] }] })),
      ids,
      600,
      carry,
    );
    // Reading 2: the entering stage counts it now; the passing stage nothing new.
    const two = recordsOf(
      deltasOf(new Map(), listing({ cnt_all: [1, { 'tcp . 80': [1, 60] }], cnt_pass: [2, { 'tcp . 80': [0, 0] }] })),
      ids,
      600,
      carry,
    );
    const drops = [...one, ...two].filter((r) => r.outcome === 'drop');
    expect(drops).toEqual([]);
    expect([...one, ...two].filter((r) => r.outcome === 'pass').reduce((n, r) => n + r.packets, 0)).toBe(1);
    expect(carry.size).toBe(0);
    // A real drop after it is counted whole.
    const three = recordsOf(
      deltasOf(new Map(), listing({ cnt_all: [1, { 'tcp . 80': [2, 120] }], cnt_pass: [2, { 'tcp . 80': [0, 0] }] })),
      ids,
      600,
      carry,
    );
    expect(three.find((r) => r.outcome === 'drop')?.packets).toBe(2);
  });
});

describe('the counters in the ruleset', () => {
  const text = renderL4Ruleset({
    zone: { guardedPorts: [], synFlood: null, newConnections: null },
    regions: [],
    ports: [{ id: 3, port: 80, protocol: 'both', whitelist: [], blacklist: [], regions: null, connectionLimit: null }],
  });
  it('counts every packet of a port where it enters, before any rule can drop it', () => {
    const pre = text.slice(text.indexOf('chain pre {'));
    const lines = pre.split('\n').map((l) => l.trim());
    expect(lines.slice(2, 4)).toEqual([
      'meta iiftype loopback accept',
      'meta l4proto . th dport @cnt_all jump count_all',
    ]);
    expect(text).toContain(
      'set cnt_all {\n    type inet_proto . inet_service; counter; elements = { tcp . 80, udp . 80 }',
    );
  });
  it('counts what passed after the table`s input chain, before the host`s filter chains', () => {
    expect(text).toContain('chain count_in {\n    type filter hook input priority -5; policy accept;');
    expect(text).toContain('meta l4proto . th dport @cnt_pass jump count_pass');
    expect(text).toContain(
      'set cnts_pass6 { type inet_proto . inet_service . ipv6_addr; flags dynamic,timeout; size 4096;',
    );
  });
});
