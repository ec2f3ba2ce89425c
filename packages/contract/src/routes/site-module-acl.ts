import { z } from 'zod';
import { orderBySchema, pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIds } from '../validators/ids.js';
import { isCIDR, isIP } from '../validators/ip.js';
import { pcreRegexProblem } from '../validators/regex.js';
import { zRedirectTarget } from '../validators/zod.js';
import { GEO_COUNTRY_ID_RE, geoIdProblem } from './firewall-geos.js';
import {
  MODULE_HEADER_NAME_RE,
  MODULE_NAME_MAX,
  MODULE_TARGET_MAX,
  moduleParams,
  moduleRoutes,
  REDIRECT_TARGET_RE,
  RULES_PER_REQUEST_MAX,
  ruleModuleSchema,
  siteModuleBase,
} from './site-modules.js';

/**
 * Lua ACL modules (spec part 2 §7 "Lua ACL"; CDNRay behaviour reference §7.1 "Advanced Firewall",
 * §10; docs/decisions.md "Lua ACL modules"): named sets of rules, bound to domains with
 * `PUT domains/module/luaAcl`. Rules are data the edge evaluates (rampart.acl); nothing a customer
 * writes becomes code or configuration on a node.
 *
 * A rule matches a request when every one of its conditions does (AND). Rules are tried by
 * priority, higher first (ties: the older rule first); disabled rules are skipped; the first rule
 * that matches decides:
 * - `allow`: the request passes the rest of the ACL (later firewall checks still apply);
 * - `deny`: 403 with the edge's "Access denied" page;
 * - `drop`: the connection closes unanswered (444);
 * - `dropBlacklist`: drop, and the client address joins the site's block list (as the firewall's);
 * - `redirect`: 301 to `redirectUrl` (a path on the same host or an absolute http(s) URL).
 *
 * Conditions (`field`, `operator`, `negate` turns a condition into its opposite):
 * - string fields, `operator` exact | prefix | contains | regex, case-sensitive, over `value`:
 *   `cookie` (the Cookie header), `referer`, `uriPath` (the decoded, normalised path), `uriString`
 *   (the request line's URI: path and query as sent), `userAgent`, `header` (the header `name`). A
 *   missing header reads as "". A regex is the safe PCRE subset (validators/regex.ts), unanchored;
 *   the edge runs it under lua_regex_match_limit, and a pattern that hits the limit does not match.
 * - set fields, `operator` in, over `values`: `ip` (addresses and CIDRs), `country` (ISO 3166-1
 *   alpha-2 codes, from the operator's geo database), `method`.
 * - `frequency`, `operator` gt | lt | gte | lte: the client address's requests that met the rule's
 *   other conditions, counted per rule in a window of `seconds` that starts with the first, compared
 *   with `count`. At most one per rule.
 */

export const ACL_RULES_PER_MODULE = 200;
export const ACL_CONDITIONS_MAX = 10;
export const ACL_VALUES_MAX = 100;
export const ACL_VALUE_MAX = 512;
export const ACL_PRIORITY_MAX = 10_000;
export const ACL_FREQUENCY_COUNT_MAX = 1_000_000;
export const ACL_FREQUENCY_SECONDS_MAX = 86_400;

export const ACL_STRING_FIELDS = ['cookie', 'referer', 'uriPath', 'uriString', 'userAgent', 'header'] as const;
export const ACL_SET_FIELDS = ['ip', 'country', 'method'] as const;
export const ACL_FIELDS = [...ACL_STRING_FIELDS, ...ACL_SET_FIELDS, 'frequency'] as const;
export type AclField = (typeof ACL_FIELDS)[number];
export const ACL_STRING_OPERATORS = ['exact', 'prefix', 'contains', 'regex'] as const;
export const ACL_FREQUENCY_OPERATORS = ['gt', 'lt', 'gte', 'lte'] as const;
export const ACL_OPERATORS = [...ACL_STRING_OPERATORS, 'in', ...ACL_FREQUENCY_OPERATORS] as const;
export type AclOperator = (typeof ACL_OPERATORS)[number];
export const ACL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
export const ACL_ACTIONS = ['allow', 'deny', 'drop', 'dropBlacklist', 'redirect'] as const;
export type AclAction = (typeof ACL_ACTIONS)[number];
export const ACL_SORT_FIELDS = ['priority', 'createdAt'] as const;

