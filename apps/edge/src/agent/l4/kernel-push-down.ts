import { existsSync } from 'node:fs';
import path from 'node:path';
import type { L4Firewall } from './l4-firewall.js';
import { DYNAMIC_SET_SIZE, type L4BlockedEntry } from './l4-rules-render.js';

/** BlockReporter's `kernel`, and `catchUp` for when the zone's push-down may have turned on. */
export interface KernelPushDown {
  block(entries: readonly L4BlockedEntry[]): Promise<void>;
  /** Pushes the blocks that came while it was off and still run, once it is on (after each snapshot). */
  catchUp(): Promise<void>;
  /** Lifts these addresses' blocks, kept or in the kernel (on or off: it may have been on). */
  unblock(ips: readonly string[]): Promise<void>;
}

/**
 * The firewall's blocked set, while `on` (the applied snapshot's zone pushes its layer-7 blocks
 * down); none without a firewall. A block that comes while it is off is kept (at most
 * DYNAMIC_SET_SIZE, with its end) and pushed by `catchUp` once it is on: the blocks nginx holds
 * when the operator turns kernel blocks on, and one made while the snapshot that turns them on is
 * being applied (its table is in the kernel before the agent calls it applied), reach the kernel
 * too instead of being lost.
 */
export function kernelPushDown(
  firewall: Pick<L4Firewall, 'block' | 'unblock'> | null,
  on: () => boolean,
  now: () => number = Date.now,
): KernelPushDown | undefined {
  if (!firewall) return undefined;
  const parked = new Map<string, number>();
  return {
    block: async (entries) => {
      if (on()) return firewall.block(entries);
      const at = now();
      for (const { ip, seconds } of entries) {
        if (parked.size >= DYNAMIC_SET_SIZE && !parked.has(ip)) break;
        parked.set(ip, Math.max(parked.get(ip) ?? 0, at + seconds * 1000));
      }
    },
    catchUp: async () => {
      if (parked.size === 0 || !on()) return;
      const at = now();
      const entries = [...parked]
        .filter(([, until]) => until > at)
        .map(([ip, until]) => ({ ip, seconds: Math.max(1, Math.ceil((until - at) / 1000)) }));
      parked.clear();
      if (entries.length > 0) await firewall.block(entries);
    },
    unblock: async (ips) => {
      for (const ip of ips) parked.delete(ip);
      await firewall.unblock(ips);
    },
  };
}

/** Where `nft` is looked for besides PATH (a service's PATH may lack the sbin directories). */
const NFT_DIRS = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

/** The nft command an `auto` agent runs, or why it runs none. */
export function autoNft(): { nft: string[] } | { reason: string } {
  if (process.getuid?.() !== 0) return { reason: 'not root' };
  const dirs = [...(process.env.PATH ?? '').split(':').filter((d) => d.startsWith('/')), ...NFT_DIRS];
  const found = dirs.map((dir) => path.join(dir, 'nft')).find((file) => existsSync(file));
  return found ? { nft: [found] } : { reason: 'no nft command (Debian package nftables)' };
}
