import { z } from 'zod';
import { LOCALES } from '../locale.js';
import { dataOf, okReply, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { siteRuleRequests } from './site-cache.js';
import { siteParams } from './sites.js';

/**
 * Site settings: HTTP compression, bandwidth rate limits and error pages, each per site
 * and applied on every domain of the site at the edge without an nginx reload.
 *
 * Compression. nginx's `gzip`, `gzip_types` and `gzip_min_length` take no variables, so the edge
 * renders fixed locations for sites with settings (`@rampart_site_http`, `@rampart_site_https` and
 * one `…_site` twin per cache location) with `gzip on` for every type of GZIP_TYPES; a Lua header
 * filter there vetoes compression of a response the site did not ask for (compression off, a type
 * outside the site's list, a known Content-Length below the site's minimum) before nginx's gzip
 * filter runs. A response of unknown length is compressed, as nginx does; an image never is (no
 * image type is offered except SVG, which is text).
 *
 * Rate limits. CDNRay "Rates Limit" (cdnray-behaviour.md §4.3): a URL pattern and a cap in KB/s
 * (1 KB = 1024 bytes, minimum 1) on the response body of each matching request (nginx
 * `limit_rate`, set from Lua). A pattern is a path with at most one `*` (any characters, `/`
 * included) and matches the whole path: `/file.zip`, `/downloads/*`, `*.iso`, `/v/*.mp4`, `*`.
 * When several rules match, the lowest rate applies, so the order of rules never matters.
 *
 * Error pages. A page per status code (ERROR_PAGE_STATUSES: the usual 4xx/5xx and the product's
 * own 9xx block codes), stored and served verbatim as `text/html; charset=utf-8` (at most
 * ERROR_PAGE_MAX_BYTES). It replaces the origin's answer with that status and the edge's own page
 * for it (502 origin unreachable, 504, 403 domain disabled, 9xx blocks). A status without a page
 * gets the edge's own page in the site's `language`.
 */

/** Response types a site may compress (all text; images and archives are compressed already). */
export const GZIP_TYPES = [
  'text/html',
  'text/plain',
  'text/css',
  'text/xml',
  'text/javascript',
  'application/javascript',
  'application/json',
  'application/xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/manifest+json',
  'image/svg+xml',
] as const;
export type GzipType = (typeof GZIP_TYPES)[number];
/** Compress responses of at least this many bytes by default (smaller ones gain little). */
export const GZIP_DEFAULT_MIN_LENGTH = 1024;
export const GZIP_MAX_MIN_LENGTH = 10 * 1024 * 1024;
export const GZIP_DEFAULT_TYPES: GzipType[] = [
  'text/html',
  'text/plain',
  'text/css',
  'text/javascript',
  'application/javascript',
  'application/json',
];

/** Most rate-limit rules one site may have (101029 beyond). */
export const RATE_RULES_PER_SITE = 100;
/** KB/s bounds: 1 KB/s (CDNRay's smallest unit) to 1 GB/s. */
export const RATE_MIN_KBPS = 1;
export const RATE_MAX_KBPS = 1024 * 1024;
/**
 * A rate-limit pattern: starts with "/" or "*", at most 256 characters of the RFC 3986 path set,
 * at most one "*" (checked apart), nothing that could end a string or a line in the edge's data.
 */
export const RATE_PATTERN_RE = /^[/*][A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,255}$/;
export const isRatePattern = (value: string): boolean => RATE_PATTERN_RE.test(value) && value.split('*').length <= 2;

/** Statuses a site may give its own page: the usual errors and the product's 9xx block codes. */
export const ERROR_PAGE_STATUSES = [400, 403, 404, 405, 429, 500, 502, 503, 504, 903, 904, 929, 978] as const;
export type ErrorPageStatus = (typeof ERROR_PAGE_STATUSES)[number];
/** Largest page body in UTF-8 bytes. */
export const ERROR_PAGE_MAX_BYTES = 64 * 1024;
/**
 * Largest total of the operator's default pages (system-settings.ts `errorPages`) in UTF-8 bytes:
 * every node's snapshot carries them once.
 */
export const OPERATOR_ERROR_PAGES_MAX_BYTES = 256 * 1024;
/** Languages of the edge's own pages. */
export const ERROR_PAGE_LANGUAGES = LOCALES;

export const utf8Bytes = (s: string): number => new TextEncoder().encode(s).length;

export const gzipSettingSchema = z.object({
  enabled: z.boolean(),
  types: z.array(z.enum(GZIP_TYPES)),
  minLength: z.number().int(),
  updatedAt: z.string().nullable(),
});
export type GzipSetting = z.infer<typeof gzipSettingSchema>;

export const gzipSettingInputSchema = z
  .object({
    enabled: z.boolean(),
    types: z.array(z.enum(GZIP_TYPES)).max(GZIP_TYPES.length, 'tooMany').default(GZIP_DEFAULT_TYPES),
    minLength: z.number().int().min(0).max(GZIP_MAX_MIN_LENGTH).default(GZIP_DEFAULT_MIN_LENGTH),
  })
  .superRefine((input, ctx) => {
    if (input.enabled && input.types.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['types'], message: 'required' });
    }
    if (new Set(input.types).size !== input.types.length) {
      ctx.addIssue({ code: 'custom', path: ['types'], message: 'duplicate' });
    }
  });
