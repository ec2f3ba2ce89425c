import { z } from 'zod';
import type { EdgeBlockAction } from '../edge/challenge.js';
import { splitGeoIds } from '../edge/geo.js';
import { ipListRanges } from '../edge/ip-ranges.js';
import { ANTI_CC_FREQUENCIES, antiCCRuleInputSchema, antiCCRuleSchema } from '../routes/firewall-anti-cc.js';
import {
  intervalLimitInputSchema,
  intervalLimitSchema,
  secondLimitInputSchema,
  secondLimitSchema,
} from '../routes/firewall-frequency.js';
import { geoRuleInputSchema, geoRuleSchema } from '../routes/firewall-geos.js';
import {
  HEADER_MATCHES,
  headerRuleInputSchema,
  headerRuleSchema,
  headerRuleUpdateSchema,
} from '../routes/firewall-headers.js';
import {
  blacklistRuleInputSchema,
  blacklistRuleSchema,
  FIREWALL_METHODS,
  type FirewallMethod,
  firewallRuleId,
  whitelistRuleInputSchema,
  whitelistRuleSchema,
} from '../routes/firewall-lists.js';
import { userAgentRuleInputSchema, userAgentRuleSchema } from '../routes/firewall-user-agents.js';
import { defineRuleKind, type EdgeRuleEntry, edgeActionOf } from './rule-kind.js';

/**
 * The site firewall's layer-7 rule kinds, each declared once (rule-kind.ts), under
 * `user/site/{siteId}/firewall/setting/` (routes/firewall-lists.ts). The stored schemas read what the
 * server has written: protection modes as any whole number (legacy 6–9 and hand-written values
 * included; edgeActionOf says what the edge does with them), a blacklist rule older than its
 * protection mode without one.
 */

const int = z.number().int();
const storedMethods = z.object(
  Object.fromEntries(FIREWALL_METHODS.map((m) => [m, z.boolean()])) as Record<FirewallMethod, z.ZodBoolean>,
);
const storedList = z.object({ ips: z.array(z.string()), url: z.string(), methods: storedMethods });
type StoredList = z.output<typeof storedList>;

/** A list rule on the edge: methods in upper case, addresses as merged ranges (edge/ip-ranges.ts). */
const edgeListRule = (id: number, rule: StoredList) => ({
  id,
  url: rule.url,
  methods: FIREWALL_METHODS.filter((m) => rule.methods[m]).map((m) => m.toUpperCase()),
  ...ipListRanges(rule.ips),
});

export const whitelistKind = defineRuleKind({
  kind: 'whitelist',
  plural: 'whitelists',
  singular: 'whitelist',
  label: 'whitelist',
  input: whitelistRuleInputSchema,
  update: whitelistRuleInputSchema.extend(firewallRuleId),
  output: whitelistRuleSchema,
  stored: storedList,
  reply: ({ ips, url, methods }) => ({ ips, url, methods }),
  edge: { list: 'whitelist', entry: edgeListRule },
});

export const blacklistKind = defineRuleKind({
  kind: 'blacklist',
  plural: 'blacklists',
  singular: 'blacklist',
  label: 'blacklist',
  input: blacklistRuleInputSchema,
  update: blacklistRuleInputSchema.extend(firewallRuleId),
  output: blacklistRuleSchema,
  stored: storedList.extend({ blockType: int.optional() }),
  reply: ({ ips, url, methods, blockType }) => ({ ips, url, methods, blockType: blockType ?? 0 }),
  edge: {
    list: 'blacklist',
    entry: (id, rule) => ({ ...edgeListRule(id, rule), action: edgeActionOf(rule.blockType ?? 0) }),
  },
});

export const userAgentKind = defineRuleKind({
  kind: 'userAgent',
  plural: 'userAgents',
  singular: 'userAgent',
  label: 'user-agent',
  input: userAgentRuleInputSchema,
  update: userAgentRuleInputSchema.extend(firewallRuleId),
  output: userAgentRuleSchema,
  stored: z.object({ urlRegex: z.string(), userAgentRegex: z.string(), blockType: int, enabled: z.boolean() }),
  reply: (rule) => rule,
  edge: {
    list: 'userAgents',
    entry: (id, rule) =>
      rule.enabled
        ? { id, url: rule.urlRegex, userAgent: rule.userAgentRegex, action: edgeActionOf(rule.blockType) }
        : null,
  },
});

/** A header rule's `rule` column (the site's headers kind and a domain's anti-header list). */
export const storedHeaderRuleSchema = z.object({
  urlRegex: z.string(),
  header: z.string(),
  match: z.enum(HEADER_MATCHES),
  valueRegex: z.string(),
  blockType: int,
  enabled: z.boolean(),
});
export type StoredHeaderRule = z.output<typeof storedHeaderRuleSchema>;

/** A header rule as the edge reads it: the name in lower case, no value pattern for `absent`. */
export function edgeHeaderRule(id: number, rule: StoredHeaderRule) {
  return {
    id,
    url: rule.urlRegex,
    name: rule.header.toLowerCase(),
    value: rule.match === 'absent' ? null : rule.valueRegex,
    action: edgeActionOf(rule.blockType) as 'deny' | 'drop',
  };
}

