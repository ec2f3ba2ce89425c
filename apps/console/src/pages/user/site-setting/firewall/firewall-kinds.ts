import {
  type BlacklistRule,
  blacklistRuleInputSchema,
  firewallListRoutes as routes,
  type WhitelistRule,
  whitelistRuleInputSchema,
} from '@rampart/contract';
import type { Resource } from '../../../../app/resource-changes';

/**
 * The firewall kinds a site has, in the order of the tab's sub-navigation. Each names its four
 * calls (routes/firewall-lists.ts), the contract's rule schema its form is checked with, the
 * resource its changes make stale, and whether its rules carry a protection mode. A new kind is
 * an entry here (its routes added to the unions below) plus its texts under `firewall.kinds`.
 */
export const FIREWALL_KINDS = {
  whitelist: {
    list: routes.listWhitelistRules,
    add: routes.addWhitelistRules,
    update: routes.updateWhitelistRule,
    remove: routes.deleteWhitelistRules,
    schema: whitelistRuleInputSchema,
    resource: 'whitelistRules',
    blockType: false,
  },
  blacklist: {
    list: routes.listBlacklistRules,
    add: routes.addBlacklistRules,
    update: routes.updateBlacklistRule,
    remove: routes.deleteBlacklistRules,
    schema: blacklistRuleInputSchema,
    resource: 'blacklistRules',
    blockType: true,
  },
} as const satisfies Record<string, FirewallKind>;

export type FirewallKindKey = keyof typeof FIREWALL_KINDS;
export const FIREWALL_KIND_KEYS = Object.keys(FIREWALL_KINDS) as FirewallKindKey[];

export function isFirewallKind(value: string | null): value is FirewallKindKey {
  return value !== null && Object.hasOwn(FIREWALL_KINDS, value);
}

/** What the firewall pages need of a kind; the calls of every kind share their paths' shapes. */
export interface FirewallKind {
  list: typeof routes.listWhitelistRules | typeof routes.listBlacklistRules;
  add: typeof routes.addWhitelistRules | typeof routes.addBlacklistRules;
  update: typeof routes.updateWhitelistRule | typeof routes.updateBlacklistRule;
  remove: typeof routes.deleteWhitelistRules | typeof routes.deleteBlacklistRules;
  schema: typeof whitelistRuleInputSchema | typeof blacklistRuleInputSchema;
  resource: Resource;
  /** The rules carry `blockType` (the blacklist's DENY / DROP). */
  blockType: boolean;
}

/** A rule of any kind as the list shows it: the whitelist's fields, and the blacklist's mode where it has one. */
export type FirewallRule = WhitelistRule & Partial<Pick<BlacklistRule, 'blockType'>>;
