import { domainRoutes } from '@rampart/contract';
import { sendAttachment } from '../../platform/http/attachment.js';
import type { Binder } from '../../platform/http/bind-route.js';
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
  binder.bind(r.listDomains, async ({ params, query }, { caller }) =>
    domains.list(caller.accountId, params.siteId, query),
  );
  binder.bind(r.createDomains, async ({ params, body }, { caller }) => ({
    data: await domains.create(caller.accountId, params.siteId, body.domains),
  }));
  binder.bind(r.updateDomain, async ({ params, body }, { caller }) => ({
    data: await domains.update(caller.accountId, params.siteId, body),
  }));
  binder.bind(r.deleteDomains, async ({ params, body }, { caller }) => {
    await domains.delete(caller.accountId, params.siteId, body.ids);
  });
  binder.bind(r.setDomainsStatus, async ({ params, body }, { caller }) => {
    await domains.setStatus(caller.accountId, params.siteId, body.domainIDs, body.status);
  });
  binder.bind(r.setDomainsForceSSL, async ({ params, body }, { caller }) => {
    await domains.setForceSSL(caller.accountId, params.siteId, body.domainIDs, body.forceSSL);
  });
  binder.bind(r.setDomainsBalance, async ({ params, body }, { caller }) => {
    await domains.setBalance(caller.accountId, params.siteId, body.domainIDs, body.hashType);
  });
  binder.bind(r.setDomainScheme, async ({ params, body }, { caller }) => {
    await domains.setScheme(caller.accountId, params.siteId, params.domainId, body.scheme, body.portMap);
  });
  binder.bind(r.setDomainsAutoSSL, async ({ params, body }, { caller }) => {
    await domains.setAutoSSL(caller.accountId, params.siteId, body.domainIDs, body.autoSSL);
  });
  binder.bind(r.checkDomainsCNAME, async ({ params, body }, { caller }) => ({
    data: await cnameCheck.check(caller.accountId, params.siteId, body.domainIDs),
  }));
  binder.bind(r.listUpstreams, async ({ params }, { caller }) => ({
    data: await upstreams.list(caller.accountId, params.siteId, params.domainId),
  }));
  binder.bind(r.addUpstreams, async ({ params, body }, { caller }) => ({
    data: await upstreams.add(caller.accountId, params.siteId, params.domainId, body.upstreams),
  }));
  binder.bind(r.deleteUpstreams, async ({ params, body }, { caller }) => {
    await upstreams.delete(caller.accountId, params.siteId, params.domainId, body.ids);
  });
  binder.bind(r.updateUpstream, async ({ params, body }, { caller }) => ({
    data: await upstreams.update(caller.accountId, params.siteId, params.domainId, body),
  }));
  binder.bind(r.createSimpleDomains, async ({ params, body }, { caller }) => ({
    data: await domains.createSimple(caller.accountId, params.siteId, body.names, body.upstreams),
  }));
  binder.bind(r.deleteDomainsByNames, async ({ params, body }, { caller }) => {
    await domains.deleteByNames(caller.accountId, params.siteId, body.names);
  });
  binder.bind(r.metaDomains, async ({ params, query }, { caller }) => ({
    data: await domains.meta(caller.accountId, params.siteId, query.keyword),
  }));
  binder.bind(r.modifyUpstreamIPs, async ({ params, body }, { caller }) => ({
    data: await domains.modifyUpstreamIPs(caller.accountId, params.siteId, body.domainIDs, body.oldIP, body.newIP),
  }));
  binder.bind(r.replaceDomainsUpstreams, async ({ params, body }, { caller }) => {
    await domains.replaceManyUpstreams(caller.accountId, params.siteId, body.domainIDs, body.upstreams);
  });
  binder.bind(r.domainSettings, async ({ params, query }, { caller }) => ({
    data: await domains.settings(caller.accountId, params.siteId, query.domainName),
  }));
  binder.bind(r.setDomainsTags, async ({ params, body }, { caller }) => {
    await domains.setTags(caller.accountId, params.siteId, body.domainIDs, body.tags);
  });
  binder.bind(r.copyDomainsToSite, async ({ params, body }, { caller }) => ({
    data: await domains.copyToSite(caller.accountId, params.siteId, body.domainIDs, body.siteID),
  }));
  binder.bind(r.createDomainsFrom, async ({ params, body }, { caller }) => ({
    data: await domains.createFrom(caller.accountId, params.siteId, body.domainID, body.names, body.status),
  }));
  binder.bind(r.exportDomains, async ({ params, body }, { caller, reply }) => {
    const file = await domains.export(caller.accountId, params.siteId, body.ids);
    sendAttachment(reply, { fileName: file.fileName, type: 'text/csv; charset=utf-8', body: file.csv });
    return '';
  });
  binder.bind(r.userDomainsMeta, async ({ body }, { caller }) => ({
    data: await across.meta(caller.accountId, body.siteIDs, body.name),
  }));
  binder.bind(r.userDomainsTags, async ({ body }, { caller }) => ({
    data: await across.tags(caller.accountId, body.siteIDs),
  }));
  binder.bind(r.userDomainIds, async ({ query }, { caller }) => ({
    data: await across.ids(caller.accountId, query),
  }));
}
