import { z } from 'zod';
import { accountStatusSchema } from '../enums.js';
import { orderBySchema, pageQuery } from '../http.js';
import type { Localized } from '../locale.js';
import { authParams, dataOf, okReply, pageOf, TIERS, type Tier, tierSchema, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { idNameSchema, zId, zIdParam } from '../validators/ids.js';
import { zAccount, zEmail, zName } from '../validators/zod.js';

/**
 * Account management (spec part 1 §2 `userManagement`, §6, §7 `{auth}/accounts`, `{auth}/account`,
 * `{auth}/account/{userId}/subs`, `{auth}/account/resendEmail`).
 *
 * The tree: the admin root owns the operators (tier `client`) and its admin users (tier `admin`);
 * an operator owns its customers (tier `user`) and its own sub-accounts (tier `client`); a customer
 * owns its sub-users (tier `user`). Which tiers an account may list and create is
 * {@link MANAGED_TIERS}: the first is the console's default tab. Accounts of a lower tier belong to
 * the caller's top account (a sub-account acts for its operator); accounts of the caller's own tier
 * are the caller's own sub-accounts. Another tenant's account answers 101018, like a missing one.
 * `GET client/accounts` (default tab: customers) is also the site owner picker's search.
 */
export const MANAGED_TIERS = {
  admin: ['client', 'admin'],
  client: ['user', 'client'],
  user: ['user'],
} as const satisfies Record<Tier, readonly Tier[]>;

/** An account as the account-management pages show it. */
export const managedAccountSchema = z.object({
  id: z.number().int(),
  /** The account's console (tier). */
  auth: tierSchema,
  account: z.string(),
  name: z.string(),
  email: z.string(),
  status: accountStatusSchema,
  /** The top account of its tier (an operator, a customer) rather than a sub-account. */
  isRoot: z.boolean(),
  /** False until the owner sets a first password through the e-mailed link. */
  hasPassword: z.boolean(),
  login2FAType: z.number().int(),
  maxLogExportTimes: z.number().int(),
  /**
   * Operators (top `client` accounts): the most zones it may have, 0 = no limit (201003 beyond
   * it); set by the admin. 0 for every other account.
   */
  zoneLimit: z.number().int(),
  /** Accounts directly below it. */
  subCount: z.number().int(),
  /** The role a sub-account holds (routes/roles.ts); null without one, and for top accounts. */
  role: idNameSchema.nullable(),
  createdAt: z.string(),
});
export type ManagedAccount = z.infer<typeof managedAccountSchema>;

const accountId = z.object({ id: zId });

/** An operator's zone limit: 0 = no limit. */
const ZONE_LIMIT_SCHEMA = z.number().int().min(0).max(10_000);

/** The limits set on an account when it is created or edited; one left out is kept (or its default). */
const accountLimitFields = {
  maxLogExportTimes: z.number().int().min(0).max(1000).optional(),
  /** Only the admin, only for an operator (101003 on this field otherwise). */
  zoneLimit: ZONE_LIMIT_SCHEMA.optional(),
};

export const ACCOUNT_SORT_FIELDS = ['createdAt', 'account', 'name', 'email', 'status'] as const;

const route = routeFamily({
  tags: ['accounts'],
  read: tiers(TIERS, 'accounts.read'),
  write: tiers(TIERS, 'accounts.write'),
});

export const listAccounts = route.get('auth.accounts.list', '/{auth}/accounts', {
  summary:
    "The accounts the caller manages of one tier (query `auth`, the console's tab; default the first of MANAGED_TIERS), paged, sorted and searched by account, name or e-mail",
  params: authParams,
  query: pageQuery.extend({
    auth: tierSchema.optional(),
    sortBy: z.enum(ACCOUNT_SORT_FIELDS).default('createdAt'),
    orderBy: orderBySchema.default('desc'),
    name: z.string().max(256).optional(),
  }),
  response: pageOf(managedAccountSchema),
});

export type ListAccountsQuery = z.output<typeof listAccounts.request.query>;

export const listSubAccounts = route.get('auth.accounts.subs', '/{auth}/account/{userId}/subs', {
  summary: 'The sub-accounts (same tier) directly below an account the caller manages, paged',
  params: authParams.extend({ userId: zIdParam }),
  query: pageQuery,
  response: pageOf(managedAccountSchema),
});

/**
 * How a new account gets its create-password link: `mail` (the default) e-mails it (101020 without
 * a mail server); `link` answers it once in `createPasswordLink`, for the caller to hand over, and
 * needs no mail server (docs/decisions "new-harden-create-password-link").
 */
export const ACCOUNT_LINK_DELIVERIES = ['mail', 'link'] as const;

export const createAccountBodySchema = z.object({
  /** The tier of the new account: one of MANAGED_TIERS of the caller's console. */
  auth: tierSchema,
  account: zAccount,
  name: zName,
  email: zEmail,
  ...accountLimitFields,
  delivery: z.enum(ACCOUNT_LINK_DELIVERIES).default('mail'),
});

export type CreateAccountIn = z.output<typeof createAccountBodySchema>;

/** A new account, with its one-time create-password link when it was asked for (`delivery: link`), else null. */
export const createdAccountSchema = managedAccountSchema.extend({ createPasswordLink: z.string().nullable() });
export type CreatedAccount = z.infer<typeof createdAccountSchema>;

export const createAccount = route.post('auth.account.create', '/{auth}/account', {
  codes: [101012, 101017, 101020, 101025],
  summary:
    'Creates an account below the caller without a password and e-mails it a one-time link to create one (101020 when no mail server is set), or with `delivery: link` answers the link once instead',
  params: authParams,
  body: createAccountBodySchema,
  response: dataOf(createdAccountSchema),
});

export const updateAccountBodySchema = accountId.extend({
  name: zName,
  email: zEmail,
  status: accountStatusSchema.optional(),
  ...accountLimitFields,
});

export type UpdateAccountIn = z.output<typeof updateAccountBodySchema>;

export const updateAccount = route.put('auth.account.update', '/{auth}/account', {
  codes: [101017],
  summary:
    'Edits an account the caller manages: name, e-mail, status (pause, lock and expired sign it out everywhere), log export limit',
  params: authParams,
  body: updateAccountBodySchema,
  response: dataOf(managedAccountSchema),
});

export const deleteAccount = route.delete('auth.account.delete', '/{auth}/account', {
  codes: [205003],
  summary:
    'Deletes an account the caller manages; refused (205003, extra.reason) while it has sites, sub-accounts or other objects',
  params: authParams,
  body: accountId,
  response: okReply,
});

export const resendAccountEmail = route.post('auth.account.resendEmail', '/{auth}/account/resendEmail', {
  codes: [101012, 101020],
  sendsOnDemand: true,
  summary:
    'Sends an account the caller manages, while it has no password, a new one-time link to create one (earlier links stop working); 101018 for an account that has a password',
  params: authParams,
  body: accountId,
  response: okReply,
});

export const accountCreatePasswordLink = route.post(
  'auth.account.createPasswordLink',
  '/{auth}/account/createPasswordLink',
  {
    summary:
      'Answers a new one-time create-password link for an account the caller manages that has no password yet, for the caller to hand over without mail (earlier links stop working); 101018 for an account that has a password',
    params: authParams,
    body: accountId,
    response: dataOf(z.object({ link: z.string() })),
  },
);

export const resetAccountTwoFactor = route.put('auth.account.resetLogin2fa', '/{auth}/account/login2fa', {
  summary: 'Turns off the second factor of an account the caller manages (a lost authenticator); it is signed out',
  params: authParams,
  body: accountId,
  response: okReply,
});

/** Why a delete was refused: `extra.reason` of the 205003 reply, with the count in `extra.count`. */
export const ACCOUNT_DELETE_REFUSALS = ['accountHasSites', 'accountHasSubAccounts', 'accountInUse'] as const;
export type AccountDeleteRefusal = (typeof ACCOUNT_DELETE_REFUSALS)[number];
/** What the console says for each refusal (`{count}` is `extra.count`). */
export const ACCOUNT_DELETE_REFUSAL_MESSAGES: Record<AccountDeleteRefusal, Localized> = {
  accountHasSites: {
    en_US: 'This account still has {count} site(s): delete them or give them to another account first.',
    zh_CN: '该账号仍有 {count} 个站点：请先删除这些站点或将其转给其他账号。',
    zh_TW: '此帳號仍有 {count} 個網站：請先刪除這些網站或將其轉給其他帳號。',
  },
  accountHasSubAccounts: {
    en_US: 'This account still has {count} account(s) below it: delete them first.',
    zh_CN: '该账号下仍有 {count} 个账号：请先删除它们。',
    zh_TW: '此帳號下仍有 {count} 個帳號：請先刪除它們。',
  },
  accountInUse: {
    en_US: 'This account still owns nodes, zones, products or other objects: remove them first.',
    zh_CN: '该账号仍拥有节点、区域、产品或其他对象：请先移除它们。',
    zh_TW: '此帳號仍擁有節點、區域、產品或其他物件：請先移除它們。',
  },
};

export const accountRoutes = {
  listAccounts,
  listSubAccounts,
  createAccount,
  updateAccount,
  deleteAccount,
  resendAccountEmail,
  accountCreatePasswordLink,
  resetAccountTwoFactor,
} as const;