/** A value of a string condition: printable ASCII (no controls; a header value holds nothing else). */
export const ACL_VALUE_RE = /^[\x20-\x7e]*$/;
/** A regex of a string condition: printable ASCII, in the subset both engines read alike. */
export function isSafeAclRegex(source: string): boolean {
  return (
    source.length >= 1 &&
    source.length <= ACL_VALUE_MAX &&
    ACL_VALUE_RE.test(source) &&
    pcreRegexProblem(source) === null
  );
}

const isString = (f: AclField) => (ACL_STRING_FIELDS as readonly string[]).includes(f);
const isSet = (f: AclField) => (ACL_SET_FIELDS as readonly string[]).includes(f);

/** Whether `v` is a value a set condition of `field` may list. */
export function aclSetValueOk(field: AclField, v: string): boolean {
  if (field === 'ip') return isIP(v) || isCIDR(v);
  if (field === 'country') return GEO_COUNTRY_ID_RE.test(v) && geoIdProblem(v) === null;
  return (ACL_METHODS as readonly string[]).includes(v);
}

/** The addresses, countries or methods of a set condition, as the condition takes them. */
const aclValuesList = z.array(z.string().trim().max(64)).max(ACL_VALUES_MAX);

/**
 * The values of a set condition on `field` checked as one list, as the condition checks them: at
 * least one, each an entry `field` may list (a bad one named by its index). The console's tags box.
 */
export function aclSetValuesSchema(field: AclField) {
  return aclValuesList.superRefine((values, ctx) => {
    if (values.length === 0) ctx.addIssue({ code: 'custom', path: [], message: 'required' });
    values.forEach((v, i) => {
      if (!aclSetValueOk(field, v)) ctx.addIssue({ code: 'custom', path: [i], message: 'wrongFormat' });
    });
  });
}

export const aclConditionSchema = z
  .object({
    field: z.enum(ACL_FIELDS),
    operator: z.enum(ACL_OPERATORS),
    negate: z.boolean().default(false),
    /** The header a `header` condition reads. */
    name: z.string().max(64).default(''),
    /** The string a string condition compares with. */
    value: z.string().max(ACL_VALUE_MAX).default(''),
    /** The addresses, countries or methods of a set condition. */
    values: aclValuesList.default([]),
    count: z.number().int().min(0).max(ACL_FREQUENCY_COUNT_MAX).default(0),
    seconds: z.number().int().min(1).max(ACL_FREQUENCY_SECONDS_MAX).default(60),
  })
  .superRefine((c, ctx) => {
    const issue = (path: string | number, message = 'wrongFormat', at: (string | number)[] = []) =>
      ctx.addIssue({ code: 'custom', path: [path, ...at], message });
    const ops: readonly string[] = isString(c.field)
      ? ACL_STRING_OPERATORS
      : isSet(c.field)
        ? ['in']
        : ACL_FREQUENCY_OPERATORS;
    if (!ops.includes(c.operator)) return issue('operator');
    if (c.field === 'header' && !MODULE_HEADER_NAME_RE.test(c.name)) issue('name');
    if (isString(c.field)) {
      const ok = c.operator === 'regex' ? isSafeAclRegex(c.value) : ACL_VALUE_RE.test(c.value);
      if (!ok) issue('value');
      // An empty prefix or substring is in every string: almost certainly a mistake.
      if (c.value === '' && (c.operator === 'prefix' || c.operator === 'contains')) issue('value', 'required');
    }
    if (isSet(c.field)) {
      if (c.values.length === 0) issue('values', 'required');
      c.values.forEach((v, i) => {
        if (!aclSetValueOk(c.field, v)) issue('values', 'wrongFormat', [i]);
      });
    }
    if (c.field === 'frequency' && c.negate) issue('negate');
  });
export type AclConditionInput = z.input<typeof aclConditionSchema>;
export type AclCondition = z.output<typeof aclConditionSchema>;

const ruleName = z
  .string()
  .trim()
  .min(1)
  .max(MODULE_NAME_MAX)
  .refine((s) => !/\p{Cc}/u.test(s), 'wrongFormat');

