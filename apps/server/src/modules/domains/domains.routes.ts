import { domainRoutes } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { DomainsService } from './domains.service.js';

export function bindDomainRoutes(binder: Binder, domains: DomainsService): void {
  const r = domainRoutes;
  const done = { data: true as const };
  binder.bind(r.listDomains, async ({ params, query }, { caller }) =>
    domains.list(requireCaller(caller).accountId, params.siteId, query),
  );
  binder.bind(r.createDomains, async ({ params, body }, { caller, request }) => ({
    data: await domains.create(requireCaller(caller).accountId, params.siteId, body.domains, requestLocale(request)),
  }));
  binder.bind(r.updateDomain, async ({ params, body }, { caller, request }) => ({
    data: await domains.update(requireCaller(caller).accountId, params.siteId, body, requestLocale(request)),
  }));
  binder.bind(r.deleteDomains, async ({ params, body }, { caller }) => {
    await domains.delete(requireCaller(caller).accountId, params.siteId, body.ids);
    return done;
  });
  binder.bind(r.setDomainsStatus, async ({ params, body }, { caller }) => {
    await domains.setStatus(requireCaller(caller).accountId, params.siteId, body.domainIDs, body.status);
    return done;
  });
  binder.bind(r.setDomainsForceSSL, async ({ params, body }, { caller }) => {
    await domains.setForceSSL(requireCaller(caller).accountId, params.siteId, body.domainIDs, body.forceSSL);
    return done;
  });
  binder.bind(r.setDomainsBalance, async ({ params, body }, { caller }) => {
    await domains.setBalance(requireCaller(caller).accountId, params.siteId, body.domainIDs, body.hashType);
    return done;
  });
  binder.bind(r.setDomainScheme, async ({ params, body }, { caller }) => {
    await domains.setScheme(requireCaller(caller).accountId, params.siteId, params.domainId, body.scheme);
    return done;
  });
  binder.bind(r.listUpstreams, async ({ params }, { caller }) => ({
    data: await domains.listUpstreams(requireCaller(caller).accountId, params.siteId, params.domainId),
  }));
  binder.bind(r.addUpstreams, async ({ params, body }, { caller, request }) => ({
    data: await domains.addUpstreams(
      requireCaller(caller).accountId,
      params.siteId,
      params.domainId,
      body.upstreams,
      requestLocale(request),
    ),
  }));
  binder.bind(r.deleteUpstreams, async ({ params, body }, { caller }) => {
    await domains.deleteUpstreams(requireCaller(caller).accountId, params.siteId, params.domainId, body.ids);
    return done;
  });
  binder.bind(r.updateUpstream, async ({ params, body }, { caller, request }) => ({
    data: await domains.updateUpstream(
      requireCaller(caller).accountId,
      params.siteId,
      params.domainId,
      body,
      requestLocale(request),
    ),
  }));
}
