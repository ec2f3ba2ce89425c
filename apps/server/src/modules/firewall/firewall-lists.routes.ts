import { firewallListRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { FirewallListsService } from './firewall-lists.service.js';

export function bindFirewallListRoutes(binder: Binder, lists: FirewallListsService): void {
  const r = firewallListRoutes;
  binder.bind(r.listWhitelistRules, async ({ params, query }, { caller }) =>
    lists.list('whitelist', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(r.addWhitelistRules, async ({ params, body }, { caller }) => ({
    data: await lists.add('whitelist', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(r.updateWhitelistRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await lists.update('whitelist', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(r.deleteWhitelistRules, async ({ params, body }, { caller }) => {
    await lists.delete('whitelist', caller.accountId, params.siteId, body.ids);
  });
  binder.bind(r.listBlacklistRules, async ({ params, query }, { caller }) =>
    lists.list('blacklist', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(r.addBlacklistRules, async ({ params, body }, { caller }) => ({
    data: await lists.add('blacklist', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(r.updateBlacklistRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await lists.update('blacklist', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(r.deleteBlacklistRules, async ({ params, body }, { caller }) => {
    await lists.delete('blacklist', caller.accountId, params.siteId, body.ids);
  });
}
