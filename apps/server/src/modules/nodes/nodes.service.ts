import {
  type InitializedNode,
  NODE_ONLINE_WINDOW_SECONDS,
  type NodeDnsStatus,
  type NodeFailedPort,
  type NodeSystem,
  type NodeUpgradeStatus,
  type SubNodeType,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto/keys.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { AccountsRepository } from '../auth/accounts.repository.js';
import type { NodeRow, NodesRepository } from './nodes.repository.js';

export function presentUninitializedNode(row: NodeRow) {
  return {
    id: row.id,
    name: row.name,
    ips: row.ips,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  };
}

/** online while the agent reported within NODE_ONLINE_WINDOW_SECONDS of `now`. */
export function nodeConnection(lastSeenAt: Date | null, now: number): 'online' | 'offline' {
  return lastSeenAt && now - lastSeenAt.getTime() <= NODE_ONLINE_WINDOW_SECONDS * 1000 ? 'online' : 'offline';
}

/** Node registration and reports, and the operator's view of them. */
export class NodesService {
  constructor(
    private readonly nodes: NodesRepository,
    private readonly accounts: AccountsRepository,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** The operator a client-console caller acts for: the topmost client account above it. */
  async operatorOf(accountId: number): Promise<number> {
    return this.accounts.topOfTier(accountId);
  }

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

  async register(input: { joinToken: string; hostname: string; ips: string[]; version: string }) {
    const token = await this.nodes.findLiveJoinTokenByHash(sha256(input.joinToken));
    if (!token) throw new AppError(101013);
    const secret = randomToken('ns_');
    const node = await this.nodes.insertNode({
      ownerId: token.ownerId,
      name: input.hostname,
      ips: input.ips,
      version: input.version,
      secretSealed: this.box.seal(secret),
      lastSeenAt: new Date(this.clock()),
    });
    return { nodeId: node.id, nodeSecret: secret };
  }

  async report(
    nodeId: number,
    input: {
      version: string;
      appliedVersion: string;
      lastError: string;
      ips?: string[] | undefined;
      system?: NodeSystem | undefined;
      failedPorts?: NodeFailedPort[] | undefined;
    },
  ) {
    const now = new Date(this.clock());
    await this.nodes.updateNode(nodeId, {
      version: input.version,
      appliedVersion: input.appliedVersion,
      lastError: input.lastError,
      failedPorts: input.failedPorts ?? [],
      ...(input.ips ? { ips: input.ips } : {}),
      ...(input.system ? { system: input.system, systemAt: now } : {}),
      lastSeenAt: now,
    });
  }

  async listInitialized(
    operatorId: number,
    q: {
      zoneIDs?: number[] | undefined;
      value?: string | undefined;
      portType?: 7 | 4 | undefined;
      version?: string | undefined;
      status?: 'on' | 'off' | undefined;
      upgradeStatuses?: NodeUpgradeStatus[] | undefined;
      subNodeType?: SubNodeType | undefined;
      dnsStatus?: NodeDnsStatus | undefined;
      scope?: ReadonlySet<number> | null | undefined;
      page: number;
      pageSize: number;
    },
    /** The node's current snapshot and what could not go into it (SnapshotsService.state). */
    snapshotState: (nodeId: number) => Promise<{ snapshot: { version: string } | null; problem: string }>,
  ): Promise<{ data: InitializedNode[]; total: number }> {
    const { rows, total } = await this.nodes.listInitialized(operatorId, q, q.page, q.pageSize);
    const now = this.clock();
    const siteOfPort = await this.nodes.sitesOfPorts(
      operatorId,
      rows.flatMap((r) => r.failedPorts.flatMap((f) => (f.id !== undefined ? [f.id] : []))),
    );
    const data = await Promise.all(
      rows.map(async (row) => {
        const state = await snapshotState(row.id);
        return {
          id: row.id,
          name: row.name,
          ips: row.ips,
          version: row.version,
          zoneId: row.zoneId ?? 0,
          zoneName: row.zoneName,
          groups: row.groups,
          appliedVersion: row.appliedVersion,
          currentVersion: state.snapshot?.version ?? '',
          lastError: row.lastError,
          snapshotError: state.problem,
          failedPorts: row.failedPorts.map((f) => ({
            kind: f.kind,
            port: f.port,
            protocol: f.protocol,
            portID: f.id ?? null,
            siteID: f.id !== undefined ? (siteOfPort.get(f.id) ?? null) : null,
            error: f.error,
          })),
          connection: nodeConnection(row.lastSeenAt, now),
          lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
          createdAt: row.createdAt.toISOString(),
          status: row.enabled ? ('on' as const) : ('off' as const),
          memo: row.memo,
          monitor: row.monitor,
          portType: row.portType,
          logRotateTime: row.logRotateTime,
          upgradeStatus: row.upgradeStatus,
          subNodeCount: row.subNodeCount,
          dnsStatus: row.groups.length > 0 ? ('recorded' as const) : ('none' as const),
        };
      }),
    );
    return { data, total };
  }

  async listUninitialized(operatorId: number, page: number, pageSize: number) {
    const { rows, total } = await this.nodes.listByStatus(operatorId, 'uninitialized', page, pageSize);
    return { data: rows.map(presentUninitializedNode), total };
  }
}
