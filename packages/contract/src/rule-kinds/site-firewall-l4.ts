import { z } from 'zod';
import { L4_PORT_REGIONS_MAX } from '../edge/l4-rules.js';
import {
  l4IpRuleInputSchema,
  l4IpRuleSchema,
  l4LimitConnRuleInputSchema,
  l4LimitConnRuleSchema,
  l4PositionRuleInputSchema,
  l4PositionRuleSchema,
} from '../routes/firewall-l4.js';
import { firewallRuleId } from '../routes/firewall-lists.js';
import { defineL4RuleKind } from './l4-rule-kind.js';
import { namedCalls } from './rule-kind.js';

/**
 * The site firewall's layer-4 rule kinds (routes/firewall-l4.ts says what each does), each declared
 * once (l4-rule-kind.ts) under `user/site/{siteId}/firewall/setting/`. A kind stores its addresses
 * and regions each once, in the order given.
 */

const storedIps = z.object({ ips: z.array(z.string()) });
const ipKind = {
  input: l4IpRuleInputSchema,
  update: l4IpRuleInputSchema.extend(firewallRuleId),
  output: l4IpRuleSchema,
};
const storeIps = ({ ips }: { ips: string[] }) => ({ ips: [...new Set(ips)] });
/** A rule's addresses (the edge merges a port's rules of the kind, each address once). */
const ipsOf = (rule: z.output<typeof storedIps>) => rule.ips;

export const l4WhitelistKind = defineL4RuleKind({
  kind: 'l4Whitelist',
  plural: 'l4Whitelists',
  singular: 'l4Whitelist',
  label: 'layer-4 whitelist',
  ...ipKind,
  stored: storedIps,
  store: storeIps,
  reply: ({ ips }) => ({ ips }),
  edge: { addresses: 'whitelist', of: ipsOf },
  codes: { update: [101029] },
});

export const l4BlacklistKind = defineL4RuleKind({
  kind: 'l4Blacklist',
  plural: 'l4Blacklists',
  singular: 'l4Blacklist',
  label: 'layer-4 blacklist',
  ...ipKind,
  stored: storedIps,
  store: storeIps,
  reply: ({ ips }) => ({ ips }),
  edge: { addresses: 'blacklist', of: ipsOf },
  codes: { update: [101029] },
});

export const l4PositionKind = defineL4RuleKind({
  kind: 'position',
  plural: 'positions',
  singular: 'position',
  label: 'layer-4 region',
  input: l4PositionRuleInputSchema,
  update: l4PositionRuleInputSchema.extend(firewallRuleId),
  output: l4PositionRuleSchema,
  stored: z.object({ isBlack: z.boolean(), positions: z.array(z.string()), enabled: z.boolean() }),
  store: ({ isBlack, positions, enabled }) => ({ isBlack, positions: [...new Set(positions)], enabled }),
  reply: ({ isBlack, positions, enabled }) => ({ isBlack, positions, enabled }),
  edge: {
    one: 'regions',
    enabled: (rule) => rule.enabled,
    // White: only these regions let in; black: these dropped.
    entry: (rule) => ({
      mode: rule.isBlack ? 'deny' : 'allow',
      codes: [...new Set(rule.positions)].slice(0, L4_PORT_REGIONS_MAX),
    }),
  },
  codes: { add: [101025, 101029, 201003], update: [101025, 201003] },
});

export const l4LimitConnKind = defineL4RuleKind({
  kind: 'limitConn',
  plural: 'limitConns',
  singular: 'limitConn',
  label: 'layer-4 connection limit',
  input: l4LimitConnRuleInputSchema,
  update: l4LimitConnRuleInputSchema.extend(firewallRuleId),
  output: l4LimitConnRuleSchema,
  stored: z.object({
    max: z.number().int(),
    rate: z.number().int().nullable(),
    burst: z.number().int(),
    delay: z.number().int(),
    enabled: z.boolean(),
  }),
  reply: ({ max, rate, burst, delay, enabled }) => ({ max, rate, burst, delay, enabled }),
  edge: {
    one: 'connectionLimit',
    enabled: (rule) => rule.enabled,
    // `delay` is the kernel's time an address over the limit stays dropped.
    entry: ({ max, rate, burst, delay }) => ({ max, rate, burst, blockSeconds: delay }),
  },
  codes: { add: [101025, 101029], update: [101025] },
});

/** Every layer-4 kind of the site firewall, by its `kind` column value. */
export const L4_RULE_KINDS = {
  l4Whitelist: l4WhitelistKind,
  l4Blacklist: l4BlacklistKind,
  position: l4PositionKind,
  limitConn: l4LimitConnKind,
} as const;
export type SiteL4RuleKind = keyof typeof L4_RULE_KINDS;

// The four calls of each kind, by the names the rest of the code knows them by.

const l4Whitelist = namedCalls(l4WhitelistKind.routes, 'L4WhitelistRules', 'L4WhitelistRule');
export const { listL4WhitelistRules, addL4WhitelistRules, updateL4WhitelistRule, deleteL4WhitelistRules } = l4Whitelist;
const l4Blacklist = namedCalls(l4BlacklistKind.routes, 'L4BlacklistRules', 'L4BlacklistRule');
export const { listL4BlacklistRules, addL4BlacklistRules, updateL4BlacklistRule, deleteL4BlacklistRules } = l4Blacklist;
const l4Position = namedCalls(l4PositionKind.routes, 'L4PositionRules', 'L4PositionRule');
export const { listL4PositionRules, addL4PositionRules, updateL4PositionRule, deleteL4PositionRules } = l4Position;
const l4LimitConn = namedCalls(l4LimitConnKind.routes, 'L4LimitConnRules', 'L4LimitConnRule');
export const { listL4LimitConnRules, addL4LimitConnRules, updateL4LimitConnRule, deleteL4LimitConnRules } = l4LimitConn;

export const firewallL4Routes = { ...l4Whitelist, ...l4Blacklist, ...l4Position, ...l4LimitConn } as const;
