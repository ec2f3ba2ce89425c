import { z } from 'zod';
import { CACHE_PATH_RE, CACHE_RULE_VALUES_MAX, CACHE_SUFFIX_RE } from './site-cache.js';
import { isSafeModuleRegex, moduleRoutes, ruleModuleSchema, ruleRoutes } from './site-modules.js';

/**
 * Token auth modules (時間戳防盜鏈, timestamp anti-hotlinking; spec part 2 §7 "Token auth"; CDNRay
 * behaviour reference §3.2; docs/decisions.md "Token auth"): named sets of auths (rules), bound to
 * domains with `PUT domains/module/tokenAuth`. A set does nothing until it is bound.
 *
 * An auth covers the requests in its `scope`:
 * - `path`: the path equals `value` (e.g. `/live/test.flv`);
 * - `directory`: the path is `value` or under it (`/live` covers `/live` and `/live/…`, not `/lively`);
 * - `all`: every request (`value` '');
 * - `fileTypes`: the path's extension (case-insensitive) is one of `value`, space-separated
 *   (e.g. `flv png apk`);
 * - `regex`: the restricted PCRE subset of the other modules (isSafeModuleRegex) found anywhere in
 *   the path (e.g. `\/abc[1-2]`), run under lua_regex_match_limit. A pattern that hits the limit
 *   covers the request (fails closed: the path is the client's to choose, and one built to exhaust
 *   the limit must not skip the check).
 *
 * A covered request must carry `token` and `timestamp` in its query:
 * - `token` = md5(key + uri + timestamp), 32 hex digits (either case), no separators;
 * - `uri` is the request's path as nginx decodes and normalises it ($uri: percent-escapes decoded,
 *   `.`/`..` and double slashes resolved), without the query string: the signer hashes the path
 *   the way it reads, e.g. `/live/test.flv`;
 * - `timestamp` = UNIX seconds (decimal) when the link was made.
 * With `expire` > 0 the link is good for `expire` seconds after `timestamp`, and a timestamp at most
 * TOKEN_AUTH_CLOCK_SKEW seconds ahead of the node's clock is accepted (the signer's clock may run
 * ahead); further ahead is refused. `expire` 0 checks the token only.
 *
 * Several auths may cover one request (key rotation: one auth per key over the same scope): the
 * request passes when any of them accepts its token and timestamp. Otherwise the first covering auth
 * (oldest first) refuses it: `deny` answers 403, `drop` closes the connection unanswered (444). The
 * access event names that auth (`fw_kind` tokenAuth). A request no auth covers is not checked.
 *
 * `key` is the customer's secret: it is shown to the site's owner (who needs it to sign links),
 * never written to the audit log (the name `key` is redacted) nor logged at the edge.
 */

export const TOKEN_AUTHS_PER_MODULE = 100;
export const TOKEN_AUTH_SCOPES = ['path', 'directory', 'all', 'fileTypes', 'regex'] as const;
export type TokenAuthScope = (typeof TOKEN_AUTH_SCOPES)[number];
export const TOKEN_AUTH_ACTIONS = ['deny', 'drop'] as const;
export type TokenAuthAction = (typeof TOKEN_AUTH_ACTIONS)[number];
/** Longest validity of a link: one year. */
export const TOKEN_AUTH_EXPIRE_MAX = 31_536_000;
/** How far ahead of the node's clock a timestamp may be (seconds). */
export const TOKEN_AUTH_CLOCK_SKEW = 300;
/** A key: 6–128 printable ASCII characters, no space. */
export const TOKEN_AUTH_KEY_RE = /^[\x21-\x7e]{6,128}$/;
export const TOKEN_AUTH_VALUE_MAX = 1024;

/** The extensions of a `fileTypes` value: lower-cased, split on spaces, duplicates dropped. */
export function tokenAuthFileTypes(value: string): string[] {
  return [...new Set(value.toLowerCase().split(/\s+/).filter(Boolean))];
}

/** Whether `value` is what an auth of `scope` may name. */
export function tokenAuthValueOk(scope: TokenAuthScope, value: string): boolean {
  switch (scope) {
    case 'all':
      return value === '';
    case 'path':
    case 'directory':
      return CACHE_PATH_RE.test(value);
    case 'regex':
      return isSafeModuleRegex(value);
    case 'fileTypes': {
      const types = tokenAuthFileTypes(value);
      return types.length > 0 && types.length <= CACHE_RULE_VALUES_MAX && types.every((t) => CACHE_SUFFIX_RE.test(t));
    }
  }
}

export const tokenAuthInputSchema = z
  .object({
    scope: z.enum(TOKEN_AUTH_SCOPES).default('all'),
    /** The path, directory, extensions (space-separated) or pattern of the scope; '' for `all`. */
    value: z.string().trim().max(TOKEN_AUTH_VALUE_MAX).default(''),
    key: z.string().refine((k) => TOKEN_AUTH_KEY_RE.test(k), 'wrongFormat'),
    /** Seconds a link stays good after its timestamp; 0 = the token alone is checked. */
    expire: z.number().int().min(0).max(TOKEN_AUTH_EXPIRE_MAX).default(600),
    action: z.enum(TOKEN_AUTH_ACTIONS).default('deny'),
  })
  .superRefine((a, ctx) => {
    if (a.scope !== 'all' && a.value === '') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'required' });
    } else if (!tokenAuthValueOk(a.scope, a.value)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'wrongFormat' });
    }
  })
  // Extensions are kept as the edge compares them: lower case, one space between.
  .transform((a) => (a.scope === 'fileTypes' ? { ...a, value: tokenAuthFileTypes(a.value).join(' ') } : a));
export type TokenAuthInput = z.output<typeof tokenAuthInputSchema>;

export const tokenAuthModuleSchema = ruleModuleSchema;
export const tokenAuthSchema = z.object({
  id: z.number().int(),
  moduleID: z.number().int(),
  scope: z.enum(TOKEN_AUTH_SCOPES),
  value: z.string(),
  key: z.string(),
  expire: z.number().int(),
  action: z.enum(TOKEN_AUTH_ACTIONS),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TokenAuthModule = z.infer<typeof tokenAuthModuleSchema>;
export type TokenAuth = z.infer<typeof tokenAuthSchema>;

export const tokenAuthRoutes = {
  ...moduleRoutes('tokenAuth', tokenAuthModuleSchema, z.object({})),
  ...ruleRoutes(
    'tokenAuth',
    tokenAuthSchema,
    tokenAuthInputSchema,
    `101029 beyond ${TOKEN_AUTHS_PER_MODULE} per module`,
    { many: 'auths', one: 'auth' },
  ),
};
