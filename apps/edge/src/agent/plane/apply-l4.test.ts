import type { EdgeSnapshot, L4Rules } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { kernelPushDown } from '../agent.js';
import { type ApplierOptions, SnapshotApplier } from './apply.js';

// The applier's layer-4 step (apply.ts applyL4): what reaches the kernel firewall, when.

const doc: L4Rules = {
  zone: { guardedPorts: [80, 443], synFlood: { rate: 10, burst: 0 }, newConnections: null },
  regions: [],
  ports: [
    {
      id: 1,
      port: 7000,
      protocol: 'tcp',
      whitelist: [],
      blacklist: ['192.0.2.1'],
      regions: null,
      connectionLimit: null,
    },
  ],
};
const snapshot = (l4: L4Rules | null, version = 'a'.repeat(32)) => ({ version, l4 }) as unknown as EdgeSnapshot;

function applierWith(fail: () => boolean) {
  const applied: unknown[] = [];
  const applier = new SnapshotApplier({
    portMap: new Map([
      [80, 18080],
      [7000, 17000],
    ]),
    l4: {
      apply: async (document: unknown) => {
        if (fail()) throw new Error('nft refused the ruleset (exit 1): no');
        applied.push(document);
      },
    },
  } as unknown as ApplierOptions);
  return { applier, applied };
}

describe('the layer-4 step of an apply', () => {
  it('maps the ports, applies a changed document once, and an empty table for null', async () => {
    const { applier, applied } = applierWith(() => false);
    await applier.applyL4(snapshot(doc));
    await applier.applyL4(snapshot(doc, 'b'.repeat(32)));
    expect(applied).toEqual([
      { ...doc, zone: { ...doc.zone, guardedPorts: [18080, 443] }, ports: [{ ...doc.ports[0], port: 17000 }] },
    ]);
    await applier.applyL4(snapshot(null));
    expect(applied[1]).toEqual({
      zone: { guardedPorts: [], synFlood: null, newConnections: null },
      regions: [],
      ports: [],
    });
    expect(applier.l4Error).toBe('');
  });

  it('keeps a failure as its error (never thrown) and tries the document again with the next snapshot', async () => {
    let failing = true;
    const { applier, applied } = applierWith(() => failing);
    await applier.applyL4(snapshot(doc));
    expect(applier.l4Error).toMatch(/^layer-4 rules of snapshot a+ not applied .*nft refused/);
    failing = false;
    await applier.applyL4(snapshot(doc, 'c'.repeat(32)));
    expect(applied).toHaveLength(1);
    expect(applier.l4Error).toBe('');
  });

  it('does nothing without a firewall', async () => {
    const applier = new SnapshotApplier({ portMap: new Map() } as unknown as ApplierOptions);
    await applier.applyL4(snapshot(doc));
    expect(applier.l4Error).toBe('');
  });
});

describe('the layer-7 blocks pushed down to the kernel', () => {
  it('go to the firewall only while the applied snapshot asks for it, and nowhere without a firewall', async () => {
    const blocked: unknown[] = [];
    let on = false;
    const kernel = kernelPushDown(
      {
        block: async (entries) => {
          blocked.push(...entries);
        },
        unblock: async () => {},
      },
      () => on,
    );
    await kernel?.block([{ ip: '192.0.2.1', seconds: 60 }]);
    expect(blocked).toEqual([]);
    on = true;
    await kernel?.block([{ ip: '192.0.2.2', seconds: 60 }]);
    expect(blocked).toEqual([{ ip: '192.0.2.2', seconds: 60 }]);
    expect(kernelPushDown(null, () => true)).toBeUndefined();
  });

  it('keeps the blocks that came while off and pushes those still running once it is on', async () => {
    const blocked: unknown[] = [];
    let on = false;
    let now = 1_000_000;
    const kernel = kernelPushDown(
      {
        block: async (entries) => {
          blocked.push(...entries);
        },
        unblock: async () => {},
      },
      () => on,
      () => now,
    );
    await kernel?.block([
      { ip: '192.0.2.1', seconds: 60 },
      { ip: '192.0.2.2', seconds: 5 },
    ]);
    // Still off: nothing goes down.
    await kernel?.catchUp();
    expect(blocked).toEqual([]);
    now += 10_000;
    on = true;
    await kernel?.catchUp();
    // The one that ended meanwhile stays out; the other goes with the seconds it has left.
    expect(blocked).toEqual([{ ip: '192.0.2.1', seconds: 50 }]);
    // Pushed once.
    await kernel?.catchUp();
    expect(blocked).toHaveLength(1);
  });

  it('forgets a kept block that is lifted, and lifts it in the kernel whether on or off', async () => {
    const blocked: unknown[] = [];
    const lifted: string[] = [];
    let on = false;
    const kernel = kernelPushDown(
      {
        block: async (entries) => {
          blocked.push(...entries);
        },
        unblock: async (ips) => {
          lifted.push(...ips);
        },
      },
      () => on,
    );
    await kernel?.block([
      { ip: '192.0.2.1', seconds: 60 },
      { ip: '192.0.2.2', seconds: 60 },
    ]);
    await kernel?.unblock(['192.0.2.1']);
    expect(lifted).toEqual(['192.0.2.1']);
    on = true;
    await kernel?.catchUp();
    expect(blocked).toEqual([{ ip: '192.0.2.2', seconds: 60 }]);
  });
});
