import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
import { idNameSchema, zId, zIdParam, zIds } from '../validators/ids.js';
import { pcreRegexProblem } from '../validators/regex.js';
import { MODULE_HEADER_NAME_RE, MODULE_HEADERS_DENIED } from './site-modules.js';
import { siteParams } from './sites.js';

/**
 * Auth groups (spec part 2 §7 "Auth groups"; docs/decisions.md "Auth groups"): a site's groups of
 * credentials, and URL rules that bind a group to the requests it protects.
 *
 * - A group holds credentials of one or more kinds: `basic` (user name and password; only a salted
 *   HMAC-SHA-256 of the password is kept, see BASIC_AUTH_HASH), `key` (a key sent in a named header
 *   or query parameter) and `jwt` (a bearer token signed with HS256, RS256 or ES256; `exp` and `nbf`
 *   are checked with the credential's leeway, `iss` and `aud` when the credential names them; a
 *   token without `exp` is refused unless the credential allows tokens that never expire).
 * - A rule names a path (`exact`, `prefix`, or a regex of the safe PCRE subset), the group, and the
 *   domains of the site it covers (none listed: every domain of the site). Enabled rules are tried
 *   by priority, higher first (ties: older first); the first whose path matches decides, and the
 *   request must carry a credential of its group. Paths that no rule matches are not touched.
 * - At the edge, a request a rule covers without a valid credential answers 401 with
 *   `WWW-Authenticate: Basic realm="…"` when the group has basic credentials and `Bearer` when it has
 *   JWT credentials (a group of keys only answers 401 without a challenge).
 * - A group that a rule uses cannot be deleted (701001): delete or repoint the rule first.
 */

export const AUTH_KINDS = ['basic', 'key', 'jwt'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];
export const AUTH_MATCHES = ['exact', 'prefix', 'regex'] as const;
export const JWT_ALGS = ['HS256', 'RS256', 'ES256'] as const;
export type JwtAlg = (typeof JWT_ALGS)[number];
export const KEY_LOCATIONS = ['header', 'query'] as const;

export const AUTH_GROUPS_PER_SITE = 100;
export const AUTH_RULES_PER_SITE = 200;
/** Credentials of one kind in one group. */
export const AUTH_CREDENTIALS_PER_GROUP = 500;
export const AUTH_NAME_MAX = 64;
export const AUTH_PATH_MAX = 512;
export const AUTH_PRIORITY_MAX = 10_000;
export const AUTH_DOMAINS_PER_RULE = 100;
export const BASIC_PASSWORD_MIN = 8;
export const BASIC_PASSWORD_MAX = 128;
export const AUTH_KEY_MIN = 16;
export const AUTH_KEY_MAX = 256;
export const JWT_SECRET_MIN = 32;
export const JWT_SECRET_MAX = 512;
export const JWT_PUBLIC_KEY_MAX = 4096;
export const JWT_LEEWAY_MAX = 300;

/**
 * How the edge checks a basic-auth password: `hex(HMAC-SHA-256(key = salt, message = password))`,
 * with a random 16-byte salt per credential (hex). Cheap enough for every request; see
 * docs/decisions.md "Auth groups" for why not a slow hash.
 */
export const BASIC_AUTH_HASH = 'hmac-sha256' as const;

const printable = /^[\x20-\x7e]*$/;
const authName = z
  .string()
  .trim()
  .min(1)
  .max(AUTH_NAME_MAX)
  .refine((s) => !/\p{Cc}/u.test(s), 'wrongFormat');

/** A basic-auth user name: printable ASCII without ':' (RFC 7617) and without spaces at the ends. */
export const BASIC_USER_RE = /^[\x21-\x39\x3b-\x7e]([\x20-\x39\x3b-\x7e]{0,62}[\x21-\x39\x3b-\x7e])?$/;
/** A key: URL- and header-safe characters, so one value works in either place. */
export const AUTH_KEY_RE = new RegExp(`^[A-Za-z0-9._~-]{${AUTH_KEY_MIN},${AUTH_KEY_MAX}}$`);
/** A query parameter name. */
export const QUERY_PARAM_RE = /^[A-Za-z0-9_.-]{1,64}$/;
/** A PEM public key (SubjectPublicKeyInfo); the server checks that it parses and fits the algorithm. */
export const PEM_PUBLIC_KEY_RE =
  /^-----BEGIN PUBLIC KEY-----\r?\n([A-Za-z0-9+/=]{1,76}\r?\n)+-----END PUBLIC KEY-----\r?\n?$/;

export function isSafeAuthRegex(source: string): boolean {
  return (
    source.length >= 1 && source.length <= AUTH_PATH_MAX && printable.test(source) && pcreRegexProblem(source) === null
  );
}

