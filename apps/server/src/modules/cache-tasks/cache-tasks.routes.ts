import { cacheTaskRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { CacheTasksService } from './cache-tasks.service.js';

export function bindCacheTaskRoutes(binder: Binder, tasks: CacheTasksService): void {
  binder.bind(r.clearNodesCache, async ({ params, body }, { caller }) => ({
    data: await tasks.clearNodes(caller.operatorId, params.zoneID, body.ids),
  }));
  binder.bind(r.purgeNodesCache, async ({ params, body }, { caller }) => ({
    data: await tasks.purgeNodes(caller.operatorId, params.zoneID, body.ids, body.urls),
  }));
  binder.bind(r.clearClientSitesCache, async ({ body }, { caller }) => ({
    data: await tasks.clearSites(caller.operatorId, body.ids),
  }));
  binder.bind(r.purgeSiteUrls, async ({ params, body }, { caller }) => ({
    data: await tasks.purgeSite(caller.accountId, params.siteId, body.urls),
  }));
  binder.bind(r.listSitePurgeTasks, async ({ params, query }, { caller }) =>
    tasks.listSiteTasks(caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(r.preheatZoneCaches, async ({ params, body }, { caller }) => ({
    data: await tasks.preheatZone(caller.operatorId, params.zoneID, body.urls),
  }));
  binder.bind(r.listZonePreheatTasks, async ({ params, query }, { caller }) =>
    tasks.listZoneTasks(caller.operatorId, params.zoneID, query.page, query.pageSize),
  );
}
