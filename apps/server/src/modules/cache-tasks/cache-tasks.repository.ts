import { and, count, desc, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import {
  cacheTasks,
  domains,
  groupNodes,
  groupVirtualNodes,
  nodeCommands,
  nodeGroups,
  nodes,
  productGroups,
  virtualNodeRecords,
} from '../../platform/db/schema.js';

export type CacheTaskRow = typeof cacheTasks.$inferSelect;
export type TaskCommandRow = { command: typeof nodeCommands.$inferSelect; nodeName: string };

/** Purge and preheat tasks, the nodes they go to and the commands they are made of. */
export class CacheTasksRepository {
  constructor(private readonly db: Db) {}

  async insert(values: typeof cacheTasks.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(cacheTasks).values(values).returning({ id: cacheTasks.id });
    if (!row) throw new Error('cache task insert returned nothing');
    return row.id;
  }

  async find(id: number): Promise<CacheTaskRow | undefined> {
    const [row] = await this.db.select().from(cacheTasks).where(eq(cacheTasks.id, id));
    return row;
  }

  /** The site's purge tasks, newest first. */
  sitePurges(siteId: number, page: number, pageSize: number) {
    return this.page(and(eq(cacheTasks.siteId, siteId), eq(cacheTasks.kind, 'purge')), page, pageSize);
  }

  /** The operator's preheat tasks of the zone, newest first. */
  zonePreheats(ownerId: number, zoneId: number, page: number, pageSize: number) {
    return this.page(
      and(eq(cacheTasks.ownerId, ownerId), eq(cacheTasks.zoneId, zoneId), eq(cacheTasks.kind, 'preheat')),
      page,
      pageSize,
    );
  }

  private async page(where: SQL | undefined, page: number, pageSize: number) {
    return readPage(
      this.db.select().from(cacheTasks).where(where).orderBy(desc(cacheTasks.id)),
      this.db.select({ n: count() }).from(cacheTasks).where(where),
      { page, pageSize },
    );
  }

  /** The task a queued command belongs to. */
  async taskOfCommand(commandId: number): Promise<number | undefined> {
    const [row] = await this.db
      .select({ taskId: nodeCommands.taskId })
      .from(nodeCommands)
      .where(and(eq(nodeCommands.id, commandId), isNotNull(nodeCommands.taskId)));
    return row?.taskId ?? undefined;
  }

  /** The commands of the tasks with their node's name, in id order. */
  commandsOf(taskIds: number[]): Promise<TaskCommandRow[]> {
    if (taskIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ command: nodeCommands, nodeName: nodes.name })
      .from(nodeCommands)
      .innerJoin(nodes, eq(nodes.id, nodeCommands.nodeId))
      .where(inArray(nodeCommands.taskId, taskIds))
      .orderBy(nodeCommands.id);
  }

  /** Raises the node's cache epoch by one; answers the new epoch. */
  async nextNodeEpoch(nodeId: number): Promise<number> {
    const [row] = await this.db
      .update(nodes)
      .set({ cacheEpoch: sql`${nodes.cacheEpoch} + 1` })
      .where(eq(nodes.id, nodeId))
      .returning({ epoch: nodes.cacheEpoch });
    return row?.epoch ?? 1;
  }

  /** Which of `names` are domains of the site. */
  async domainNamesIn(siteId: number, names: string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const rows = await this.db
      .select({ name: domains.name })
      .from(domains)
      .where(and(eq(domains.siteId, siteId), inArray(domains.name, names)));
    return new Set(rows.map((row) => row.name));
  }

  /** The operator's enabled initialised nodes in the zone. */
  async enabledNodesInZone(ownerId: number, zoneId: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(
        and(
          eq(nodes.ownerId, ownerId),
          eq(nodes.zoneId, zoneId),
          eq(nodes.status, 'initialized'),
          eq(nodes.enabled, true),
        ),
      );
    return rows.map((r) => r.id);
  }

  /** Enabled initialised nodes of the operator on a layer-7 group of the product (directly or through a virtual node). */
  async nodesServing(ownerId: number, productId: number): Promise<number[]> {
    const groups = this.db
      .select({ id: productGroups.groupId })
      .from(productGroups)
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .where(and(eq(productGroups.productId, productId), eq(nodeGroups.portType, 7)));
    const direct = this.db
      .select({ id: groupNodes.nodeId })
      .from(groupNodes)
      .where(inArray(groupNodes.groupId, groups));
    const throughVirtual = this.db
      .select({ id: virtualNodeRecords.nodeId })
      .from(virtualNodeRecords)
      .innerJoin(groupVirtualNodes, eq(groupVirtualNodes.virtualNodeId, virtualNodeRecords.virtualNodeId))
      .where(and(inArray(groupVirtualNodes.groupId, groups), isNotNull(virtualNodeRecords.nodeId)));
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(
        and(
          eq(nodes.ownerId, ownerId),
          eq(nodes.status, 'initialized'),
          eq(nodes.enabled, true),
          isNotNull(nodes.zoneId),
          or(inArray(nodes.id, direct), inArray(nodes.id, throughVirtual)),
        ),
      )
      .orderBy(nodes.id);
    return rows.map((r) => r.id);
  }
}