export const authGroupInputSchema = z.object({ name: authName, remark: z.string().trim().max(255).default('') });
export const authGroupSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  name: z.string(),
  remark: z.string(),
  basicCount: z.number().int(),
  keyCount: z.number().int(),
  jwtCount: z.number().int(),
  ruleCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AuthGroup = z.infer<typeof authGroupSchema>;

export const authRuleInputSchema = z
  .object({
    name: authName,
    groupID: zId,
    match: z.enum(AUTH_MATCHES),
    /** exact/prefix: a path starting with '/'; regex: the safe subset, unanchored, over the decoded path. */
    path: z.string().max(AUTH_PATH_MAX),
    /** The site's domains the rule covers; empty: all of them. */
    domainIDs: z.array(zId).max(AUTH_DOMAINS_PER_RULE).default([]),
    priority: z.number().int().min(0).max(AUTH_PRIORITY_MAX).default(0),
    enabled: z.boolean().default(true),
  })
  .superRefine((r, ctx) => {
    const ok =
      r.match === 'regex'
        ? isSafeAuthRegex(r.path)
        : r.path.startsWith('/') && printable.test(r.path) && !r.path.includes(' ');
    if (!ok) ctx.addIssue({ code: 'custom', path: ['path'], message: r.path === '' ? 'required' : 'wrongFormat' });
    if (new Set(r.domainIDs).size !== r.domainIDs.length) {
      ctx.addIssue({ code: 'custom', path: ['domainIDs'], message: 'duplicate' });
    }
  });
