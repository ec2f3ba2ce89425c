import { z } from 'zod';
import {
  AUTH_CREDENTIALS_PER_GROUP,
  AUTH_GROUPS_PER_SITE,
  AUTH_KEY_RE,
  AUTH_MATCHES,
  AUTH_PATH_MAX,
  AUTH_RULES_PER_SITE,
  BASIC_USER_RE,
  JWT_ALGS,
  JWT_LEEWAY_MAX,
  JWT_PUBLIC_KEY_MAX,
  JWT_SECRET_MAX,
  KEY_LOCATIONS,
} from '../routes/site-auth.js';

/**
 * A domain's auth rules and the groups they use (routes/site-auth.ts; docs/decisions.md "Auth
 * groups"), on the domain's own entry: only the enabled rules that cover the domain, in the order
 * the edge tries them, and only the groups those rules name. A domain without one pays nothing.
 */
const id = z.number().int().positive();
const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));

export const edgeAuthRuleSchema = z.strictObject({
  id,
  match: z.enum(AUTH_MATCHES),
  path: z.string().min(1).max(AUTH_PATH_MAX),
  group: id,
});

export const edgeAuthGroupSchema = z.strictObject({
  id,
  /** `salt` and `hash` hex: hash = HMAC-SHA-256(key = salt bytes, password) (BASIC_AUTH_HASH). */
  basic: z
    .array(z.strictObject({ id, user: z.string().regex(BASIC_USER_RE), salt: hex(16), hash: hex(32) }))
    .max(AUTH_CREDENTIALS_PER_GROUP),
  key: z
    .array(
      z.strictObject({
        id,
        in: z.enum(KEY_LOCATIONS),
        /** A header name in lower case, or a query parameter name. */
        name: z.string().min(1).max(64),
        key: z.string().regex(AUTH_KEY_RE),
      }),
    )
    .max(AUTH_CREDENTIALS_PER_GROUP),
  jwt: z
    .array(
      z.strictObject({
        id,
        alg: z.enum(JWT_ALGS),
        /** HS256: the secret; RS256 / ES256: the PEM public key. */
        key: z.string().min(1).max(Math.max(JWT_SECRET_MAX, JWT_PUBLIC_KEY_MAX)),
        iss: z.string().max(255),
        aud: z.string().max(255),
        leeway: z.number().int().min(0).max(JWT_LEEWAY_MAX),
        /** A token without `exp` is refused. */
        requireExp: z.boolean(),
      }),
    )
    .max(AUTH_CREDENTIALS_PER_GROUP),
});

export const edgeDomainAuthSchema = z
  .strictObject({
    rules: z.array(edgeAuthRuleSchema).min(1).max(AUTH_RULES_PER_SITE),
    groups: z.array(edgeAuthGroupSchema).min(1).max(AUTH_GROUPS_PER_SITE),
  })
  .superRefine((auth, ctx) => {
    const groups = new Set(auth.groups.map((g) => g.id));
    auth.rules.forEach((r, i) => {
      if (!groups.has(r.group)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'group'], message: 'no such group' });
    });
  });
export type EdgeDomainAuth = z.infer<typeof edgeDomainAuthSchema>;
export type EdgeAuthGroup = z.infer<typeof edgeAuthGroupSchema>;
