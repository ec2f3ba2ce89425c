import { z } from 'zod';
import { LOCALES } from '../locale.js';
import { dataOf, defineRoute, okReply, tiers } from '../route.js';
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

export const getGzipSetting = defineRoute({
  id: 'user.site.gzip.get',
  method: 'GET',
  path: `${base}/gzip`,
  access: tiers(['user'], 'user.siteSettings.read'),
  codes: [],
  summary: "The site's HTTP compression (off, with the default types and minimum, until set)",
  tags: ['site settings'],
  request: { params: siteParams },
  response: dataOf(gzipSettingSchema),
});

export const setGzipSetting = defineRoute({
  id: 'user.site.gzip.set',
  method: 'PUT',
  path: `${base}/gzip`,
  access: tiers(['user'], 'user.siteSettings.write'),
  codes: [],
  summary: 'Sets HTTP compression of the site: on or off, the response types, the minimum length in bytes',
  tags: ['site settings'],
  request: { params: siteParams, body: gzipSettingInputSchema },
  response: dataOf(gzipSettingSchema),
});

export const listRateRules = defineRoute({
  id: 'user.site.rates.list',
  method: 'GET',
  path: `${base}/rates`,
  access: tiers(['user'], 'user.siteSettings.read'),
  codes: [],
  summary: "The site's bandwidth rate limits, oldest first (at most 100)",
  tags: ['site settings'],
  request: { params: siteParams },
  response: dataOf(z.array(rateRuleSchema)),
});

export const addRateRules = defineRoute({
  id: 'user.site.rates.add',
  method: 'POST',
  path: `${base}/rates`,
  access: tiers(['user'], 'user.siteSettings.write'),
  codes: [101029],
  summary: 'Adds rate limits (all or none); 101029 beyond 100 per site',
  tags: ['site settings'],
  request: rateRuleRequests.add,
  response: dataOf(z.array(rateRuleSchema)),
});

export const updateRateRule = defineRoute({
  id: 'user.site.rate.update',
  method: 'PUT',
  path: `${base}/rate/{ruleId}`,
  access: tiers(['user'], 'user.siteSettings.write'),
  codes: [],
  summary: 'Replaces one rate limit',
  tags: ['site settings'],
  request: rateRuleRequests.update,
  response: dataOf(rateRuleSchema),
});

export const deleteRateRules = defineRoute({
  id: 'user.site.rates.delete',
  method: 'DELETE',
  path: `${base}/rates`,
  access: tiers(['user'], 'user.siteSettings.write'),
  codes: [],
  summary: 'Deletes rate limits of the site by id (all or none)',
  tags: ['site settings'],
  request: rateRuleRequests.delete,
  response: okReply,
});

export const getErrorPages = defineRoute({
  id: 'user.site.errorPages.get',
  method: 'GET',
  path: `${base}/errorPages`,
  access: tiers(['user'], 'user.siteSettings.read'),
  codes: [],
  summary: "The site's error pages by status, and the language of the edge's own pages",
  tags: ['site settings'],
  request: { params: siteParams },
  response: dataOf(errorPagesSchema),
});

export const setErrorPage = defineRoute({
  id: 'user.site.errorPage.set',
  method: 'PUT',
  path: `${base}/errorPage`,
  access: tiers(['user'], 'user.siteSettings.write'),
  codes: [],
  summary: 'Sets (adds or replaces) the page of one status; the body is served verbatim as text/html',
  tags: ['site settings'],
  request: { params: siteParams, body: errorPageInputSchema },
  response: dataOf(errorPageSchema),
});

export const deleteErrorPages = defineRoute({
  id: 'user.site.errorPages.delete',
  method: 'DELETE',
  path: `${base}/errorPages`,
  access: tiers(['user'], 'user.siteSettings.write'),
  codes: [],
  summary: "Removes the pages of the given statuses (all or none); the edge's own page answers again",
  tags: ['site settings'],
  request: {
    params: siteParams,
    body: z.object({ statuses: z.array(errorPageStatus).min(1).max(ERROR_PAGE_STATUSES.length) }),
  },
  response: okReply,
});

export const setErrorPageLanguage = defineRoute({
  id: 'user.site.errorPages.language',
  method: 'PUT',
  path: `${base}/errorPages/language`,
  access: tiers(['user'], 'user.siteSettings.write'),
  codes: [],
  summary: "Sets the language of the edge's own pages for the site's domains",
  tags: ['site settings'],
  request: { params: siteParams, body: z.object({ language: z.enum(ERROR_PAGE_LANGUAGES) }) },
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
