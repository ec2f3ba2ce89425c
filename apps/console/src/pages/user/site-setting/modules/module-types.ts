import {
  type AnyRoute,
  corsRoutes,
  customHeaderRoutes,
  domainRoutes,
  proxyRewriteRoutes,
  type SiteModuleType,
  urlRedirectRoutes,
} from '@rampart/contract';

/**
 * The four module types share one shape of calls (routes/site-modules.ts): list, create, update,
 * delete, and for redirect and rewrite modules their rules. The generic screens below use this
 * shape; each type's own fields live in ModuleFields.
 */
export type ModuleRoutes = typeof customHeaderRoutes;
export type RuleRoutes = Pick<typeof urlRedirectRoutes, 'listRules' | 'addRules' | 'deleteRules'>;

export const MODULE_ROUTES: Record<SiteModuleType, ModuleRoutes> = {
  customHeader: customHeaderRoutes,
  // The same calls with another settings body; the screens only pass values through.
  urlRedirect: urlRedirectRoutes as unknown as ModuleRoutes,
  cors: corsRoutes as unknown as ModuleRoutes,
  proxyRewrite: proxyRewriteRoutes as unknown as ModuleRoutes,
};

export const RULE_ROUTES: Partial<Record<SiteModuleType, RuleRoutes>> = {
  urlRedirect: urlRedirectRoutes,
  proxyRewrite: proxyRewriteRoutes as unknown as RuleRoutes,
};

/** What a module change makes stale: its list and the domain list (which names bound modules). */
export function moduleInvalidates(type: SiteModuleType): AnyRoute[] {
  return [MODULE_ROUTES[type].list, domainRoutes.listDomains];
}

/** A module as listed, whatever its type (the type-specific fields are read by ModuleSummary). */
export interface ListedModule {
  id: number;
  name: string;
  domainIDs: number[];
  ruleCount?: number;
  [field: string]: unknown;
}
