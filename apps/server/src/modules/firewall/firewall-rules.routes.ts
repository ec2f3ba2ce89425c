import {
  firewallAntiCCRoutes,
  firewallFrequencyRoutes,
  firewallHeaderRoutes,
  firewallListRoutes,
  firewallUserAgentRoutes,
} from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { FirewallRulesService } from './firewall-rules.service.js';

export function bindFirewallRuleRoutes(binder: Binder, rules: FirewallRulesService): void {
  const l = firewallListRoutes;
  binder.bind(l.listWhitelistRules, async ({ params, query }, { caller }) =>
    rules.list('whitelist', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(l.addWhitelistRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('whitelist', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(l.updateWhitelistRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('whitelist', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(l.deleteWhitelistRules, async ({ params, body }, { caller }) => {
    await rules.delete('whitelist', caller.accountId, params.siteId, body.ids);
  });
  binder.bind(l.listBlacklistRules, async ({ params, query }, { caller }) =>
    rules.list('blacklist', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(l.addBlacklistRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('blacklist', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(l.updateBlacklistRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('blacklist', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(l.deleteBlacklistRules, async ({ params, body }, { caller }) => {
    await rules.delete('blacklist', caller.accountId, params.siteId, body.ids);
  });
  const u = firewallUserAgentRoutes;
  binder.bind(u.listUserAgentRules, async ({ params, query }, { caller }) =>
    rules.list('userAgent', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(u.addUserAgentRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('userAgent', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(u.updateUserAgentRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('userAgent', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(u.deleteUserAgentRules, async ({ params, body }, { caller }) => {
    await rules.delete('userAgent', caller.accountId, params.siteId, body.ids);
  });
  const h = firewallHeaderRoutes;
  binder.bind(h.listHeaderRules, async ({ params, query }, { caller }) =>
    rules.list('header', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(h.addHeaderRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('header', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(h.updateHeaderRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('header', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(h.deleteHeaderRules, async ({ params, body }, { caller }) => {
    await rules.delete('header', caller.accountId, params.siteId, body.ids);
  });
  const f = firewallFrequencyRoutes;
  binder.bind(f.listIntervalLimits, async ({ params, query }, { caller }) =>
    rules.list('intervalLimit', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(f.addIntervalLimits, async ({ params, body }, { caller }) => ({
    data: await rules.add('intervalLimit', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(f.updateIntervalLimit, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('intervalLimit', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(f.deleteIntervalLimits, async ({ params, body }, { caller }) => {
    await rules.delete('intervalLimit', caller.accountId, params.siteId, body.ids);
  });
  binder.bind(f.listSecondLimits, async ({ params, query }, { caller }) =>
    rules.list('secondLimit', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(f.addSecondLimits, async ({ params, body }, { caller }) => ({
    data: await rules.add('secondLimit', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(f.updateSecondLimit, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('secondLimit', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(f.deleteSecondLimits, async ({ params, body }, { caller }) => {
    await rules.delete('secondLimit', caller.accountId, params.siteId, body.ids);
  });
  const c = firewallAntiCCRoutes;
  binder.bind(c.listAntiCCRules, async ({ params, query }, { caller }) =>
    rules.list('antiCC', caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(c.addAntiCCRules, async ({ params, body }, { caller }) => ({
    data: await rules.add('antiCC', caller.accountId, params.siteId, body.data),
  }));
  binder.bind(c.updateAntiCCRule, async ({ params, body: { id, ...rule } }, { caller }) => ({
    data: await rules.update('antiCC', caller.accountId, params.siteId, id, rule),
  }));
  binder.bind(c.deleteAntiCCRules, async ({ params, body }, { caller }) => {
    await rules.delete('antiCC', caller.accountId, params.siteId, body.ids);
  });
}