export const headerKind = defineRuleKind({
  kind: 'header',
  plural: 'headers',
  singular: 'header',
  label: 'header',
  input: headerRuleInputSchema,
  update: headerRuleUpdateSchema,
  output: headerRuleSchema,
  stored: storedHeaderRuleSchema,
  reply: (rule) => rule,
  edge: { list: 'headers', entry: (id, rule) => (rule.enabled ? edgeHeaderRule(id, rule) : null) },
});

const storedFrequency = { urlRegex: z.string(), priority: int, blockType: int, enabled: z.boolean() };
type StoredFrequency = { urlRegex: string; blockType: number };
const edgeBlock = (id: number, rule: StoredFrequency) => ({
  id,
  url: rule.urlRegex,
  action: edgeActionOf(rule.blockType) as EdgeBlockAction,
});

export const intervalLimitKind = defineRuleKind({
  kind: 'intervalLimit',
  plural: 'intervalLimits',
  singular: 'intervalLimit',
  label: 'interval frequency limit',
  input: intervalLimitInputSchema,
  update: intervalLimitInputSchema.extend(firewallRuleId),
  output: intervalLimitSchema,
  stored: z.object({ ...storedFrequency, seconds: int, times: int }),
  reply: (rule) => rule,
  edge: {
    list: 'intervals',
    entry: (id, rule) => (rule.enabled ? { ...edgeBlock(id, rule), seconds: rule.seconds, times: rule.times } : null),
    priority: (rule) => rule.priority,
  },
});

export const secondLimitKind = defineRuleKind({
  kind: 'secondLimit',
  plural: 'secondLimits',
  singular: 'secondLimit',
  label: 'per-second frequency limit',
  input: secondLimitInputSchema,
  update: secondLimitInputSchema.extend(firewallRuleId),
  output: secondLimitSchema,
  stored: z.object({ ...storedFrequency, rate: int, burst: int, blockSeconds: int }),
  reply: (rule) => rule,
  edge: {
    list: 'rates',
    entry: (id, { rate, burst, blockSeconds, ...rule }) =>
      rule.enabled ? { ...edgeBlock(id, rule), rate, burst, blockSeconds } : null,
    priority: (rule) => rule.priority,
  },
});

export const antiCCKind = defineRuleKind({
  kind: 'antiCC',
  plural: 'antiCCs',
  singular: 'antiCC',
  label: 'anti-CC rule',
  input: antiCCRuleInputSchema,
  update: antiCCRuleInputSchema.extend(firewallRuleId),
  output: antiCCRuleSchema,
  stored: z.object({
    urlRegex: z.string(),
    frequency: z.enum(ANTI_CC_FREQUENCIES),
    seconds: int,
    times: int,
    blockType: int,
    errorSeconds: int,
    errorTimes: int,
    errorBlockType: int,
    enabled: z.boolean(),
  }),
  reply: (rule) => rule,
  edge: {
    list: 'antiCC',
    entry: (id, rule) =>
      rule.enabled
        ? {
            id,
            url: rule.urlRegex,
            seconds: rule.seconds,
            // `full` verification: every request without a pass is challenged.
            times: rule.frequency === 'full' ? 0 : rule.times,
            challenge: edgeActionOf(rule.blockType) as EdgeRuleEntry<'antiCC'>['challenge'],
            errorSeconds: rule.errorSeconds,
            errorTimes: rule.errorTimes,
            errorAction: edgeActionOf(rule.errorBlockType) as EdgeBlockAction,
          }
        : null,
  },
});

export const geoKind = defineRuleKind({
  kind: 'geo',
  plural: 'geos',
  singular: 'geo',
  label: 'geo',
  input: geoRuleInputSchema,
  update: geoRuleInputSchema.extend(firewallRuleId),
  output: geoRuleSchema,
  stored: z.object({
    isBlack: z.boolean(),
    urlRegex: z.string(),
    blockType: int,
    enabled: z.boolean(),
    geoIDs: z.array(z.string()),
  }),
  // Each region once, in the order given.
  store: ({ geoIDs, ...rule }) => ({ ...rule, geoIDs: [...new Set(geoIDs)] }),
  reply: (rule) => rule,
  edge: {
    list: 'geos',
    entry: (id, rule) =>
      rule.enabled
        ? {
            id,
            url: rule.urlRegex,
            white: !rule.isBlack,
            ...splitGeoIds(rule.geoIDs),
            action: edgeActionOf(rule.blockType),
          }
        : null,
  },
  codes: { add: [101029, 201003], update: [201003] },
});

/** Every layer-7 kind of the site firewall, by its `kind` column. */
export const SITE_RULE_KINDS = {
  whitelist: whitelistKind,
  blacklist: blacklistKind,
  userAgent: userAgentKind,
  header: headerKind,
  intervalLimit: intervalLimitKind,
  secondLimit: secondLimitKind,
  antiCC: antiCCKind,
  geo: geoKind,
} as const;
export type SiteRuleKind = keyof typeof SITE_RULE_KINDS;
