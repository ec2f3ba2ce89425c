import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
import { idNameSchema, zId, zIdParam, zIds } from '../validators/ids.js';
import {
  AUTH_CREDENTIALS_PER_GROUP,
  AUTH_GROUPS_PER_SITE,
  AUTH_KINDS,
  AUTH_NAME_MAX,
  AUTH_RULES_PER_SITE,
  type AuthKind,
  authGroupInputSchema,
  authGroupSchema,
  authRuleInputSchema,
  authRuleSchema,
  basicAuthInputSchema,
  basicAuthSchema,
  basicAuthUpdateSchema,
  jwtAuthCreateSchema,
  jwtAuthInputSchema,
  jwtAuthSchema,
  keyAuthInputSchema,
  keyAuthSchema,
} from './site-auth-schemas.js';
import { siteParams } from './sites.js';

export type {
  AuthGroup,
  AuthKind,
  AuthRule,
  AuthRuleInput,
  BasicAuth,
  JwtAlg,
  JwtAuth,
  JwtAuthInput,
  KeyAuth,
} from './site-auth-schemas.js';
export {
  AUTH_CREDENTIALS_PER_GROUP,
  AUTH_DOMAINS_PER_RULE,
  AUTH_GROUPS_PER_SITE,
  AUTH_KEY_MAX,
  AUTH_KEY_MIN,
  AUTH_KEY_RE,
  AUTH_KINDS,
  AUTH_MATCHES,
  AUTH_NAME_MAX,
  AUTH_PATH_MAX,
  AUTH_PRIORITY_MAX,
  AUTH_RULES_PER_SITE,
  authGroupInputSchema,
  authGroupSchema,
  authRuleInputSchema,
  authRuleSchema,
  BASIC_AUTH_HASH,
  BASIC_PASSWORD_MAX,
  BASIC_PASSWORD_MIN,
  BASIC_USER_RE,
  basicAuthInputSchema,
  basicAuthSchema,
  basicAuthUpdateSchema,
  isSafeAuthRegex,
  JWT_ALGS,
  JWT_LEEWAY_MAX,
  JWT_PUBLIC_KEY_MAX,
  JWT_SECRET_MAX,
  JWT_SECRET_MIN,
  jwtAuthCreateSchema,
  jwtAuthInputSchema,
  jwtAuthSchema,
  KEY_LOCATIONS,
  keyAuthInputSchema,
  keyAuthSchema,
  PEM_PUBLIC_KEY_RE,
  QUERY_PARAM_RE,
} from './site-auth-schemas.js';

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
