import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { pcreRegexProblem } from '../validators/regex.js';
import { zCorsOrigin, zDomainName, zRedirectTarget } from '../validators/zod.js';
import { CACHE_PATH_RE } from './site-cache.js';
import { siteParams } from './sites.js';

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

export const SITE_MODULE_TYPES = [
  'customHeader',
  'urlRedirect',
  'cors',
  'proxyRewrite',
  'luaAcl',
  'tokenAuth',
  'waf',
] as const;
export type SiteModuleType = (typeof SITE_MODULE_TYPES)[number];
/** Types whose entries are separate rules (paged, added and deleted by id). */
export const RULE_MODULE_TYPES = [
  'urlRedirect',
  'proxyRewrite',
  'luaAcl',
  'tokenAuth',
] as const satisfies readonly SiteModuleType[];

export const MODULES_PER_SITE_MAX = 100;
export const MODULE_NAME_MAX = 64;
export const CUSTOM_HEADERS_MAX = 50;
/** Redirect rules per site, all redirect modules together (205007). */
export const REDIRECT_RULES_PER_SITE = 3000;
export const REWRITE_RULES_PER_MODULE = 100;
export const RULES_PER_REQUEST_MAX = 500;
export const CORS_LIST_MAX = 50;
export const CORS_MAX_AGE_MAX = 86_400;
export const MODULE_HEADER_VALUE_MAX = 1024;
export const MODULE_TARGET_MAX = 1024;
export const MODULE_REGEX_MAX = 256;

/** A header name: letters, digits and '-', starting with a letter or digit. */
export const MODULE_HEADER_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
/** A header value: printable ASCII and space only (no CR, LF, NUL or other controls). */
export const MODULE_HEADER_VALUE_RE = /^[\x20-\x7e]*$/;

/**
 * Headers no module may set or remove: hop-by-hop headers and framing (the edge and nginx own the
 * connection and the body length), and Host (proxy rewrite has its own field, checked as a host name).
 */
export const MODULE_HEADERS_DENIED = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
  'host',
  'content-length',
] as const;
/** Headers the edge itself sends to the origin (client address, request id): not a customer's to forge. */
export const MODULE_REQUEST_HEADERS_DENIED = [
  ...MODULE_HEADERS_DENIED,
  'x-request-id',
  'x-real-ip',
  'x-forwarded-for',
  'x-forwarded-proto',
] as const;

export function moduleHeaderAllowed(name: string, direction: 'request' | 'response'): boolean {
  const denied: readonly string[] = direction === 'request' ? MODULE_REQUEST_HEADERS_DENIED : MODULE_HEADERS_DENIED;
  return MODULE_HEADER_NAME_RE.test(name) && !denied.includes(name.toLowerCase());
}

/** Characters of a regex source: the URL path set plus the regex operators; no quotes, spaces or controls. */
export const MODULE_REGEX_RE = /^[A-Za-z0-9._~!$&'()*+,;=:@%/^|?[\]{}\\-]{1,256}$/;
/**
 * A customer's path pattern: the characters of {@link MODULE_REGEX_RE}, and a pattern the edge's
 * PCRE2 compiles within the subset both engines read alike (validators/regex.ts: no `(?` or `(*`
 * constructs, a backslash only before a class letter d D w W s S or a punctuation character).
 */
export function isSafeModuleRegex(source: string): boolean {
  return MODULE_REGEX_RE.test(source) && pcreRegexProblem(source) === null;
}

/** A redirect target: a path, or an absolute http(s) URL (port 1–65535); `$1`…`$9` allowed (regex rules). */
export const REDIRECT_TARGET_RE =
  /^(https?:\/\/[a-z0-9.-]{1,253}(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d\d|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3}))?)?\/[A-Za-z0-9._~!$&'()*+,;=:@%/?#-]{0,1023}$/;
/** A rewrite target: a path only (the origin stays the domain's). */
export const REWRITE_TARGET_RE = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,1023}$/;
/** A CORS origin: `*`, or scheme://host[:port] (port 1–65535) with an optional `*.` wildcard label. */
export const CORS_ORIGIN_RE =
  /^(\*|https?:\/\/(\*\.)?[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d\d|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3}))?)$/;
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const REDIRECT_CODES = [301, 302, 307, 308] as const;
export const PATH_MATCH_TYPES = ['exact', 'prefix', 'regex'] as const;
export type PathMatchType = (typeof PATH_MATCH_TYPES)[number];

