import { domainRoutes } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { DomainCnameCheckService } from './domain-cname-check.service.js';
import type { DomainUpstreamsService } from './domain-upstreams.service.js';
import type { DomainsService } from './domains.service.js';
import type { UserDomainsService } from './user-domains.service.js';

export interface DomainServices {
  domains: DomainsService;
  upstreams: DomainUpstreamsService;
  cnameCheck: DomainCnameCheckService;
  across: UserDomainsService;
}

export function bindDomainRoutes(binder: Binder, { domains, upstreams, cnameCheck, across }: DomainServices): void {
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
    await domains.setScheme(requireCaller(caller).accountId, params.siteId, params.domainId, body.scheme, body.portMap);
    return done;
  });
  binder.bind(r.setDomainsAutoSSL, async ({ params, body }, { caller }) => {
    await domains.setAutoSSL(requireCaller(caller).accountId, params.siteId, body.domainIDs, body.autoSSL);
    return done;
  });
  binder.bind(r.checkDomainsCNAME, async ({ params, body }, { caller }) => ({
    data: await cnameCheck.check(requireCaller(caller).accountId, params.siteId, body.domainIDs),
  }));
  binder.bind(r.listUpstreams, async ({ params }, { caller }) => ({
    data: await upstreams.list(requireCaller(caller).accountId, params.siteId, params.domainId),
  }));
  binder.bind(r.addUpstreams, async ({ params, body }, { caller, request }) => ({
    data: await upstreams.add(
      requireCaller(caller).accountId,
      params.siteId,
      params.domainId,
      body.upstreams,
      requestLocale(request),
    ),
  }));
  binder.bind(r.deleteUpstreams, async ({ params, body }, { caller }) => {
    await upstreams.delete(requireCaller(caller).accountId, params.siteId, params.domainId, body.ids);
    return done;
  });
  binder.bind(r.updateUpstream, async ({ params, body }, { caller, request }) => ({
    data: await upstreams.update(
      requireCaller(caller).accountId,
      params.siteId,
      params.domainId,
      body,
      requestLocale(request),
    ),
  }));
  binder.bind(r.createSimpleDomains, async ({ params, body }, { caller, request }) => ({
    data: await domains.createSimple(
      requireCaller(caller).accountId,
      params.siteId,
      body.names,
      body.upstreams,
      requestLocale(request),
    ),
  }));
  binder.bind(r.deleteDomainsByNames, async ({ params, body }, { caller }) => {
    await domains.deleteByNames(requireCaller(caller).accountId, params.siteId, body.names);
    return done;
  });
  binder.bind(r.metaDomains, async ({ params, query }, { caller }) => ({
    data: await domains.meta(requireCaller(caller).accountId, params.siteId, query.keyword),
  }));
  binder.bind(r.modifyUpstreamIPs, async ({ params, body }, { caller, request }) => ({
    data: await domains.modifyUpstreamIPs(
      requireCaller(caller).accountId,
      params.siteId,
      body.domainIDs,
      body.oldIP,
      body.newIP,
      requestLocale(request),
    ),
  }));
  binder.bind(r.replaceDomainsUpstreams, async ({ params, body }, { caller, request }) => {
    await domains.replaceManyUpstreams(
      requireCaller(caller).accountId,
      params.siteId,
      body.domainIDs,
      body.upstreams,
      requestLocale(request),
    );
    return done;
  });
  binder.bind(r.domainSettings, async ({ params, query }, { caller }) => ({
    data: await domains.settings(requireCaller(caller).accountId, params.siteId, query.domainName),
  }));
  binder.bind(r.setDomainsTags, async ({ params, body }, { caller }) => {
    await domains.setTags(requireCaller(caller).accountId, params.siteId, body.domainIDs, body.tags);
    return done;
  });
  binder.bind(r.copyDomainsToSite, async ({ params, body }, { caller }) => ({
    data: await domains.copyToSite(requireCaller(caller).accountId, params.siteId, body.domainIDs, body.siteID),
  }));
  binder.bind(r.createDomainsFrom, async ({ params, body }, { caller }) => ({
    data: await domains.createFrom(
      requireCaller(caller).accountId,
      params.siteId,
      body.domainID,
      body.names,
      body.status,
    ),
  }));
  binder.bind(r.exportDomains, async ({ params, body }, { caller, reply }) => {
    const file = await domains.export(requireCaller(caller).accountId, params.siteId, body.ids);
    reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('access-control-expose-headers', 'Content-Disposition')
      .type('text/csv; charset=utf-8')
      .send(file.csv);
    return '';
  });
  binder.bind(r.userDomainsMeta, async ({ body }, { caller }) => ({
    data: await across.meta(requireCaller(caller).accountId, body.siteIDs, body.name),
  }));
  binder.bind(r.userDomainsTags, async ({ body }, { caller }) => ({
    data: await across.tags(requireCaller(caller).accountId, body.siteIDs),
  }));
  binder.bind(r.userDomainIds, async ({ query }, { caller }) => ({
    data: await across.ids(requireCaller(caller).accountId, query),
  }));
}
