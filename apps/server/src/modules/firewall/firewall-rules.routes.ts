import { type firewallRuleRoutes, SITE_RULE_KINDS } from '@rampart/contract';
import type { z } from 'zod';
import type { Binder } from '../../platform/http/bind-route.js';
import type { FirewallRulesService, KindCalls } from './firewall-rules.service.js';

/** The four calls of a kind that takes `In` and answers `Out` (contract firewallRuleRoutes). */
type KindRoutes<In, Out> = ReturnType<
  typeof firewallRuleRoutes<z.ZodType<In>, z.ZodType<In & { id: number }>, z.ZodType<Out>>
>;

/** Binds one kind's calls, as its declaration makes them (contract rule-kinds/rule-kind.ts), to its service calls. */
export function bindKind<In, Out>(binder: Binder, routes: KindRoutes<In, Out>, calls: KindCalls<In, Out>): void {
  binder.bind(routes.list, async ({ params, query }, { caller }) =>
    calls.list(caller.accountId, params.siteId, query.page, query.pageSize),
  );
  binder.bind(routes.add, async ({ params, body }, { caller }) => ({
    data: await calls.add(caller.accountId, params.siteId, body.data, caller.operatorId),
  }));
  // The body names the rule by its `id`, which the kind's stored schema leaves out.
  binder.bind(routes.update, async ({ params, body }, { caller }) => ({
    data: await calls.update(caller.accountId, params.siteId, body.id, body, caller.operatorId),
  }));
  binder.bind(routes.delete, async ({ params, body }, { caller }) => {
    await calls.delete(caller.accountId, params.siteId, body.ids);
  });
}

/** Every layer-7 kind of the site firewall (contract rule-kinds/site-firewall.ts). */
export function bindFirewallRuleRoutes(binder: Binder, rules: FirewallRulesService): void {
  const k = SITE_RULE_KINDS;
  bindKind(binder, k.whitelist.routes, rules.of('whitelist'));
  bindKind(binder, k.blacklist.routes, rules.of('blacklist'));
  bindKind(binder, k.userAgent.routes, rules.of('userAgent'));
  bindKind(binder, k.header.routes, rules.of('header'));
  bindKind(binder, k.intervalLimit.routes, rules.of('intervalLimit'));
  bindKind(binder, k.secondLimit.routes, rules.of('secondLimit'));
  bindKind(binder, k.antiCC.routes, rules.of('antiCC'));
  bindKind(binder, k.geo.routes, rules.of('geo'));
}
