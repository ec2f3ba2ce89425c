import { type EdgeSnapshot, edgeSnapshotSchema } from '@rampart/contract';
import type { ConfigChanges } from '../../platform/changes.js';
import type { Clock } from '../../platform/clock.js';
import type { SnapshotBuilder } from './snapshot-builder.js';
import type { PlaneMemo } from './snapshot-plane.js';

/**
 * A built snapshot is reused until the configuration changes (in this process, or in another on the
 * same PostgreSQL: platform/db/change-broadcast.ts), or this long at most: what changes without a
 * write (a site reaching its expiry), and another process's writes while this one is not listening
 * for them, show within this time. A rebuild costs ~300 ms of CPU with 10,000
 * domains on a node (bench/), so a short bound would keep a core busy for nothing.
 */
const CACHE_MS = 60_000;
/** A waiting poll wakes this often to see whether the cached snapshot has expired. */
export const RECHECK_MS = 5000;
/** The snapshot's schema but for the data plane (SnapshotBuilder checks that part itself). */
const ZONE_LEVEL = edgeSnapshotSchema.omit({ dataPlane: true });

/**
 * What a node is given, and what the operator is told about it: `problem` names the sites left
 * out of the snapshot and why, or why no snapshot could be built at all (`snapshot` null: the
 * node keeps what it has, and its poll waits as if nothing changed instead of failing).
 */
export interface SnapshotState {
  readonly snapshot: EdgeSnapshot | null;
  /** The snapshot as the poll answers it (JSON text), null with it. */
  readonly json: string | null;
  readonly problem: string;
}

interface Cached {
  readonly generation: number;
  readonly at: number;
  readonly state: Promise<SnapshotState>;
}

/** Per-node snapshots: built on demand, cached per configuration generation, served by long poll. */
export class SnapshotsService {
  /** By node and whether it carries the data plane (`${nodeId}` or `${nodeId}-`). */
  private readonly cache = new Map<string, Cached>();
  /**
   * Nodes whose last poll asked for the snapshot without its data plane (they take it as entries,
   * plane.service.ts): the operator's node list compares what they applied with that snapshot.
   */
  private readonly withoutDataPlane = new Set<number>();
  /**
   * The planes nodes share (by owner and groups), for one generation and at most CACHE_MS: the
   * nodes rebuilt after a change take the plane the first of them built.
   */
  private planes: { generation: number; at: number; memo: PlaneMemo } | null = null;
  /** What the zone-level check found per built snapshot (null: valid). */
  private readonly checked = new WeakMap<object, string | null>();
  /** Aborted at shutdown so that held polls answer at once instead of holding the close. */
  private readonly closing = new AbortController();

  constructor(
    private readonly builder: SnapshotBuilder,
    private readonly changes: ConfigChanges,
    private readonly clock: Clock,
    /** Where a snapshot that cannot be built is logged (the operator sees it on the node too). */
    private readonly log: (nodeId: number, problem: string) => void = () => {},
  ) {}

  state(nodeId: number, withDataPlane = !this.withoutDataPlane.has(nodeId)): Promise<SnapshotState> {
    const generation = this.changes.generation;
    const now = Date.now();
    const cacheKey = withDataPlane ? `${nodeId}` : `${nodeId}-`;
    const hit = this.cache.get(cacheKey);
    if (hit && hit.generation === generation && now - hit.at < CACHE_MS) return hit.state;
    if (this.planes?.generation !== generation || now - this.planes.at >= CACHE_MS) {
      this.planes = { generation, at: now, memo: this.builder.generationMemo(generation) };
    }
    // The node's snapshot is as old as the shared plane it takes: it expires with it.
    const at = this.planes.at;
    const state: Promise<SnapshotState> = this.builder
      .build(nodeId, new Date(this.clock()), this.planes.memo, withDataPlane)
      .then(({ snapshot, leftOut, json }) => {
        // The builder fits the data plane; the zone-level rest (listen ports, nginx settings,
        // layer-4 ports) must fit too, or the poll's reply would break its schema on every poll.
        // Checked once per built snapshot: nodes alike share one (SnapshotBuilder.build).
        let invalid = this.checked.get(snapshot);
        if (invalid === undefined) {
          const zoneLevel = ZONE_LEVEL.safeParse(snapshot);
          const issue = zoneLevel.success ? undefined : zoneLevel.error.issues[0];
          invalid = zoneLevel.success ? null : `${issue?.path.join('.')}: ${issue?.message}`;
          this.checked.set(snapshot, invalid);
        }
        if (invalid !== null) throw new Error(invalid);
        const problem =
          leftOut.length === 0
            ? ''
            : `left out of this node's snapshot: ${leftOut.map((s) => `site ${s.siteId} (${s.name}): ${s.reason}`).join('; ')}`;
        if (problem !== '') this.log(nodeId, problem);
        return { snapshot, json, problem };
      })
      .catch((error: unknown) => {
        const problem = `the snapshot cannot be built: ${error instanceof Error ? error.message : String(error)}`;
        this.log(nodeId, problem);
        // Retried after a short while rather than on every poll.
        this.cache.set(cacheKey, { generation, at: now - CACHE_MS + RECHECK_MS, state });
        return { snapshot: null, json: null, problem };
      });
    this.cache.set(cacheKey, { generation, at, state });
    return state;
  }

  /** The node's current snapshot; throws when none can be built (see `state` for why). */
  async current(nodeId: number): Promise<EdgeSnapshot> {
    const { snapshot, problem } = await this.state(nodeId);
    if (!snapshot) throw new Error(problem);
    return snapshot;
  }

  /**
   * Answers the current snapshot (as JSON text: its data plane was checked against the contract
   * when built, and the rest above, so the reply is not checked again per node) when its version
   * differs from `known`; otherwise waits up to `waitSeconds` for one that does and answers null
   * when none came (or the node hung up). A snapshot that cannot be built counts as no change: the
   * node keeps serving what it has.
   */
  async poll(
    nodeId: number,
    known: string | undefined,
    waitSeconds: number,
    hangUp: AbortSignal,
    withDataPlane = true,
  ): Promise<string | null> {
    const signal = AbortSignal.any([hangUp, this.closing.signal]);
    if (withDataPlane) this.withoutDataPlane.delete(nodeId);
    else this.withoutDataPlane.add(nodeId);
    return this.changes.hold(
      async () => {
        const { snapshot, json } = await this.state(nodeId, withDataPlane);
        return { answer: snapshot && json !== null && snapshot.version !== known ? json : null, recheckMs: RECHECK_MS };
      },
      waitSeconds,
      signal,
    );
  }

  /** Ends every held poll (they answer null); called when the control plane shuts down. */
  close(): void {
    this.closing.abort();
  }

  forget(nodeId: number): void {
    this.cache.delete(`${nodeId}`);
    this.cache.delete(`${nodeId}-`);
  }
}