const moduleName = z
  .string()
  .trim()
  .min(1)
  .max(MODULE_NAME_MAX)
  .refine((s) => !/\p{Cc}/u.test(s), 'wrongFormat');

const headerName = (direction: 'request' | 'response') =>
  z.string().refine((s) => moduleHeaderAllowed(s, direction), 'headerNameNotAllowed');
const headerValue = z
  .string()
  .max(MODULE_HEADER_VALUE_MAX)
  .refine((s) => MODULE_HEADER_VALUE_RE.test(s), 'wrongFormat');

function checkSource(rule: { matchType: PathMatchType; source: string }, ctx: z.RefinementCtx) {
  const ok = rule.matchType === 'regex' ? isSafeModuleRegex(rule.source) : CACHE_PATH_RE.test(rule.source);
  if (!ok) ctx.addIssue({ code: 'custom', path: ['source'], message: 'wrongFormat' });
}

// ---- custom headers --------------------------------------------------------------------------

export const customHeaderItemSchema = z
  .object({
    type: z.enum(['request', 'response']),
    name: z.string().max(64),
    /** '' removes the header. */
    value: headerValue.default(''),
  })
  .superRefine((h, ctx) => {
    if (!moduleHeaderAllowed(h.name, h.type)) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'headerNameNotAllowed' });
    }
  });
export const customHeaderSettingsSchema = z.object({
  headers: z.array(customHeaderItemSchema).max(CUSTOM_HEADERS_MAX).default([]),
});

// ---- CORS ------------------------------------------------------------------------------------

const corsHeaderList = z
  .array(z.string().refine((s) => s === '*' || MODULE_HEADER_NAME_RE.test(s), 'wrongFormat'))
  .max(CORS_LIST_MAX);
export const corsSettingsSchema = z.object({
  origins: z
    .array(zCorsOrigin.refine((s) => CORS_ORIGIN_RE.test(s), 'wrongFormat'))
    .min(1)
    .max(CORS_LIST_MAX),
  methods: z.array(z.enum(CORS_METHODS)).min(1).max(CORS_METHODS.length).default(['GET', 'HEAD', 'POST']),
  allowHeaders: corsHeaderList.default([]),
  exposeHeaders: corsHeaderList.default([]),
  credentials: z.boolean().default(false),
  maxAge: z.number().int().min(0).max(CORS_MAX_AGE_MAX).default(600),
});

// ---- URL redirects ---------------------------------------------------------------------------

export const urlRedirectRuleInputSchema = z
  .object({
    matchType: z.enum(PATH_MATCH_TYPES).default('exact'),
    source: z.string().max(MODULE_REGEX_MAX),
    target: z
      .string()
      .max(MODULE_TARGET_MAX + 64)
      .pipe(zRedirectTarget)
      .refine((s) => REDIRECT_TARGET_RE.test(s), 'wrongFormat'),
    statusCode: z.union(REDIRECT_CODES.map((c) => z.literal(c))).default(301),
    /** Appends the request's query string to the target. */
    keepQuery: z.boolean().default(true),
  })
  .superRefine(checkSource);
export const urlRedirectSettingsSchema = z.object({});

// ---- proxy rewrite ---------------------------------------------------------------------------

export const proxyRewriteRuleInputSchema = z
  .object({
    matchType: z.enum(PATH_MATCH_TYPES).default('exact'),
    source: z.string().max(MODULE_REGEX_MAX),
    target: z
      .string()
      .max(MODULE_TARGET_MAX)
      .refine((s) => REWRITE_TARGET_RE.test(s), 'wrongFormat'),
  })
  .superRefine(checkSource);
export const proxyRewriteSettingsSchema = z.object({
  /** Host header sent to the origin ('' = the domain's own setting). */
  hostHeader: z.union([z.literal(''), zDomainName()]).default(''),
  setHeaders: z
    .array(z.object({ name: headerName('request'), value: headerValue }))
    .max(CUSTOM_HEADERS_MAX)
    .default([]),
  removeHeaders: z.array(headerName('request')).max(CUSTOM_HEADERS_MAX).default([]),
});

