import {
  type Locale,
  RULE_MODULE_TYPES,
  type SiteModuleType,
  WAF_GROUP_TEXT,
  WAF_GROUPS,
  type WafRuleGroup,
  wafGroupRuleIds,
} from '@rampart/contract';
import type { ModuleRow, RuleRow } from './site-modules.repository.js';

/** A module as the API shows it: common fields, the type's settings and, for rule types, the rule count. */
export type PresentedModule = Record<string, unknown> & { id: number; name: string };

const RULE_TYPES: readonly SiteModuleType[] = RULE_MODULE_TYPES;

/** `bound` are the site's domains bound to modules, `ruleCounts` the rule count per module. */
export function presentModule(
  row: ModuleRow,
  bound: readonly { moduleId: number; domainId: number }[],
  ruleCounts: ReadonlyMap<number, number>,
): PresentedModule {
  return {
    ...row.settings,
    id: row.id,
    siteID: row.siteId,
    name: row.name,
    domainIDs: bound.filter((b) => b.moduleId === row.id).map((b) => b.domainId),
    ...(RULE_TYPES.includes(row.type) ? { ruleCount: ruleCounts.get(row.id) ?? 0 } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentRule(row: RuleRow): Record<string, unknown> & { id: number } {
  return {
    ...row.rule,
    id: row.id,
    moduleID: row.moduleId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The WAF's rule groups (`defaultRules`), named in `locale`. */
export function wafRuleGroups(locale: Locale): WafRuleGroup[] {
  return WAF_GROUPS.map((key) => ({
    key,
    ...wafGroupRuleIds(key),
    name: WAF_GROUP_TEXT[key].name[locale],
    description: WAF_GROUP_TEXT[key].description[locale],
  }));
}
