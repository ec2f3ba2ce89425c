import {
  type AnyRoute,
  corsRoutes,
  customHeaderRoutes,
  luaAclRoutes,
  proxyRewriteRoutes,
  type SiteModuleType,
  tokenAuthRoutes,
  urlRedirectRoutes,
  wafRoutes,
} from '@rampart/contract';
import { changes, type Resource } from '../../../../app/resource-changes';

/**
 * The module types share one shape of calls (routes/site-modules.ts): list, create, update,
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
  luaAcl: luaAclRoutes as unknown as ModuleRoutes,
  tokenAuth: tokenAuthRoutes as unknown as ModuleRoutes,
  waf: wafRoutes as unknown as ModuleRoutes,
};

export const RULE_ROUTES: Partial<Record<SiteModuleType, RuleRoutes>> = {
  urlRedirect: urlRedirectRoutes,
  proxyRewrite: proxyRewriteRoutes as unknown as RuleRoutes,
};

const MODULE_RESOURCES: Record<SiteModuleType, Resource> = {
  customHeader: 'customHeaderModules',
  urlRedirect: 'urlRedirectModules',
  cors: 'corsModules',
  proxyRewrite: 'proxyRewriteModules',
  luaAcl: 'luaAclModules',
  tokenAuth: 'tokenAuthModules',
  waf: 'wafModules',
};

const RULE_RESOURCES: Partial<Record<SiteModuleType, Resource>> = {
  urlRedirect: 'urlRedirectRules',
  proxyRewrite: 'proxyRewriteRules',
  luaAcl: 'luaAclRules',
  tokenAuth: 'tokenAuthRules',
};

/** What a change to a module of this type makes stale. */
export function moduleInvalidates(type: SiteModuleType): readonly AnyRoute[] {
  return changes(MODULE_RESOURCES[type]);
}

/** What a change to a rule of a module of this type makes stale. */
export function ruleInvalidates(type: SiteModuleType): readonly AnyRoute[] {
  const resource = RULE_RESOURCES[type];
  return resource ? changes(resource) : [];
}

/** A module as listed, whatever its type (the type-specific fields are read by ModuleSummary). */
export interface ListedModule {
  id: number;
  name: string;
  domainIDs: number[];
  ruleCount?: number;
  [field: string]: unknown;
}
