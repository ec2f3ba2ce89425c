import { z } from 'zod';
import {
  WAF_EXCLUSIONS_PER_MODULE,
  WAF_FAIL_MODES,
  WAF_GROUP_RULE_BASE,
  WAF_GROUPS,
  WAF_MODES,
  WAF_SENSITIVITIES,
  type WafExclusion,
  type WafGroup,
  wafExclusionSchema,
} from '../edge/waf.js';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { moduleRoutes } from './site-modules.js';
import { siteParams } from './sites.js';

/**
 * WAF modules (spec part 2 §7 "WAF"; part 1 §7 `PUT domains/module/waf`; CDNRay behaviour
 * reference §1, §7.2 "Advanced WAF"; docs/decisions.md "WAF modules"): named sets of WAF settings
 * per site, bound to domains with `PUT domains/module/waf` (a domain has at most one: `wafModuleID`).
 * The engine and its rules are the edge's (edge/waf.ts, an agent release); a module only says:
 * - `mode`: `block` (a detection answers 403) or `detect` (logged only);
 * - `groups`: the rule groups that are on (a group not listed is off), kept in WAF_GROUPS order;
 * - `sensitivity`: low, medium or high;
 * - `failMode`: what a request the engine could not finish inspecting gets (`open` passes it);
 * - `exclusions`: at most WAF_EXCLUSIONS_PER_MODULE exceptions (wafExclusionSchema) — a rule or a
 *   group not applied to a part of the request, a name in that part, on a path prefix. They have
 *   no ids: the list is the module's and is replaced with it (`PUT .../waf`). An exclusion given
 *   twice is kept once; the name of an exclusion on `path` or `any` (which the edge ignores) is
 *   stored as "".
 * Defaults: block, every group on, medium, open, no exclusions. A `PUT` replaces the name and every
 * setting (omitted settings take their defaults), as for the other module types.
 */

/** A module's settings as written by the customer, checked and normalised. */
export const wafSettingsSchema = z.object({
  mode: z.enum(WAF_MODES).default('block'),
  groups: z
    .array(z.enum(WAF_GROUPS))
    .max(WAF_GROUPS.length)
    .default([...WAF_GROUPS])
    .transform((groups) => WAF_GROUPS.filter((g) => groups.includes(g))),
  sensitivity: z.enum(WAF_SENSITIVITIES).default('medium'),
  failMode: z.enum(WAF_FAIL_MODES).default('open'),
  exclusions: z
    .array(wafExclusionSchema)
    .max(WAF_EXCLUSIONS_PER_MODULE)
    .default([])
    .transform((list) => {
      const seen = new Set<string>();
      const kept: WafExclusion[] = [];
      for (const e of list) {
        const x = { ...e, name: e.part === 'path' || e.part === 'any' ? '' : e.name };
        const key = wafExclusionKey(x);
        if (seen.has(key)) continue;
        seen.add(key);
        kept.push(x);
      }
      return kept;
    }),
});
export type WafSettings = z.output<typeof wafSettingsSchema>;

/** What makes two exclusions the same one. */
export function wafExclusionKey(e: WafExclusion): string {
  return JSON.stringify([e.ruleId, e.group, e.part, e.name, e.path]);
}

export const wafModuleSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  name: z.string(),
  /** Domains of the site the module is bound to. */
  domainIDs: z.array(z.number().int()),
  mode: z.enum(WAF_MODES),
  groups: z.array(z.enum(WAF_GROUPS)),
  sensitivity: z.enum(WAF_SENSITIVITIES),
  failMode: z.enum(WAF_FAIL_MODES),
  exclusions: z.array(wafExclusionSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WafModule = z.infer<typeof wafModuleSchema>;

/** A rule group as `defaultRules` answers it: its key, its rule ids, and its texts in the caller's language. */
export const wafRuleGroupSchema = z.object({
  key: z.enum(WAF_GROUPS),
  ruleIdMin: z.number().int(),
  ruleIdMax: z.number().int(),
  name: z.string(),
  description: z.string(),
});
export type WafRuleGroup = z.infer<typeof wafRuleGroupSchema>;

/** The id range of a group's rules. */
export function wafGroupRuleIds(group: WafGroup): { ruleIdMin: number; ruleIdMax: number } {
  const ruleIdMin = WAF_GROUP_RULE_BASE[group];
  return { ruleIdMin, ruleIdMax: ruleIdMin + 999 };
}

const route = routeFamily({ tags: ['modules'], read: tiers(['user'], 'user.siteSettings.read') });

export const wafRoutes = {
  ...moduleRoutes('waf', wafModuleSchema, wafSettingsSchema),
  defaultRules: route.get('user.module.wafs.defaultRules', '/user/module/wafs/defaultRules', {
    summary:
      "The WAF's rule groups in the order the console lists them, with their rule id ranges, named in the " +
      "caller's language (Accept-Language, else English); a new module has every group on",
    response: dataOf(z.array(wafRuleGroupSchema)),
  }),
  advExists: route.get('user.site.firewall.setting.adv.exists', '/user/site/{siteId}/firewall/setting/adv/exists', {
    summary: 'Whether the site has advanced firewall settings: any Lua ACL or WAF module',
    params: siteParams,
    response: dataOf(z.boolean()),
  }),
};
