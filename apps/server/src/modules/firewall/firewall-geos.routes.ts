import { firewallGeoRoutes as g } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { FirewallRulesService } from './firewall-rules.service.js';

/** The site firewall's geo rules (routes/firewall-geos.ts): cities are checked against the caller's operator's database. */
export function bindFirewallGeoRoutes(binder: Binder, rules: FirewallRulesService): void {
  binder.bind(g.listGeoRules, async ({ params, query }, { caller }) =>
    rules.list('geo', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(g.addGeoRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('geo', caller.accountId, params.siteId, body.data, caller.operatorId),
  }));
  binder.bind(g.updateGeoRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('geo', caller.accountId, params.siteId, id, rule, caller.operatorId),
  }));
  binder.bind(g.deleteGeoRules, async ({ params, body }, { caller }) => {
    await rules.delete('geo', caller.accountId, params.siteId, body.ids);
  });
}
