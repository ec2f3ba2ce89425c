import { clientDomainRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { ClientDomainsService } from './client-domains.service.js';

export function bindClientDomainRoutes(binder: Binder, domains: ClientDomainsService): void {
  const r = clientDomainRoutes;
  binder.bind(r.listClientDomains, async ({ query }, { caller }) => domains.list(caller.operatorId, query));
  binder.bind(r.metaClientDomains, async ({ body }, { caller }) => ({
    data: await domains.meta(caller.operatorId, body.siteIDs, body.name),
  }));
  binder.bind(r.clientDomainTags, async (_i, { caller }) => ({ data: await domains.tags(caller.operatorId) }));
  binder.bind(r.setClientDomainTags, async ({ body }, { caller }) => {
    await domains.setTags(caller.operatorId, body.ids, body.tags);
  });
  binder.bind(r.clientDomainIds, async ({ query }, { caller }) => ({
    data: await domains.ids(caller.operatorId, query),
  }));
}
