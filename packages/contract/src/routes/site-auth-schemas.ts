import { z } from 'zod';
import { zId } from '../validators/ids.js';
import { pcreRegexProblem } from '../validators/regex.js';
import { MODULE_HEADER_NAME_RE, MODULE_HEADERS_DENIED } from './site-modules.js';

// The shapes of a site's access control: groups, rules and basic, key and JWT credentials; the routes are in site-auth.ts.
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

export const password = z.string().min(BASIC_PASSWORD_MIN).max(BASIC_PASSWORD_MAX).regex(printable, 'wrongFormat');
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