export type GzipSettingInput = z.input<typeof gzipSettingInputSchema>;
export type GzipSettingIn = z.output<typeof gzipSettingInputSchema>;

export const rateRuleInputSchema = z.object({
  url: z.string().superRefine((url, ctx) => {
    if (url.length > 256) ctx.addIssue({ code: 'custom', message: 'tooLong' });
    else if (!isRatePattern(url)) ctx.addIssue({ code: 'custom', message: 'wrongFormat' });
  }),
  rate: z.number().int().min(RATE_MIN_KBPS).max(RATE_MAX_KBPS),
  memo: z.string().max(256, 'tooLong').default(''),
});
export type RateRuleInput = z.input<typeof rateRuleInputSchema>;
export type RateRuleIn = z.output<typeof rateRuleInputSchema>;

export const rateRuleSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  url: z.string(),
  rate: z.number().int(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RateRule = z.infer<typeof rateRuleSchema>;

const errorPageStatus = z
  .number()
  .int()
  .refine((n) => (ERROR_PAGE_STATUSES as readonly number[]).includes(n), 'invalid');

export const errorPageInputSchema = z.object({
  status: errorPageStatus,
  body: z
    .string()
    .min(1, 'required')
    .refine((s) => utf8Bytes(s) <= ERROR_PAGE_MAX_BYTES, 'tooLong'),
});
export type ErrorPageInput = z.input<typeof errorPageInputSchema>;
export type ErrorPageIn = z.output<typeof errorPageInputSchema>;

export const errorPageSchema = z.object({ status: z.number().int(), body: z.string(), updatedAt: z.string() });
export type ErrorPage = z.infer<typeof errorPageSchema>;

export const errorPagesSchema = z.object({
  language: z.enum(ERROR_PAGE_LANGUAGES),
  pages: z.array(errorPageSchema),
});
export type ErrorPages = z.infer<typeof errorPagesSchema>;

const base = '/user/site/{siteId}/setting';
const rateRuleRequests = siteRuleRequests(rateRuleInputSchema, RATE_RULES_PER_SITE);

const route = routeFamily({
  tags: ['site settings'],
  read: tiers(['user'], 'user.siteSettings.read'),
  write: tiers(['user'], 'user.siteSettings.write'),
  params: siteParams,
});

export const getGzipSetting = route.get('user.site.gzip.get', `${base}/gzip`, {
  summary: "The site's HTTP compression (off, with the default types and minimum, until set)",
  response: dataOf(gzipSettingSchema),
});

export const setGzipSetting = route.put('user.site.gzip.set', `${base}/gzip`, {
  summary: 'Sets HTTP compression of the site: on or off, the response types, the minimum length in bytes',
  body: gzipSettingInputSchema,
  response: dataOf(gzipSettingSchema),
});

export const listRateRules = route.get('user.site.rates.list', `${base}/rates`, {
  summary: "The site's bandwidth rate limits, oldest first (at most 100)",
  response: dataOf(z.array(rateRuleSchema)),
});

export const addRateRules = route.post('user.site.rates.add', `${base}/rates`, {
  codes: [101029],
  summary: 'Adds rate limits (all or none); 101029 beyond 100 per site',
  ...rateRuleRequests.add,
  response: dataOf(z.array(rateRuleSchema)),
});

export const updateRateRule = route.put('user.site.rate.update', `${base}/rate/{ruleId}`, {
  summary: 'Replaces one rate limit',
  ...rateRuleRequests.update,
  response: dataOf(rateRuleSchema),
});

export const deleteRateRules = route.delete('user.site.rates.delete', `${base}/rates`, {
  summary: 'Deletes rate limits of the site by id (all or none)',
  ...rateRuleRequests.delete,
  response: okReply,
});

export const getErrorPages = route.get('user.site.errorPages.get', `${base}/errorPages`, {
  summary: "The site's error pages by status, and the language of the edge's own pages",
  response: dataOf(errorPagesSchema),
});

export const setErrorPage = route.put('user.site.errorPage.set', `${base}/errorPage`, {
  summary: 'Sets (adds or replaces) the page of one status; the body is served verbatim as text/html',
  body: errorPageInputSchema,
  response: dataOf(errorPageSchema),
});

export const deleteErrorPages = route.delete('user.site.errorPages.delete', `${base}/errorPages`, {
  summary: "Removes the pages of the given statuses (all or none); the edge's own page answers again",
  body: z.object({ statuses: z.array(errorPageStatus).min(1).max(ERROR_PAGE_STATUSES.length) }),
  response: okReply,
});

export const setErrorPageLanguage = route.put('user.site.errorPages.language', `${base}/errorPages/language`, {
  summary: "Sets the language of the edge's own pages for the site's domains",
  body: z.object({ language: z.enum(ERROR_PAGE_LANGUAGES) }),
  response: dataOf(z.object({ language: z.enum(ERROR_PAGE_LANGUAGES) })),
});

export const siteSettingRoutes = {
  getGzipSetting,
  setGzipSetting,
  listRateRules,
  addRateRules,
  updateRateRule,
  deleteRateRules,
  getErrorPages,
  setErrorPage,
  deleteErrorPages,
  setErrorPageLanguage,
} as const;
