import { firewallL4Routes as r, zoneL4ProtectionRoutes as z } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { FirewallL4Service } from './firewall-l4.service.js';
import type { ZoneL4ProtectionService } from './zone-l4-protection.service.js';

/** The site firewall's layer-4 kinds, bound as the layer-7 kinds are (firewall-rules.routes.ts). */
export function bindFirewallL4Routes(binder: Binder, rules: FirewallL4Service): void {
  binder.bind(r.listL4WhitelistRules, async ({ params, query }, { caller }) =>
    rules.list('l4Whitelist', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(r.addL4WhitelistRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('l4Whitelist', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(r.updateL4WhitelistRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('l4Whitelist', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(r.deleteL4WhitelistRules, async ({ params, body }, { caller }) => {
    await rules.delete('l4Whitelist', caller.accountId, params.siteId, body.ids);
  });
  binder.bind(r.listL4BlacklistRules, async ({ params, query }, { caller }) =>
    rules.list('l4Blacklist', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(r.addL4BlacklistRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('l4Blacklist', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(r.updateL4BlacklistRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('l4Blacklist', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(r.deleteL4BlacklistRules, async ({ params, body }, { caller }) => {
    await rules.delete('l4Blacklist', caller.accountId, params.siteId, body.ids);
  });
  binder.bind(r.listL4PositionRules, async ({ params, query }, { caller }) =>
    rules.list('position', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(r.addL4PositionRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('position', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(r.updateL4PositionRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('position', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(r.deleteL4PositionRules, async ({ params, body }, { caller }) => {
    await rules.delete('position', caller.accountId, params.siteId, body.ids);
  });
  binder.bind(r.listL4LimitConnRules, async ({ params, query }, { caller }) =>
    rules.list('limitConn', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(r.addL4LimitConnRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('limitConn', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(r.updateL4LimitConnRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('limitConn', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(r.deleteL4LimitConnRules, async ({ params, body }, { caller }) => {
    await rules.delete('limitConn', caller.accountId, params.siteId, body.ids);
  });
}

/** The zone's layer-4 protection: the operator's own zones (a restricted sub-account's scope is the binder's check). */
export function bindZoneL4ProtectionRoutes(binder: Binder, protection: ZoneL4ProtectionService): void {
  binder.bind(z.getZoneL4Protection, async ({ params }, { caller }) => ({
    data: await protection.get(caller.operatorId, params.zoneID),
  }));
  binder.bind(z.setZoneL4Protection, async ({ params, body }, { caller }) => ({
    data: await protection.set(caller.operatorId, params.zoneID, body),
  }));
}
