import { z } from 'zod';
import { BLOCKING_ACTIONS, BUILT_CHALLENGES } from '../enums.js';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIds } from '../validators/ids.js';
import { pcreRegexProblem, regexCanRunAway } from '../validators/regex.js';
import { zIPList, zMemo } from '../validators/zod.js';
import { siteParams } from './sites.js';

/**
 * The site firewall's whitelist and blacklist (spec part 1 §2 and §5, part 2 §3 "Firewall";
 * cdnray-behaviour.md §5.0–§5.2 and §9.4 for the paths and bodies). Every firewall kind lives
 * under `user/site/{siteId}/firewall/setting/`: the plural name lists (paged), adds (`{data: [...]}`,
 * several rules per call, all or none) and deletes (`{ids}`, all or none); the singular name
 * replaces one rule (`PUT`, the body carries its `id`), as the product documents for these two.
 *
 * A rule matches a request when the client IP is in `ips`, the request method is one of `methods`
 * and `url` — a regular expression, unanchored, as in the product — finds a match in the request's
 * absolute URL `scheme://host[:port]/path?query` (the port only when it is not the scheme's default,
 * so a rule can tell `https://www.example.com:1234` from `https://www.example.com`; the host in
 * lower case). `.*` or `/*` matches every URL of the site. The edge evaluates the whitelist first:
 * a hit there skips every later firewall check of the request (docs/decisions.md "Firewall order");
 * then the blacklist, whose first hit applies its action.
 */

export const FIREWALL_METHODS = ['get', 'post', 'put', 'delete', 'head', 'patch', 'options'] as const;
export type FirewallMethod = (typeof FIREWALL_METHODS)[number];

