import { domainAccessRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { DomainAccessService } from './domain-access.service.js';

export function bindDomainAccessRoutes(binder: Binder, lists: DomainAccessService): void {
  const r = domainAccessRoutes;
  binder.bind(r.listAntiReferers, async ({ params, query }, { caller }) =>
    lists.list('referer', caller.accountId, params.siteId, params.domainId, query.page, query.pageSize),
  );
  binder.bind(r.addAntiReferers, async ({ params, body }, { caller }) => ({
    data: await lists.add('referer', caller.accountId, params.siteId, params.domainId, body.data),
  }));
  binder.bind(r.updateAntiReferer, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await lists.update('referer', caller.accountId, params.siteId, params.domainId, id, rule),
  }));
  binder.bind(r.deleteAntiReferers, async ({ params, body }, { caller }) => {
    await lists.delete('referer', caller.accountId, params.siteId, params.domainId, body.ids);
  });
  binder.bind(r.listAntiHeaders, async ({ params, query }, { caller }) =>
    lists.list('header', caller.accountId, params.siteId, params.domainId, query.page, query.pageSize),
  );
  binder.bind(r.addAntiHeaders, async ({ params, body }, { caller }) => ({
    data: await lists.add('header', caller.accountId, params.siteId, params.domainId, body.data),
  }));
  binder.bind(r.updateAntiHeader, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await lists.update('header', caller.accountId, params.siteId, params.domainId, id, rule),
  }));
  binder.bind(r.deleteAntiHeaders, async ({ params, body }, { caller }) => {
    await lists.delete('header', caller.accountId, params.siteId, params.domainId, body.ids);
  });
}
