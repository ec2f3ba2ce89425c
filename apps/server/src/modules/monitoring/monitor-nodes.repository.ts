import { and, asc, count, desc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { monitorGroupMonitors, monitorGroups, monitorNodes, nodes } from '../../platform/db/schema.js';

const monitorColumns = {
  id: monitorNodes.id,
  memo: monitorNodes.memo,
  enabled: monitorNodes.enabled,
  createdAt: monitorNodes.createdAt,
  nodeId: nodes.id,
  name: nodes.name,
  ips: nodes.ips,
  status: nodes.status,
  lastSeenAt: nodes.lastSeenAt,
};
export interface MonitorNodeRow {
  id: number;
  memo: string;
  enabled: boolean;
  createdAt: Date;
  nodeId: number;
  name: string;
  ips: string[];
  status: 'uninitialized' | 'initialized';
  lastSeenAt: Date | null;
}

/** Monitor nodes of an operator: one typed query per method, every one scoped by owner. */
export class MonitorNodesRepository {
  constructor(private readonly db: Db) {}

  async list(ownerId: number, page: number, pageSize: number) {
    const where = eq(monitorNodes.ownerId, ownerId);
    const { rows, total } = await readPage(
      this.db
        .select(monitorColumns)
        .from(monitorNodes)
        .innerJoin(nodes, eq(nodes.id, monitorNodes.nodeId))
        .where(where)
        .orderBy(desc(monitorNodes.createdAt), desc(monitorNodes.id)),
      this.db.select({ n: count() }).from(monitorNodes).where(where),
      { page, pageSize },
    );
    return { rows: rows satisfies MonitorNodeRow[], total };
  }

  async find(ownerId: number, id: number): Promise<MonitorNodeRow | undefined> {
    const rows = await this.db
      .select(monitorColumns)
      .from(monitorNodes)
      .innerJoin(nodes, eq(nodes.id, monitorNodes.nodeId))
      .where(and(eq(monitorNodes.ownerId, ownerId), eq(monitorNodes.id, id)));
    return rows[0];
  }

  meta(ownerId: number) {
    return this.db
      .select({ id: monitorNodes.id, name: nodes.name, enabled: monitorNodes.enabled })
      .from(monitorNodes)
      .innerJoin(nodes, eq(nodes.id, monitorNodes.nodeId))
      .where(eq(monitorNodes.ownerId, ownerId))
      .orderBy(asc(nodes.name), asc(monitorNodes.id));
  }

  /** The monitor groups each of `ids` probes for. */
  groupsOf(ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .select({ monitorId: monitorGroupMonitors.monitorId, id: monitorGroups.id, name: monitorGroups.name })
      .from(monitorGroupMonitors)
      .innerJoin(monitorGroups, eq(monitorGroups.id, monitorGroupMonitors.groupId))
      .where(inArray(monitorGroupMonitors.monitorId, ids))
      .orderBy(asc(monitorGroups.name));
  }

  /** Uninitialised nodes of the operator that are not monitor nodes yet. */
  async candidates(ownerId: number, page: number, pageSize: number) {
    const where = and(
      eq(nodes.ownerId, ownerId),
      eq(nodes.status, 'uninitialized'),
      notExists(this.db.select({ one: sql`1` }).from(monitorNodes).where(eq(monitorNodes.nodeId, nodes.id))),
    );
    return readPage(
      this.db
        .select({
          id: nodes.id,
          name: nodes.name,
          ips: nodes.ips,
          lastSeenAt: nodes.lastSeenAt,
          createdAt: nodes.createdAt,
        })
        .from(nodes)
        .where(where)
        .orderBy(desc(nodes.createdAt), desc(nodes.id)),
      this.db.select({ n: count() }).from(nodes).where(where),
      { page, pageSize },
    );
  }

  async ownsNode(ownerId: number, nodeId: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(and(eq(nodes.ownerId, ownerId), eq(nodes.id, nodeId)));
    return rows.length === 1;
  }

  async insert(values: typeof monitorNodes.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(monitorNodes).values(values).returning({ id: monitorNodes.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async update(ownerId: number, id: number, values: { memo: string; enabled: boolean }): Promise<boolean> {
    const rows = await this.db
      .update(monitorNodes)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(monitorNodes.ownerId, ownerId), eq(monitorNodes.id, id)))
      .returning({ id: monitorNodes.id });
    return rows.length === 1;
  }

  async delete(ownerId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(monitorNodes)
      .where(and(eq(monitorNodes.ownerId, ownerId), eq(monitorNodes.id, id)))
      .returning({ id: monitorNodes.id });
    return rows.length === 1;
  }
}
