import { clientSiteRoutes, GEO_REGIONS, siteRoutes, userResourceRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { SitesService } from './sites.service.js';

export function bindSiteRoutes(binder: Binder, sites: SitesService, nodes: NodesService): void {
  const who = requireCaller;
  const operator = (caller: Caller | null) => nodes.operatorOf(who(caller).accountId);
  const done = { data: true as const };
  const r = siteRoutes;
  binder.bind(r.listClientSites, async ({ query }, { caller }) => sites.listForOperator(await operator(caller), query));
  binder.bind(r.createSite, async ({ body }, { caller }) => ({
    data: await sites.create(await operator(caller), body),
  }));
  binder.bind(r.deleteSites, async ({ body }, { caller }) => {
    await sites.delete(caller.operatorId, body.ids);
  });
  binder.bind(r.setSitesStatus, async ({ body }, { caller }) => {
    await sites.setStatus(await operator(caller), body.ids, body.status);
    return done;
  });
  binder.bind(r.listUserSites, async ({ query }, { caller }) => sites.listForUser(who(caller).accountId, query));
  binder.bind(r.getUserSite, async ({ params }, { caller }) => ({
    data: await sites.getForUser(who(caller).accountId, params.siteId),
  }));

  const c = clientSiteRoutes;
  binder.bind(c.metaSites, async ({ query }, { caller }) => ({
    data: await sites.meta(await operator(caller), query.userID),
  }));
  binder.bind(c.siteTags, async (_i, { caller }) => ({ data: await sites.tags(await operator(caller)) }));
  binder.bind(c.updateSite, async ({ body }, { caller }) => ({
    data: await sites.update(await operator(caller), body),
  }));
  binder.bind(c.setSitesUser, async ({ body }, { caller }) => {
    await sites.setUser(await operator(caller), body.ids, body.userID);
    return done;
  });
  binder.bind(c.changeSitesProduct, async ({ body }, { caller, request }) => {
    await sites.changeProduct(await operator(caller), body.ids, body.productID, requestLocale(request));
    return done;
  });
  binder.bind(c.refreshSitesProduct, async ({ body }, { caller }) => ({
    data: await sites.refreshProduct(await operator(caller), body.ids),
  }));
  binder.bind(c.setSitesLimitations, async ({ body }, { caller }) => {
    await sites.setLimitations(await operator(caller), body.ids, body.limitations);
    return done;
  });
  binder.bind(c.setSitesExpiry, async ({ body }, { caller }) => {
    await sites.setExpiry(await operator(caller), body.ids, body.expiredAt);
    return done;
  });
  binder.bind(c.setSitesForceBackup, async ({ body }, { caller }) => {
    await sites.setForceBackup(await operator(caller), body.ids, body.forceBackup);
    return done;
  });
  binder.bind(c.setSitesTags, async ({ body }, { caller }) => {
    await sites.setTags(await operator(caller), body.ids, body.tags);
    return done;
  });

  const u = (caller: Caller | null) => who(caller).accountId;
  binder.bind(r.metaUserSites, async (_i, { caller }) => ({ data: await sites.metaForUser(u(caller)) }));
  binder.bind(r.userSiteTags, async (_i, { caller }) => ({ data: await sites.userTags(u(caller)) }));
  binder.bind(r.setUserSitesTags, async ({ body }, { caller }) => {
    await sites.setUserTags(u(caller), body.ids, body.tags);
    return done;
  });
  binder.bind(r.setUserSiteTags, async ({ params, body }, { caller }) => ({
    data: await sites.setUserSiteTags(u(caller), params.siteId, body.tags),
  }));
  binder.bind(r.listSiteUsers, async ({ params }, { caller }) => ({
    data: await sites.siteUsers(u(caller), params.siteId),
  }));
  binder.bind(r.grantSiteUsers, async ({ body }, { caller }) => {
    await sites.setSiteUsers(u(caller), body.siteIDs, body.userIDs, true);
    return done;
  });
  binder.bind(r.revokeSiteUsers, async ({ body }, { caller }) => {
    await sites.setSiteUsers(u(caller), body.siteIDs, body.userIDs, false);
    return done;
  });

  const m = userResourceRoutes;
  binder.bind(m.getResourceInfo, async (_i, { caller }) => ({ data: await sites.resourceInfo(u(caller)) }));
  binder.bind(m.listUserProducts, async ({ query }, { caller }) => sites.userProducts(u(caller), query));
  binder.bind(m.listGeoIps, async () => ({ data: [...GEO_REGIONS] }));
}
