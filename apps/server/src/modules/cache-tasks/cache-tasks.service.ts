import type { CacheTask, Locale, NodeCommand } from '@rampart/contract';
import { and, count, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import {
  cacheTasks,
  domains,
  groupNodes,
  groupVirtualNodes,
  nodeCommands,
  nodeGroups,
  nodes,
  productGroups,
  sites,
  virtualNodeRecords,
} from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import { NodeCommandsRepository } from '../nodes/node-commands.repository.js';
import type { NodeCommandsService } from '../nodes/node-commands.service.js';
import type { NodeSettingsService } from '../nodes/node-settings.service.js';
import type { SiteAccess } from '../sites/site-access.js';

type TaskRow = typeof cacheTasks.$inferSelect;

/**
 * Clearing and warming the edge's cache (packages/contract/src/routes/cache-tasks.ts): whole
 * caches by a new generation or epoch (a snapshot change), URLs by node commands grouped in tasks.
 */
export class CacheTasksService {
  constructor(
    private readonly db: Db,
    private readonly commands: NodeCommandsService,
    private readonly settings: NodeSettingsService,
    private readonly access: SiteAccess,
    private readonly clock: Clock,
  ) {}

  /** Raises the cache epoch of each node (all or none) and queues the command that confirms it. */
  clearNodes(operatorId: number, zoneId: number, ids: number[]): Promise<NodeCommand[]> {
    return this.commands.queue(operatorId, ids, 'clearCache', zoneId, {
      payload: async (nodeId) => {
        const [row] = await this.db
          .update(nodes)
          .set({ cacheEpoch: sql`${nodes.cacheEpoch} + 1` })
          .where(eq(nodes.id, nodeId))
          .returning({ epoch: nodes.cacheEpoch });
        return { epoch: row?.epoch ?? 1 };
      },
    });
  }

  /** Purges URLs on the named nodes of the zone: one task, one command per node. */
  purgeNodes(operatorId: number, zoneId: number, ids: number[], urls: string[]): Promise<NodeCommand[]> {
    return this.commands.queue(operatorId, ids, 'purgeUrls', zoneId, {
      payload: { urls },
      task: () => this.createTask(this.db, { ownerId: operatorId, kind: 'purge', zoneId, siteId: null, urls }),
    });
  }

  /** A new cache generation for each of the operator's sites, all or none (101018 for another's). */
  async clearSites(operatorId: number, ids: number[]): Promise<{ id: number; generation: number }[]> {
    const unique = [...new Set(ids)];
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(sites)
        .set({ cacheGeneration: sql`${sites.cacheGeneration} + 1` })
        .where(and(eq(sites.ownerId, operatorId), inArray(sites.id, unique)))
        .returning({ id: sites.id, generation: sites.cacheGeneration });
      if (rows.length !== unique.length) throw new AppError(101018, { extra: { reason: 'not every site is yours' } });
      return rows.sort((a, b) => a.id - b.id);
    });
  }

  /**
   * Purges URLs of the customer's site on every enabled node that serves it. Each URL's host must
   * be a domain of the site (exactly, or under one of its wildcard domains).
   */
  async purgeSite(userId: number, siteId: number, urls: string[], locale: Locale): Promise<CacheTask> {
    const site = await this.access.userSite(userId, siteId);
    const hosts = urls.map((url) => new URL(url).hostname);
    const candidates = new Set<string>();
    for (const host of hosts) {
      candidates.add(host);
      const dot = host.indexOf('.');
      if (dot > 0) candidates.add(`*${host.slice(dot)}`);
    }
    const found = await this.db
      .select({ name: domains.name })
      .from(domains)
      .where(and(eq(domains.siteId, siteId), inArray(domains.name, [...candidates])));
    const names = new Set(found.map((row) => row.name));
    const foreign = hosts.findIndex((host) => !names.has(host) && !names.has(`*${host.slice(host.indexOf('.'))}`));
    if (foreign >= 0) throw invalidFields(locale, [{ field: `urls.${foreign}`, key: 'urlNotOfSite' }]);

    const nodeIds = await this.nodesServing(site.ownerId, site.productId);
    const create = (tx: Db) =>
      this.createTask(tx, { ownerId: site.ownerId, kind: 'purge', siteId, zoneId: null, urls });
    let taskId: number;
    if (nodeIds.length === 0) {
      // No node serves the site: nothing is cached anywhere, the task is done at once.
      taskId = await create(this.db);
    } else {
      const queued = await this.commands.queue(site.ownerId, nodeIds, 'purgeUrls', undefined, {
        payload: { urls },
        task: () => create(this.db),
      });
      taskId = await this.taskOf(queued[0]?.id ?? 0);
    }
    const [task] = await this.present(await this.db.select().from(cacheTasks).where(eq(cacheTasks.id, taskId)));
    if (!task) throw new Error('the purge task just created is missing');
    return task;
  }

  /** Preheats URLs on every enabled node of the zone. */
  async preheatZone(operatorId: number, zoneId: number, urls: string[], locale: Locale): Promise<CacheTask> {
    await this.settings.zone(operatorId, zoneId);
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(
        and(
          eq(nodes.ownerId, operatorId),
          eq(nodes.zoneId, zoneId),
          eq(nodes.status, 'initialized'),
          eq(nodes.enabled, true),
        ),
      );
    if (rows.length === 0) throw invalidFields(locale, [{ field: 'zoneID', in: 'params', key: 'noEnabledNode' }]);
    const queued = await this.commands.queue(
      operatorId,
      rows.map((r) => r.id),
      'preheat',
      zoneId,
      {
        payload: { urls },
        task: () => this.createTask(this.db, { ownerId: operatorId, kind: 'preheat', zoneId, siteId: null, urls }),
      },
    );
    const taskId = await this.taskOf(queued[0]?.id ?? 0);
    const [task] = await this.present(await this.db.select().from(cacheTasks).where(eq(cacheTasks.id, taskId)));
    if (!task) throw new Error('the preheat task just created is missing');
    return task;
  }

  async listSiteTasks(userId: number, siteId: number, page: number, pageSize: number) {
    await this.access.userSite(userId, siteId);
    return this.page(and(eq(cacheTasks.siteId, siteId), eq(cacheTasks.kind, 'purge')), page, pageSize);
  }

  async listZoneTasks(operatorId: number, zoneId: number, page: number, pageSize: number) {
    await this.settings.zone(operatorId, zoneId);
    return this.page(
      and(eq(cacheTasks.ownerId, operatorId), eq(cacheTasks.zoneId, zoneId), eq(cacheTasks.kind, 'preheat')),
      page,
      pageSize,
    );
  }

  private async page(where: ReturnType<typeof and>, page: number, pageSize: number) {
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(cacheTasks)
        .where(where)
        .orderBy(desc(cacheTasks.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ n: count() }).from(cacheTasks).where(where),
    ]);
    return { data: await this.present(rows), total: total?.n ?? 0 };
  }

  private async createTask(tx: Db, values: typeof cacheTasks.$inferInsert): Promise<number> {
    const [row] = await tx.insert(cacheTasks).values(values).returning({ id: cacheTasks.id });
    if (!row) throw new Error('cache task insert returned nothing');
    return row.id;
  }

  private async taskOf(commandId: number): Promise<number> {
    const [row] = await this.db
      .select({ taskId: nodeCommands.taskId })
      .from(nodeCommands)
      .where(and(eq(nodeCommands.id, commandId), isNotNull(nodeCommands.taskId)));
    if (!row?.taskId) throw new Error('queued cache command without a task');
    return row.taskId;
  }

  /** Enabled initialised nodes of the operator on a layer-7 group of the product (directly or through a virtual node). */
  private async nodesServing(operatorId: number, productId: number): Promise<number[]> {
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
          eq(nodes.ownerId, operatorId),
          eq(nodes.status, 'initialized'),
          eq(nodes.enabled, true),
          isNotNull(nodes.zoneId),
          or(inArray(nodes.id, direct), inArray(nodes.id, throughVirtual)),
        ),
      )
      .orderBy(nodes.id);
    return rows.map((r) => r.id);
  }

  /** Tasks with their commands (expired ones settled first) and the state they add up to. */
  private async present(tasks: TaskRow[]): Promise<CacheTask[]> {
    if (tasks.length === 0) return [];
    const ids = tasks.map((t) => t.id);
    await new NodeCommandsRepository(this.db).expireTasks(ids, new Date(this.clock()));
    const commandRows = await this.db
      .select({ command: nodeCommands, nodeName: nodes.name })
      .from(nodeCommands)
      .innerJoin(nodes, eq(nodes.id, nodeCommands.nodeId))
      .where(inArray(nodeCommands.taskId, ids))
      .orderBy(nodeCommands.id);
    return tasks.map((task) => {
      const own = commandRows.filter((r) => r.command.taskId === task.id);
      const good = own.filter((r) => r.command.status === 'succeeded' && r.command.results.every((u) => u.ok));
      const open = own.some((r) => r.command.status === 'queued' || r.command.status === 'sent');
      const state = open
        ? 'running'
        : good.length === own.length
          ? 'succeeded'
          : good.length === 0
            ? 'failed'
            : 'partial';
      return {
        id: task.id,
        kind: task.kind,
        state,
        urls: task.urls,
        createdAt: task.createdAt.toISOString(),
        nodes: own.map(({ command, nodeName }) => ({
          nodeId: command.nodeId,
          nodeName,
          commandId: command.id,
          status: command.status,
          message: command.message,
          results: command.results,
        })),
      };
    });
  }
}