// ---- shared shapes ---------------------------------------------------------------------------

export const MODULE_SETTINGS = {
  customHeader: customHeaderSettingsSchema,
  urlRedirect: urlRedirectSettingsSchema,
  cors: corsSettingsSchema,
  proxyRewrite: proxyRewriteSettingsSchema,
  // A Lua ACL module has a name only; its rules say everything.
  luaAcl: z.object({}),
  // A token-auth module has a name only; its auths (routes/site-module-token-auth.ts) say everything.
  tokenAuth: z.object({}),
  // A WAF module's settings: wafSettingsSchema (routes/site-module-waf.ts).
} as const;
export const MODULE_RULE_INPUTS = {
  urlRedirect: urlRedirectRuleInputSchema,
  proxyRewrite: proxyRewriteRuleInputSchema,
} as const;

export type CustomHeaderSettings = z.output<typeof customHeaderSettingsSchema>;
export type CorsSettings = z.output<typeof corsSettingsSchema>;
export type ProxyRewriteSettings = z.output<typeof proxyRewriteSettingsSchema>;
export type UrlRedirectRuleInput = z.output<typeof urlRedirectRuleInputSchema>;
export type ProxyRewriteRuleInput = z.output<typeof proxyRewriteRuleInputSchema>;
export type ModuleSettings<T extends keyof typeof MODULE_SETTINGS> = z.output<(typeof MODULE_SETTINGS)[T]>;

