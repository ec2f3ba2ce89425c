import { L4_RULE_KINDS, zoneL4ProtectionRoutes as z } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { FirewallL4Service } from './firewall-l4.service.js';
import { bindKind } from './firewall-rules.routes.js';
import type { ZoneL4ProtectionService } from './zone-l4-protection.service.js';

/** The site firewall's layer-4 kinds (contract rule-kinds/site-firewall-l4.ts), bound as the layer-7 kinds are. */
export function bindFirewallL4Routes(binder: Binder, rules: FirewallL4Service): void {
  const k = L4_RULE_KINDS;
  bindKind(binder, k.l4Whitelist.routes, rules.of('l4Whitelist'));
  bindKind(binder, k.l4Blacklist.routes, rules.of('l4Blacklist'));
  bindKind(binder, k.position.routes, rules.of('position'));
  bindKind(binder, k.limitConn.routes, rules.of('limitConn'));
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
