import type { L4PortRules, L4Rules } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { L4Firewall, NftError, runNft } from '../src/agent/l4/l4-firewall.js';
import { renderL4Ruleset } from '../src/agent/l4/l4-rules-render.js';
import { type Client, inNetns, namespacePair, type Pair, startClient, startServer } from './helpers/netns.js';

// The layer-4 rules in a real kernel (issue 22; docs/decisions.md "Layer-4 protection in the
// kernel"): the agent's renderer and firewall apply the table inside a server namespace the test
// makes; clients connect from a second namespace over a veth pair, each from its own address.
// Needs root (CI and the project's machines have it) and Debian's nftables.

const PORT = 7000;
const GOOD = '10.244.0.2';
const BLACK = '10.244.0.3';
const REGION = '10.244.0.4';
const LIMITED = '10.244.0.5';
const WHITE_AND_BLACK = '10.244.0.6';
const BLOCKED = '10.244.0.7';
const RATED = '10.244.0.8';
const FLOOD = '10.244.0.9';
const GOOD6 = 'fd00:244::2';
const BLACK6 = 'fd00:244::3';

const port = (more: Partial<L4PortRules> = {}): L4PortRules => ({
  id: 1,
  port: PORT,
  protocol: 'tcp',
  whitelist: [WHITE_AND_BLACK],
  blacklist: [BLACK, WHITE_AND_BLACK, `${BLACK6}/128`],
  regions: { mode: 'deny', codes: ['XA'] },
  connectionLimit: { max: 3, rate: null, burst: 0, blockSeconds: 0 },
  ...more,
});
const rules = (more: Partial<L4PortRules> = {}): L4Rules => ({
  zone: { guardedPorts: [], synFlood: null, newConnections: null },
  regions: [{ code: 'XA', cidrs: [`${REGION}/32`, '198.51.100.0/24'] }],
  ports: [port(more)],
});

const root = process.getuid?.() === 0;
/**
 * A connection expected through waits longer than one expected dropped (800 ms, the client's
 * default): a loaded machine can take a second to answer, and a drop must not slow the timed checks.
 */
const LET_THROUGH = { timeoutMs: 3000 };

