import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
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

const route = routeFamily({ tags: ['auth-groups'], read: read, write: write });

function credentialRoutes<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  kind: AuthKind,
  item: S,
  create: C,
  update: U,
) {
  const label = { basic: 'basic auth', key: 'key auth', jwt: 'JWT auth' }[kind];
  return {
    list: route.get(`user.site.auth.group.${kind}Auths.list`, `${base}/group/{groupId}/${kind}Auths`, {
      summary: `The ${label} credentials of one auth group, paged, oldest first`,
      params: authGroupParams,
      query: pageQuery,
      response: pageOf(item),
    }),
    create: route.post(`user.site.auth.group.${kind}Auth.create`, `${base}/group/{groupId}/${kind}Auth`, {
      codes: [101025, 101029],
      summary: `Adds a ${label} credential to an auth group (101029 beyond ${AUTH_CREDENTIALS_PER_GROUP} per kind)`,
      params: authGroupParams,
      body: create,
      response: dataOf(item),
    }),
    update: route.put(`user.site.auth.group.${kind}Auth.update`, `${base}/group/{groupId}/${kind}Auth`, {
      codes: [101025],
      summary: `Replaces one ${label} credential of an auth group`,
      params: authGroupParams,
      body: update,
      response: dataOf(item),
    }),
    delete: route.delete(`user.site.auth.group.${kind}Auths.delete`, `${base}/group/{groupId}/${kind}Auths`, {
      summary: `Deletes ${label} credentials of an auth group by id (all or none)`,
      params: authGroupParams,
      body: idsBody(AUTH_CREDENTIALS_PER_GROUP),
      response: okReply,
    }),
  };
}

export const authGroupRoutes = {
  settingExists: route.get('user.site.auth.settingExists', `${base}/settingExists`, {
    summary: 'Whether the site has any auth group or rule',
    params: siteParams,
    response: dataOf(z.boolean()),
  }),
  metaGroups: route.get('user.site.auth.metaGroups', `${base}/metaGroups`, {
    summary: "The site's auth groups as id and name, by name; with `type`, only those holding credentials of that kind",
    params: siteParams,
    query: z.object({ type: z.enum(AUTH_KINDS).optional() }),
    response: dataOf(z.array(idNameSchema)),
  }),
  listGroups: route.get('user.site.auth.groups.list', `${base}/groups`, {
    summary: "The site's auth groups, paged, by name",
    params: siteParams,
    query: pageQuery.extend({ name: z.string().trim().max(AUTH_NAME_MAX).default('') }),
    response: pageOf(authGroupSchema),
  }),
  createGroup: route.post('user.site.auth.group.create', `${base}/group`, {
    codes: [101025, 101029],
    summary: `Creates an auth group (101025 for a name taken in the site, 101029 beyond ${AUTH_GROUPS_PER_SITE})`,
    params: siteParams,
    body: authGroupInputSchema,
    response: dataOf(authGroupSchema),
  }),
  updateGroup: route.put('user.site.auth.group.update', `${base}/group`, {
    codes: [101025],
    summary: 'Renames an auth group',
    params: siteParams,
    body: authGroupInputSchema.extend({ id: zId }),
    response: dataOf(authGroupSchema),
  }),
  deleteGroups: route.delete('user.site.auth.groups.delete', `${base}/groups`, {
    codes: [701001],
    summary: 'Deletes auth groups and their credentials by id (all or none; 701001 while a rule uses one)',
    params: siteParams,
    body: idsBody(AUTH_GROUPS_PER_SITE),
    response: okReply,
  }),
  listRules: route.get('user.site.auth.rules.list', `${base}/rules`, {
    summary: "The site's auth rules, paged, in the order the edge tries them (priority, higher first)",
    params: siteParams,
    query: pageQuery,
    response: pageOf(authRuleSchema),
  }),
  createRule: route.post('user.site.auth.rule.create', `${base}/rule`, {
    codes: [101029],
    summary: `Adds an auth rule (101029 beyond ${AUTH_RULES_PER_SITE} per site)`,
    params: siteParams,
    body: authRuleInputSchema,
    response: dataOf(authRuleSchema),
  }),
  updateRule: route.put('user.site.auth.rule.update', `${base}/rule`, {
    summary: 'Replaces one auth rule',
    params: siteParams,
    body: z.intersection(authRuleInputSchema, z.object({ id: zId })),
    response: dataOf(authRuleSchema),
  }),
  deleteRules: route.delete('user.site.auth.rules.delete', `${base}/rules`, {
    summary: 'Deletes auth rules by id (all or none)',
    params: siteParams,
    body: idsBody(AUTH_RULES_PER_SITE),
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
