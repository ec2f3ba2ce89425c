import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { L4CounterReader } from './l4-counters.js';

// A stand-in for nft: the table's handle and the counters of port 7000 (TCP) come from a JSON file
// the test rewrites between readings: {table, all: [packets, bytes], pass: [packets, bytes]}.
const FAKE_NFT = `
const fs = require('node:fs');
const state = JSON.parse(fs.readFileSync(process.env.FAKE_NFT_STATE, 'utf8'));
const name = process.argv[process.argv.length - 1];
if (process.argv.includes('tables')) {
  process.stdout.write(JSON.stringify({ nftables: [{ table: { family: 'inet', name: 'rampart', handle: state.table } }] }));
  process.exit(0);
}
const counts = name === 'cnt_all' ? state.all : name === 'cnt_pass' ? state.pass : null;
const elem = counts ? [{ elem: { val: { concat: ['tcp', 7000] }, counter: { packets: counts[0], bytes: counts[1] } } }] : [];
process.stdout.write(JSON.stringify({ nftables: [{ set: { family: 'inet', name, table: 'rampart', handle: 1, elem } }] }));
`;

describe('the layer-4 counter reader across a table replacement', () => {
  let dir = '';
  afterEach(async () => {
    delete process.env.FAKE_NFT_STATE;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('drops what the old table passed ahead of its entering count: the new table`s drops all show', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rampart-l4reader-'));
    const script = path.join(dir, 'nft.js');
    const state = path.join(dir, 'state.json');
    await writeFile(script, FAKE_NFT);
    process.env.FAKE_NFT_STATE = state;
    const set = (s: { table: number; all: [number, number]; pass: [number, number] }) =>
      writeFile(state, JSON.stringify(s));
    const reader = new L4CounterReader({
      nft: [process.execPath, script],
      ports: () => [
        { id: 4, port: 7000, protocol: 'tcp', whitelist: [], blacklist: [], regions: null, connectionLimit: null },
      ],
    });
    const drops = (records: Awaited<ReturnType<L4CounterReader['poll']>>) =>
      records.filter((r) => r.outcome === 'drop' && r.dimension === 'protocol').reduce((n, r) => n + r.packets, 0);
    // Two packets passed between the reading of the entering stage and that of the passing one.
    await set({ table: 3, all: [10, 600], pass: [12, 720] });
    expect(drops(await reader.poll())).toBe(0);
    // The table is replaced before the next reading: its entering count of those two went with it.
    // The new table saw 3 packets enter and 1 pass: 2 dropped.
    await set({ table: 4, all: [3, 180], pass: [1, 60] });
    expect(drops(await reader.poll())).toBe(2);
  });
});
