import { cacheTaskRoutes as r } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { CacheTasksService } from './cache-tasks.service.js';

export function bindCacheTaskRoutes(binder: Binder, tasks: CacheTasksService, nodes: NodesService): void {
  const operator = (caller: Parameters<typeof requireCaller>[0]) => nodes.operatorOf(requireCaller(caller).accountId);

  binder.bind(r.clearNodesCache, async ({ params, body }, { caller }) => ({
    data: await tasks.clearNodes(await operator(caller), params.zoneID, body.ids),
  }));
  binder.bind(r.purgeNodesCache, async ({ params, body }, { caller }) => ({
    data: await tasks.purgeNodes(await operator(caller), params.zoneID, body.ids, body.urls),
  }));
  binder.bind(r.clearClientSitesCache, async ({ body }, { caller }) => ({
    data: await tasks.clearSites(await operator(caller), body.ids),
  }));
  binder.bind(r.purgeSiteUrls, async ({ params, body }, { caller, request }) => ({
    data: await tasks.purgeSite(requireCaller(caller).accountId, params.siteId, body.urls, requestLocale(request)),
  }));
  binder.bind(r.listSitePurgeTasks, async ({ params, query }, { caller }) =>
    tasks.listSiteTasks(requireCaller(caller).accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(r.preheatZoneCaches, async ({ params, body }, { caller, request }) => ({
    data: await tasks.preheatZone(await operator(caller), params.zoneID, body.urls, requestLocale(request)),
  }));
  binder.bind(r.listZonePreheatTasks, async ({ params, query }, { caller }) =>
    tasks.listZoneTasks(await operator(caller), params.zoneID, query.page, query.pageSize),
  );
}