describe.skipIf(!root)('layer-4 rules in the kernel (nftables in network namespaces)', () => {
  let pair: Pair;
  let client: Client;
  let seen: string[];
  let failing = false;
  const firewall = () =>
    new L4Firewall({
      nft: ['ip', 'netns', 'exec', pair.server, 'nft'],
      // A ruleset nft refuses on its last line, after the delete and the new table.
      render: (doc, blocked) =>
        renderL4Ruleset(doc, blocked) + (failing ? 'add rule inet rampart no_such_chain drop\n' : ''),
    });
  let fw: L4Firewall;
  const table = () => inNetns(pair.server, 'nft', 'list', 'table', 'inet', 'rampart');

  beforeAll(async () => {
    pair = await namespacePair(
      't',
      [GOOD, BLACK, REGION, LIMITED, WHITE_AND_BLACK, BLOCKED, RATED, FLOOD],
      [GOOD6, BLACK6],
    );
    // The host's own rule in another table of the namespace: the agent must leave it alone.
    await runNft(
      ['ip', 'netns', 'exec', pair.server, 'nft'],
      'table ip hostfw {\n  chain input {\n    type filter hook input priority 0; policy accept;\n    tcp dport 7000 counter accept comment "host rule"\n  }\n}\n',
    );
    seen = (await startServer(pair, PORT)).seen;
    client = await startClient(pair);
    fw = firewall();
  });

  afterAll(async () => {
    await pair?.remove();
  });

  it('lets every source through before the table exists', async () => {
    expect(await client.connect(BLACK, PORT, LET_THROUGH)).toBe(true);
    expect(await client.connect(GOOD6, PORT, LET_THROUGH)).toBe(true);
  });

  it('drops a blacklisted source in the kernel (the server never sees it), and lets another through', async () => {
    await fw.apply(rules());
    const before = seen.length;
    expect(await client.connect(BLACK, PORT)).toBe(false);
    expect(await client.connect(BLACK6, PORT)).toBe(false);
    expect(seen.slice(before)).toEqual([]);
    expect(await client.connect(GOOD, PORT, LET_THROUGH)).toBe(true);
    expect(await client.connect(GOOD6, PORT, LET_THROUGH)).toBe(true);
    expect(seen.slice(before)).toEqual([GOOD, GOOD6]);
  });

  it('lets a whitelisted source through although the blacklist names it too', async () => {
    expect(await client.connect(WHITE_AND_BLACK, PORT, LET_THROUGH)).toBe(true);
  });

  it('drops a denied region, and lets it through once the port has no region rule', async () => {
    expect(await client.connect(REGION, PORT)).toBe(false);
    await fw.apply(rules({ regions: null }));
    expect(await client.connect(REGION, PORT, LET_THROUGH)).toBe(true);
    await fw.apply(rules({ regions: { mode: 'allow', codes: ['XA'] } }));
    expect(await client.connect(REGION, PORT, LET_THROUGH)).toBe(true);
    expect(await client.connect(GOOD, PORT)).toBe(false);
    expect(await client.connect(GOOD6, PORT)).toBe(false);
    await fw.apply(rules());
    expect(await client.connect(REGION, PORT)).toBe(false);
  });

  it('trips the connection limit at its count: the fourth concurrent connection of one source is dropped', async () => {
    for (let i = 0; i < 3; i++) expect(await client.connect(LIMITED, PORT, { ...LET_THROUGH, hold: true })).toBe(true);
    expect(await client.connect(LIMITED, PORT, { hold: true, timeoutMs: 1500 })).toBe(false);
    // Another source is not counted with it.
    expect(await client.connect(GOOD, PORT, LET_THROUGH)).toBe(true);
    await client.closeAll();
    // Closed connections stop counting (bounded: the kernel notices the closes within a moment).
    let again = false;
    for (let i = 0; i < 5 && !again; i++) again = await client.connect(LIMITED, PORT);
    expect(again).toBe(true);
  });

  it('leaves the host rule in another table after replacing its own table twice', async () => {
    await fw.apply(rules());
    await fw.apply(rules());
    const host = await inNetns(pair.server, 'nft', 'list', 'table', 'ip', 'hostfw');
    expect(host).toMatch(/tcp dport 7000 counter packets [1-9]\d* bytes \d+ accept comment "host rule"/);
    const tables = await inNetns(pair.server, 'nft', 'list', 'tables');
    expect(tables.trim().split('\n').sort()).toEqual(['table inet rampart', 'table ip hostfw']);
  });

  it('keeps the previous table in force when nft refuses a new one, and says why', async () => {
    await fw.apply(rules());
    const good = fw.applied;
    failing = true;
    try {
      // The new document would let the blacklisted source in.
      await expect(fw.apply(rules({ blacklist: [] }))).rejects.toThrow(NftError);
    } finally {
      failing = false;
    }
    expect(fw.applied).toBe(good);
    expect(fw.lastError).toMatch(/no_such_chain|No such file/);
    expect(await table()).toContain('10.244.0.3');
    expect(await client.connect(BLACK, PORT)).toBe(false);
    // A document the contract refuses never reaches nft.
    await expect(fw.apply({ ...rules(), zone: { guardedPorts: ['22; flush ruleset'] } })).rejects.toThrow(/refused/);
    expect(fw.applied).toBe(good);
    expect(await client.connect(BLACK, PORT)).toBe(false);
  });

  it('blocks an address for a while; the block outlives a table replacement and then expires', async () => {
    expect(await client.connect(BLOCKED, PORT, LET_THROUGH)).toBe(true);
    await fw.block([{ ip: BLOCKED, seconds: 3 }]);
    const blockedAt = Date.now();
    expect(await client.connect(BLOCKED, PORT)).toBe(false);
    await fw.apply(rules());
    expect(await table()).toMatch(/set blocked4 \{[^}]*elements = \{ 10\.244\.0\.7 timeout \ds expires/s);
    expect(await client.connect(BLOCKED, PORT)).toBe(false);
    expect(await client.connect(GOOD, PORT, LET_THROUGH)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, blockedAt + 3200 - Date.now())));
    let back = false;
    for (let i = 0; i < 5 && !back; i++) back = await client.connect(BLOCKED, PORT);
    expect(back).toBe(true);
  });

  it('lifts a block at once when told, and an address no longer blocked is no error', async () => {
    await fw.block([{ ip: BLOCKED, seconds: 600 }]);
    expect(await client.connect(BLOCKED, PORT)).toBe(false);
    await fw.unblock([BLOCKED, GOOD]);
    expect(fw.lastError).toBe('');
    expect(await client.connect(BLOCKED, PORT, LET_THROUGH)).toBe(true);
    // Not written back with the next table either.
    await fw.apply(rules());
    expect(await client.connect(BLOCKED, PORT, LET_THROUGH)).toBe(true);
  });

  it('limits the new-connection rate of a source and then blocks it for blockSeconds, not others', async () => {
    await fw.apply(rules({ connectionLimit: { max: 100, rate: 2, burst: 2, blockSeconds: 3 } }));
    const burst = await Promise.all(Array.from({ length: 10 }, () => client.connect(RATED, PORT, { timeoutMs: 1000 })));
    const passed = burst.filter(Boolean).length;
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(passed).toBeLessThanOrEqual(5);
    const trippedAt = Date.now();
    // Blocked although one connection a second is well under the rate; another source passes.
    expect(await client.connect(RATED, PORT)).toBe(false);
    expect(await client.connect(GOOD, PORT, LET_THROUGH)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, trippedAt + 3300 - Date.now())));
    let back = false;
    for (let i = 0; i < 5 && !back; i++) back = await client.connect(RATED, PORT);
    expect(back).toBe(true);
  });

  it('holds back a SYN flood from one source (a bounded burst of 60 connects) before conntrack', async () => {
    await fw.apply({
      ...rules({ connectionLimit: null }),
      zone: { guardedPorts: [], synFlood: { rate: 5, burst: 5 }, newConnections: null },
    });
    const before = seen.length;
    const flood = await Promise.all(Array.from({ length: 60 }, () => client.connect(FLOOD, PORT, { timeoutMs: 1000 })));
    const passed = flood.filter(Boolean).length;
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(passed).toBeLessThanOrEqual(15);
    // The server saw those that got through and no flood. A client that gave up after its second
    // may still have its SYN's retry let through by the refilled rate: a few more, never many.
    const reached = seen.slice(before).filter((a) => a === FLOOD).length;
    expect(reached).toBeGreaterThanOrEqual(passed);
    expect(reached).toBeLessThanOrEqual(15);
    // The rate is per source: another one connects at once; the port's whitelist is not limited.
    expect(await client.connect(GOOD, PORT, LET_THROUGH)).toBe(true);
    const white = await Promise.all(
      Array.from({ length: 20 }, () => client.connect(WHITE_AND_BLACK, PORT, { timeoutMs: 1000 })),
    );
    expect(white.filter(Boolean)).toHaveLength(20);
    const counters = await inNetns(pair.server, 'nft', 'list', 'set', 'inet', 'rampart', 'syn4');
    expect(counters).toContain('10.244.0.9');
    await fw.apply(rules());
  });
});
