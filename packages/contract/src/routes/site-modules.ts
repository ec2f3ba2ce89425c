import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import {
  corsModuleSchema,
  corsSettingsSchema,
  customHeaderModuleSchema,
  customHeaderSettingsSchema,
  MODULE_NAME_MAX,
  MODULES_PER_SITE_MAX,
  moduleName,
  proxyRewriteModuleSchema,
  proxyRewriteRuleInputSchema,
  proxyRewriteRuleSchema,
  proxyRewriteSettingsSchema,
  REDIRECT_RULES_PER_SITE,
  REWRITE_RULES_PER_MODULE,
  RULES_PER_REQUEST_MAX,
  type SiteModuleType,
  urlRedirectModuleSchema,
  urlRedirectRuleInputSchema,
  urlRedirectRuleSchema,
  urlRedirectSettingsSchema,
} from './site-module-schemas.js';
import { siteParams } from './sites.js';

export type {
  CorsModule,
  CorsSettings,
  CustomHeaderModule,
  CustomHeaderSettings,
  ModuleSettings,
  PathMatchType,
  ProxyRewriteModule,
  ProxyRewriteRule,
  ProxyRewriteRuleInput,
  ProxyRewriteSettings,
  SiteModuleType,
  UrlRedirectModule,
  UrlRedirectRule,
  UrlRedirectRuleInput,
} from './site-module-schemas.js';
export {
  CORS_LIST_MAX,
  CORS_MAX_AGE_MAX,
  CORS_METHODS,
  CORS_ORIGIN_RE,
  CUSTOM_HEADERS_MAX,
  corsModuleSchema,
  corsSettingsSchema,
  customHeaderItemSchema,
  customHeaderModuleSchema,
  customHeaderSettingsSchema,
  isSafeModuleRegex,
  MODULE_HEADER_NAME_RE,
  MODULE_HEADER_VALUE_MAX,
  MODULE_HEADER_VALUE_RE,
  MODULE_HEADERS_DENIED,
  MODULE_NAME_MAX,
  MODULE_REGEX_MAX,
  MODULE_REGEX_RE,
  MODULE_REQUEST_HEADERS_DENIED,
  MODULE_RULE_INPUTS,
  MODULE_SETTINGS,
  MODULE_TARGET_MAX,
  MODULES_PER_SITE_MAX,
  moduleHeaderAllowed,
  PATH_MATCH_TYPES,
  proxyRewriteModuleSchema,
  proxyRewriteRuleInputSchema,
  proxyRewriteRuleSchema,
  proxyRewriteSettingsSchema,
  REDIRECT_CODES,
  REDIRECT_RULES_PER_SITE,
  REDIRECT_TARGET_RE,
  REWRITE_RULES_PER_MODULE,
  REWRITE_TARGET_RE,
  RULE_MODULE_TYPES,
  RULES_PER_REQUEST_MAX,
  ruleModuleSchema,
  SITE_MODULE_TYPES,
  urlRedirectModuleSchema,
  urlRedirectRuleInputSchema,
  urlRedirectRuleSchema,
  urlRedirectSettingsSchema,
} from './site-module-schemas.js';

/**
 * Site modules (spec part 1 §3 and §7 "PUT domains/module/{type}", part 2 "Proxy rewrite";
 * CDNRay behaviour reference §3.3): named sets created once per site that do nothing until bound
 * to domains. A domain has at most one module of each type (0 / null = none).
 *
 * Types and what they do at the edge:
 * - `customHeader`: headers set on the request to the origin and on the response to the client.
 *   An empty value removes the header instead. A name twice in one direction is 10102502.
 * - `urlRedirect`: rules answering a redirect (301/302/307/308) to the client. At most 3,000 rules
 *   per site over all its redirect modules (205007).
 * - `cors`: preflight OPTIONS requests from an allowed Origin are answered at the edge (204);
 *   other responses to an allowed Origin carry Access-Control-Allow-Origin (and -Credentials,
 *   -Expose-Headers). Requests from other origins pass untouched.
 * - `proxyRewrite`: URI rewrite rules, Host header and added/removed headers for the request to the
 *   origin (回源改寫: the client sees nothing of it).
 *
 * Path patterns of redirect and rewrite rules (one matcher for both):
 * - `exact`: the decoded request path equals `source`;
 * - `prefix`: the path starts with `source`; the rest of the path is appended to the target;
 * - `regex`: a restricted PCRE subset (see MODULE_REGEX_RE and isSafeModuleRegex) tried against the
 *   path, `$1`…`$9` in the target take its groups. The edge runs it with ngx.re (compiled once,
 *   cached) under lua_regex_match_limit, so a pathological pattern fails closed (no match).
 * Precedence: exact rules first, then the longest matching prefix, then regex rules in their order.
 *
 * Storage (apps/server): one table `site_modules` for every type (type, name, settings as JSON checked
 * by the schemas below), `site_module_rules` for the rules of redirect and rewrite modules, and
 * `domain_modules` (domain, type) → module for bindings. A module bound to a domain cannot be
 * deleted (moduleInUse, naming the domains); unbind it first (module id 0).
 */

