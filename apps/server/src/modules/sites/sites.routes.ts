import { siteRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { SitesService } from './sites.service.js';

export function bindSiteRoutes(binder: Binder, sites: SitesService, nodes: NodesService): void {
  const who = requireCaller;
  const operator = (caller: Caller | null) => nodes.operatorOf(who(caller).accountId);
  const r = siteRoutes;
  binder.bind(r.listClientSites, async ({ query }, { caller }) => sites.listForOperator(await operator(caller), query));
  binder.bind(r.createSite, async ({ body }, { caller }) => ({
    data: await sites.create(await operator(caller), body),
  }));
  binder.bind(r.deleteSites, async ({ body }, { caller }) => {
    await sites.delete(await operator(caller), body.ids);
    return { data: true as const };
  });
  binder.bind(r.setSitesStatus, async ({ body }, { caller }) => {
    await sites.setStatus(await operator(caller), body.ids, body.status);
    return { data: true as const };
  });
  binder.bind(r.listUserSites, async ({ query }, { caller }) => sites.listForUser(who(caller).accountId, query));
  binder.bind(r.getUserSite, async ({ params }, { caller }) => ({
    data: await sites.getForUser(who(caller).accountId, params.siteId),
  }));
}