/** Most rules of one kind per site (101029 beyond). Each rule holds up to 5000 IP entries. */
export const FIREWALL_LIST_RULES_PER_SITE = 100;
/** Longest `url` pattern. */
export const FIREWALL_URL_MAX = 256;
/** Characters of a `url` pattern: those of a URL plus the regex operators; no quotes, spaces or controls. */
export const FIREWALL_URL_RE = /^[A-Za-z0-9._~!$&'()*+,;=:@%/^|?[\]{}\\#-]+$/;

export type PatternProblem = 'required' | 'tooLong' | 'wrongFormat' | 'runaway';

/**
 * The checks of a firewall pattern field, one per kind of pattern: why a pattern is refused, or
 * null — empty, longer than `max`, a character outside `chars`, a pattern the edge's PCRE2 would
 * not compile (or outside the subset both engines read alike), or one whose matching can run away
 * (validators/regex.ts) — and the schema that reports it (tooLong with its bound).
 */
export function firewallPattern(chars: RegExp, max: number) {
  const problem = (source: string): PatternProblem | null => {
    if (source.length === 0) return 'required';
    if (source.length > max) return 'tooLong';
    if (!chars.test(source) || pcreRegexProblem(source) !== null) return 'wrongFormat';
    return regexCanRunAway(source) ? 'runaway' : null;
  };
  const schema = z.string({ error: 'required' }).superRefine((source, ctx) => {
    const found = problem(source);
    if (found) ctx.addIssue({ code: 'custom', message: found, ...(found === 'tooLong' ? { params: { max } } : {}) });
  });
  return { problem, schema };
}

const firewallUrl = firewallPattern(FIREWALL_URL_RE, FIREWALL_URL_MAX);
/** Why a firewall URL pattern is refused, or null (firewallPattern). */
export const firewallUrlProblem = firewallUrl.problem;
export const firewallUrlSchema = firewallUrl.schema;

/** The methods a rule covers: `{get, post, …}` booleans, left-out ones false, at least one true. */
export const firewallMethodsSchema = z
  .strictObject(
    Object.fromEntries(FIREWALL_METHODS.map((m) => [m, z.boolean().default(false)])) as Record<
      FirewallMethod,
      z.ZodDefault<z.ZodBoolean>
    >,
  )
  .refine((methods) => Object.values(methods).some(Boolean), { message: 'required' });
export type FirewallMethods = z.output<typeof firewallMethodsSchema>;

/**
 * The protection modes of a rule that blocks or challenges (blacklist, user-agent rules): the
 * challenges the edge serves (enums.ts BUILT_CHALLENGES), DENY (403), DROP and DROP + Blacklist
 * (FIREWALL_ACTIONS; the block list: routes/block-list.ts). The legacy 6–9 are refused for a new
 * or edited rule: they exist only on rules older than the 1–5 numbering.
 */
export const CHALLENGE_OR_BLOCK_TYPES = [...BUILT_CHALLENGES, ...BLOCKING_ACTIONS] as const;

/** The blacklist's protection modes (CHALLENGE_OR_BLOCK_TYPES). */
export const BLACKLIST_BLOCK_TYPES = CHALLENGE_OR_BLOCK_TYPES;

export const whitelistRuleInputSchema = z.object({
  ips: zIPList,
  url: firewallUrlSchema,
  methods: firewallMethodsSchema,
  memo: zMemo,
});
export type WhitelistRuleInput = z.input<typeof whitelistRuleInputSchema>;
export type WhitelistRuleIn = z.output<typeof whitelistRuleInputSchema>;

export const blacklistRuleInputSchema = whitelistRuleInputSchema.extend({
  blockType: z.literal(BLACKLIST_BLOCK_TYPES, { error: 'wrongFormat' }),
});
export type BlacklistRuleInput = z.input<typeof blacklistRuleInputSchema>;
export type BlacklistRuleIn = z.output<typeof blacklistRuleInputSchema>;

const ruleFields = {
  id: z.number().int(),
  siteID: z.number().int(),
  ips: z.array(z.string()),
  url: z.string(),
  methods: z.object(
    Object.fromEntries(FIREWALL_METHODS.map((m) => [m, z.boolean()])) as Record<FirewallMethod, z.ZodBoolean>,
  ),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const whitelistRuleSchema = z.object(ruleFields);
export type WhitelistRule = z.infer<typeof whitelistRuleSchema>;
export const blacklistRuleSchema = z.object({ ...ruleFields, blockType: z.number().int() });
export type BlacklistRule = z.infer<typeof blacklistRuleSchema>;

/** A list page: newest first (the edge's order does not depend on it: see the module comment). */
export const firewallListQuery = pageQuery;

/** Where a family of rule kinds lives: its path, path parameters, route id prefix and rule limit. */
export interface RuleScope<P extends z.ZodObject> {
  base: string;
  params: P;
  idPrefix: string;
  max: number;
  per: string;
}

/** The site firewall's kinds: `user/site/{siteId}/firewall/setting/`, 100 rules per kind and site. */
export const SITE_FIREWALL_SCOPE: RuleScope<typeof siteParams> = {
  base: '/user/site/{siteId}/firewall/setting',
  params: siteParams,
  idPrefix: 'user.site.firewall',
  max: FIREWALL_LIST_RULES_PER_SITE,
  per: 'site',
};

const route = routeFamily({
  tags: ['firewall'],
  read: tiers(['user'], 'user.firewall.read'),
  write: tiers(['user'], 'user.firewall.write'),
});

/**
 * The four calls of a firewall rule kind under `user/site/{siteId}/firewall/setting/` (or another
 * scope: routes/domain-access.ts): `plural` lists (paged), adds and deletes, `singular` replaces
 * one rule named by the body's `id`.
 */
export function firewallRuleRoutes<
  I extends z.ZodType,
  U extends z.ZodType,
  O extends z.ZodType,
  P extends z.ZodObject = typeof siteParams,
>(
  plural: string,
  singular: string,
  input: I,
  updateInput: U,
  output: O,
  label: string,
  scope: RuleScope<P> = SITE_FIREWALL_SCOPE as unknown as RuleScope<P>,
) {
  const { base, params, idPrefix, max, per } = scope;
  return {
    list: route.get(`${idPrefix}.${plural}.list`, `${base}/${plural}`, {
      summary: `The ${per}'s ${label} rules, newest first, paged`,
      params,
      query: firewallListQuery,
      response: pageOf(output),
    }),
    add: route.post(`${idPrefix}.${plural}.add`, `${base}/${plural}`, {
      codes: [101029],
      summary: `Adds ${label} rules (all or none); 101029 beyond ${max} per ${per}`,
      params,
      body: z.object({ data: z.array(input).min(1).max(max) }),
      response: dataOf(z.array(output)),
    }),
    update: route.put(`${idPrefix}.${singular}.update`, `${base}/${singular}`, {
      summary: `Replaces one ${label} rule (the body names it by id)`,
      params,
      body: updateInput,
      response: dataOf(output),
    }),
    delete: route.delete(`${idPrefix}.${plural}.delete`, `${base}/${plural}`, {
      summary: `Deletes ${label} rules of the ${per} by id (all or none)`,
      params,
      body: z.object({ ids: zIds(max) }),
      response: okReply,
    }),
  } as const;
}

/** The field that names the rule in a replace call's body. */
export const firewallRuleId = { id: z.number().int().positive() };
