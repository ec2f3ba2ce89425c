import { and, asc, count, desc, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import {
  monitorGroupMonitors,
  monitorGroups,
  monitorNodes,
  monitorProbeStates,
  monitorTargets,
  nodes,
} from '../../platform/db/schema.js';

export type MonitorGroupRow = typeof monitorGroups.$inferSelect;
export type MonitorGroupValues = Pick<
  typeof monitorGroups.$inferInsert,
  'name' | 'memo' | 'enabled' | 'intervalSeconds' | 'timeoutSeconds' | 'failureThreshold'
>;

/** Monitor groups, their monitors and targets: every read scoped by owner or by a group found so. */
export class MonitorGroupsRepository {
  constructor(private readonly db: Db) {}

  async list(ownerId: number, page: number, pageSize: number) {
    const where = eq(monitorGroups.ownerId, ownerId);
    return readPage(
      this.db.select().from(monitorGroups).where(where).orderBy(desc(monitorGroups.createdAt), desc(monitorGroups.id)),
      this.db.select({ n: count() }).from(monitorGroups).where(where),
      { page, pageSize },
    );
  }

  meta(ownerId: number) {
    return this.db
      .select({ id: monitorGroups.id, name: monitorGroups.name })
      .from(monitorGroups)
      .where(eq(monitorGroups.ownerId, ownerId))
      .orderBy(asc(monitorGroups.name));
  }

  async find(ownerId: number, id: number): Promise<MonitorGroupRow | undefined> {
    const rows = await this.db
      .select()
      .from(monitorGroups)
      .where(and(eq(monitorGroups.ownerId, ownerId), eq(monitorGroups.id, id)));
    return rows[0];
  }

  monitorsOf(groupIds: number[]) {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ groupId: monitorGroupMonitors.groupId, id: monitorNodes.id, name: nodes.name })
      .from(monitorGroupMonitors)
      .innerJoin(monitorNodes, eq(monitorNodes.id, monitorGroupMonitors.monitorId))
      .innerJoin(nodes, eq(nodes.id, monitorNodes.nodeId))
      .where(inArray(monitorGroupMonitors.groupId, groupIds))
      .orderBy(asc(nodes.name));
  }

  targetsOf(groupIds: number[]) {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ groupId: monitorTargets.groupId, id: nodes.id, name: nodes.name, state: monitorTargets.state })
      .from(monitorTargets)
      .innerJoin(nodes, eq(nodes.id, monitorTargets.nodeId))
      .where(inArray(monitorTargets.groupId, groupIds))
      .orderBy(asc(nodes.name));
  }

  /** The operator's monitor nodes among `ids`. */
  ownedMonitors(ownerId: number, ids: number[]) {
    return this.db
      .select({ id: monitorNodes.id })
      .from(monitorNodes)
      .where(and(eq(monitorNodes.ownerId, ownerId), inArray(monitorNodes.id, ids)));
  }

  /** The operator's nodes among `ids`, with their status. */
  ownedNodes(ownerId: number, ids: number[]) {
    return this.db
      .select({ id: nodes.id, status: nodes.status })
      .from(nodes)
      .where(and(eq(nodes.ownerId, ownerId), inArray(nodes.id, ids)));
  }

  async insert(ownerId: number, values: MonitorGroupValues): Promise<number> {
    const [row] = await this.db
      .insert(monitorGroups)
      .values({ ownerId, ...values })
      .returning({ id: monitorGroups.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async update(ownerId: number, id: number, values: MonitorGroupValues): Promise<boolean> {
    const rows = await this.db
      .update(monitorGroups)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(monitorGroups.ownerId, ownerId), eq(monitorGroups.id, id)))
      .returning({ id: monitorGroups.id });
    return rows.length === 1;
  }

  /**
   * Sets the group's monitors and targets. Targets that stay keep their state and history; the
   * running failure counts of monitors or targets that left are dropped.
   */
  async setMembers(groupId: number, monitorIds: number[], nodeIds: number[]): Promise<void> {
    await this.db.delete(monitorGroupMonitors).where(eq(monitorGroupMonitors.groupId, groupId));
    await this.db.insert(monitorGroupMonitors).values(monitorIds.map((monitorId) => ({ groupId, monitorId })));
    await this.db
      .delete(monitorTargets)
      .where(and(eq(monitorTargets.groupId, groupId), notInArray(monitorTargets.nodeId, nodeIds)));
    await this.db
      .insert(monitorTargets)
      .values(nodeIds.map((nodeId) => ({ groupId, nodeId })))
      .onConflictDoNothing();
    await this.db
      .delete(monitorProbeStates)
      .where(
        and(
          eq(monitorProbeStates.groupId, groupId),
          or(notInArray(monitorProbeStates.monitorId, monitorIds), notInArray(monitorProbeStates.nodeId, nodeIds)),
        ),
      );
  }

  async delete(ownerId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(monitorGroups)
      .where(and(eq(monitorGroups.ownerId, ownerId), eq(monitorGroups.id, id)))
      .returning({ id: monitorGroups.id });
    return rows.length === 1;
  }
}
