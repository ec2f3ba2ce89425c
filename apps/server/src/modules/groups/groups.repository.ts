import { and, asc, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { nodeGroups } from '../../platform/db/schema.js';

export type GroupRow = typeof nodeGroups.$inferSelect & { nodeCount: number; virtualNodeCount: number };

// Qualified by hand: drizzle leaves column names bare inside a subquery.
const nodeCount = sql<number>`(SELECT count(DISTINCT gn.node_id)::int FROM group_nodes gn WHERE gn.group_id = "node_groups"."id")`;
const virtualNodeCount = sql<number>`(SELECT count(DISTINCT gv.virtual_node_id)::int FROM group_virtual_nodes gv WHERE gv.group_id = "node_groups"."id")`;
// Every column of the table, and the counts.
const columns = { ...getTableColumns(nodeGroups), nodeCount, virtualNodeCount };

/** Groups of a zone; every query carries the operator and the zone. Their lines: group-lines. */
export class GroupsRepository {
  constructor(private readonly db: Db) {}

  private scope(ownerId: number, zoneId: number) {
    return and(eq(nodeGroups.ownerId, ownerId), eq(nodeGroups.zoneId, zoneId));
  }

  async list(ownerId: number, zoneId: number, page: number, pageSize: number) {
    return readPage<GroupRow>(
      this.db
        .select(columns)
        .from(nodeGroups)
        .where(this.scope(ownerId, zoneId))
        .orderBy(desc(nodeGroups.createdAt), desc(nodeGroups.id)),
      this.db.select({ n: count() }).from(nodeGroups).where(this.scope(ownerId, zoneId)),
      { page, pageSize },
    );
  }

  async meta(
    ownerId: number,
    zoneId: number,
    filter: { portType?: 7 | 4 | undefined; isBackup?: boolean | undefined },
  ) {
    return this.db
      .select({ id: nodeGroups.id, name: nodeGroups.name })
      .from(nodeGroups)
      .where(
        and(
          this.scope(ownerId, zoneId),
          filter.portType === undefined ? undefined : eq(nodeGroups.portType, filter.portType),
          filter.isBackup === undefined ? undefined : eq(nodeGroups.isBackup, filter.isBackup),
        ),
      )
      .orderBy(asc(nodeGroups.name));
  }

  async find(ownerId: number, zoneId: number, id: number): Promise<GroupRow | undefined> {
    const rows = await this.db
      .select(columns)
      .from(nodeGroups)
      .where(and(this.scope(ownerId, zoneId), eq(nodeGroups.id, id)));
    return rows[0] as GroupRow | undefined;
  }

  async insert(values: typeof nodeGroups.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(nodeGroups).values(values).returning({ id: nodeGroups.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async update(ownerId: number, zoneId: number, id: number, values: { name: string; isBackup: boolean; memo: string }) {
    const rows = await this.db
      .update(nodeGroups)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(this.scope(ownerId, zoneId), eq(nodeGroups.id, id)))
      .returning({ id: nodeGroups.id });
    return rows.length === 1;
  }

  async delete(ownerId: number, zoneId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(nodeGroups)
      .where(and(this.scope(ownerId, zoneId), eq(nodeGroups.id, id)))
      .returning({ id: nodeGroups.id });
    return rows.length === 1;
  }
}
