import { sitePortRoutes as r } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { SitePortsService } from './site-ports.service.js';

export function bindSitePortRoutes(binder: Binder, ports: SitePortsService): void {
  binder.bind(r.listSitePorts, async ({ params, query }, { caller }) =>
    ports.list(requireCaller(caller).accountId, params.siteId, query),
  );
  binder.bind(r.addSitePorts, async ({ params, body }, { caller, request }) => ({
    data: await ports.add(requireCaller(caller).accountId, params.siteId, body.ports, requestLocale(request)),
  }));
  binder.bind(r.updateSitePort, async ({ params, body }, { caller, request }) => ({
    data: await ports.update(requireCaller(caller).accountId, params.siteId, body, requestLocale(request)),
  }));
  binder.bind(r.deleteSitePorts, async ({ params, body }, { caller }) => {
    await ports.delete(requireCaller(caller).accountId, params.siteId, body.ids);
    return { data: true as const };
  });
  binder.bind(r.batchCreateSitePorts, async ({ params, body }, { caller, request }) => ({
    data: await ports.batchCreate(requireCaller(caller).accountId, params.siteId, body, requestLocale(request)),
  }));
  binder.bind(r.listSitePortUpstreams, async ({ params }, { caller }) => ({
    data: await ports.upstreams(requireCaller(caller).accountId, params.siteId, params.portId),
  }));
  binder.bind(r.addSitePortUpstreams, async ({ params, body }, { caller, request }) => ({
    data: await ports.addUpstreams(
      requireCaller(caller).accountId,
      params.siteId,
      params.portId,
      body.upstreams,
      requestLocale(request),
    ),
  }));
  binder.bind(r.deleteSitePortUpstreams, async ({ params, body }, { caller }) => ({
    data: await ports.deleteUpstreams(requireCaller(caller).accountId, params.siteId, params.portId, body.ids),
  }));
  binder.bind(r.updateSitePortUpstream, async ({ params, body }, { caller, request }) => ({
    data: await ports.updateUpstream(
      requireCaller(caller).accountId,
      params.siteId,
      params.portId,
      body,
      requestLocale(request),
    ),
  }));
  binder.bind(r.enableSitePorts, async ({ params, body }, { caller }) => {
    await ports.setEnabled(requireCaller(caller).accountId, params.siteId, body.ids, true);
    return { data: true as const };
  });
  binder.bind(r.disableSitePorts, async ({ params, body }, { caller }) => {
    await ports.setEnabled(requireCaller(caller).accountId, params.siteId, body.ids, false);
    return { data: true as const };
  });
  binder.bind(r.listSiteZonePorts, async ({ params }, { caller }) => ({
    data: await ports.zonePorts(requireCaller(caller).accountId, params.siteId),
  }));
}
