import type { CacheTask, NodeCommand } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { NodeCommandsRepository } from '../nodes/node-commands.repository.js';
import type { NodeCommandsService } from '../nodes/node-commands.service.js';
import type { NodeSettingsService } from '../nodes/node-settings.service.js';
import type { SiteCacheRepository } from '../sites/site-cache.repository.js';
import { presentCacheTasks } from './cache-tasks.presenter.js';
import type { CacheTaskRow, CacheTasksRepository } from './cache-tasks.repository.js';

/**
 * Clearing and warming the edge's cache (packages/contract/src/routes/cache-tasks.ts): whole
 * caches by a new generation or epoch (a snapshot change), URLs by node commands grouped in tasks.
 */
export class CacheTasksService {
  constructor(
    private readonly transactions: Transactions,
    private readonly tasks: CacheTasksRepository,
    private readonly siteCache: SiteCacheRepository,
    private readonly commandRows: NodeCommandsRepository,
    private readonly commands: NodeCommandsService,
    private readonly settings: NodeSettingsService,
    private readonly access: SiteAccess,
    private readonly clock: Clock,
  ) {}

  /** Raises the cache epoch of each node (all or none) and queues the command that confirms it. */
  clearNodes(operatorId: number, zoneId: number, ids: number[]): Promise<NodeCommand[]> {
    return this.commands.queue(operatorId, ids, 'clearCache', zoneId, {
      payload: async (nodeId) => ({ epoch: await this.tasks.nextNodeEpoch(nodeId) }),
    });
  }

  /** Purges URLs on the named nodes of the zone: one task, one command per node. */
  purgeNodes(operatorId: number, zoneId: number, ids: number[], urls: string[]): Promise<NodeCommand[]> {
    return this.commands.queue(operatorId, ids, 'purgeUrls', zoneId, {
      payload: { urls },
      task: () => this.tasks.insert({ ownerId: operatorId, kind: 'purge', zoneId, siteId: null, urls }),
    });
  }

  /** A new cache generation for each of the operator's sites, all or none (101018 for another's). */
  async clearSites(operatorId: number, ids: number[]): Promise<{ id: number; generation: number }[]> {
    const unique = [...new Set(ids)];
    return this.transactions.run(async () => {
      const rows = await this.siteCache.nextGenerations(operatorId, unique);
      if (rows.length !== unique.length) throw new AppError(101018, { extra: { reason: 'not every site is yours' } });
      return rows.sort((a, b) => a.id - b.id);
    });
  }

  /**
   * Purges URLs of the customer's site on every enabled node that serves it. Each URL's host must
   * be a domain of the site (exactly, or under one of its wildcard domains).
   */
  async purgeSite(userId: number, siteId: number, urls: string[]): Promise<CacheTask> {
    const site = await this.access.userSite(userId, siteId);
    const hosts = urls.map((url) => new URL(url).hostname);
    const candidates = new Set<string>();
    for (const host of hosts) {
      candidates.add(host);
      const dot = host.indexOf('.');
      if (dot > 0) candidates.add(`*${host.slice(dot)}`);
    }
    const names = await this.tasks.domainNamesIn(siteId, [...candidates]);
    const foreign = hosts.findIndex((host) => !names.has(host) && !names.has(`*${host.slice(host.indexOf('.'))}`));
    if (foreign >= 0) throw invalidFields([{ field: `urls.${foreign}`, key: 'urlNotOfSite' }]);

    const nodeIds = await this.tasks.nodesServing(site.ownerId, site.productId);
    const create = () => this.tasks.insert({ ownerId: site.ownerId, kind: 'purge', siteId, zoneId: null, urls });
    let taskId: number;
    if (nodeIds.length === 0) {
      // No node serves the site: nothing is cached anywhere, the task is done at once.
      taskId = await create();
    } else {
      const queued = await this.commands.queue(site.ownerId, nodeIds, 'purgeUrls', undefined, {
        payload: { urls },
        task: create,
      });
      taskId = await this.taskOf(queued[0]?.id ?? 0);
    }
    return this.presentOne(taskId, 'the purge task just created is missing');
  }

  /** Preheats URLs on every enabled node of the zone. */
  async preheatZone(operatorId: number, zoneId: number, urls: string[]): Promise<CacheTask> {
    await this.settings.zone(operatorId, zoneId);
    const nodeIds = await this.tasks.enabledNodesInZone(operatorId, zoneId);
    if (nodeIds.length === 0) throw invalidFields([{ field: 'zoneID', in: 'params', key: 'noEnabledNode' }]);
    const queued = await this.commands.queue(operatorId, nodeIds, 'preheat', zoneId, {
      payload: { urls },
      task: () => this.tasks.insert({ ownerId: operatorId, kind: 'preheat', zoneId, siteId: null, urls }),
    });
    return this.presentOne(await this.taskOf(queued[0]?.id ?? 0), 'the preheat task just created is missing');
  }

  async listSiteTasks(userId: number, siteId: number, page: number, pageSize: number) {
    await this.access.userSite(userId, siteId);
    const { rows, total } = await this.tasks.sitePurges(siteId, page, pageSize);
    return { data: await this.present(rows), total };
  }

  async listZoneTasks(operatorId: number, zoneId: number, page: number, pageSize: number) {
    await this.settings.zone(operatorId, zoneId);
    const { rows, total } = await this.tasks.zonePreheats(operatorId, zoneId, page, pageSize);
    return { data: await this.present(rows), total };
  }

  private async taskOf(commandId: number): Promise<number> {
    const taskId = await this.tasks.taskOfCommand(commandId);
    if (!taskId) throw new Error('queued cache command without a task');
    return taskId;
  }

  private async presentOne(taskId: number, missing: string): Promise<CacheTask> {
    const row = await this.tasks.find(taskId);
    const [task] = await this.present(row ? [row] : []);
    if (!task) throw new Error(missing);
    return task;
  }

  /** Tasks with their commands (expired ones settled first) and the state they add up to. */
  private async present(tasks: CacheTaskRow[]): Promise<CacheTask[]> {
    if (tasks.length === 0) return [];
    const ids = tasks.map((t) => t.id);
    await this.commandRows.expireTasks(ids, new Date(this.clock()));
    return presentCacheTasks(tasks, await this.tasks.commandsOf(ids));
  }
}
