import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EdgeBlockReport } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { BlockReporter } from '../events/block-list.js';
import { KERNEL_BLOCK_SECONDS_MAX, kernelBlocksOf, L4Firewall } from './l4-firewall.js';
import type { L4BlockedEntry } from './l4-rules-render.js';

const report = (ip: string, expiresAt: number, siteId = 1): EdgeBlockReport => ({
  siteId,
  ip,
  cause: 'blacklist',
  ruleId: 1,
  blockedAt: 1_000,
  expiresAt,
});

describe('kernelBlocksOf', () => {
  it('keeps one entry per address with the longest time left, leaves expired ones out, caps the time', () => {
    expect(
      kernelBlocksOf(
        [
          report('10.0.0.1', 1_060),
          report('10.0.0.1', 1_300, 2),
          report('10.0.0.2', 1_000),
          report('2001:db8::1', 1_000 + KERNEL_BLOCK_SECONDS_MAX * 2),
        ],
        1_000.7,
      ),
    ).toEqual([
      { ip: '10.0.0.1', seconds: 300 },
      { ip: '2001:db8::1', seconds: KERNEL_BLOCK_SECONDS_MAX },
    ]);
  });
});

describe('L4Firewall without a table yet', () => {
  it('remembers blocks until the first table (nft is not run), with the time left', async () => {
    let now = 50_000;
    const fw = new L4Firewall({ nft: ['false'], now: () => now });
    await fw.block([{ ip: '10.0.0.9', seconds: 10 }]);
    now += 4_500;
    expect(fw.blockedEntries()).toEqual([{ ip: '10.0.0.9', seconds: 6 }]);
    now += 6_000;
    expect(fw.blockedEntries()).toEqual([]);
  });

  it('blocks at most maxBlocks addresses at once (more would overfill the kernel set); a known one is refreshed', async () => {
    const events: string[] = [];
    const fw = new L4Firewall({ nft: ['false'], maxBlocks: 2, log: (_level, event) => void events.push(event) });
    await fw.block([
      { ip: '10.0.0.1', seconds: 10 },
      { ip: '10.0.0.2', seconds: 10 },
      { ip: '10.0.0.3', seconds: 10 },
    ]);
    await fw.block([{ ip: '10.0.0.1', seconds: 20 }]);
    expect(fw.blockedEntries()).toEqual([
      { ip: '10.0.0.1', seconds: 20 },
      { ip: '10.0.0.2', seconds: 10 },
    ]);
    expect(events).toEqual(['l4.blocks_full']);
  });

  it('refuses a document the contract refuses without running nft, and reports why', async () => {
    const fw = new L4Firewall({ nft: ['/nonexistent/nft'] });
    await expect(fw.apply({ zone: {}, regions: [], ports: [] })).rejects.toThrow(/^l4 rules refused: zone\./);
    expect(fw.applied).toBeNull();
    expect(fw.lastError).toMatch(/^l4 rules refused/);
  });
});

describe('BlockReporter pushing blocks down to the kernel', () => {
  it('hands each block nginx reports to the kernel firewall', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rampart-l4-'));
    const socketPath = path.join(dir, 'admin.sock');
    const nowSeconds = Math.floor(Date.now() / 1000);
    const events = [report('192.0.2.5', nowSeconds + 120), report('192.0.2.6', nowSeconds - 1)];
    const server = createServer((_req, res) => res.end(JSON.stringify({ events, dropped: 0, full: 0 })));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const pushed: L4BlockedEntry[][] = [];
      const reporter = new BlockReporter({
        admin: { socketPath, secret: 's' },
        client: () => null,
        log: () => {},
        signal: new AbortController().signal,
        kernel: { block: async (entries) => void pushed.push([...entries]) },
      });
      await reporter.collect();
      expect(pushed).toHaveLength(1);
      expect(pushed[0]?.map((e) => e.ip)).toEqual(['192.0.2.5']);
      expect(pushed[0]?.[0]?.seconds).toBeGreaterThanOrEqual(118);
      expect(reporter.waiting).toBe(2);
    } finally {
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
