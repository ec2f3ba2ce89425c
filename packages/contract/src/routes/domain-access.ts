import { z } from 'zod';
import { FIREWALL_ACTIONS } from '../enums.js';
import { zIdParam } from '../validators/ids.js';
import { zDomainName, zMemo } from '../validators/zod.js';
import { headerRuleFields, headerRuleInputSchema, headerRuleUpdateSchema } from './firewall-headers.js';
import { firewallRuleId, firewallRuleRoutes, firewallUrlSchema, type RuleScope } from './firewall-lists.js';
import { siteParams } from './sites.js';

/**
 * A domain's anti-referer and anti-header lists (spec part 1 "antiReferers and antiHeaders (GET,
 * POST, DELETE) and antiReferer, antiHeader (PUT) under domain/{domainId}"; docs/decisions.md
 * "Header blocking, anti-referer and anti-header lists"), under
 * `user/site/{siteId}/domain/{domainId}/`, shaped as the site firewall's kinds: the plural name
 * lists (paged), adds (`{data: [...]}`) and deletes (`{ids}`), the singular replaces one by `id`.
 *
 * **Anti-referer** (hotlink protection): a rule covers the requests whose absolute URL `urlRegex`
 * finds a match in, and refuses one when
 * - it has no `Referer` (or an empty one) and `allowEmpty` is false;
 * - `mode: 'allow'`: the Referer's host is none of `referers`;
 * - `mode: 'deny'`: the Referer's host is one of `referers`.
 * A host pattern is a domain name (`example.com`: that host only) or a wildcard (`*.example.com`:
 * every name under it, at any depth, not `example.com` itself), compared in lower case with the
 * port and user info left out. A Referer whose host cannot be read counts as a host that no pattern
 * names. Every enabled rule applies: the first, oldest first, that refuses applies its mode.
 *
 * **Anti-header**: the site firewall's header rules (routes/firewall-headers.ts) for one domain.
 *
 * Both run at the edge after the site's whitelist (a whitelisted client skips them), blacklist and
 * header rules, before the user-agent rules.
 */

/** Most rules of one list per domain (101029 beyond): every one travels inside the domain's entry. */
export const DOMAIN_ACCESS_RULES_MAX = 20;
/** Most host patterns in one anti-referer rule. */
export const REFERER_HOSTS_MAX = 100;

export const REFERER_MODES = ['allow', 'deny'] as const;
export type RefererMode = (typeof REFERER_MODES)[number];

/** The lists' actions: DENY (403) and DROP (enums.ts FIREWALL_ACTIONS). */
export const ANTI_REFERER_BLOCK_TYPES = [FIREWALL_ACTIONS.deny, FIREWALL_ACTIONS.drop] as const;

/** Host patterns: domain names, `*.` allowed, in their ASCII lower-case form, duplicates dropped. */
export const refererHostsSchema = z
  .array(zDomainName({ wildcard: true, underscore: false }))
  .min(1, { message: 'required' })
  .max(REFERER_HOSTS_MAX, { message: 'tooMany' })
  .transform((hosts) => [...new Set(hosts)]);

const antiRefererShape = {
  urlRegex: firewallUrlSchema,
  mode: z.enum(REFERER_MODES, { error: 'invalidValue' }),
  referers: refererHostsSchema,
  allowEmpty: z.boolean().default(true),
  blockType: z.literal(ANTI_REFERER_BLOCK_TYPES, { error: 'wrongFormat' }),
  enabled: z.boolean().default(true),
  memo: zMemo,
};
export const antiRefererInputSchema = z.object(antiRefererShape);
export type AntiRefererInput = z.input<typeof antiRefererInputSchema>;
export type AntiRefererIn = z.output<typeof antiRefererInputSchema>;

const ownerFields = { siteID: z.number().int(), domainID: z.number().int() };

export const antiRefererSchema = z.object({
  id: z.number().int(),
  ...ownerFields,
  urlRegex: z.string(),
  mode: z.enum(REFERER_MODES),
  referers: z.array(z.string()),
  allowEmpty: z.boolean(),
  blockType: z.number().int(),
  enabled: z.boolean(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AntiReferer = z.infer<typeof antiRefererSchema>;

export const antiHeaderSchema = z.object({ ...headerRuleFields, ...ownerFields });
export type AntiHeader = z.infer<typeof antiHeaderSchema>;

export const domainAccessParams = siteParams.extend({ domainId: zIdParam });

const DOMAIN_SCOPE: RuleScope<typeof domainAccessParams> = {
  base: '/user/site/{siteId}/domain/{domainId}',
  params: domainAccessParams,
  idPrefix: 'user.domain',
  max: DOMAIN_ACCESS_RULES_MAX,
  per: 'domain',
};

const antiReferers = firewallRuleRoutes(
  'antiReferers',
  'antiReferer',
  antiRefererInputSchema,
  antiRefererInputSchema.extend(firewallRuleId),
  antiRefererSchema,
  'anti-referer',
  DOMAIN_SCOPE,
);
const antiHeaders = firewallRuleRoutes(
  'antiHeaders',
  'antiHeader',
  headerRuleInputSchema,
  headerRuleUpdateSchema,
  antiHeaderSchema,
  'anti-header',
  DOMAIN_SCOPE,
);

export const listAntiReferers = antiReferers.list;
export const addAntiReferers = antiReferers.add;
export const updateAntiReferer = antiReferers.update;
export const deleteAntiReferers = antiReferers.delete;
export const listAntiHeaders = antiHeaders.list;
export const addAntiHeaders = antiHeaders.add;
export const updateAntiHeader = antiHeaders.update;
export const deleteAntiHeaders = antiHeaders.delete;

export const domainAccessRoutes = {
  listAntiReferers,
  addAntiReferers,
  updateAntiReferer,
  deleteAntiReferers,
  listAntiHeaders,
  addAntiHeaders,
  updateAntiHeader,
  deleteAntiHeaders,
} as const;
