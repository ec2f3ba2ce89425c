import { z } from 'zod';
import { pageQuery } from '../http.js';
import { authParams, dataOf, okReply, pageOf, TIERS, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { zName } from '../validators/zod.js';

/**
 * Roles and API tokens (spec part 1 §6, §7 "roles, metaRoles, account/role, apiTokens").
 * Keys are declared in `permissions.ts`. A role is a named set of keys owned by an account; it
 * can only hold keys its owner holds, and it is given to the owner's sub-accounts.
 */

/** Permission keys as sent (at most 200); repeats are dropped. A key not of the tier is 101003 (invalidValue). */
const permissionKeys = z
  .array(z.string().min(1).max(64))
  .max(200)
  .transform((keys) => [...new Set(keys)]);

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  remark: z.string(),
  permissions: z.array(z.string()),
  /** Sub-accounts holding this role. */
  accounts: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Role = z.infer<typeof roleSchema>;

const roleBody = z.object({
  name: zName,
  remark: z.string().max(256).default(''),
  permissions: permissionKeys,
});
/** A role as created or edited (the body of `roles.create` and `roles.update`). */
export type RoleIn = z.output<typeof roleBody>;

const route = routeFamily({ tags: ['roles'], read: tiers(TIERS, 'roles.read'), write: tiers(TIERS, 'roles.write') });

export const listRoles = route.get('roles.list', '/{auth}/roles', {
  summary: "The caller's roles, paged, optionally searched by name",
  params: authParams,
  query: pageQuery.extend({ name: z.string().max(256).optional() }),
  response: pageOf(roleSchema),
});

export const createRole = route.post('roles.create', '/{auth}/roles', {
  codes: [101025],
  summary: 'Creates a role; its keys must be keys of the tier that the caller holds (101018 otherwise)',
  params: authParams,
  body: roleBody,
  response: dataOf(roleSchema),
});

export const updateRole = route.put('roles.update', '/{auth}/roles/{roleId}', {
  codes: [101025],
  summary: "Renames a role or changes its keys; its holders' keys change with it at once",
  params: authParams.extend({ roleId: zIdParam }),
  body: roleBody,
  response: dataOf(roleSchema),
});

export const deleteRole = route.delete('roles.delete', '/{auth}/roles/{roleId}', {
  summary: 'Deletes a role; the sub-accounts holding it are left without a role (no keys)',
  params: authParams.extend({ roleId: zIdParam }),
  response: okReply,
});

export const metaRoleGroupSchema = z.object({
  /** The console's menu group. */
  key: z.string(),
  name: z.string(),
  permissions: z.array(z.object({ key: z.string(), name: z.string() })),
});

export const metaRoles = route.get('roles.meta', '/{auth}/metaRoles', {
  summary: "The permission keys of the caller's tier, grouped as its console's menus, named in the caller's language",
  params: authParams,
  response: pageOf(metaRoleGroupSchema),
});

export const assignRole = route.put('roles.assign', '/{auth}/account/role', {
  access: tiers(TIERS, 'accounts.write'),
  summary: "Gives one of the caller's roles to one of its sub-accounts (roleId null: no role)",
  params: authParams,
  body: z.object({ accountId: zId, roleId: zId.nullable() }),
  response: okReply,
});

/** Lifetime of the access tokens an API token mints: 1 minute to 24 hours. */
export const API_TOKEN_TTL_MIN_S = 60;
export const API_TOKEN_TTL_MAX_S = 24 * 3600;

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Seconds each minted access token lives. */
  lifetime: z.number().int(),
  /** The keys the token is limited to; `null`: all of its owner's. */
  permissions: z.array(z.string()).nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /**
   * When the token stopped working because every session of its owner was ended (a password
   * change, the account paused, its second factor reset); null while it works. A stopped token
   * never works again: delete it and create another.
   */
  revokedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const listApiTokens = route.get('apiTokens.list', '/{auth}/apiTokens', {
  access: tiers(TIERS, 'apiTokens.read'),
  summary: "The caller's API tokens (never their secret)",
  tags: ['apiTokens'],
  params: authParams,
  query: pageQuery,
  response: pageOf(apiTokenSchema),
});

const apiTokenBody = z.object({
  name: zName,
  lifetime: z.number().int().min(API_TOKEN_TTL_MIN_S).max(API_TOKEN_TTL_MAX_S),
  permissions: permissionKeys.nullable().default(null),
});
/** An API token as created (the body of `apiTokens.create`). */
export type ApiTokenIn = z.output<typeof apiTokenBody>;

export const createApiToken = route.post('apiTokens.create', '/{auth}/apiToken', {
  access: tiers(TIERS, 'apiTokens.write'),
  summary:
    'Creates an API token; its secret is in this reply only (stored hashed). Keys must be keys the caller holds (101018 otherwise)',
  tags: ['apiTokens'],
  params: authParams,
  body: apiTokenBody,
  response: dataOf(apiTokenSchema.extend({ token: z.string() })),
});

export const deleteApiTokens = route.delete('apiTokens.delete', '/{auth}/apiTokens', {
  access: tiers(TIERS, 'apiTokens.write'),
  summary: "Deletes API tokens of the caller's; the access tokens they minted stop at once",
  tags: ['apiTokens'],
  params: authParams,
  body: z.object({ ids: zIds(100) }),
  response: okReply,
});

export const apiAccessTokenSchema = z.object({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  /** Seconds until the access token expires (the API token's lifetime). */
  expiresIn: z.number().int(),
});

export const mintApiAccessToken = route.post('apiTokens.accessToken', '/{auth}/apiToken/accessToken', {
  access: { kind: 'public' },
  codes: [101008, 101013],
  summary:
    'Exchanges an API token for an access token of its lifetime; send it as `Authorization: Bearer <accessToken>` (101013 for an unknown or deleted token)',
  tags: ['apiTokens'],
  params: authParams,
  body: z.object({ token: z.string().min(1).max(256) }),
  response: dataOf(apiAccessTokenSchema),
});

export const roleRoutes = { listRoles, createRole, updateRole, deleteRole, metaRoles, assignRole } as const;
export const apiTokenRoutes = { listApiTokens, createApiToken, deleteApiTokens, mintApiAccessToken } as const;
