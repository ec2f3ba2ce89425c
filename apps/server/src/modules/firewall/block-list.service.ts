import type { BlockedIpEntry, BlockListQuery, ClientBlockedIpEntry, EdgeBlockReport } from '@rampart/contract';
import type { ConfigChanges } from '../../platform/changes.js';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import type { ClientCaller } from '../../platform/http/bind-route.js';
import type { NodeCommandsService } from '../nodes/node-commands.service.js';
import type { NodesRepository } from '../nodes/nodes.repository.js';
import type { SnapshotRepository } from '../snapshots/snapshot.repository.js';
import type { BlockFilter, BlockListRepository, BlockListRow, BlockOwner } from './block-list.repository.js';
import { edgeFirewalls } from './firewall.edge.js';
import type { FirewallRulesRepository } from './firewall-rules.repository.js';

function present(row: BlockListRow): ClientBlockedIpEntry {
  return {
    id: row.id,
    ip: row.ip,
    siteID: row.siteId,
    siteName: row.siteName,
    cause: row.cause,
    ruleID: row.ruleId,
    nodeID: row.nodeId,
    nodeName: row.nodeName,
    zoneID: row.zoneId,
    zoneName: row.zoneName ?? '',
    userAccount: row.userAccount,
    blockedAt: row.blockedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** What the operator's calls read of the caller: its operator and the zones it may name. */
type OperatorCaller = Pick<ClientCaller, 'operatorId' | 'zoneScope'>;

function operatorOwner(caller: OperatorCaller): BlockOwner {
  return { operatorId: caller.operatorId, zoneScope: caller.zoneScope };
}

/**
 * The block list (routes/block-list.ts; docs/decisions.md "The block list"). Nodes report what their
 * DROP + Blacklist rules blocked; customers and operators list the blocks of their sites and
 * unblock them, which deletes the rows and queues an `unblock` command for each node that holds
 * one, in the same transaction (node-commands: the agent's long poll takes it at once).
 */
export class BlockListService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repo: BlockListRepository,
    private readonly snapshot: SnapshotRepository,
    private readonly nodes: NodesRepository,
    private readonly commands: NodeCommandsService,
    private readonly clock: Clock,
    private readonly rules: FirewallRulesRepository,
    private readonly changes: ConfigChanges,
  ) {}

  /** The operator's view; a sub-account restricted to some zones sees the blocks of their nodes only. */
  list(
    caller: OperatorCaller,
    query: BlockListQuery & { userID?: number },
  ): Promise<{ data: ClientBlockedIpEntry[]; total: number }> {
    return this.page(operatorOwner(caller), query);
  }

  private async page(
    owner: BlockOwner,
    query: BlockListQuery & { userID?: number },
  ): Promise<{ data: ClientBlockedIpEntry[]; total: number }> {
    const { page, pageSize, sortBy, orderBy, ...filter } = query;
    const { rows, total } = await this.repo.page(
      owner,
      filter satisfies BlockFilter,
      { page, pageSize, sortBy, orderBy },
      new Date(this.clock()),
    );
    return { data: rows.map(present), total };
  }

  /** The customer's view: the operator's columns left out. */
  async listOfUser(userId: number, query: BlockListQuery): Promise<{ data: BlockedIpEntry[]; total: number }> {
    const { data, total } = await this.page({ userId }, query);
    return { data: data.map(({ userAccount: _, ...entry }) => entry), total };
  }

  /** The operator unblocks entries of its blocks (within its zone scope). */
  unblock(caller: OperatorCaller, ids: number[]): Promise<void> {
    return this.unblockOwned(operatorOwner(caller), ids);
  }

  /** The customer unblocks entries of its own sites' blocks. */
  unblockOfUser(userId: number, ids: number[]): Promise<void> {
    return this.unblockOwned({ userId }, ids);
  }

  /**
   * Unblocks the entries, all or none: every id must be one the owner may see (101018 otherwise).
   * A node that is no longer initialised gets no command (it serves nothing of the operator's).
   */
  private async unblockOwned(owner: BlockOwner, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      const found = await this.repo.owned(owner, unique);
      requireEvery(found, unique, 'not every id is a block of yours');
      await this.repo.delete(unique);
      const byOperator = new Map<number, Map<number, { siteId: number; ip: string }[]>>();
      for (const block of found) {
        const perNode = byOperator.get(block.ownerId) ?? new Map<number, { siteId: number; ip: string }[]>();
        byOperator.set(block.ownerId, perNode);
        const entries = perNode.get(block.nodeId) ?? [];
        perNode.set(block.nodeId, entries);
        entries.push({ siteId: block.siteId, ip: block.ip });
      }
      for (const [operatorId, perNode] of byOperator) {
        const placed = await this.nodes.placedNodes(operatorId, [...perNode.keys()]);
        const nodeIds = placed.map((n) => n.id);
        if (nodeIds.length === 0) continue;
        await this.commands.queue(operatorId, nodeIds, 'unblock', undefined, {
          payload: async (nodeId) => ({ entries: perNode.get(nodeId) ?? [] }),
        });
      }
    });
  }

  /**
   * A node's report. Blocks of sites the node does not serve are left out (never another operator's);
   * one address reported twice in a report counts once, with its latest expiry. The node's expired
   * rows go at the same time.
   */
  async report(nodeId: number, entries: EdgeBlockReport[]): Promise<{ recorded: number; ignored: number }> {
    const node = await this.snapshot.nodeWithZone(nodeId);
    if (!node) return { recorded: 0, ignored: entries.length };
    const groups = this.snapshot.groupsFilter(await this.snapshot.nodeGroupIds(nodeId));
    const served = await this.repo.servedSites(node.ownerId, groups, [...new Set(entries.map((e) => e.siteId))]);
    const latest = new Map<string, EdgeBlockReport>();
    for (const e of entries) {
      if (!served.has(e.siteId)) continue;
      const key = `${e.siteId}|${e.ip}`;
      const seen = latest.get(key);
      if (!seen || seen.expiresAt <= e.expiresAt) latest.set(key, e);
    }
    const reported = [...new Set([...latest.values()].map((e) => e.siteId))];
    // Sites with a live block already kept their firewall entry in the nodes' last build.
    const blockedBefore = new Set(await this.repo.blockedSites(reported));
    await this.transactions.run(async () => {
      await this.repo.deleteExpired(nodeId, new Date(this.clock()));
      await this.repo.upsert(nodeId, [...latest.values()]);
      await this.share(
        node.ownerId,
        nodeId,
        [...latest.values()].filter((e) => e.cause === 'escalated'),
      );
    });
    // A first block reported after its site's last rule was deleted (the node caught the address
    // while the deletion travelled): the nodes' snapshots lack the site's firewall entry, which
    // carries the block-list check, until a new build sees the block. Rules are read only for the
    // sites this report gives their first live block, not on every report of an attack.
    const firstBlocked = reported.filter((siteId) => !blockedBefore.has(siteId));
    if (firstBlocked.length > 0) {
      const withRules = new Set((await edgeFirewalls(this.rules, firstBlocked)).map((entry) => entry.id));
      if (firstBlocked.some((siteId) => !withRules.has(siteId))) this.changes.bump();
    }
    return { recorded: latest.size, ignored: entries.filter((e) => !served.has(e.siteId)).length };
  }

  /**
   * A flood one node escalated to its kernel (routes/firewall-l4.ts l4EscalationSchema) goes to every
   * other node serving the same site: a row per node (so the list shows it and an unblock reaches each
   * of them) and a `block` command, which the agents' long polls take at once.
   */
  private async share(ownerId: number, nodeId: number, escalated: EdgeBlockReport[]): Promise<void> {
    if (escalated.length === 0) return;
    const nowSeconds = Math.floor(this.clock() / 1000);
    const perNode = new Map<number, EdgeBlockReport[]>();
    for (const e of escalated) {
      if (e.expiresAt <= nowSeconds) continue;
      for (const other of await this.repo.otherServingNodes(ownerId, e.siteId, nodeId)) {
        const list = perNode.get(other) ?? [];
        perNode.set(other, list);
        list.push(e);
      }
    }
    if (perNode.size === 0) return;
    for (const [other, list] of perNode) await this.repo.upsert(other, list);
    await this.commands.queue(ownerId, [...perNode.keys()], 'block', undefined, {
      payload: async (other) => ({
        entries: (perNode.get(other) ?? []).map((e) => ({
          siteId: e.siteId,
          ip: e.ip,
          seconds: e.expiresAt - nowSeconds,
        })),
      }),
    });
  }
}
