import { z } from 'zod';
import { HOST_NAME_RE } from './data-plane.js';

/**
 * URLs named for a cache purge or a preheat, and what a node reports for each. Shared by the
 * operator's and the customer's calls (routes/cache-tasks.ts) and the node commands that carry them
 * (routes/node-commands.ts).
 *
 * Purging is by exact URL: the edge removes the entry its cache rules stored for that URL — the key
 * with the query when the URL has one, and the key without it (what a rule that ignores the query
 * stored). A URL names one entry; there is no wildcard (nginx keeps the cache keyed by an MD5 of
 * the key, so "everything under /dir" cannot be found without reading every file): clearing a
 * whole site or node is a new cache generation instead.
 */

/** Most URLs in one purge or preheat task. */
export const CACHE_TASK_URLS_MAX = 100;
/** Longest URL accepted. */
export const CACHE_URL_MAX = 2048;
/** Longest per-URL message a node reports (longer ones are cut). */
export const CACHE_URL_MESSAGE_MAX = 300;

/**
 * An absolute http(s) URL of a concrete host (no wildcard, no user info, no port beyond 1–65535),
 * normalised by the WHATWG parser (lower-case host, dot segments resolved, fragment dropped).
 */
export const cacheUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(CACHE_URL_MAX, 'tooLong')
  .transform((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'invalidURL' });
      return z.NEVER;
    }
    if (
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.username !== '' ||
      url.password !== '' ||
      !HOST_NAME_RE.test(url.hostname) ||
      url.hostname.startsWith('*.')
    ) {
      ctx.addIssue({ code: 'custom', message: 'invalidURL' });
      return z.NEVER;
    }
    url.hash = '';
    return url.toString();
  });

export const cacheUrlListSchema = z
  .array(cacheUrlSchema)
  .min(1)
  .max(CACHE_TASK_URLS_MAX, 'tooMany')
  .transform((urls) => [...new Set(urls)]);

/** One URL's outcome on one node. */
export const cacheUrlResultSchema = z.strictObject({
  url: z.string().max(CACHE_URL_MAX),
  ok: z.boolean(),
  /** Preheat: the HTTP status the edge answered (null when the request failed). */
  httpStatus: z.number().int().min(100).max(999).nullable(),
  /** Preheat: the edge's X-Cache-Status (MISS, HIT, …; null when the URL is not cached by a rule). */
  cacheStatus: z
    .string()
    .regex(/^[A-Z]{1,16}$/)
    .nullable(),
  /** Purge: how many cache entries were removed (0: nothing was cached under the URL). */
  purged: z.number().int().min(0).max(2).nullable(),
  message: z.string().max(CACHE_URL_MESSAGE_MAX),
});
export type CacheUrlResult = z.infer<typeof cacheUrlResultSchema>;
