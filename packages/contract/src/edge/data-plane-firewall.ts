import { z } from 'zod';
import { DOMAIN_ACCESS_RULES_MAX, REFERER_HOSTS_MAX, REFERER_MODES } from '../routes/domain-access.js';
import {
  BLOCK_SECONDS_MAX,
  FREQUENCY_SECONDS_MAX,
  FREQUENCY_TIMES_MAX,
  SECOND_BURST_MAX,
  SECOND_RATE_MAX,
} from '../routes/firewall-frequency.js';
import { HEADER_NAME_RE, headerValueRegexProblem } from '../routes/firewall-headers.js';
import { FIREWALL_LIST_RULES_PER_SITE, FIREWALL_METHODS, firewallUrlProblem } from '../routes/firewall-lists.js';
import { userAgentRegexProblem } from '../routes/firewall-user-agents.js';
import { MAX_IPS } from '../validators/lists.js';
import {
  EDGE_BLOCK_ACTIONS,
  EDGE_CHALLENGES,
  EDGE_HEADER_ACTIONS,
  EDGE_RULE_ACTIONS,
  type EdgeRuleAction,
} from './challenge.js';
import { id } from './data-plane-fields.js';
import { edgeGeoRulesSchema } from './geo.js';
import { edgeReputationSchema } from './reputation.js';

// A site's firewall as the edge applies it, and the helpers over it (data-plane.ts holds the whole plane).
/**
 * An IP set as the edge matches it: sorted, non-overlapping, non-adjacent ranges `[first, last]`,
 * each address as the lower-case hex of its bytes (8 digits for IPv4, 32 for IPv6). The control
 * plane merges a rule's addresses, ranges and CIDRs into this form, so the Lua side compares
 * `binary_remote_addr` by binary search without parsing any text.
 */
function ipRanges(digits: 8 | 32) {
  const hex = z.string().regex(digits === 8 ? /^[0-9a-f]{8}$/ : /^[0-9a-f]{32}$/, 'not an address in hex');
  return z
    .array(z.tuple([hex, hex]))
    .max(MAX_IPS)
    .superRefine((ranges, ctx) => {
      let previous: bigint | null = null;
      ranges.forEach(([first, last], i) => {
        const from = BigInt(`0x${first}`);
        const to = BigInt(`0x${last}`);
        if (from > to) ctx.addIssue({ code: 'custom', path: [i], message: 'range ends before it starts' });
        if (previous !== null && from <= previous + 1n) {
          ctx.addIssue({ code: 'custom', path: [i], message: 'ranges not sorted, overlapping or adjacent' });
        }
        previous = to;
      });
    });
}

const firewallUrl = z.string().refine((url) => firewallUrlProblem(url) === null, 'not a firewall URL pattern');

const edgeFirewallListRuleSchema = z.strictObject({
  /** The rule's id, logged with every decision it makes. */
  id,
  /** Unanchored PCRE over `scheme://host[:port]/path?query` (routes/firewall-lists.ts). */
  url: z.string().refine((url) => firewallUrlProblem(url) === null, 'not a firewall URL pattern'),
  methods: z
    .array(z.enum(FIREWALL_METHODS.map((m) => m.toUpperCase()) as [string, ...string[]]))
    .min(1)
    .max(FIREWALL_METHODS.length),
  v4: ipRanges(8),
  v6: ipRanges(32),
});

/**
 * A site's layer-7 firewall on the edge (routes/firewall-lists.ts): one entry per site that has any
 * rule, referenced by its domains' `firewallId`, so a site without rules costs its domains nothing.
 * Rules keep the order the edge tries them in (oldest first).
 */
/**
 * A header rule (routes/firewall-headers.ts): `name` in lower case; `value` a case-insensitive
 * pattern the header's value must match, or null: the rule matches a request without the header.
 */
const edgeHeaderRuleSchema = z.strictObject({
  id,
  url: firewallUrl,
  name: z
    .string()
    .regex(HEADER_NAME_RE)
    .refine((name) => name === name.toLowerCase(), 'not in lower case'),
  value: z
    .string()
    .refine((value) => headerValueRegexProblem(value) === null, 'not a header value pattern')
    .nullable(),
  action: z.enum(EDGE_HEADER_ACTIONS),
});

/** A referer host pattern at the edge: a lower-case host name, or `*.` and one, of at most REFERER_HOST_MAX. */
export const REFERER_HOST_MAX = 253;
export const REFERER_HOST_RE = /^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * A domain's own anti-referer and anti-header lists (routes/domain-access.ts), enabled rules only,
 * oldest first. Travels on the domain entry only when the domain has one: others pay nothing.
 */
export const edgeDomainAccessSchema = z.strictObject({
  referers: z
    .array(
      z.strictObject({
        id,
        url: firewallUrl,
        mode: z.enum(REFERER_MODES),
        hosts: z.array(z.string().max(REFERER_HOST_MAX).regex(REFERER_HOST_RE)).min(1).max(REFERER_HOSTS_MAX),
        allowEmpty: z.boolean(),
        action: z.enum(EDGE_HEADER_ACTIONS),
      }),
    )
    .max(DOMAIN_ACCESS_RULES_MAX),
  headers: z.array(edgeHeaderRuleSchema).max(DOMAIN_ACCESS_RULES_MAX),
});

