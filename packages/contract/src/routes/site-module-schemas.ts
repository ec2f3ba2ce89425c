import { z } from 'zod';
import { pcreRegexProblem } from '../validators/regex.js';
import { zCorsOrigin, zDomainName, zRedirectTarget } from '../validators/zod.js';
import { CACHE_PATH_RE } from './site-cache.js';

// The shapes of a site module (custom headers, CORS, URL redirects, proxy rewrite) and of its rules; the routes are in site-modules.ts.
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

export const moduleName = z
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