// ---- routes ----------------------------------------------------------------------------------

export const moduleParams = siteParams.extend({ moduleId: zIdParam });
export const siteModuleBase = '/user/site/{siteId}/module';
const base = siteModuleBase;
const idList = zIds(MODULES_PER_SITE_MAX);
const listQuery = pageQuery.extend({ name: z.string().max(MODULE_NAME_MAX).optional() });

/** Path segments per type: list (plural) and one module (singular). */
export const MODULE_PATHS = {
  customHeader: { many: 'customHeaders', one: 'customHeader', label: 'custom header' },
  urlRedirect: { many: 'urlRedirects', one: 'urlRedirect', label: 'URL redirect' },
  cors: { many: 'corsSettings', one: 'corsSetting', label: 'CORS' },
  proxyRewrite: { many: 'proxyRewrites', one: 'proxyRewrite', label: 'proxy rewrite' },
  luaAcl: { many: 'luaAcls', one: 'luaAcl', label: 'Lua ACL' },
  tokenAuth: { many: 'tokenAuths', one: 'tokenAuth', label: 'token auth' },
  waf: { many: 'wafs', one: 'waf', label: 'WAF' },
} as const satisfies Record<SiteModuleType, { many: string; one: string; label: string }>;

const route = routeFamily({
  tags: ['modules'],
  read: tiers(['user'], 'user.siteSettings.read'),
  write: tiers(['user'], 'user.siteSettings.write'),
});

export function moduleRoutes<T extends SiteModuleType, S extends z.ZodType, I extends z.ZodObject>(
  type: T,
  item: S,
  settings: I,
) {
  const p = MODULE_PATHS[type];
  const input = settings.extend({ name: moduleName });
  return {
    list: route.get(`user.site.${p.many}.list`, `${base}/${p.many}`, {
      summary: `The site's ${p.label} modules, paged, by name`,
      params: siteParams,
      query: listQuery,
      response: pageOf(item),
    }),
    create: route.post(`user.site.${p.many}.create`, `${base}/${p.many}`, {
      codes: [101025, 101029, 10102502],
      summary: `Creates ${p.label} modules (all or none; 101025 for a name taken in the site, 101029 beyond ${MODULES_PER_SITE_MAX})`,
      params: siteParams,
      body: z.object({ modules: z.array(input).min(1).max(MODULES_PER_SITE_MAX) }),
      response: dataOf(z.array(item)),
    }),
    update: route.put(`user.site.${p.one}.update`, `${base}/${p.one}`, {
      codes: [101025, 10102502],
      summary: `Replaces the name and settings of one ${p.label} module`,
      params: siteParams,
      body: input.extend({ id: zId }),
      response: dataOf(item),
    }),
    delete: route.delete(`user.site.${p.many}.delete`, `${base}/${p.many}`, {
      summary: `Deletes ${p.label} modules by id (all or none; refused while bound to a domain)`,
      params: siteParams,
      body: z.object({ ids: idList }),
      response: okReply,
    }),
  };
}

/**
 * Routes of a type whose entries are rules paged, added, replaced and deleted by id; `segments`
 * names them in the path (token auth calls its rules `auths`).
 */
export function ruleRoutes<
  T extends 'urlRedirect' | 'proxyRewrite' | 'tokenAuth',
  S extends z.ZodType,
  I extends z.ZodType,