export const edgeFirewallSchema = z.strictObject({
  /** The site's id. */
  id,
  whitelist: z.array(edgeFirewallListRuleSchema).max(FIREWALL_LIST_RULES_PER_SITE),
  blacklist: z
    .array(edgeFirewallListRuleSchema.extend({ action: z.enum(EDGE_RULE_ACTIONS) }))
    .max(FIREWALL_LIST_RULES_PER_SITE),
  /** Enabled user-agent rules only (routes/firewall-user-agents.ts); matched case-insensitively. */
  userAgents: z
    .array(
      z.strictObject({
        id,
        url: z.string().refine((url) => firewallUrlProblem(url) === null, 'not a firewall URL pattern'),
        userAgent: z.string().refine((ua) => userAgentRegexProblem(ua) === null, 'not a user-agent pattern'),
        action: z.enum(EDGE_RULE_ACTIONS),
      }),
    )
    .max(FIREWALL_LIST_RULES_PER_SITE)
    .default([]),
  /** Enabled header rules (routes/firewall-headers.ts), tried after the blacklist. */
  headers: z.array(edgeHeaderRuleSchema).max(FIREWALL_LIST_RULES_PER_SITE).default([]),
  /**
   * Enabled interval limits (routes/firewall-frequency.ts) in the order the edge tries them
   * (priority, higher first, then oldest first): at most `times` requests per `seconds` per IP.
   */
  intervals: z
    .array(
      z.strictObject({
        id,
        url: firewallUrl,
        seconds: z.number().int().min(1).max(FREQUENCY_SECONDS_MAX),
        times: z.number().int().min(1).max(FREQUENCY_TIMES_MAX),
        action: z.enum(EDGE_BLOCK_ACTIONS),
      }),
    )
    .max(FIREWALL_LIST_RULES_PER_SITE)
    .default([]),
  /** Enabled per-second limits, in the same order: `rate`/s plus `burst` per IP, then `blockSeconds` blocked. */
  rates: z
    .array(
      z.strictObject({
        id,
        url: firewallUrl,
        rate: z.number().int().min(1).max(SECOND_RATE_MAX),
        burst: z.number().int().min(0).max(SECOND_BURST_MAX),
        blockSeconds: z.number().int().min(0).max(BLOCK_SECONDS_MAX),
        action: z.enum(EDGE_BLOCK_ACTIONS),
      }),
    )
    .max(FIREWALL_LIST_RULES_PER_SITE)
    .default([]),
  /**
   * Enabled anti-CC rules, oldest first (routes/firewall-anti-cc.ts): `times` 0 is full
   * verification; an address over `errorTimes` unpassed challenges in `errorSeconds` gets `errorAction`.
   */
  antiCC: z
    .array(
      z.strictObject({
        id,
        url: firewallUrl,
        seconds: z.number().int().min(1).max(FREQUENCY_SECONDS_MAX),
        times: z.number().int().min(0).max(FREQUENCY_TIMES_MAX),
        challenge: z.enum(EDGE_CHALLENGES),
        errorSeconds: z.number().int().min(1).max(FREQUENCY_SECONDS_MAX),
        errorTimes: z.number().int().min(1).max(FREQUENCY_TIMES_MAX),
        errorAction: z.enum(EDGE_BLOCK_ACTIONS),
      }),
    )
    .max(FIREWALL_LIST_RULES_PER_SITE)
    .default([]),
  /** Enabled geo rules (routes/firewall-geos.ts, edge/geo.ts), oldest first. */
  geos: edgeGeoRulesSchema,
  /** IP trust protection (routes/firewall-reputation.ts, edge/reputation.ts), when the site has it on. */
  reputation: edgeReputationSchema,
});

export type EdgeFirewall = z.infer<typeof edgeFirewallSchema>;

const CHALLENGE_ACTIONS: ReadonlySet<string> = new Set(EDGE_CHALLENGES);

/**
 * Whether a site's firewall has a rule that challenges (then the node needs the challenge keys):
 * a blacklist, user-agent or geo rule or the IP trust setting with a challenge action, or an anti-CC rule.
 */
export function firewallChallenges(firewall: EdgeFirewall): boolean {
  const challenges = (list: readonly { action: EdgeRuleAction }[]) => list.some((r) => CHALLENGE_ACTIONS.has(r.action));
  return (
    firewall.antiCC.length > 0 ||
    challenges(firewall.blacklist) ||
    challenges(firewall.userAgents) ||
    challenges(firewall.geos ?? []) ||
    challenges(firewall.reputation ? [firewall.reputation] : [])
  );
}
/**
 * A site's firewall entry without rules: what a site's rules are added to, and what a site with
 * only a domain's lists or only live blocks travels as (the edge's block-list check rides on it).
 */
export function emptyEdgeFirewall(id: number): EdgeFirewall {
  return { id, whitelist: [], blacklist: [], userAgents: [], headers: [], intervals: [], rates: [], antiCC: [] };
}
export type EdgeDomainAccess = z.infer<typeof edgeDomainAccessSchema>;
