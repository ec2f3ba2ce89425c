import type { PlaneMemo } from './snapshot-plane.js';

/* The state plane.service.ts keeps per generation (a tick) and per plane (a view, the entries' sums). */

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