>(type: T, rule: S, input: I, limit: string, segments = { many: 'rules', one: 'rule' }) {
  const p = MODULE_PATHS[type];
  const { many, one } = segments;
  return {
    listRules: route.get(`user.site.${p.one}.${many}.list`, `${base}/${p.one}/{moduleId}/${many}`, {
      summary: `Rules of one ${p.label} module, paged, in the order the edge tries them`,
      params: moduleParams,
      query: pageQuery,
      response: pageOf(rule),
    }),
    addRules: route.post(`user.site.${p.one}.${many}.add`, `${base}/${p.one}/{moduleId}/${many}`, {
      codes: [101029, 205007],
      summary: `Adds rules to a ${p.label} module (all or none; ${limit})`,
      params: moduleParams,
      body: z.object({ items: z.array(input).min(1).max(RULES_PER_REQUEST_MAX) }),
      response: dataOf(z.array(rule)),
    }),
    updateRule: route.put(`user.site.${p.one}.${one}.update`, `${base}/${p.one}/{moduleId}/${one}`, {
      summary: `Replaces one rule of a ${p.label} module`,
      params: moduleParams,
      body: z.intersection(input, z.object({ id: zId })),
      response: dataOf(rule),
    }),
    deleteRules: route.delete(`user.site.${p.one}.${many}.delete`, `${base}/${p.one}/{moduleId}/${many}`, {
      summary: `Deletes rules of a ${p.label} module by id (all or none)`,
      params: moduleParams,
      body: z.object({ ids: zIds(RULES_PER_REQUEST_MAX) }),
      response: okReply,
    }),
  };
}

export const customHeaderRoutes = moduleRoutes('customHeader', customHeaderModuleSchema, customHeaderSettingsSchema);
export const corsRoutes = moduleRoutes('cors', corsModuleSchema, corsSettingsSchema);
export const urlRedirectRoutes = {
  ...moduleRoutes('urlRedirect', urlRedirectModuleSchema, urlRedirectSettingsSchema),
  ...ruleRoutes(
    'urlRedirect',
    urlRedirectRuleSchema,
    urlRedirectRuleInputSchema,
    `205007 beyond ${REDIRECT_RULES_PER_SITE} per site`,
  ),
};
export const proxyRewriteRoutes = {
  ...moduleRoutes('proxyRewrite', proxyRewriteModuleSchema, proxyRewriteSettingsSchema),
  ...ruleRoutes(
    'proxyRewrite',
    proxyRewriteRuleSchema,
    proxyRewriteRuleInputSchema,
    `101029 beyond ${REWRITE_RULES_PER_MODULE} per module`,
  ),
};

/** `PUT domains/module/{type}`: `moduleID` (`corsID` for CORS), 0 unbinds. */
export const MODULE_BINDING_FIELD = {
  customHeader: 'moduleID',
  urlRedirect: 'moduleID',
  cors: 'corsID',
  proxyRewrite: 'moduleID',
  luaAcl: 'moduleID',
  tokenAuth: 'moduleID',
  waf: 'moduleID',
} as const satisfies Record<SiteModuleType, string>;

const domainIDs = zIds(500);
const moduleRef = z.number().int().min(0);

function bindRoute<T extends SiteModuleType>(type: T) {
  const field = MODULE_BINDING_FIELD[type];
  const body =
    field === 'corsID' ? z.object({ domainIDs, corsID: moduleRef }) : z.object({ domainIDs, moduleID: moduleRef });
  return route.put(`user.domains.module.${type}`, `/user/site/{siteId}/domains/module/${type}`, {
    summary: `Binds a ${MODULE_PATHS[type].label} module of the site to domains of the site (${field} 0 unbinds; all or none)`,
    tags: ['modules', 'domains'],
    params: siteParams,
    body,
    response: okReply,
  });
}

export const bindModuleRoutes = {
  customHeader: bindRoute('customHeader'),
  urlRedirect: bindRoute('urlRedirect'),
  cors: bindRoute('cors'),
  proxyRewrite: bindRoute('proxyRewrite'),
  luaAcl: bindRoute('luaAcl'),
  tokenAuth: bindRoute('tokenAuth'),
  waf: bindRoute('waf'),
} as const;

export const siteModuleRoutes = {
  ...Object.fromEntries(Object.entries(customHeaderRoutes).map(([k, v]) => [`customHeader_${k}`, v])),
  ...Object.fromEntries(Object.entries(corsRoutes).map(([k, v]) => [`cors_${k}`, v])),
  ...Object.fromEntries(Object.entries(urlRedirectRoutes).map(([k, v]) => [`urlRedirect_${k}`, v])),
  ...Object.fromEntries(Object.entries(proxyRewriteRoutes).map(([k, v]) => [`proxyRewrite_${k}`, v])),
  ...Object.fromEntries(Object.entries(bindModuleRoutes).map(([k, v]) => [`bind_${k}`, v])),
} as const;
