import { and, asc, count, eq, ilike, inArray, ne, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { type Page, readPage } from '../../platform/db/paging.js';
import {
  groupNodes,
  groupVirtualNodes,
  nodeGroups,
  nodes,
  virtualNodeRecords,
  virtualNodes,
} from '../../platform/db/schema.js';

export type PlaceKind = 'nodes' | 'virtualNodes';

/** The two placement tables share their shape: (group, member, line). */
const places = {
  nodes: { table: groupNodes, member: groupNodes.nodeId, group: groupNodes.groupId, line: groupNodes.line },
  virtualNodes: {
    table: groupVirtualNodes,
    member: groupVirtualNodes.virtualNodeId,
    group: groupVirtualNodes.groupId,
    line: groupVirtualNodes.line,
  },
} as const;

const recordCount = sql<number>`(SELECT count(*)::int FROM virtual_node_records r WHERE r.virtual_node_id = "virtual_nodes"."id")`;
const lineVirtualNodeColumns = {
  id: virtualNodes.id,
  name: virtualNodes.name,
  portType: virtualNodes.portType,
  recordCount,
};

/**
 * Nodes and virtual nodes on a group's DNS lines. The group's operator and zone are checked by
 * {@link lockGroup} before any other method runs, so those take the group id alone.
 */
export class GroupLinesRepository {
  constructor(private readonly db: Db) {}

  /** The operator's group in the zone, with its port type. */
  async findGroup(ownerId: number, zoneId: number, groupId: number) {
    const rows = await this.groupQuery(ownerId, zoneId, groupId);
    return rows[0];
  }

  /** {@link findGroup}, locked until the transaction ends so that concurrent placements count right. */
  async lockGroup(ownerId: number, zoneId: number, groupId: number) {
    const rows = await this.groupQuery(ownerId, zoneId, groupId).for('update');
    return rows[0];
  }

  private groupQuery(ownerId: number, zoneId: number, groupId: number) {
    return this.db
      .select({ id: nodeGroups.id, portType: nodeGroups.portType })
      .from(nodeGroups)
      .where(and(eq(nodeGroups.ownerId, ownerId), eq(nodeGroups.zoneId, zoneId), eq(nodeGroups.id, groupId)));
  }

  /** Places of nodes and virtual nodes in the group, all lines together. */
  async placementCount(groupId: number): Promise<number> {
    const [[a], [b]] = await Promise.all([
      this.db.select({ n: count() }).from(groupNodes).where(eq(groupNodes.groupId, groupId)),
      this.db.select({ n: count() }).from(groupVirtualNodes).where(eq(groupVirtualNodes.groupId, groupId)),
    ]);
    return (a?.n ?? 0) + (b?.n ?? 0);
  }

  async countsPerLine(kind: PlaceKind, groupId: number) {
    const p = places[kind];
    return this.db.select({ line: p.line, n: count() }).from(p.table).where(eq(p.group, groupId)).groupBy(p.line);
  }

  /** Ids among `ids` that are on the line. */
  async onLine(kind: PlaceKind, groupId: number, line: string, ids: number[]): Promise<number[]> {
    const p = places[kind];
    const rows = await this.db
      .select({ id: p.member })
      .from(p.table)
      .where(and(eq(p.group, groupId), eq(p.line, line), inArray(p.member, ids)));
    return rows.map((r) => r.id);
  }

  async add(kind: PlaceKind, groupId: number, line: string, ids: number[]): Promise<void> {
    if (kind === 'nodes') {
      await this.db
        .insert(groupNodes)
        .values(ids.map((nodeId) => ({ groupId, nodeId, line })))
        .onConflictDoNothing();
    } else {
      await this.db
        .insert(groupVirtualNodes)
        .values(ids.map((virtualNodeId) => ({ groupId, virtualNodeId, line })))
        .onConflictDoNothing();
    }
  }

  async remove(kind: PlaceKind, groupId: number, line: string, ids: number[]): Promise<void> {
    const p = places[kind];
    await this.db.delete(p.table).where(and(eq(p.group, groupId), eq(p.line, line), inArray(p.member, ids)));
  }

  /** Initialised nodes of the operator in the zone, among `ids`. */
  async nodesInZone(ownerId: number, zoneId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(
        and(
          eq(nodes.ownerId, ownerId),
          eq(nodes.zoneId, zoneId),
          eq(nodes.status, 'initialized'),
          inArray(nodes.id, ids),
        ),
      );
    return rows.map((r) => r.id);
  }

  /** Virtual nodes of the operator in the zone, among `ids`, with their port type. */
  async virtualNodesInZone(ownerId: number, zoneId: number, ids: number[]) {
    return this.db
      .select({ id: virtualNodes.id, portType: virtualNodes.portType })
      .from(virtualNodes)
      .where(and(eq(virtualNodes.ownerId, ownerId), eq(virtualNodes.zoneId, zoneId), inArray(virtualNodes.id, ids)));
  }

  /**
   * Ids among `ids` of nodes that serve another port type than `portType`: set to it (the node's
   * port type, PUT client/nodes/portType), placed in a group of it, or named by a record of a
   * virtual node of it. A node serves one port type.
   */
  async servingOtherPortType(ownerId: number, ids: number[], portType: 7 | 4): Promise<number[]> {
    const ownType = this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(and(eq(nodes.ownerId, ownerId), ne(nodes.portType, portType), inArray(nodes.id, ids)));
    const inGroup = this.db
      .select({ id: groupNodes.nodeId })
      .from(groupNodes)
      .innerJoin(nodeGroups, eq(nodeGroups.id, groupNodes.groupId))
      .where(and(eq(nodeGroups.ownerId, ownerId), ne(nodeGroups.portType, portType), inArray(groupNodes.nodeId, ids)));
    const inRecord = this.db
      .select({ id: virtualNodeRecords.nodeId })
      .from(virtualNodeRecords)
      .innerJoin(virtualNodes, eq(virtualNodes.id, virtualNodeRecords.virtualNodeId))
      .where(
        and(
          eq(virtualNodes.ownerId, ownerId),
          ne(virtualNodes.portType, portType),
          inArray(virtualNodeRecords.nodeId, ids),
        ),
      );
    const [a, b, c] = await Promise.all([inGroup, inRecord, ownType]);
    const found = new Set([...a, ...b, ...c].flatMap((r) => (r.id === null ? [] : [r.id])));
    return [...found].sort((x, y) => x - y);
  }

  async lineNodes(groupId: number, line: string, { page, pageSize }: Page) {
    const where = and(eq(groupNodes.groupId, groupId), eq(groupNodes.line, line));
    return readPage(
      this.db
        .select({ id: nodes.id, name: nodes.name, ips: nodes.ips })
        .from(groupNodes)
        .innerJoin(nodes, eq(nodes.id, groupNodes.nodeId))
        .where(where)
        .orderBy(asc(nodes.name), asc(nodes.id)),
      this.db.select({ n: count() }).from(groupNodes).where(where),
      { page, pageSize },
    );
  }

  async lineVirtualNodes(groupId: number, line: string, { page, pageSize }: Page) {
    const where = and(eq(groupVirtualNodes.groupId, groupId), eq(groupVirtualNodes.line, line));
    return readPage(
      this.db
        .select(lineVirtualNodeColumns)
        .from(groupVirtualNodes)
        .innerJoin(virtualNodes, eq(virtualNodes.id, groupVirtualNodes.virtualNodeId))
        .where(where)
        .orderBy(asc(virtualNodes.name), asc(virtualNodes.id)),
      this.db.select({ n: count() }).from(groupVirtualNodes).where(where),
      { page, pageSize },
    );
  }

  /** Initialised nodes of the zone not on the line yet and not serving the other port type. */
  async nodeCandidates(
    s: { ownerId: number; zoneId: number; groupId: number; line: string; portType: 7 | 4 },
    value: string | undefined,
    { page, pageSize }: Page,
  ) {
    const onLine = this.db
      .select({ one: sql`1` })
      .from(groupNodes)
      .where(and(eq(groupNodes.nodeId, nodes.id), eq(groupNodes.groupId, s.groupId), eq(groupNodes.line, s.line)));
    const otherGroup = this.db
      .select({ one: sql`1` })
      .from(groupNodes)
      .innerJoin(nodeGroups, eq(nodeGroups.id, groupNodes.groupId))
      .where(and(eq(groupNodes.nodeId, nodes.id), ne(nodeGroups.portType, s.portType)));
    const otherRecord = this.db
      .select({ one: sql`1` })
      .from(virtualNodeRecords)
      .innerJoin(virtualNodes, eq(virtualNodes.id, virtualNodeRecords.virtualNodeId))
      .where(and(eq(virtualNodeRecords.nodeId, nodes.id), ne(virtualNodes.portType, s.portType)));
    const where = and(
      eq(nodes.ownerId, s.ownerId),
      eq(nodes.zoneId, s.zoneId),
      eq(nodes.status, 'initialized'),
      eq(nodes.portType, s.portType),
      notExists(onLine),
      notExists(otherGroup),
      notExists(otherRecord),
      value
        ? or(ilike(nodes.name, containsPattern(value)), sql`${nodes.ips}::text ILIKE ${containsPattern(value)}`)
        : undefined,
    );
    return readPage(
      this.db
        .select({ id: nodes.id, name: nodes.name, ips: nodes.ips })
        .from(nodes)
        .where(where)
        .orderBy(asc(nodes.name), asc(nodes.id)),
      this.db.select({ n: count() }).from(nodes).where(where),
      { page, pageSize },
    );
  }

  /** Virtual nodes of the zone and port type not on the line yet. */
  async virtualNodeCandidates(
    s: { ownerId: number; zoneId: number; groupId: number; line: string; portType: 7 | 4 },
    value: string | undefined,
    { page, pageSize }: Page,
  ) {
    const onLine = this.db
      .select({ one: sql`1` })
      .from(groupVirtualNodes)
      .where(
        and(
          eq(groupVirtualNodes.virtualNodeId, virtualNodes.id),
          eq(groupVirtualNodes.groupId, s.groupId),
          eq(groupVirtualNodes.line, s.line),
        ),
      );
    const where = and(
      eq(virtualNodes.ownerId, s.ownerId),
      eq(virtualNodes.zoneId, s.zoneId),
      eq(virtualNodes.portType, s.portType),
      notExists(onLine),
      value ? ilike(virtualNodes.name, containsPattern(value)) : undefined,
    );
    return readPage(
      this.db
        .select(lineVirtualNodeColumns)
        .from(virtualNodes)
        .where(where)
        .orderBy(asc(virtualNodes.name), asc(virtualNodes.id)),
      this.db.select({ n: count() }).from(virtualNodes).where(where),
      { page, pageSize },
    );
  }
}
