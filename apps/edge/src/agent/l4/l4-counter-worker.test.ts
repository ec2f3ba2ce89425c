import { getEventListeners } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { l4CounterBatchSchema } from '@rampart/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeClient } from '../node-api/node-client.js';
import { runL4Counters } from './l4-counter-worker.js';

// A stand-in for `nft -j list tables inet` (the agent's table) and `nft -j list set inet rampart
// <name>`: 10 dropped TCP packets on port 7000.
const FAKE_NFT = `
const name = process.argv[process.argv.length - 1];
if (process.argv.includes('tables')) {
  process.stdout.write(JSON.stringify({ nftables: [{ table: { family: 'inet', name: 'rampart', handle: 3 } }] }));
  process.exit(0);
}
const elem = name === 'cnt_all' ? [{ elem: { val: { concat: ['tcp', 7000] }, counter: { packets: 10, bytes: 600 } } }] : [];
process.stdout.write(JSON.stringify({ nftables: [{ set: { family: 'inet', name, table: 'rampart', handle: 1, elem } }] }));
`;

describe('the layer-4 counter worker', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rampart-l4worker-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the counters, spools each ended minute as a batch and ships it', async () => {
    const script = path.join(dir, 'nft.js');
    await writeFile(script, FAKE_NFT);
    let now = 600_000 + 5_000;
    const controller = new AbortController();
    const shipped: unknown[] = [];
    const client = {
      shipL4Counters: async (bytes: Uint8Array) => {
        shipped.push(l4CounterBatchSchema.parse(JSON.parse(gunzipSync(bytes).toString('utf8'))));
        controller.abort();
        return { stored: 1, duplicate: false };
      },
    } as unknown as NodeClient;
    const run = runL4Counters({
      dir: path.join(dir, 'spool'),
      nft: [process.execPath, script],
      ports: () => [
        { id: 4, port: 7000, protocol: 'tcp', whitelist: [], blacklist: [], regions: null, connectionLimit: null },
      ],
      client: () => client,
      log: () => {},
      signal: controller.signal,
      intervalMs: 20,
      // The first reading in minute 10, every later one in minute 11: minute 10 ends.
      now: () => {
        const at = now;
        now = 660_000 + 5_000;
        return at;
      },
    });
    const timeout = setTimeout(() => controller.abort(), 10_000);
    await run;
    clearTimeout(timeout);
    expect(shipped).toEqual([
      {
        batchId: expect.stringMatching(/^[a-z0-9]+-1$/),
        records: [
          { minute: 600, portId: 4, outcome: 'drop', dimension: 'protocol', key: 'tcp', packets: 10, bytes: 600 },
        ],
      },
    ]);
  });

  it('waits between readings without piling listeners on the agent signal (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    const controller = new AbortController();
    let readings = 0;
    const run = runL4Counters({
      dir: path.join(dir, 'spool'),
      // A reading that fails at once (logged, then the next after the interval): many waits quickly.
      nft: ['/bin/false'],
      ports: () => [],
      // Nothing to ship to: only the reading loop waits on the signal.
      client: () => null,
      log: (_level, event) => {
        if (event === 'l4.counters_failed') readings += 1;
      },
      signal: controller.signal,
      intervalMs: 5,
    });
    try {
      // More waits than the 10 listeners Node allows an AbortSignal before it warns.
      await vi.waitFor(() => expect(readings).toBeGreaterThanOrEqual(15), { timeout: 20_000, interval: 20 });
      // A warning is emitted on the tick after the listener that crossed the limit.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
      expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(2);
    } finally {
      controller.abort();
      await run;
      process.off('warning', onWarning);
    }
  });
});
