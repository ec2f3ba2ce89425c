import type { NodeDnsStatus, NodeUpgradeStatus, SubNodeType } from '@rampart/contract';
import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, not, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { groupNodes, nodeGroups, nodeJoinTokens, nodes, sitePorts, sites, zones } from '../../platform/db/schema.js';
import { withinZoneScope } from '../account-zones/account-zones.repository.js';

export type NodeRow = typeof nodes.$inferSelect;
/** An initialised node with its zone's name, its groups and its sub-node count (listInitialized). */
export type InitializedNodeRow = Awaited<ReturnType<NodesRepository['listInitialized']>>['rows'][number];

/** The operator's initialised nodes among `ids`, in `zoneId` when given. */
function placed(ownerId: number, ids: number[], zoneId?: number) {
  return and(
    eq(nodes.ownerId, ownerId),
    eq(nodes.status, 'initialized'),
    inArray(nodes.id, ids),
    zoneId === undefined ? undefined : eq(nodes.zoneId, zoneId),
  );
}

/** Nodes whose name or one of whose addresses contains `search` (case-insensitive). */
export function nodeSearchCondition(search: string) {
  return or(ilike(nodes.name, containsPattern(search)), sql`${nodes.ips}::text ILIKE ${containsPattern(search)}`);
}

// Written out in full, as in zones.repository.ts: drizzle leaves column names unqualified in subqueries.
/** Nodes with at least one sub-node. */
const hasSubs = sql`EXISTS (SELECT 1 FROM sub_nodes sn WHERE sn.node_id = "nodes"."id")`;
/** Nodes on at least one line of a group: a DNS record would answer them (contract's NODE_DNS_STATUSES). */
const onLine = sql`EXISTS (SELECT 1 FROM group_nodes gn WHERE gn.node_id = "nodes"."id")`;

/** Nodes and join tokens: one typed query per method. Every read is scoped by owner. */
export class NodesRepository {
  constructor(private readonly db: Db) {}

  async findLiveJoinToken(ownerId: number) {
    const rows = await this.db
      .select()
      .from(nodeJoinTokens)
      .where(and(eq(nodeJoinTokens.ownerId, ownerId), isNull(nodeJoinTokens.revokedAt)));
    return rows[0];
  }

  async findLiveJoinTokenByHash(tokenHash: string) {
    const rows = await this.db
      .select()
      .from(nodeJoinTokens)
      .where(and(eq(nodeJoinTokens.tokenHash, tokenHash), isNull(nodeJoinTokens.revokedAt)));
    return rows[0];
  }

  /** Inserts a join token unless the owner has a live one; returns the live one either way. */
  async insertJoinTokenIfAbsent(row: typeof nodeJoinTokens.$inferInsert) {
    await this.db.insert(nodeJoinTokens).values(row).onConflictDoNothing();
    return this.findLiveJoinToken(row.ownerId);
  }

  async insertNode(row: typeof nodes.$inferInsert): Promise<NodeRow> {
    const [created] = await this.db.insert(nodes).values(row).returning();
    if (!created) throw new Error('insert returned no row');
    return created;
  }

  async findNode(id: number): Promise<NodeRow | undefined> {
    const rows = await this.db.select().from(nodes).where(eq(nodes.id, id));
    return rows[0];
  }

