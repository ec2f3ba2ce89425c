import { z } from 'zod';
import { GEO_COUNTRY_ID_RE } from '../routes/firewall-geos.js';
import { CACHE_PATH_RE } from '../routes/site-cache.js';
import {
  ACL_ACTIONS,
  ACL_CONDITIONS_MAX,
  ACL_FREQUENCY_COUNT_MAX,
  ACL_FREQUENCY_OPERATORS,
  ACL_FREQUENCY_SECONDS_MAX,
  ACL_METHODS,
  ACL_RULES_PER_MODULE,
  ACL_STRING_FIELDS,
  ACL_STRING_OPERATORS,
  ACL_VALUE_MAX,
  ACL_VALUE_RE,
  ACL_VALUES_MAX,
  isSafeAclRegex,
} from '../routes/site-module-acl.js';
import {
  TOKEN_AUTH_ACTIONS,
  TOKEN_AUTH_EXPIRE_MAX,
  TOKEN_AUTH_KEY_RE,
  TOKEN_AUTH_SCOPES,
  TOKEN_AUTH_VALUE_MAX,
  TOKEN_AUTHS_PER_MODULE,
  tokenAuthValueOk,
} from '../routes/site-module-token-auth.js';
import {
  CORS_LIST_MAX,
  CORS_MAX_AGE_MAX,
  CORS_METHODS,
  CORS_ORIGIN_RE,
  CUSTOM_HEADERS_MAX,
  isSafeModuleRegex,
  MODULE_HEADER_NAME_RE,
  MODULE_HEADER_VALUE_MAX,
  MODULE_HEADER_VALUE_RE,
  moduleHeaderAllowed,
  PATH_MATCH_TYPES,
  REDIRECT_CODES,
  REDIRECT_RULES_PER_SITE,
  REDIRECT_TARGET_RE,
  REWRITE_RULES_PER_MODULE,
  REWRITE_TARGET_RE,
} from '../routes/site-modules.js';
import { edgeWafModuleSchema } from './waf.js';

/**
 * Site modules in the data-plane document (see routes/site-modules.ts for what each does). The
 * control plane sends the modules bound to served domains; a domain names them in `modules`.
 * Every value is checked again here with the API's allowlists (and by validate.lua once more):
 * the edge sets these headers and patterns from Lua, never from nginx.conf.
 */

const id = z.number().int().min(1).max(2_147_483_647);
const headerValue = z.string().max(MODULE_HEADER_VALUE_MAX).regex(MODULE_HEADER_VALUE_RE, 'not printable ASCII');
const header = (direction: 'request' | 'response') =>
  z.strictObject({
    name: z.string().refine((n) => moduleHeaderAllowed(n, direction), 'header name not allowed'),
    value: headerValue,
  });
const headerList = (direction: 'request' | 'response') => z.array(header(direction)).max(CUSTOM_HEADERS_MAX);

const pathRule = {
  match: z.enum(PATH_MATCH_TYPES),
  source: z.string().max(256),
};
function sourceOk(rule: { match: string; source: string }) {
  return rule.match === 'regex' ? isSafeModuleRegex(rule.source) : CACHE_PATH_RE.test(rule.source);
}

export const edgeCustomHeaderModuleSchema = z.strictObject({
  id,
  type: z.literal('customHeader'),
  request: headerList('request'),
  response: headerList('response'),
});

export const edgeUrlRedirectModuleSchema = z.strictObject({
  id,
  type: z.literal('urlRedirect'),
  rules: z
    .array(
      z
        .strictObject({
          ...pathRule,
          target: z.string().max(1100).regex(REDIRECT_TARGET_RE, 'not a redirect target'),
          code: z.union(REDIRECT_CODES.map((c) => z.literal(c))),
          keepQuery: z.boolean(),
        })
        .refine(sourceOk, { message: 'not a valid source', path: ['source'] }),
    )
    .max(REDIRECT_RULES_PER_SITE),
});

