import type { L4CounterRecord, L4Rules } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { L4CounterReader, listCounters } from '../src/agent/l4/l4-counters.js';
import { L4Firewall } from '../src/agent/l4/l4-firewall.js';
import { type Client, inNetns, namespacePair, type Pair, startClient, startServer } from './helpers/netns.js';

// The layer-4 counters in a real kernel (issue 22, network-attack analytics; docs/decisions.md
// "Layer-4 counters"): the firewall applies the table in a server namespace, clients send TCP and
// UDP from several addresses of a second namespace, passed and dropped, and the reader turns the
// kernel's counters into records by port, outcome, protocol, TCP flags and source. Needs root.

const PORT = 7100;
const PORT_ID = 5;
const GOOD = '10.244.0.2';
const BLACK = '10.244.0.3';
const GOOD6 = 'fd00:244::2';
const UDP_PAYLOAD = 100;

const rules = (): L4Rules => ({
  zone: { guardedPorts: [], synFlood: null, newConnections: null },
  regions: [],
  ports: [
    {
      id: PORT_ID,
      port: PORT,
      protocol: 'both',
      whitelist: [],
      blacklist: [BLACK],
      regions: null,
      connectionLimit: null,
    },
  ],
});

// Sends `count` UDP datagrams of UDP_PAYLOAD bytes from `from` to `to`:`port`, then exits.
const UDP_SENDER = `
const dgram = require('node:dgram');
const [from, to, port, count] = process.argv.slice(1);
const s = dgram.createSocket(from.includes(':') ? 'udp6' : 'udp4');
s.bind({ address: from }, async () => {
  for (let i = 0; i < Number(count); i++) await new Promise((r) => s.send(Buffer.alloc(${UDP_PAYLOAD}), Number(port), to, r));
  s.close();
});
`;

const root = process.getuid?.() === 0;

