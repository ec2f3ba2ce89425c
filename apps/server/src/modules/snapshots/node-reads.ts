import type { NodeWithZone, SnapshotRepository } from './snapshot.repository.js';
import { memoized, NODES_SHARED_MS, type NodeRow, type PlaneMemo } from './snapshot-plane.js';

/** Every node with its zone and groups, by node id. */
type EveryNode = Map<number, { node: NodeWithZone; groupIds: number[] }>;

/**
 * The nodes as the snapshot and the plane read them (snapshot-builder.ts, plane.service.ts): every
 * node at once for the looks of one generation, and again only when the nodes' version moved.
 */
export class NodeReads {
  /** Every node as read at a version of them ({@link nodesAtVersion}); shared, never changed. */
  private nodesKept: { version: number; rows: EveryNode } | null = null;
  /** The last read of every node ({@link everyNode}). */
  private nodesRead: {
    generation: number;
    at: number;
    rows: Promise<EveryNode>;
  } | null = null;

  constructor(private readonly repository: SnapshotRepository) {}

  /**
   * The node and its groups, as the snapshot reads them. Within one generation's `memo` every node
   * is read at once (the polls a change wakes would otherwise read theirs one by one, two queries
   * each); a node registered since that read is read alone.
   */
  async nodeAndGroups(nodeId: number, memo?: PlaneMemo): Promise<{ node: NodeRow; groupIds: number[] }> {
    if (memo) {
      const every = await memoized(memo, 'nodes', () => this.repository.everyNodeAndGroups());
      const found = every.get(nodeId);
      if (found) return found;
    }
    const node = await this.repository.nodeWithZone(nodeId);
    const groupIds = node ? await this.repository.nodeGroupIds(nodeId) : [];
    return { node, groupIds };
  }

  /**
   * Every node with its zone and groups for a `generation`'s memo: one read shared by every memo of
   * the generation (the snapshot polls' and the plane polls' that one change wakes), at most
   * NODES_SHARED_MS old.
   */
  private everyNode(generation: number): Promise<EveryNode> {
    const now = Date.now();
    const kept = this.nodesRead;
    if (kept?.generation === generation && now - kept.at < NODES_SHARED_MS) return kept.rows;
    const read = { generation, at: now, rows: this.nodesAtVersion() };
    this.nodesRead = read;
    read.rows.catch(() => {
      if (this.nodesRead === read) this.nodesRead = null;
    });
    return read.rows;
  }

  /**
   * Every node with its zone and groups, read again only when the nodes' version moved since the
   * last read (dp_nodes_version, moved by triggers in the writing transaction): a change of a
   * domain reads one number, not every node. The version is read first, so rows kept under it are
   * never older than it (a write between the two reads only makes the next look read them again).
   */
  private async nodesAtVersion(): Promise<EveryNode> {
    const version = await this.repository.nodesVersion();
    const kept = this.nodesKept;
    if (kept && version !== null && kept.version === version) return kept.rows;
    const rows = await this.repository.everyNodeAndGroups();
    if (version !== null) this.nodesKept = { version, rows };
    return rows;
  }

  /** A memo for the looks of `generation`, its nodes read once with every other memo of it ({@link everyNode}). */
  generationMemo(generation: number): PlaneMemo {
    const memo: PlaneMemo = new Map();
    // Kept by memoized (a failed read is dropped from the memo, and read again by the next look).
    void memoized(memo, 'nodes', () => this.everyNode(generation));
    return memo;
  }
}
