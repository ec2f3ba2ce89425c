import { z } from 'zod';
import { FILE_TYPE_GROUPS } from '../constants.js';
import { dataOf, okReply, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIdParam, zIds } from '../validators/ids.js';
import { siteParams } from './sites.js';

/**
 * Cache rules of a site (the spec names only the toasts 'Cache Rules Added
 * Success!' and 'Clear Cache Success!' and the purge call `DELETE user/site/{siteID}/setting/currentCache`,
 * so the rest is our design, documented here).
 *
 * - A rule matches a request by scope: every request (`all`), a directory (path prefix), an exact
 *   path, file suffixes, or the spec's file-type groups. Rules are tried by priority (higher first,
 *   then oldest first); the first match decides. A request no rule matches is not cached.
 * - `bypass` rules proxy without the cache (to carve an exception out of a broader rule).
 * - `ttl` is one of CACHE_TTL_SECONDS: the edge renders one cache location per lifetime, so a rule
 *   change never needs an nginx reload.
 * - `respectOrigin`: when true, the origin's Cache-Control / Expires decide when they are present
 *   and `ttl` applies otherwise; when false, `ttl` always applies. Either way a response that sets
 *   a cookie, or says `private` / `no-store` while respected, is never stored.
 * - `queryString`: `include` keeps the query in the cache key; `ignore` caches one copy per path.
 * - Only GET and HEAD are cached; the edge adds `X-Cache-Status` (HIT, MISS, EXPIRED, BYPASS …) on
 *   cached locations.
 * - Clearing the site's cache bumps the site's cache generation, part of every cache key: the
 *   whole site misses at once on every node as soon as its snapshot arrives, and old entries age out.
 */

/** Lifetimes a rule can choose (seconds): 1 min … 30 days. */
export const CACHE_TTL_SECONDS = [
  60, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400, 259200, 604800, 2592000,
] as const;
/** Most cache rules one site may have (101029 beyond). */
export const CACHE_RULES_PER_SITE = 100;
/** Most values (paths, suffixes, groups) one rule may list. */
export const CACHE_RULE_VALUES_MAX = 50;

export const CACHE_SCOPES = ['all', 'directory', 'path', 'suffix', 'fileType'] as const;
export type CacheScope = (typeof CACHE_SCOPES)[number];
export const FILE_TYPE_GROUP_KEYS = Object.keys(FILE_TYPE_GROUPS) as (keyof typeof FILE_TYPE_GROUPS)[];

/**
 * A URL path a rule may name: starts with "/", at most 256 characters of the RFC 3986 path set
 * (percent-escapes allowed); nothing that could end a string or a line in the edge's data.
 */
export const CACHE_PATH_RE = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,255}$/;
/** A file suffix without its dot: lower-case letters and digits. */
export const CACHE_SUFFIX_RE = /^[a-z0-9]{1,16}$/;

const valueChecks: Record<CacheScope, (value: string) => boolean> = {
  all: () => false,
  directory: (v) => CACHE_PATH_RE.test(v),
  path: (v) => CACHE_PATH_RE.test(v),
  suffix: (v) => CACHE_SUFFIX_RE.test(v),
  fileType: (v) => (FILE_TYPE_GROUP_KEYS as string[]).includes(v),
};

/** A rule's values (paths, suffixes, groups) before the scope's checks. */
const cacheValuesList = z.array(z.string().max(256, 'tooLong')).max(CACHE_RULE_VALUES_MAX, 'tooMany');

/** A rule's values checked for `scope`: each issue reported with its path in the list (`[i]` for the i-th value). */
function checkCacheValues(
  scope: CacheScope,
  values: readonly string[],
  issue: (path: number[], message: 'invalid' | 'required' | 'duplicate') => void,
): void {
  if (scope === 'all') {
    if (values.length > 0) issue([], 'invalid');
    return;
  }
  if (values.length === 0) issue([], 'required');
  const check = valueChecks[scope];
  values.forEach((value, i) => {
    if (!check(value)) issue([i], 'invalid');
  });
  if (new Set(values).size !== values.length) issue([], 'duplicate');
}

