import { siteCacheRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { SiteCacheService } from './site-cache.service.js';

export function bindSiteCacheRoutes(binder: Binder, cache: SiteCacheService): void {
  const r = siteCacheRoutes;
  binder.bind(r.listCacheRules, async ({ params }, { caller }) => ({
    data: await cache.list(caller.accountId, params.siteId),
  }));
  binder.bind(r.addCacheRules, async ({ params, body }, { caller }) => ({
    data: await cache.add(caller.accountId, params.siteId, body.data),
  }));
  binder.bind(r.updateCacheRule, async ({ params, body }, { caller }) => ({
    data: await cache.update(caller.accountId, params.siteId, params.ruleId, body),
  }));
  binder.bind(r.deleteCacheRules, async ({ params, body }, { caller }) => {
    await cache.delete(caller.accountId, params.siteId, body.ids);
  });
  binder.bind(r.clearSiteCache, async ({ params }, { caller }) => ({
    data: await cache.clear(caller.accountId, params.siteId),
  }));
}