export type AuthRuleInput = z.output<typeof authRuleInputSchema>;
export const authRuleSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  name: z.string(),
  groupID: z.number().int(),
  groupName: z.string(),
  match: z.enum(AUTH_MATCHES),
  path: z.string(),
  domainIDs: z.array(z.number().int()),
  priority: z.number().int(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AuthRule = z.infer<typeof authRuleSchema>;

const password = z.string().min(BASIC_PASSWORD_MIN).max(BASIC_PASSWORD_MAX).regex(printable, 'wrongFormat');
export const basicAuthInputSchema = z.object({
  username: z.string().regex(BASIC_USER_RE, 'wrongFormat'),
  password,
});
/** An update keeps the password when `password` is empty. */
export const basicAuthUpdateSchema = z.object({
  id: zId,
  username: z.string().regex(BASIC_USER_RE, 'wrongFormat'),
  password: z.union([z.literal(''), password]).default(''),
});
export const basicAuthSchema = z.object({
  id: z.number().int(),
  groupID: z.number().int(),
  username: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BasicAuth = z.infer<typeof basicAuthSchema>;

const deniedHeaders: ReadonlySet<string> = new Set([...MODULE_HEADERS_DENIED, 'authorization', 'cookie']);
export const keyAuthInputSchema = z
  .object({
    name: authName,
    location: z.enum(KEY_LOCATIONS),
    /** The header or query parameter that carries the key. */
    param: z.string(),
    key: z.string().regex(AUTH_KEY_RE, 'wrongFormat'),
  })
  .superRefine((k, ctx) => {
    const ok =
      k.location === 'header'
        ? MODULE_HEADER_NAME_RE.test(k.param) && !deniedHeaders.has(k.param.toLowerCase())
        : QUERY_PARAM_RE.test(k.param);
    if (!ok) ctx.addIssue({ code: 'custom', path: ['param'], message: k.param === '' ? 'required' : 'wrongFormat' });
  });
export const keyAuthSchema = z.object({
  id: z.number().int(),
  groupID: z.number().int(),
  name: z.string(),
  location: z.enum(KEY_LOCATIONS),
  param: z.string(),
  key: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KeyAuth = z.infer<typeof keyAuthSchema>;

export const jwtAuthInputSchema = z
  .object({
    name: authName,
    alg: z.enum(JWT_ALGS),
    /** HS256: the shared secret (write-only; '' on update keeps it). */
    secret: z.string().max(JWT_SECRET_MAX).regex(printable, 'wrongFormat').default(''),
    /** RS256 / ES256: the PEM public key (RSA of 2048 bits or more; EC P-256). */
    publicKey: z.string().max(JWT_PUBLIC_KEY_MAX).default(''),
    /** Required `iss` when not empty. */
    issuer: z.string().max(255).regex(printable, 'wrongFormat').default(''),
    /** Required in `aud` (a string or a list) when not empty. */
    audience: z.string().max(255).regex(printable, 'wrongFormat').default(''),
    /** Seconds of clock difference allowed for `exp` and `nbf`. */
    leeway: z.number().int().min(0).max(JWT_LEEWAY_MAX).default(0),
    /** Whether a token must carry `exp` (on by default: a token without one would never expire). */
    requireExp: z.boolean().default(true),
  })
  .superRefine((j, ctx) => {
    if (j.alg === 'HS256') {
      if (j.publicKey !== '') ctx.addIssue({ code: 'custom', path: ['publicKey'], message: 'wrongFormat' });
      if (j.secret !== '' && j.secret.length < JWT_SECRET_MIN) {
        ctx.addIssue({ code: 'custom', path: ['secret'], message: 'wrongFormat' });
      }
    } else {
      if (j.secret !== '') ctx.addIssue({ code: 'custom', path: ['secret'], message: 'wrongFormat' });
      if (!PEM_PUBLIC_KEY_RE.test(j.publicKey)) {
        ctx.addIssue({ code: 'custom', path: ['publicKey'], message: j.publicKey === '' ? 'required' : 'wrongFormat' });
      }
    }
  });
export type JwtAuthInput = z.output<typeof jwtAuthInputSchema>;
/** A new HS256 credential needs its secret. */
export const jwtAuthCreateSchema = jwtAuthInputSchema.refine((j) => j.alg !== 'HS256' || j.secret !== '', {
  path: ['secret'],
  message: 'required',
});
export const jwtAuthSchema = z.object({
  id: z.number().int(),
  groupID: z.number().int(),
  name: z.string(),
  alg: z.enum(JWT_ALGS),
  /** Whether an HS256 secret is set (the secret itself is never sent back). */
  hasSecret: z.boolean(),
  publicKey: z.string(),
  issuer: z.string(),
  audience: z.string(),
  leeway: z.number().int(),
  requireExp: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type JwtAuth = z.infer<typeof jwtAuthSchema>;

const base = '/user/site/{siteId}/auth';
const read = tiers(['user'], 'user.siteSettings.read');
const write = tiers(['user'], 'user.siteSettings.write');
export const authGroupParams = siteParams.extend({ groupId: zIdParam });
const idsBody = (max: number) => z.object({ ids: zIds(max) });

function credentialRoutes<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  kind: AuthKind,
  item: S,
  create: C,
  update: U,
) {
  const label = { basic: 'basic auth', key: 'key auth', jwt: 'JWT auth' }[kind];
  return {
    list: defineRoute({
      id: `user.site.auth.group.${kind}Auths.list`,
      method: 'GET',
      path: `${base}/group/{groupId}/${kind}Auths`,
      access: read,
      codes: [],
      summary: `The ${label} credentials of one auth group, paged, oldest first`,
      tags: ['auth-groups'],
      request: { params: authGroupParams, query: pageQuery },
      response: pageOf(item),
    }),
    create: defineRoute({
      id: `user.site.auth.group.${kind}Auth.create`,
      method: 'POST',
      path: `${base}/group/{groupId}/${kind}Auth`,
      access: write,
      codes: [101025, 101029],
      summary: `Adds a ${label} credential to an auth group (101029 beyond ${AUTH_CREDENTIALS_PER_GROUP} per kind)`,
      tags: ['auth-groups'],
      request: { params: authGroupParams, body: create },
      response: dataOf(item),
    }),
    update: defineRoute({
      id: `user.site.auth.group.${kind}Auth.update`,
      method: 'PUT',
      path: `${base}/group/{groupId}/${kind}Auth`,
      access: write,
      codes: [101025],
      summary: `Replaces one ${label} credential of an auth group`,
      tags: ['auth-groups'],
      request: { params: authGroupParams, body: update },
      response: dataOf(item),
    }),
    delete: defineRoute({
      id: `user.site.auth.group.${kind}Auths.delete`,
      method: 'DELETE',
      path: `${base}/group/{groupId}/${kind}Auths`,
      access: write,
      codes: [],
      summary: `Deletes ${label} credentials of an auth group by id (all or none)`,
      tags: ['auth-groups'],
      request: { params: authGroupParams, body: idsBody(AUTH_CREDENTIALS_PER_GROUP) },
      response: okReply,
    }),
  };
}

export const authGroupRoutes = {
  settingExists: defineRoute({
    id: 'user.site.auth.settingExists',
    method: 'GET',
    path: `${base}/settingExists`,
    access: read,
    codes: [],
    summary: 'Whether the site has any auth group or rule',
    tags: ['auth-groups'],
    request: { params: siteParams },
    response: dataOf(z.boolean()),
  }),
  metaGroups: defineRoute({
    id: 'user.site.auth.metaGroups',
    method: 'GET',
    path: `${base}/metaGroups`,
    access: read,
    codes: [],
    summary: "The site's auth groups as id and name, by name; with `type`, only those holding credentials of that kind",
    tags: ['auth-groups'],
    request: { params: siteParams, query: z.object({ type: z.enum(AUTH_KINDS).optional() }) },
    response: dataOf(z.array(idNameSchema)),
  }),
  listGroups: defineRoute({
    id: 'user.site.auth.groups.list',
    method: 'GET',
    path: `${base}/groups`,
    access: read,
    codes: [],
    summary: "The site's auth groups, paged, by name",
    tags: ['auth-groups'],
    request: {
      params: siteParams,
      query: pageQuery.extend({ name: z.string().trim().max(AUTH_NAME_MAX).default('') }),
    },
    response: pageOf(authGroupSchema),
  }),
  createGroup: defineRoute({
    id: 'user.site.auth.group.create',
    method: 'POST',
    path: `${base}/group`,
    access: write,
    codes: [101025, 101029],
    summary: `Creates an auth group (101025 for a name taken in the site, 101029 beyond ${AUTH_GROUPS_PER_SITE})`,
    tags: ['auth-groups'],
    request: { params: siteParams, body: authGroupInputSchema },
    response: dataOf(authGroupSchema),
  }),
  updateGroup: defineRoute({
    id: 'user.site.auth.group.update',
    method: 'PUT',
    path: `${base}/group`,
    access: write,
    codes: [101025],
    summary: 'Renames an auth group',
    tags: ['auth-groups'],
    request: { params: siteParams, body: authGroupInputSchema.extend({ id: zId }) },
    response: dataOf(authGroupSchema),
  }),
  deleteGroups: defineRoute({
    id: 'user.site.auth.groups.delete',
    method: 'DELETE',
    path: `${base}/groups`,
    access: write,
    codes: [701001],
    summary: 'Deletes auth groups and their credentials by id (all or none; 701001 while a rule uses one)',
    tags: ['auth-groups'],
    request: { params: siteParams, body: idsBody(AUTH_GROUPS_PER_SITE) },
    response: okReply,
  }),
  listRules: defineRoute({
    id: 'user.site.auth.rules.list',
    method: 'GET',
    path: `${base}/rules`,
    access: read,
    codes: [],
    summary: "The site's auth rules, paged, in the order the edge tries them (priority, higher first)",
    tags: ['auth-groups'],
    request: { params: siteParams, query: pageQuery },
    response: pageOf(authRuleSchema),
  }),
  createRule: defineRoute({
    id: 'user.site.auth.rule.create',
    method: 'POST',
    path: `${base}/rule`,
    access: write,
    codes: [101029],
    summary: `Adds an auth rule (101029 beyond ${AUTH_RULES_PER_SITE} per site)`,
    tags: ['auth-groups'],
    request: { params: siteParams, body: authRuleInputSchema },
    response: dataOf(authRuleSchema),
  }),
  updateRule: defineRoute({
    id: 'user.site.auth.rule.update',
    method: 'PUT',
    path: `${base}/rule`,
    access: write,
    codes: [],
    summary: 'Replaces one auth rule',
    tags: ['auth-groups'],
    request: { params: siteParams, body: z.intersection(authRuleInputSchema, z.object({ id: zId })) },
    response: dataOf(authRuleSchema),
  }),
  deleteRules: defineRoute({
    id: 'user.site.auth.rules.delete',
    method: 'DELETE',
    path: `${base}/rules`,
    access: write,
    codes: [],
    summary: 'Deletes auth rules by id (all or none)',
    tags: ['auth-groups'],
    request: { params: siteParams, body: idsBody(AUTH_RULES_PER_SITE) },
    response: okReply,
  }),
};

const basic = credentialRoutes('basic', basicAuthSchema, basicAuthInputSchema, basicAuthUpdateSchema);
const key = credentialRoutes(
  'key',
  keyAuthSchema,
  keyAuthInputSchema,
  z.intersection(keyAuthInputSchema, z.object({ id: zId })),
);
const jwt = credentialRoutes(
  'jwt',
  jwtAuthSchema,
  jwtAuthCreateSchema,
  z.intersection(jwtAuthInputSchema, z.object({ id: zId })),
);

export const authCredentialRoutes = {
  listBasicAuths: basic.list,
  createBasicAuth: basic.create,
  updateBasicAuth: basic.update,
  deleteBasicAuths: basic.delete,
  listKeyAuths: key.list,
  createKeyAuth: key.create,
  updateKeyAuth: key.update,
  deleteKeyAuths: key.delete,
  listJwtAuths: jwt.list,
  createJwtAuth: jwt.create,
  updateJwtAuth: jwt.update,
  deleteJwtAuths: jwt.delete,
};
