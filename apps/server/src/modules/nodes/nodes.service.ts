import type { InitializedNode, InitializedNodesQuery, NodeStatusIn, RegisterNodeIn } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto/keys.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ClientCaller } from '../../platform/http/bind-route.js';
import type { LicenseLimits } from '../licenses/license-limits.js';
import { presentInitializedNode, presentUninitializedNode } from './nodes.presenter.js';
import type { NodesRepository } from './nodes.repository.js';

/** Node registration and reports, and the operator's view of them. */
export class NodesService {
  constructor(
    private readonly nodes: NodesRepository,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly transactions: Transactions,
    private readonly licenseLimits: LicenseLimits,
  ) {}

  /** The operator's join token, made on first use. */
  async joinToken(operatorId: number): Promise<string> {
    const existing = await this.nodes.findLiveJoinToken(operatorId);
    if (existing) return this.box.open(existing.tokenSealed);
    const token = randomToken('jt_');
    const live = await this.nodes.insertJoinTokenIfAbsent({
      ownerId: operatorId,
      tokenHash: sha256(token),
      tokenSealed: this.box.seal(token),
    });
    if (!live) throw new Error('join token not stored');
    return this.box.open(live.tokenSealed);
  }

  async register(input: RegisterNodeIn) {
    const token = await this.nodes.findLiveJoinTokenByHash(sha256(input.joinToken));
    if (!token) throw new AppError(101013);
    const secret = randomToken('ns_');
    // The operator's licence counts its nodes (202002 past it, 101019 after its expiry).
    const node = await this.transactions.run(async () => {
      await this.licenseLimits.check(token.ownerId, 'nodes');
      return this.nodes.insertNode({
        ownerId: token.ownerId,
        name: input.hostname,
        ips: input.ips,
        version: input.version,
        secretSealed: this.box.seal(secret),
        lastSeenAt: new Date(this.clock()),
      });
    });
    return { nodeId: node.id, nodeSecret: secret };
  }

  async report(nodeId: number, input: NodeStatusIn) {
    const now = new Date(this.clock());
    await this.nodes.updateNode(nodeId, {
      version: input.version,
      appliedVersion: input.appliedVersion,
      // An agent that takes the snapshot's data plane sends none: it holds no plane.
      appliedPlane: input.planeVersion ?? '',
      lastError: input.lastError,
      failedPorts: input.failedPorts ?? [],
      ...(input.ips ? { ips: input.ips } : {}),
      ...(input.system ? { system: input.system, systemAt: now } : {}),
      lastSeenAt: now,
    });
  }

  /** The operator's initialised nodes; a sub-account restricted to some zones (`zoneScope`) sees theirs only. */
  async listInitialized(
    caller: Pick<ClientCaller, 'operatorId' | 'zoneScope'>,
    q: InitializedNodesQuery,
    /** The node's current snapshot and what could not go into it (SnapshotsService.state). */
    snapshotState: (nodeId: number) => Promise<{ snapshot: { version: string } | null; problem: string }>,
    /** The node's plane: its last change and what the node last polled from (PlaneService.currentPlane). */
    planeState: (nodeId: number) => Promise<{ current: string; held: string | null }> = async () => ({
      current: '',
      held: null,
    }),
  ): Promise<{ data: InitializedNode[]; total: number }> {
    const { operatorId, zoneScope } = caller;
    const { rows, total } = await this.nodes.listInitialized(
      operatorId,
      { ...q, scope: zoneScope },
      q.page,
      q.pageSize,
    );
    const now = this.clock();
    const siteOfPort = await this.nodes.sitesOfPorts(
      operatorId,
      rows.flatMap((r) => r.failedPorts.flatMap((f) => (f.id !== undefined ? [f.id] : []))),
    );
    const data = await Promise.all(
      rows.map(async (row) =>
        presentInitializedNode(row, await snapshotState(row.id), await planeState(row.id), siteOfPort, now),
      ),
    );
    return { data, total };
  }

  async listUninitialized(operatorId: number, page: number, pageSize: number) {
    const { rows, total } = await this.nodes.listByStatus(operatorId, 'uninitialized', page, pageSize);
    return { data: rows.map(presentUninitializedNode), total };
  }
}