const moduleCommon = {
  id: z.number().int(),
  siteID: z.number().int(),
  name: z.string(),
  /** Domains of the site the module is bound to. */
  domainIDs: z.array(z.number().int()),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const customHeaderModuleSchema = z.object({
  ...moduleCommon,
  headers: z.array(z.object({ type: z.enum(['request', 'response']), name: z.string(), value: z.string() })),
});
export const corsModuleSchema = z.object({
  ...moduleCommon,
  origins: z.array(z.string()),
  methods: z.array(z.enum(CORS_METHODS)),
  allowHeaders: z.array(z.string()),
  exposeHeaders: z.array(z.string()),
  credentials: z.boolean(),
  maxAge: z.number().int(),
});
/** A module whose entries are rules: the common fields and how many rules it has. */
export const ruleModuleSchema = z.object({ ...moduleCommon, ruleCount: z.number().int() });
export const urlRedirectModuleSchema = ruleModuleSchema;
export const proxyRewriteModuleSchema = z.object({
  ...moduleCommon,
  ruleCount: z.number().int(),
  hostHeader: z.string(),
  setHeaders: z.array(z.object({ name: z.string(), value: z.string() })),
  removeHeaders: z.array(z.string()),
});
export type CustomHeaderModule = z.infer<typeof customHeaderModuleSchema>;
export type CorsModule = z.infer<typeof corsModuleSchema>;
export type UrlRedirectModule = z.infer<typeof urlRedirectModuleSchema>;
export type ProxyRewriteModule = z.infer<typeof proxyRewriteModuleSchema>;

const ruleCommon = { id: z.number().int(), moduleID: z.number().int(), createdAt: z.string(), updatedAt: z.string() };
export const urlRedirectRuleSchema = z.object({
  ...ruleCommon,
  matchType: z.enum(PATH_MATCH_TYPES),
  source: z.string(),
  target: z.string(),
  statusCode: z.number().int(),
  keepQuery: z.boolean(),
});
export const proxyRewriteRuleSchema = z.object({
  ...ruleCommon,
  matchType: z.enum(PATH_MATCH_TYPES),
  source: z.string(),
  target: z.string(),
});
export type UrlRedirectRule = z.infer<typeof urlRedirectRuleSchema>;
export type ProxyRewriteRule = z.infer<typeof proxyRewriteRuleSchema>;

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

export function moduleRoutes<T extends SiteModuleType, S extends z.ZodType, I extends z.ZodObject>(
  type: T,
  item: S,
  settings: I,
) {
  const p = MODULE_PATHS[type];
  const input = settings.extend({ name: moduleName });
  return {
    list: defineRoute({
      id: `user.site.${p.many}.list`,
      method: 'GET',
      path: `${base}/${p.many}`,
      access: tiers(['user'], 'user.siteSettings.read'),
      codes: [],
      summary: `The site's ${p.label} modules, paged, by name`,
      tags: ['modules'],
      request: { params: siteParams, query: listQuery },
      response: pageOf(item),
    }),
    create: defineRoute({
      id: `user.site.${p.many}.create`,
      method: 'POST',
      path: `${base}/${p.many}`,
      access: tiers(['user'], 'user.siteSettings.write'),
      codes: [101025, 101029, 10102502],
      summary: `Creates ${p.label} modules (all or none; 101025 for a name taken in the site, 101029 beyond ${MODULES_PER_SITE_MAX})`,
      tags: ['modules'],
      request: { params: siteParams, body: z.object({ modules: z.array(input).min(1).max(MODULES_PER_SITE_MAX) }) },
      response: dataOf(z.array(item)),
    }),
    update: defineRoute({
      id: `user.site.${p.one}.update`,
      method: 'PUT',
      path: `${base}/${p.one}`,
      access: tiers(['user'], 'user.siteSettings.write'),
      codes: [101025, 10102502],
      summary: `Replaces the name and settings of one ${p.label} module`,
      tags: ['modules'],
      request: { params: siteParams, body: input.extend({ id: zId }) },
      response: dataOf(item),
    }),
    delete: defineRoute({
      id: `user.site.${p.many}.delete`,
      method: 'DELETE',
      path: `${base}/${p.many}`,
      access: tiers(['user'], 'user.siteSettings.write'),
      codes: [],
      summary: `Deletes ${p.label} modules by id (all or none; refused while bound to a domain)`,
      tags: ['modules'],
      request: { params: siteParams, body: z.object({ ids: idList }) },
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
    listRules: defineRoute({
      id: `user.site.${p.one}.${many}.list`,
      method: 'GET',
      path: `${base}/${p.one}/{moduleId}/${many}`,
      access: tiers(['user'], 'user.siteSettings.read'),
      codes: [],
      summary: `Rules of one ${p.label} module, paged, in the order the edge tries them`,
      tags: ['modules'],
      request: { params: moduleParams, query: pageQuery },
      response: pageOf(rule),
    }),
    addRules: defineRoute({
      id: `user.site.${p.one}.${many}.add`,
      method: 'POST',
      path: `${base}/${p.one}/{moduleId}/${many}`,
      access: tiers(['user'], 'user.siteSettings.write'),
      codes: [101029, 205007],
      summary: `Adds rules to a ${p.label} module (all or none; ${limit})`,
      tags: ['modules'],
      request: { params: moduleParams, body: z.object({ items: z.array(input).min(1).max(RULES_PER_REQUEST_MAX) }) },
      response: dataOf(z.array(rule)),
    }),
    updateRule: defineRoute({
      id: `user.site.${p.one}.${one}.update`,
      method: 'PUT',
      path: `${base}/${p.one}/{moduleId}/${one}`,
      access: tiers(['user'], 'user.siteSettings.write'),
      codes: [],
      summary: `Replaces one rule of a ${p.label} module`,
      tags: ['modules'],
      request: {
        params: moduleParams,
        body: z.intersection(input, z.object({ id: zId })),
      },
      response: dataOf(rule),
    }),
    deleteRules: defineRoute({
      id: `user.site.${p.one}.${many}.delete`,
      method: 'DELETE',
      path: `${base}/${p.one}/{moduleId}/${many}`,
      access: tiers(['user'], 'user.siteSettings.write'),
      codes: [],
      summary: `Deletes rules of a ${p.label} module by id (all or none)`,
      tags: ['modules'],
      request: {
        params: moduleParams,
        body: z.object({ ids: zIds(RULES_PER_REQUEST_MAX) }),
      },
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
  return defineRoute({
    id: `user.domains.module.${type}`,
    method: 'PUT',
    path: `/user/site/{siteId}/domains/module/${type}`,
    access: tiers(['user'], 'user.siteSettings.write'),
    codes: [],
    summary: `Binds a ${MODULE_PATHS[type].label} module of the site to domains of the site (${field} 0 unbinds; all or none)`,
    tags: ['modules', 'domains'],
    request: { params: siteParams, body },
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