  async updateNode(id: number, values: Partial<typeof nodes.$inferInsert>): Promise<void> {
    await this.db
      .update(nodes)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(nodes.id, id));
  }

  async listByStatus(ownerId: number, status: NodeRow['status'], page: number, pageSize: number) {
    const where = and(eq(nodes.ownerId, ownerId), eq(nodes.status, status));
    return readPage(
      this.db.select().from(nodes).where(where).orderBy(desc(nodes.createdAt), desc(nodes.id)),
      this.db.select({ n: count() }).from(nodes).where(where),
      { page, pageSize },
    );
  }

  /** The site of each of `portIds` that is a layer-4 port of the operator's sites. */
  async sitesOfPorts(ownerId: number, portIds: number[]): Promise<Map<number, number>> {
    if (portIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: sitePorts.id, siteId: sitePorts.siteId })
      .from(sitePorts)
      .innerJoin(sites, eq(sites.id, sitePorts.siteId))
      .where(and(eq(sites.ownerId, ownerId), inArray(sitePorts.id, [...new Set(portIds)])));
    return new Map(rows.map((r) => [r.id, r.siteId]));
  }

  /** Initialised nodes of the operator with their zone, filtered by zones, settings and a name/address search. */
  async listInitialized(
    ownerId: number,
    f: {
      zoneIDs?: number[] | undefined;
      value?: string | undefined;
      portType?: 7 | 4 | undefined;
      version?: string | undefined;
      notVersion?: string | undefined;
      status?: 'on' | 'off' | undefined;
      upgradeStatuses?: NodeUpgradeStatus[] | undefined;
      subNodeType?: SubNodeType | undefined;
      dnsStatus?: NodeDnsStatus | undefined;
      /** The caller's zone scope (a restricted operator sub-account); null for every zone. */
      scope?: ReadonlySet<number> | null | undefined;
    },
    page: number,
    pageSize: number,
  ) {
    const search = f.value?.trim();
    const where = and(
      eq(nodes.ownerId, ownerId),
      eq(nodes.status, 'initialized'),
      withinZoneScope(nodes.zoneId, f.scope ?? null),
      f.zoneIDs && f.zoneIDs.length > 0 ? inArray(nodes.zoneId, f.zoneIDs) : undefined,
      f.portType !== undefined ? eq(nodes.portType, f.portType) : undefined,
      f.version ? eq(nodes.version, f.version) : undefined,
      f.notVersion ? ne(nodes.version, f.notVersion) : undefined,
      f.status !== undefined ? eq(nodes.enabled, f.status === 'on') : undefined,
      f.upgradeStatuses && f.upgradeStatuses.length > 0 ? inArray(nodes.upgradeStatus, f.upgradeStatuses) : undefined,
      search ? nodeSearchCondition(search) : undefined,
      f.subNodeType === undefined ? undefined : f.subNodeType === 'withSubs' ? hasSubs : not(hasSubs),
      f.dnsStatus === undefined ? undefined : f.dnsStatus === 'recorded' ? onLine : not(onLine),
    );
    const { rows, total } = await readPage(
      this.db
        .select({
          node: nodes,
          zoneName: zones.name,
          subNodeCount: sql<number>`(SELECT count(*)::int FROM sub_nodes sn WHERE sn.node_id = "nodes"."id")`,
        })
        .from(nodes)
        .innerJoin(zones, eq(zones.id, nodes.zoneId))
        .where(where)
        .orderBy(desc(nodes.createdAt), desc(nodes.id)),
      this.db.select({ n: count() }).from(nodes).where(where),
      { page, pageSize },
    );
    const ids = rows.map((r) => r.node.id);
    const places =
      ids.length === 0
        ? []
        : await this.db
            .select({ nodeId: groupNodes.nodeId, id: nodeGroups.id, name: nodeGroups.name, line: groupNodes.line })
            .from(groupNodes)
            .innerJoin(nodeGroups, eq(nodeGroups.id, groupNodes.groupId))
            .where(inArray(groupNodes.nodeId, ids))
            .orderBy(asc(nodeGroups.name), asc(groupNodes.line));
    return {
      rows: rows.map((r) => ({
        ...r.node,
        zoneName: r.zoneName,
        subNodeCount: Number(r.subNodeCount),
        groups: places.filter((p) => p.nodeId === r.node.id).map(({ id, name, line }) => ({ id, name, line })),
      })),
      total,
    };
  }

  /**
   * The operator's initialised nodes among `ids` (in `zoneId` when given), locked for the caller's
   * transaction, with the port types of the groups each sits in and whether a virtual node names it.
   */
  async placedNodes(ownerId: number, ids: number[], zoneId?: number) {
    return this.db
      .select({
        id: nodes.id,
        groupPortTypes: sql<
          number[]
        >`ARRAY(SELECT DISTINCT g.port_type::int FROM group_nodes gn JOIN node_groups g ON g.id = gn.group_id WHERE gn.node_id = "nodes"."id")`,
        /** Whether a virtual node's record names the node (202004 for removing or moving it). */
        inVirtualNode: sql<boolean>`EXISTS (SELECT 1 FROM virtual_node_records r WHERE r.node_id = "nodes"."id")`,
      })
      .from(nodes)
      .where(placed(ownerId, ids, zoneId))
      .for('update');
  }

  /** Updates the operator's initialised nodes among `ids` (in `zoneId` when given); returns how many. */
  async updatePlaced(
    ownerId: number,
    ids: number[],
    values: Partial<
      Pick<typeof nodes.$inferInsert, 'enabled' | 'memo' | 'monitor' | 'portType' | 'logRotateTime' | 'name'>
    >,
    zoneId?: number,
  ): Promise<number> {
    const rows = await this.db
      .update(nodes)
      .set({ ...values, updatedAt: sql`now()` })
      .where(placed(ownerId, ids, zoneId))
      .returning({ id: nodes.id });
    return rows.length;
  }

  /** One initialised node of the operator in the zone, or undefined. */
  async findPlaced(ownerId: number, zoneId: number, id: number): Promise<NodeRow | undefined> {
    const rows = await this.db
      .select()
      .from(nodes)
      .where(
        and(eq(nodes.ownerId, ownerId), eq(nodes.status, 'initialized'), eq(nodes.zoneId, zoneId), eq(nodes.id, id)),
      );
    return rows[0];
  }

  async metaInZone(ownerId: number, zoneId: number) {
    return this.db
      .select({ id: nodes.id, name: nodes.name })
      .from(nodes)
      .where(and(eq(nodes.ownerId, ownerId), eq(nodes.status, 'initialized'), eq(nodes.zoneId, zoneId)))
      .orderBy(asc(nodes.name), asc(nodes.id));
  }

  /** Takes a node out of its zone: uninitialised again, as after registration. */
  async uninitialize(ownerId: number, id: number): Promise<void> {
    await this.db
      .update(nodes)
      .set({ status: 'uninitialized', zoneId: null, updatedAt: sql`now()` })
      .where(and(eq(nodes.ownerId, ownerId), eq(nodes.id, id)));
  }
}
