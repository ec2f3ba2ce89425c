import { sitePortRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { SitePortsService } from './site-ports.service.js';

export function bindSitePortRoutes(binder: Binder, ports: SitePortsService): void {
  binder.bind(r.listSitePorts, async ({ params, query }, { caller }) =>
    ports.list(caller.accountId, params.siteId, query),
  );
  binder.bind(r.addSitePorts, async ({ params, body }, { caller }) => ({
    data: await ports.add(caller.accountId, params.siteId, body.ports),
  }));
  binder.bind(r.updateSitePort, async ({ params, body }, { caller }) => ({
    data: await ports.update(caller.accountId, params.siteId, body),
  }));
  binder.bind(r.deleteSitePorts, async ({ params, body }, { caller }) => {
    await ports.delete(caller.accountId, params.siteId, body.ids);
  });
  binder.bind(r.batchCreateSitePorts, async ({ params, body }, { caller }) => ({
    data: await ports.batchCreate(caller.accountId, params.siteId, body),
  }));
  binder.bind(r.listSitePortUpstreams, async ({ params }, { caller }) => ({
    data: await ports.upstreams(caller.accountId, params.siteId, params.portId),
  }));
  binder.bind(r.addSitePortUpstreams, async ({ params, body }, { caller }) => ({
    data: await ports.addUpstreams(caller.accountId, params.siteId, params.portId, body.upstreams),
  }));
  binder.bind(r.deleteSitePortUpstreams, async ({ params, body }, { caller }) => ({
    data: await ports.deleteUpstreams(caller.accountId, params.siteId, params.portId, body.ids),
  }));
  binder.bind(r.updateSitePortUpstream, async ({ params, body }, { caller }) => ({
    data: await ports.updateUpstream(caller.accountId, params.siteId, params.portId, body),
  }));
  binder.bind(r.enableSitePorts, async ({ params, body }, { caller }) => {
    await ports.setEnabled(caller.accountId, params.siteId, body.ids, true);
  });
  binder.bind(r.disableSitePorts, async ({ params, body }, { caller }) => {
    await ports.setEnabled(caller.accountId, params.siteId, body.ids, false);
  });
  binder.bind(r.listSiteZonePorts, async ({ params }, { caller }) => ({
    data: await ports.zonePorts(caller.accountId, params.siteId),
  }));
}