describe.skipIf(!root)('layer-4 counters in the kernel (nftables in network namespaces)', () => {
  let pair: Pair;
  let client: Client;
  let fw: L4Firewall;
  let reader: L4CounterReader;
  const udp = (from: string, count: number) =>
    inNetns(
      pair.client,
      process.execPath,
      '-e',
      UDP_SENDER,
      from,
      from.includes(':') ? pair.serverV6 : pair.serverV4,
      String(PORT),
      String(count),
    );
  const sum = (records: L4CounterRecord[], match: Partial<L4CounterRecord>) =>
    records
      .filter((r) => Object.entries(match).every(([k, v]) => r[k as keyof L4CounterRecord] === v))
      .reduce((s, r) => ({ packets: s.packets + r.packets, bytes: s.bytes + r.bytes }), { packets: 0, bytes: 0 });

  const nft = () => ['ip', 'netns', 'exec', pair.server, 'nft'];
  // The server's TCP sockets of the port other than its listener (a connection not yet closed).
  const serverSockets = async () =>
    (await inNetns(pair.server, 'ss', '-Htan', 'state', 'all', 'sport', '=', `:${PORT}`))
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('LISTEN'));

  beforeAll(async () => {
    pair = await namespacePair('c', [GOOD, BLACK], [GOOD6]);
    await startServer(pair, PORT);
    client = await startClient(pair);
    fw = new L4Firewall({ nft: nft() });
    reader = new L4CounterReader({ nft: nft(), ports: () => fw.applied?.ports ?? [] });
  });

  afterAll(async () => {
    await pair?.remove();
  });

  it('reads nothing before the table exists', async () => {
    expect(await reader.poll()).toEqual([]);
  });

  it('counts passed and dropped TCP and UDP by protocol, flags and source; ICMP for the node', async () => {
    await fw.apply(rules());
    await reader.poll();
    expect(await client.connect(GOOD, PORT, { timeoutMs: 3000 })).toBe(true);
    expect(await client.connect(GOOD6, PORT, { timeoutMs: 3000 })).toBe(true);
    expect(await client.connect(BLACK, PORT)).toBe(false);
    await udp(GOOD, 3);
    await udp(BLACK, 2);
    // Two datagrams from the server to a closed port of the client: the client's two ICMP port
    // unreachable answers reach the server.
    await inNetns(pair.server, process.execPath, '-e', UDP_SENDER, pair.serverV4, GOOD, '9', '2');
    // Read once every packet went through the table: the connections closed on the server's side
    // (their last packets came in) and the kernel counted the two answers.
    await vi.waitFor(async () => expect(await serverSockets()).toEqual([]), { timeout: 10_000, interval: 50 });
    await vi.waitFor(
      async () => {
        const node = (await listCounters(nft())).get('cnt_node')?.elements.values() ?? [];
        expect([...node].reduce((n, c) => n + c.packets, 0)).toBeGreaterThanOrEqual(2);
      },
      { timeout: 10_000, interval: 50 },
    );
    const records = await reader.poll();
    const minute = Math.floor(Date.now() / 60_000) * 60;
    expect(records.every((r) => r.minute === minute || r.minute === minute - 60)).toBe(true);

    const tcpPass = sum(records, { portId: PORT_ID, outcome: 'pass', dimension: 'protocol', key: 'tcp' });
    // Two connections: at least SYN and ACK of each got through.
    expect(tcpPass.packets).toBeGreaterThanOrEqual(4);
    expect(
      sum(records, { portId: PORT_ID, outcome: 'drop', dimension: 'protocol', key: 'tcp' }).packets,
    ).toBeGreaterThanOrEqual(1);
    // UDP: each datagram is 20 (IPv4) + 8 (UDP) + the payload bytes, counted where it entered.
    expect(sum(records, { portId: PORT_ID, outcome: 'pass', dimension: 'protocol', key: 'udp' })).toEqual({
      packets: 3,
      bytes: 3 * (28 + UDP_PAYLOAD),
    });
    expect(sum(records, { portId: PORT_ID, outcome: 'drop', dimension: 'protocol', key: 'udp' })).toEqual({
      packets: 2,
      bytes: 2 * (28 + UDP_PAYLOAD),
    });

    // Flags: the handshakes' SYNs and ACKs passed; the blacklisted source's SYN was dropped.
    expect(sum(records, { outcome: 'pass', dimension: 'tcpFlags', key: 'SYN' }).packets).toBeGreaterThanOrEqual(2);
    expect(sum(records, { outcome: 'pass', dimension: 'tcpFlags', key: 'ACK' }).packets).toBeGreaterThanOrEqual(2);
    expect(sum(records, { outcome: 'drop', dimension: 'tcpFlags', key: 'SYN' }).packets).toBeGreaterThanOrEqual(1);
    expect(sum(records, { outcome: 'drop', dimension: 'tcpFlags', key: 'ACK' }).packets).toBe(0);
    // Flag packets add up to the TCP packets of each outcome.
    for (const outcome of ['pass', 'drop'] as const)
      expect(sum(records, { outcome, dimension: 'tcpFlags' }).packets).toBe(
        sum(records, { outcome, dimension: 'protocol', key: 'tcp' }).packets,
      );

    // Sources: the good ones passed only, the blacklisted one dropped only (TCP and UDP together).
    expect(sum(records, { outcome: 'pass', dimension: 'source', key: GOOD }).packets).toBeGreaterThanOrEqual(5);
    expect(sum(records, { outcome: 'pass', dimension: 'source', key: GOOD6 }).packets).toBeGreaterThanOrEqual(2);
    expect(sum(records, { outcome: 'drop', dimension: 'source', key: GOOD }).packets).toBe(0);
    expect(sum(records, { outcome: 'drop', dimension: 'source', key: BLACK }).packets).toBeGreaterThanOrEqual(3);
    expect(sum(records, { outcome: 'pass', dimension: 'source', key: BLACK }).packets).toBe(0);

    // ICMP reaches the node, not a port: counted with port id 0, passed (the two answers; the
    // namespaces' IPv6 neighbours are permanent, see helpers/netns.ts), in one record.
    const icmp = records.filter((r) => r.portId === 0 && r.key === 'icmp');
    expect(icmp).toHaveLength(1);
    expect(icmp[0]).toMatchObject({ outcome: 'pass', dimension: 'protocol' });
    expect(icmp[0]?.packets).toBeGreaterThanOrEqual(2);
    expect(records.filter((r) => r.portId === 0 && r.key !== 'icmp')).toEqual([]);
  });

  it('counts only what happened since the previous reading, also across a table replacement', async () => {
    await udp(GOOD, 1);
    const once = await reader.poll();
    expect(sum(once, { outcome: 'pass', dimension: 'protocol', key: 'udp' })).toEqual({
      packets: 1,
      bytes: 28 + UDP_PAYLOAD,
    });
    expect(await reader.poll()).toEqual([]);
    // A new table starts its counters at 0: what it counts is new, nothing is subtracted or lost.
    await fw.apply(rules());
    await udp(GOOD, 2);
    await udp(BLACK, 1);
    const after = await reader.poll();
    expect(sum(after, { outcome: 'pass', dimension: 'protocol', key: 'udp' }).packets).toBe(2);
    expect(sum(after, { outcome: 'drop', dimension: 'protocol', key: 'udp' }).packets).toBe(1);
    expect(sum(after, { outcome: 'pass', dimension: 'source', key: GOOD }).packets).toBe(2);
    // The table made again gets its sets' old handles (nft numbers a table's sets from 1): a new
    // table whose counters passed the old ones' is still new, counted whole, never as the
    // difference (which counted 4 of 6 passed, and 2 − 4 dropped carried against later drops).
    await fw.apply(rules());
    await udp(GOOD, 6);
    const again = await reader.poll();
    expect(sum(again, { outcome: 'pass', dimension: 'protocol', key: 'udp' }).packets).toBe(6);
    expect(sum(again, { outcome: 'pass', dimension: 'source', key: GOOD }).packets).toBe(6);
    expect(sum(again, { outcome: 'drop', dimension: 'protocol', key: 'udp' }).packets).toBe(0);
    await udp(BLACK, 1);
    expect(sum(await reader.poll(), { outcome: 'drop', dimension: 'protocol', key: 'udp' }).packets).toBe(1);
  });
});
