import { clientSiteRoutes, siteRoutes, userResourceRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { SitesService } from './sites.service.js';

export function bindSiteRoutes(binder: Binder, sites: SitesService): void {
  const r = siteRoutes;
  binder.bind(r.listClientSites, async ({ query }, { caller }) => sites.listForOperator(caller.operatorId, query));
  binder.bind(r.createSite, async ({ body }, { caller }) => ({
    data: await sites.create(caller.operatorId, body),
  }));
  binder.bind(r.deleteSites, async ({ body }, { caller }) => {
    await sites.delete(caller.operatorId, body.ids);
  });
  binder.bind(r.setSitesStatus, async ({ body }, { caller }) => {
    await sites.setStatus(caller.operatorId, body.ids, body.status);
  });
  binder.bind(r.listUserSites, async ({ query }, { caller }) => sites.listForUser(caller.accountId, query));
  binder.bind(r.getUserSite, async ({ params }, { caller }) => ({
    data: await sites.getForUser(caller.accountId, params.siteId),
  }));

  const c = clientSiteRoutes;
  binder.bind(c.metaSites, async ({ query }, { caller }) => ({
    data: await sites.meta(caller.operatorId, query.userID),
  }));
  binder.bind(c.siteTags, async (_i, { caller }) => ({ data: await sites.tags(caller.operatorId) }));
  binder.bind(c.updateSite, async ({ body }, { caller }) => ({
    data: await sites.update(caller.operatorId, body),
  }));
  binder.bind(c.setSitesUser, async ({ body }, { caller }) => {
    await sites.setUser(caller.operatorId, body.ids, body.userID);
  });
  binder.bind(c.changeSitesProduct, async ({ body }, { caller }) => {
    await sites.changeProduct(caller.operatorId, body.ids, body.productID);
  });
  binder.bind(c.refreshSitesProduct, async ({ body }, { caller }) => ({
    data: await sites.refreshProduct(caller.operatorId, body.ids),
  }));
  binder.bind(c.setSitesLimitations, async ({ body }, { caller }) => {
    await sites.setLimitations(caller.operatorId, body.ids, body.limitations);
  });
  binder.bind(c.setSitesExpiry, async ({ body }, { caller }) => {
    await sites.setExpiry(caller.operatorId, body.ids, body.expiredAt);
  });
  binder.bind(c.setSitesForceBackup, async ({ body }, { caller }) => {
    await sites.setForceBackup(caller.operatorId, body.ids, body.forceBackup);
  });
  binder.bind(c.setSitesTags, async ({ body }, { caller }) => {
    await sites.setTags(caller.operatorId, body.ids, body.tags);
  });

  binder.bind(r.metaUserSites, async (_i, { caller }) => ({ data: await sites.metaForUser(caller.accountId) }));
  binder.bind(r.userSiteTags, async (_i, { caller }) => ({ data: await sites.userTags(caller.accountId) }));
  binder.bind(r.setUserSitesTags, async ({ body }, { caller }) => {
    await sites.setUserTags(caller.accountId, body.ids, body.tags);
  });
  binder.bind(r.setUserSiteTags, async ({ params, body }, { caller }) => ({
    data: await sites.setUserSiteTags(caller.accountId, params.siteId, body.tags),
  }));
  binder.bind(r.listSiteUsers, async ({ params }, { caller }) => ({
    data: await sites.siteUsers(caller.accountId, params.siteId),
  }));
  binder.bind(r.grantSiteUsers, async ({ body }, { caller }) => {
    await sites.setSiteUsers(caller.accountId, body.siteIDs, body.userIDs, true);
  });
  binder.bind(r.revokeSiteUsers, async ({ body }, { caller }) => {
    await sites.setSiteUsers(caller.accountId, body.siteIDs, body.userIDs, false);
  });

  const m = userResourceRoutes;
  binder.bind(m.getResourceInfo, async (_i, { caller }) => ({ data: await sites.resourceInfo(caller.accountId) }));
  binder.bind(m.listUserProducts, async ({ query }, { caller }) => sites.userProducts(caller.accountId, query));
  // m.listGeoIps: the region tree depends on the operator's geo database (geo/geo-database.routes.ts).
}