export const edgeCorsModuleSchema = z.strictObject({
  id,
  type: z.literal('cors'),
  origins: z.array(z.string().regex(CORS_ORIGIN_RE, 'not an origin')).min(1).max(CORS_LIST_MAX),
  methods: z.array(z.enum(CORS_METHODS)).min(1).max(CORS_METHODS.length),
  allowHeaders: z.array(z.string().refine((s) => s === '*' || MODULE_HEADER_NAME_RE.test(s))).max(CORS_LIST_MAX),
  exposeHeaders: z.array(z.string().refine((s) => s === '*' || MODULE_HEADER_NAME_RE.test(s))).max(CORS_LIST_MAX),
  credentials: z.boolean(),
  maxAge: z.number().int().min(0).max(CORS_MAX_AGE_MAX),
});

export const edgeProxyRewriteModuleSchema = z.strictObject({
  id,
  type: z.literal('proxyRewrite'),
  /** Host header to the origin, or null for the domain's own. */
  host: z
    .string()
    .max(253)
    .regex(/^([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/, 'not a host name')
    .nullable(),
  setHeaders: headerList('request'),
  removeHeaders: z
    .array(z.string().refine((n) => moduleHeaderAllowed(n, 'request'), 'header name not allowed'))
    .max(CUSTOM_HEADERS_MAX),
  rules: z
    .array(
      z
        .strictObject({ ...pathRule, target: z.string().max(1024).regex(REWRITE_TARGET_RE, 'not a path') })
        .refine(sourceOk, { message: 'not a valid source', path: ['source'] }),
    )
    .max(REWRITE_RULES_PER_MODULE),
});

/** Sorted, disjoint `[first, last]` ranges of addresses in lower-case hex (as the firewall's). */
function hexRanges(digits: 8 | 32) {
  const hex = z.string().regex(digits === 8 ? /^[0-9a-f]{8}$/ : /^[0-9a-f]{32}$/, 'not an address in hex');
  return z
    .array(z.tuple([hex, hex]))
    .max(ACL_VALUES_MAX)
    .refine(
      (ranges) => ranges.every(([a, b], i) => a <= b && (i === 0 || (ranges[i - 1] as [string, string])[1] < a)),
      'ranges not sorted or overlapping',
    );
}

/**
 * A Lua ACL condition as the edge reads it (routes/site-module-acl.ts): string conditions compare
 * `value` (a regex checked again here), `ip` looks the client address up in ranges, `country` and
 * `method` in a set, `frequency` counts.
 */
const edgeAclConditionSchema = z.union([
  z
    .strictObject({
      field: z.enum(ACL_STRING_FIELDS),
      op: z.enum(ACL_STRING_OPERATORS),
      negate: z.boolean(),
      /** The header a `header` condition reads ('' for the other fields). */
      name: z.string().refine((n) => n === '' || MODULE_HEADER_NAME_RE.test(n), 'not a header name'),
      value: z.string().max(ACL_VALUE_MAX).regex(ACL_VALUE_RE, 'not printable ASCII'),
    })
    .refine((c) => c.op !== 'regex' || isSafeAclRegex(c.value), { message: 'not a safe regex', path: ['value'] })
    .refine((c) => (c.field === 'header') === (c.name !== ''), {
      message: 'a header condition names its header',
      path: ['name'],
    }),
  z.strictObject({ field: z.literal('ip'), negate: z.boolean(), v4: hexRanges(8), v6: hexRanges(32) }),
  z.strictObject({
    field: z.literal('country'),
    negate: z.boolean(),
    values: z.array(z.string().regex(GEO_COUNTRY_ID_RE, 'not a country code')).min(1).max(ACL_VALUES_MAX),
  }),
  z.strictObject({
    field: z.literal('method'),
    negate: z.boolean(),
    values: z.array(z.enum(ACL_METHODS)).min(1).max(ACL_METHODS.length),
  }),
  z.strictObject({
    field: z.literal('frequency'),
    op: z.enum(ACL_FREQUENCY_OPERATORS),
    count: z.number().int().min(0).max(ACL_FREQUENCY_COUNT_MAX),
    seconds: z.number().int().min(1).max(ACL_FREQUENCY_SECONDS_MAX),
  }),
]);
export type EdgeAclCondition = z.infer<typeof edgeAclConditionSchema>;

/** A Lua ACL module: its enabled rules in the order the edge tries them (priority, higher first). */
export const edgeLuaAclModuleSchema = z.strictObject({
  id,
  type: z.literal('luaAcl'),
  /** The module's site: a dropBlacklist rule blocks the client address for it (rampart.blocklist). */
  siteId: id,
  rules: z
    .array(
      z
        .strictObject({
          id,
          action: z.enum(ACL_ACTIONS),
          /** Where a `redirect` rule sends the client (301), else null. */
          target: z.string().max(1100).regex(REDIRECT_TARGET_RE, 'not a redirect target').nullable(),
          conditions: z.array(edgeAclConditionSchema).min(1).max(ACL_CONDITIONS_MAX),
        })
        .refine((r) => (r.action === 'redirect') === (r.target !== null), {
          message: 'a redirect rule has a target, and only it',
          path: ['target'],
        }),
    )
    .max(ACL_RULES_PER_MODULE),
});
export type EdgeLuaAclModule = z.infer<typeof edgeLuaAclModuleSchema>;

/**
 * A token-auth module (routes/site-module-token-auth.ts): its auths in the order they are tried
 * (oldest first). `value` is a path, a directory, extensions (lower case, one space between) or a
 * pattern (checked again here and in rampart.token_auth_check); `key` is the customer's secret.
 */
export const edgeTokenAuthModuleSchema = z.strictObject({
  id,
  type: z.literal('tokenAuth'),
  auths: z
    .array(
      z
        .strictObject({
          id,
          scope: z.enum(TOKEN_AUTH_SCOPES),
          value: z.string().max(TOKEN_AUTH_VALUE_MAX),
          key: z.string().regex(TOKEN_AUTH_KEY_RE, 'not a key'),
          expire: z.number().int().min(0).max(TOKEN_AUTH_EXPIRE_MAX),
          action: z.enum(TOKEN_AUTH_ACTIONS),
        })
        .refine((a) => tokenAuthValueOk(a.scope, a.value), { message: 'not a value of its scope', path: ['value'] }),
    )
    .max(TOKEN_AUTHS_PER_MODULE),
});
export type EdgeTokenAuthModule = z.infer<typeof edgeTokenAuthModuleSchema>;

export const edgeModuleSchema = z.discriminatedUnion('type', [
  edgeCustomHeaderModuleSchema,
  edgeUrlRedirectModuleSchema,
  edgeCorsModuleSchema,
  edgeProxyRewriteModuleSchema,
  edgeLuaAclModuleSchema,
  edgeTokenAuthModuleSchema,
  edgeWafModuleSchema,
]);

/** The modules a domain uses, by type (module ids in the document's `modules`), or null for none. */
export const edgeDomainModulesSchema = z
  .strictObject({
    customHeader: id.nullable(),
    urlRedirect: id.nullable(),
    cors: id.nullable(),
    proxyRewrite: id.nullable(),
    // Later types default to none: a document from an older control plane still reads.
    luaAcl: id.nullable().default(null),
    tokenAuth: id.nullable().default(null),
    waf: id.nullable().default(null),
  })
  .nullable()
  .default(null);

export type EdgeModule = z.infer<typeof edgeModuleSchema>;
export type EdgeDomainModules = z.infer<typeof edgeDomainModulesSchema>;

/** A domain's module references with none set: the entry the types it uses are written into. */
export function noDomainModules(): NonNullable<EdgeDomainModules> {
  return {
    customHeader: null,
    urlRedirect: null,
    cors: null,
    proxyRewrite: null,
    luaAcl: null,
    tokenAuth: null,
    waf: null,
  };
}
