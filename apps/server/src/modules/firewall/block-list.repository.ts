import type { BlockCause, BlockListQuery, EdgeBlockReport } from '@rampart/contract';
import { and, asc, count, desc, eq, gt, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { rowsOf } from '../../platform/db/rows.js';
import {
  accounts,
  blockedIps,
  nodeGroups,
  nodes,
  productGroups,
  siteFirewallRules,
  siteModuleRules,
  sites,
  zones,
} from '../../platform/db/schema.js';
import type { NodeGroups } from '../snapshots/snapshot.repository.js';

/** Whose blocks a call may see: a customer's sites, or an operator's (within its zones, for a sub-account). */
export type BlockOwner = { userId: number } | { operatorId: number; zoneScope: ReadonlySet<number> | null };

export type BlockFilter = Omit<BlockListQuery, 'page' | 'pageSize' | 'sortBy' | 'orderBy'> & { userID?: number };

/** A block with what the list shows beside it. */
export interface BlockListRow {
  id: number;
  ip: string;
  siteId: number;
  siteName: string;
  cause: BlockCause;
  ruleId: number | null;
  nodeId: number;
  nodeName: string;
  zoneId: number | null;
  zoneName: string | null;
  userAccount: string;
  blockedAt: Date;
  expiresAt: Date;
}

/** A block an unblock call named, with what the command to its node needs. */
export interface OwnedBlock {
  id: number;
  siteId: number;
  nodeId: number;
  ip: string;
  ownerId: number;
}

const SORT = { blockedAt: blockedIps.blockedAt, expiresAt: blockedIps.expiresAt, ip: blockedIps.ip } as const;

/** The SQL of the block list; reads are scoped by the owner their caller is. */
export class BlockListRepository {
  constructor(private readonly db: Db) {}

  private ownerWhere(owner: BlockOwner): SQL | undefined {
    if ('userId' in owner) return eq(sites.userId, owner.userId);
    const own = eq(sites.ownerId, owner.operatorId);
    return owner.zoneScope === null ? own : and(own, inArray(nodes.zoneId, [...owner.zoneScope, 0]));
  }

  /** One page of the owner's blocks that have not expired at `now`. */
  page(
    owner: BlockOwner,
    filter: BlockFilter,
    order: Pick<BlockListQuery, 'sortBy' | 'orderBy' | 'page' | 'pageSize'>,
    now: Date,
  ) {
    const where = and(
      this.ownerWhere(owner),
      gt(blockedIps.expiresAt, now),
      filter.siteID === undefined ? undefined : eq(blockedIps.siteId, filter.siteID),
      filter.userID === undefined ? undefined : eq(sites.userId, filter.userID),
      filter.ips?.length ? inArray(blockedIps.ip, filter.ips) : undefined,
      filter.causes?.length ? inArray(blockedIps.cause, filter.causes) : undefined,
      filter.zoneID === undefined ? undefined : eq(nodes.zoneId, filter.zoneID),
    );
    const column = SORT[order.sortBy];
    const direction = order.orderBy === 'asc' ? asc : desc;
    const rows = this.db
      .select({
        id: blockedIps.id,
        ip: blockedIps.ip,
        siteId: blockedIps.siteId,
        siteName: sites.name,
        cause: blockedIps.cause,
        // The rule, while it still exists on the site (a Lua ACL block names a rule of an ACL module).
        ruleId: sql<number | null>`coalesce(${siteFirewallRules.id}, ${siteModuleRules.id})`.mapWith(Number),
        nodeId: blockedIps.nodeId,
        nodeName: nodes.name,
        zoneId: nodes.zoneId,
        zoneName: zones.name,
        userAccount: accounts.account,
        blockedAt: blockedIps.blockedAt,
        expiresAt: blockedIps.expiresAt,
      })
      .from(blockedIps)
      .innerJoin(sites, eq(sites.id, blockedIps.siteId))
      .innerJoin(nodes, eq(nodes.id, blockedIps.nodeId))
      .innerJoin(accounts, eq(accounts.id, sites.userId))
      .leftJoin(zones, eq(zones.id, nodes.zoneId))
      .leftJoin(
        siteFirewallRules,
        and(
          eq(siteFirewallRules.id, blockedIps.ruleId),
          eq(siteFirewallRules.siteId, blockedIps.siteId),
          // IP trust protection and escalated floods report the site as their rule: such a block names no rule.
          ne(blockedIps.cause, 'reputation'),
          ne(blockedIps.cause, 'escalated'),
          ne(blockedIps.cause, 'acl'),
        ),
      )
      .leftJoin(
        siteModuleRules,
        and(
          eq(siteModuleRules.id, blockedIps.ruleId),
          eq(siteModuleRules.siteId, blockedIps.siteId),
          eq(blockedIps.cause, 'acl'),
        ),
      )
      .where(where)
      .orderBy(direction(column), direction(blockedIps.id));
    const total = this.db
      .select({ n: count() })
      .from(blockedIps)
      .innerJoin(sites, eq(sites.id, blockedIps.siteId))
      .innerJoin(nodes, eq(nodes.id, blockedIps.nodeId))
      .where(where);
    return readPage<BlockListRow>(rows, total, order);
  }

  /** The blocks among `ids` that the owner may see (expired ones included: unblocking one is harmless). */
  owned(owner: BlockOwner, ids: number[]): Promise<OwnedBlock[]> {
    return this.db
      .select({
        id: blockedIps.id,
        siteId: blockedIps.siteId,
        nodeId: blockedIps.nodeId,
        ip: blockedIps.ip,
        ownerId: sites.ownerId,
      })
      .from(blockedIps)
      .innerJoin(sites, eq(sites.id, blockedIps.siteId))
      .innerJoin(nodes, eq(nodes.id, blockedIps.nodeId))
      .where(and(this.ownerWhere(owner), inArray(blockedIps.id, ids)));
  }

  async delete(ids: number[]): Promise<void> {
    if (ids.length > 0) await this.db.delete(blockedIps).where(inArray(blockedIps.id, ids));
  }

  /** Which of `siteIds` the node serves: the operator's sites whose product uses one of its layer-7 groups. */
  async servedSites(ownerId: number, nodeGroup: NodeGroups, siteIds: number[]): Promise<Set<number>> {
    if (siteIds.length === 0) return new Set();
    const rows = await this.db
      .selectDistinct({ id: sites.id })
      .from(sites)
      .innerJoin(productGroups, eq(productGroups.productId, sites.productId))
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .where(and(nodeGroup, eq(nodeGroups.portType, 7), eq(sites.ownerId, ownerId), inArray(sites.id, siteIds)));
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The operator's initialised nodes, other than `nodeId`, that serve the site through a layer-7 group
   * of its product (directly or through a virtual node), in id order.
   */
  async otherServingNodes(ownerId: number, siteId: number, nodeId: number): Promise<number[]> {
    const rows = await this.db.execute(sql`
      SELECT DISTINCT n.id FROM sites s
      JOIN product_groups pg ON pg.product_id = s.product_id
      JOIN node_groups g ON g.id = pg.group_id AND g.port_type = 7
      JOIN (
        SELECT gn.node_id, gn.group_id FROM group_nodes gn
        UNION SELECT r.node_id, gv.group_id FROM group_virtual_nodes gv
          JOIN virtual_node_records r ON r.virtual_node_id = gv.virtual_node_id WHERE r.node_id IS NOT NULL
      ) m ON m.group_id = g.id
      JOIN nodes n ON n.id = m.node_id
      WHERE s.id = ${siteId} AND s.owner_id = ${ownerId} AND n.owner_id = ${ownerId}
        AND n.status = 'initialized' AND n.id <> ${nodeId}
      ORDER BY n.id`);
    return rowsOf<{ id: number | string }>(rows).map((r) => Number(r.id));
  }

  /** Records a node's blocks; one it reported before is renewed (its cause, rule and times replaced). */
  async upsert(nodeId: number, entries: EdgeBlockReport[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db
      .insert(blockedIps)
      .values(
        entries.map((e) => ({
          siteId: e.siteId,
          nodeId,
          ip: e.ip,
          cause: e.cause,
          ruleId: e.ruleId,
          blockedAt: new Date(e.blockedAt * 1000),
          expiresAt: new Date(e.expiresAt * 1000),
        })),
      )
      .onConflictDoUpdate({
        target: [blockedIps.siteId, blockedIps.nodeId, blockedIps.ip],
        set: {
          cause: sql`excluded.cause`,
          ruleId: sql`excluded.rule_id`,
          blockedAt: sql`excluded.blocked_at`,
          expiresAt: sql`excluded.expires_at`,
        },
      });
  }

  /** Which of `siteIds` have a block that has not ended (on any node). */
  async blockedSites(siteIds: number[]): Promise<number[]> {
    if (siteIds.length === 0) return [];
    const rows = await this.db
      .selectDistinct({ id: blockedIps.siteId })
      .from(blockedIps)
      .where(and(inArray(blockedIps.siteId, siteIds), gt(blockedIps.expiresAt, sql`now()`)));
    return rows.map((r) => r.id);
  }

  /** Removes the node's blocks that ended at or before `now` (the node has forgotten them too). */
  async deleteExpired(nodeId: number, now: Date): Promise<void> {
    await this.db.delete(blockedIps).where(and(eq(blockedIps.nodeId, nodeId), lte(blockedIps.expiresAt, now)));
  }
}