/** The values of a rule of `scope` as one list, checked as the rule checks them (the console's tags box). */
export function cacheRuleValuesSchema(scope: CacheScope) {
  return cacheValuesList.superRefine((values, ctx) =>
    checkCacheValues(scope, values, (path, message) => ctx.addIssue({ code: 'custom', path, message })),
  );
}

export const cacheRuleInputSchema = z
  .object({
    scope: z.enum(CACHE_SCOPES),
    /** Paths for directory/path, suffixes for suffix, group keys for fileType, none for all. */
    values: cacheValuesList.default([]),
    ttl: z
      .number()
      .int()
      .refine((n) => (CACHE_TTL_SECONDS as readonly number[]).includes(n), 'invalid')
      .default(3600),
    queryString: z.enum(['ignore', 'include']).default('include'),
    bypass: z.boolean().default(false),
    respectOrigin: z.boolean().default(true),
    priority: z.number().int().min(0).max(1000).default(0),
    memo: z.string().max(256, 'tooLong').default(''),
  })
  .superRefine((rule, ctx) =>
    checkCacheValues(rule.scope, rule.values, (path, message) =>
      ctx.addIssue({ code: 'custom', path: ['values', ...path], message }),
    ),
  );
export type CacheRuleInput = z.input<typeof cacheRuleInputSchema>;
export type CacheRuleIn = z.output<typeof cacheRuleInputSchema>;

export const cacheRuleSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  scope: z.enum(CACHE_SCOPES),
  values: z.array(z.string()),
  ttl: z.number().int(),
  queryString: z.enum(['ignore', 'include']),
  bypass: z.boolean(),
  respectOrigin: z.boolean(),
  priority: z.number().int(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CacheRule = z.infer<typeof cacheRuleSchema>;

const base = '/user/site/{siteId}/setting';

/**
 * The requests of a site's list of rules (cache rules here, rate limits in site-settings.ts):
 * rules are added as `{ data }`, all or none and at most `max` in all; one is replaced by its
 * `{ruleId}`; they are deleted by ids.
 */
export function siteRuleRequests<I extends z.ZodType>(input: I, max: number) {
  return {
    add: { params: siteParams, body: z.object({ data: z.array(input).min(1).max(max) }) },
    update: { params: siteParams.extend({ ruleId: zIdParam }), body: input },
    delete: { params: siteParams, body: z.object({ ids: zIds(max) }) },
  } as const;
}
const cacheRuleRequests = siteRuleRequests(cacheRuleInputSchema, CACHE_RULES_PER_SITE);

const route = routeFamily({
  tags: ['cache'],
  read: tiers(['user'], 'user.siteSettings.read'),
  write: tiers(['user'], 'user.siteSettings.write'),
  params: siteParams,
});

export const listCacheRules = route.get('user.site.cacheRules.list', `${base}/caches`, {
  summary: "The site's cache rules in the order the edge tries them (priority, then age); at most 100",
  response: dataOf(z.object({ rules: z.array(cacheRuleSchema), generation: z.number().int() })),
});

export const addCacheRules = route.post('user.site.cacheRules.add', `${base}/caches`, {
  codes: [101029],
  summary: 'Adds cache rules (all or none); 101029 beyond 100 rules per site',
  ...cacheRuleRequests.add,
  response: dataOf(z.array(cacheRuleSchema)),
});

export const updateCacheRule = route.put('user.site.cacheRule.update', `${base}/cache/{ruleId}`, {
  summary: 'Replaces one cache rule',
  ...cacheRuleRequests.update,
  response: dataOf(cacheRuleSchema),
});

export const deleteCacheRules = route.delete('user.site.cacheRules.delete', `${base}/caches`, {
  summary: 'Deletes cache rules of the site by id (all or none)',
  ...cacheRuleRequests.delete,
  response: okReply,
});

export const clearSiteCache = route.delete('user.site.currentCache.delete', `${base}/currentCache`, {
  summary: "Clears the site's whole cache on every node (a new cache generation)",
  response: dataOf(z.object({ generation: z.number().int() })),
});

export const siteCacheRoutes = {
  listCacheRules,
  addCacheRules,
  updateCacheRule,
  deleteCacheRules,
  clearSiteCache,
} as const;
