import { and, asc, count, desc, eq, getTableColumns, ilike, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { nodes, virtualNodeRecords, virtualNodes } from '../../platform/db/schema.js';

export type VirtualNodeRow = typeof virtualNodes.$inferSelect & { recordCount: number; lineCount: number };
/** A virtual node's record with the name and addresses of the node it names (records). */
export type VirtualNodeRecordRow = Awaited<ReturnType<VirtualNodesRepository['records']>>['rows'][number];

// Qualified by hand: drizzle leaves column names bare inside a subquery.
const recordCount = sql<number>`(SELECT count(*)::int FROM virtual_node_records r WHERE r.virtual_node_id = "virtual_nodes"."id")`;
const lineCount = sql<number>`(SELECT count(*)::int FROM group_virtual_nodes g WHERE g.virtual_node_id = "virtual_nodes"."id")`;
// Every column of the table, and the counts.
const columns = { ...getTableColumns(virtualNodes), recordCount, lineCount };

/** Virtual nodes and their records; every query carries the operator and the zone. */
export class VirtualNodesRepository {
  constructor(private readonly db: Db) {}

  private scope(ownerId: number, zoneId: number) {
    return and(eq(virtualNodes.ownerId, ownerId), eq(virtualNodes.zoneId, zoneId));
  }

  async list(ownerId: number, zoneId: number, value: string | undefined, page: number, pageSize: number) {
    const where = and(
      this.scope(ownerId, zoneId),
      value ? ilike(virtualNodes.name, containsPattern(value)) : undefined,
    );
    return readPage<VirtualNodeRow>(
      this.db
        .select(columns)
        .from(virtualNodes)
        .where(where)
        .orderBy(desc(virtualNodes.createdAt), desc(virtualNodes.id)),
      this.db.select({ n: count() }).from(virtualNodes).where(where),
      { page, pageSize },
    );
  }

  /** The virtual node; `lock` holds it until the transaction ends (record changes are serialised). */
  async find(ownerId: number, zoneId: number, id: number, lock = false): Promise<VirtualNodeRow | undefined> {
    const query = this.db
      .select(columns)
      .from(virtualNodes)
      .where(and(this.scope(ownerId, zoneId), eq(virtualNodes.id, id)));
    const rows = lock ? await query.for('update', { of: virtualNodes }) : await query;
    return rows[0] as VirtualNodeRow | undefined;
  }

  async insert(values: typeof virtualNodes.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(virtualNodes).values(values).returning({ id: virtualNodes.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async update(ownerId: number, zoneId: number, id: number, values: { name: string; memo: string }) {
    const rows = await this.db
      .update(virtualNodes)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(this.scope(ownerId, zoneId), eq(virtualNodes.id, id)))
      .returning({ id: virtualNodes.id });
    return rows.length === 1;
  }

  /** Ids among `ids` that are the operator's virtual nodes in the zone. */
  async existing(ownerId: number, zoneId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: virtualNodes.id })
      .from(virtualNodes)
      .where(and(this.scope(ownerId, zoneId), inArray(virtualNodes.id, ids)));
    return rows.map((r) => r.id);
  }

  async delete(ownerId: number, zoneId: number, ids: number[]): Promise<void> {
    await this.db.delete(virtualNodes).where(and(this.scope(ownerId, zoneId), inArray(virtualNodes.id, ids)));
  }

  async records(virtualNodeId: number, page: number, pageSize: number) {
    const where = eq(virtualNodeRecords.virtualNodeId, virtualNodeId);
    return readPage(
      this.db
        .select({
          id: virtualNodeRecords.id,
          type: virtualNodeRecords.type,
          value: virtualNodeRecords.value,
          nodeId: virtualNodeRecords.nodeId,
          nodeName: nodes.name,
          ips: nodes.ips,
          createdAt: virtualNodeRecords.createdAt,
        })
        .from(virtualNodeRecords)
        .leftJoin(nodes, eq(nodes.id, virtualNodeRecords.nodeId))
        .where(where)
        .orderBy(asc(virtualNodeRecords.id)),
      this.db.select({ n: count() }).from(virtualNodeRecords).where(where),
      { page, pageSize },
    );
  }

  async recordTypes(virtualNodeId: number) {
    const rows = await this.db
      .selectDistinct({ type: virtualNodeRecords.type })
      .from(virtualNodeRecords)
      .where(eq(virtualNodeRecords.virtualNodeId, virtualNodeId));
    return rows.map((r) => r.type);
  }

  async insertCname(virtualNodeId: number, value: string): Promise<number> {
    const [row] = await this.db
      .insert(virtualNodeRecords)
      .values({ virtualNodeId, type: 'cname', value })
      .returning({ id: virtualNodeRecords.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** Initialised nodes of the operator (any zone), among `ids`. */
  async operatorNodes(ownerId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(and(eq(nodes.ownerId, ownerId), eq(nodes.status, 'initialized'), inArray(nodes.id, ids)));
    return rows.map((r) => r.id);
  }

  async insertNodeRecords(virtualNodeId: number, nodeIds: number[]): Promise<void> {
    await this.db
      .insert(virtualNodeRecords)
      .values(nodeIds.map((nodeId) => ({ virtualNodeId, type: 'node' as const, nodeId })))
      .onConflictDoNothing();
  }

  async recordIds(virtualNodeId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: virtualNodeRecords.id })
      .from(virtualNodeRecords)
      .where(and(eq(virtualNodeRecords.virtualNodeId, virtualNodeId), inArray(virtualNodeRecords.id, ids)));
    return rows.map((r) => r.id);
  }

  async deleteRecords(virtualNodeId: number, ids: number[]): Promise<void> {
    await this.db
      .delete(virtualNodeRecords)
      .where(and(eq(virtualNodeRecords.virtualNodeId, virtualNodeId), inArray(virtualNodeRecords.id, ids)));
  }
}
