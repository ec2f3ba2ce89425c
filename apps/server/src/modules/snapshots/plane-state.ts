import type { PlaneMemo } from './snapshot-plane.js';

/* The state plane.service.ts keeps per generation (a tick) and per plane (a view, the entries' sums). */

/** `make()` kept in `cache` under `id` (at most 1000 kept; a failed one is dropped). */
export function kept<T>(cache: Map<string, Promise<T>>, id: string, make: () => Promise<T>): Promise<T> {
  let value = cache.get(id);
  if (!value) {
    if (cache.size >= 1000) cache.clear();
    value = make();
    value.catch(() => cache.delete(id));
    cache.set(id, value);
  }
  return value;
}

/** What a node holds, as it polls: the sequence, the plane hash there and the meta's hash (none: nothing). */
export interface PlaneKnown {
  since?: string | undefined;
  plane?: string | undefined;
  meta?: string | undefined;
}

/** The plane changed (another process built) between the tick's read of its state and a node's read. */
export class StaleView extends Error {}

/** What the looks of one generation share (plane.service.ts TICK_MS). */
export interface Tick {
  readonly generation: number;
  readonly at: number;
  readonly memo: PlaneMemo;
  /** The build found another process building or dirty rows left. */
  again: boolean;
}

/** A plane's state at one version, read consistently once per tick. */
export interface PlaneView {
  readonly head: number;
  readonly floor: number;
  /** The last sequence that changed the plane. */
  readonly changedAt: number;
  readonly planeHash: string;
  /** The sum of the plane's firewall entries' hashes (they change only when one of them does). */
  readonly firewallDigest: string;
}

/** A plane's entries' hashes and their sums as of a sequence. */
export interface PlaneSum {
  at: number;
  /** The highest head a view saw with the plane still at `at`: nothing of it changed in (at, quietTo]. */
  quietTo: number;
  hashes: Map<string, bigint>;
  total: bigint;
  /** Of the firewall entries only. */
  firewalls: bigint;
}
