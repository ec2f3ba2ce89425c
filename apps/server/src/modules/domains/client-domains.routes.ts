import { clientDomainRoutes } from '@rampart/contract';
import { type Binder, type Caller, requireCaller } from '../../platform/http/bind-route.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { ClientDomainsService } from './client-domains.service.js';

export function bindClientDomainRoutes(binder: Binder, domains: ClientDomainsService, nodes: NodesService): void {
  const operator = (caller: Caller | null) => nodes.operatorOf(requireCaller(caller).accountId);
  const r = clientDomainRoutes;
  binder.bind(r.listClientDomains, async ({ query }, { caller }) => domains.list(await operator(caller), query));
  binder.bind(r.metaClientDomains, async ({ body }, { caller }) => ({
    data: await domains.meta(await operator(caller), body.siteIDs, body.name),
  }));
  binder.bind(r.clientDomainTags, async (_i, { caller }) => ({ data: await domains.tags(await operator(caller)) }));
  binder.bind(r.setClientDomainTags, async ({ body }, { caller }) => {
    await domains.setTags(await operator(caller), body.ids, body.tags);
    return { data: true as const };
  });
  binder.bind(r.clientDomainIds, async ({ query }, { caller }) => ({
    data: await domains.ids(await operator(caller), query),
  }));
}