export const luaAclRuleInputSchema = z
  .object({
    name: ruleName,
    /** Higher first. */
    priority: z.number().int().min(0).max(ACL_PRIORITY_MAX).default(0),
    enabled: z.boolean().default(true),
    conditions: z.array(aclConditionSchema).min(1).max(ACL_CONDITIONS_MAX),
    action: z.enum(ACL_ACTIONS),
    /** Where `redirect` sends the client (301); '' for the other actions. */
    redirectUrl: z
      .string()
      .max(MODULE_TARGET_MAX + 64)
      .default(''),
  })
  .superRefine((r, ctx) => {
    if (r.conditions.filter((c) => c.field === 'frequency').length > 1) {
      const at = r.conditions.map((c) => c.field).lastIndexOf('frequency');
      ctx.addIssue({ code: 'custom', path: ['conditions', at, 'field'], message: 'duplicate' });
    }
    if (r.action === 'redirect') {
      const parsed = zRedirectTarget.safeParse(r.redirectUrl);
      if (!parsed.success || !REDIRECT_TARGET_RE.test(parsed.data)) {
        ctx.addIssue({ code: 'custom', path: ['redirectUrl'], message: r.redirectUrl ? 'wrongFormat' : 'required' });
      }
    } else if (r.redirectUrl !== '') {
      ctx.addIssue({ code: 'custom', path: ['redirectUrl'], message: 'wrongFormat' });
    }
  })
  .transform((r) => (r.action === 'redirect' ? { ...r, redirectUrl: zRedirectTarget.parse(r.redirectUrl) } : r));
export type LuaAclRuleInput = z.output<typeof luaAclRuleInputSchema>;
export const luaAclSettingsSchema = z.object({});

const conditionOut = z.object({
  field: z.enum(ACL_FIELDS),
  operator: z.enum(ACL_OPERATORS),
  negate: z.boolean(),
  name: z.string(),
  value: z.string(),
  values: z.array(z.string()),
  count: z.number().int(),
  seconds: z.number().int(),
});
export const luaAclModuleSchema = ruleModuleSchema;
export const luaAclRuleSchema = z.object({
  id: z.number().int(),
  moduleID: z.number().int(),
  name: z.string(),
  priority: z.number().int(),
  enabled: z.boolean(),
  conditions: z.array(conditionOut),
  action: z.enum(ACL_ACTIONS),
  redirectUrl: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LuaAclModule = z.infer<typeof luaAclModuleSchema>;
export type LuaAclRule = z.infer<typeof luaAclRuleSchema>;

const base = `${siteModuleBase}/luaAcl/{moduleId}`;
const write = tiers(['user'], 'user.siteSettings.write');

const route = routeFamily({
  tags: ['modules'],
  read: tiers(['user'], 'user.siteSettings.read'),
  write: write,
  params: moduleParams,
});

export const luaAclRoutes = {
  ...moduleRoutes('luaAcl', luaAclModuleSchema, luaAclSettingsSchema),
  listRules: route.get('user.site.luaAcl.rules.list', `${base}/rules`, {
    summary: 'Rules of one Lua ACL module, paged; by priority (higher first, the order the edge tries them) by default',
    query: pageQuery.extend({
      sortBy: z.enum(ACL_SORT_FIELDS).default('priority'),
      orderBy: orderBySchema.default('desc'),
    }),
    response: pageOf(luaAclRuleSchema),
  }),
  addRule: route.post('user.site.luaAcl.rule.add', `${base}/rule`, {
    codes: [101029],
    summary: `Adds one rule to a Lua ACL module (101029 beyond ${ACL_RULES_PER_MODULE} per module)`,
    body: luaAclRuleInputSchema,
    response: dataOf(luaAclRuleSchema),
  }),
  updateRule: route.put('user.site.luaAcl.rule.update', `${base}/rule`, {
    summary: 'Replaces one rule of a Lua ACL module',
    body: z.intersection(luaAclRuleInputSchema, z.object({ id: zId })),
    response: dataOf(luaAclRuleSchema),
  }),
  enableRules: route.put('user.site.luaAcl.rule.enable', `${base}/rule/enable`, {
    summary: 'Turns rules of a Lua ACL module on or off (all or none)',
    body: z.object({ ids: zIds(RULES_PER_REQUEST_MAX), enabled: z.boolean() }),
    response: okReply,
  }),
  deleteRules: route.delete('user.site.luaAcl.rules.delete', `${base}/rules`, {
    summary: 'Deletes rules of a Lua ACL module by id (all or none)',
    body: z.object({ ids: zIds(RULES_PER_REQUEST_MAX) }),
    response: okReply,
  }),
};
