import { z } from 'zod';
import { TOKEN_COOKIE_PREFIX } from '../constants.js';
import { accountStatusSchema } from '../enums.js';
import { authParams, dataOf, okReply, publicAccess, TIERS, type Tier, tierSchema, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId } from '../validators/ids.js';
import { zEmail, zName, zNewPassword } from '../validators/zod.js';

/**
 * Sign-in, sessions and the caller's own account (spec part 1 §3, §4, §7 "Auth and account").
 *
 * `login2FAType` (the spec names the field, not its values; our choice):
 *   0 none   — `POST {auth}/code` returns the tokens at once;
 *   1 email  — a 6-digit code is mailed; the console goes to verifyAccount and sends it to `{auth}/login`;
 *   2 auto   — the reply carries `onePassKey` and `code`, and the console logs in with them at once
 *              (kept for the spec's console flow; this server does not issue it);
 *   3 totp   — an authenticator app's code, entered on verifyAccount.
 */
export const LOGIN_2FA_TYPES = { none: 0, email: 1, auto: 2, totp: 3 } as const;
export type Login2FAType = (typeof LOGIN_2FA_TYPES)[keyof typeof LOGIN_2FA_TYPES];
export const login2FATypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);
/** What an account may choose for itself. */
export const settableLogin2FATypeSchema = z.union([z.literal(0), z.literal(1), z.literal(3)]);

/**
 * Credentials as typed on the login form. Length-bounded; the account's format is not revealed by
 * the error. Account names are unique per tier within one operator: `operator` (the operator's
 * login name, `?operator=` of the login page) names whose customer or sub-account signs in. Without
 * it (or when that operator has no account of the name) the name alone must be unambiguous: an
 * operator, an admin account, or a name only one operator's accounts use; otherwise the answer is
 * the one for a wrong password (101012).
 */
const credentials = {
  account: z.string().min(1).max(256),
  password: z.string().min(1).max(1024),
  operator: z.string().max(256).optional(),
};
const secretString = z.string().min(1).max(4096);

export const tokenSetSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal('Bearer'),
});
export type TokenSet = z.infer<typeof tokenSetSchema>;

export const loginStepSchema = z.object({
  login2FAType: login2FATypeSchema,
  /** Ticket of this login attempt, for the second step. */
  onePassKey: z.string().optional(),
  /** Only with login2FAType 2. */
  code: z.string().optional(),
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
  tokenType: z.literal('Bearer').optional(),
});

export const selfSchema = z.object({
  id: z.number().int(),
  auth: tierSchema,
  account: z.string(),
  email: z.string(),
  name: z.string(),
  status: accountStatusSchema,
  isRoot: z.boolean(),
  /** The operator's DNS provider kind; `''` until set (the console then opens the DNS setting page). */
  dnsType: z.string(),
  maxLogExportTimes: z.number().int(),
  login2FAType: login2FATypeSchema,
  /** Permission keys the caller holds (a root account holds all of its tier). */
  permissions: z.array(z.string()),
  /**
   * The login name of the operator the account belongs to (itself for an operator, the operator
   * above a customer or a sub-account); its branding is the console's (`GET {auth}/logo?operator=`).
   * Null for the admin console.
   */
  operator: z.string().nullable(),
  /**
   * Whether the operator shows its customers the layer-4 attack page (`client/setting/l4AttackPage`,
   * the operator's value for its own accounts and every account below it); false for the admin console.
   */
  l4AttackPage: z.boolean(),
  createdAt: z.string(),
});
export type SelfInfo = z.infer<typeof selfSchema>;

/** A new password typed twice: `confirmPassword` must equal `password` (passwordNotMatch). */
function withConfirmation<T extends z.ZodObject<{ password: z.ZodType<string>; confirmPassword: z.ZodType<string> }>>(
  schema: T,
) {
  return schema.superRefine((value, ctx) => {
    const { password, confirmPassword } = value as { password: string; confirmPassword: string };
    if (confirmPassword !== password) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: confirmPassword === '' ? 'required' : 'passwordNotMatch',
        params: { key: confirmPassword === '' ? 'required' : 'passwordNotMatch' },
      });
    }
  });
}

const route = routeFamily({ tags: ['auth'], read: tiers(TIERS, 'account.self'), write: publicAccess });

export const requestLogin = route.post('auth.code', '/{auth}/code', {
  codes: [101008, 101012, 101018, 101020],
  summary: 'Step 1 of login: account and password; answers the second factor needed, or the tokens',
  params: authParams,
  body: z.object(credentials),
  response: dataOf(loginStepSchema),
});

export const login = route.post('auth.login', '/{auth}/login', {
  codes: [101008, 101012, 101018],
  summary: 'Step 2 of login: the code from the e-mail or the authenticator',
  params: authParams,
  body: z.object({
    ...credentials,
    onePassKey: secretString,
    login2FAType: login2FATypeSchema,
    code: z.string().regex(/^\d{6}$/),
  }),
  response: dataOf(tokenSetSchema),
});

export const resendLoginCode = route.post('auth.verify', '/{auth}/verify', {
  codes: [101008, 101012, 101018, 101020, 101029],
  summary: 'Mails a new code for a pending e-mail login (the ticket stays the same)',
  params: authParams,
  body: z.object({ ...credentials, onePassKey: secretString }),
  response: okReply,
});

export const logout = route.delete('auth.logout', '/{auth}', {
  codes: [101015],
  summary:
    "Logout: revokes the session (the refresh token and every access token of it). The refresh token is the body's, else the console's HttpOnly cookie (`u_refreshToken`, `c_`, `a_`), which the reply clears",
  params: authParams,
  body: z.object({ accessToken: z.string().max(4096).optional(), refreshToken: secretString.optional() }),
  response: okReply,
});

export const refresh = route.patch('auth.refresh', '/{auth}', {
  codes: [101016],
  summary:
    "Exchanges a refresh token for a new token set; the old refresh token is spent. Without one in the body, the console's HttpOnly cookie is used, and the new refresh token is then set in that cookie only (`refreshToken` is empty in the body)",
  params: authParams,
  body: z.object({ refreshToken: secretString.optional(), accessToken: z.string().max(4096).optional() }),
  response: dataOf(tokenSetSchema),
});

export const changePassword = route.patch('auth.changePassword', '/{auth}/password', {
  access: tiers(TIERS, 'account.self'),
  codes: [101012],
  summary: "Changes the caller's password; every other session of the account is logged out",
  params: authParams,
  body: withConfirmation(
    z.object({ oldPassword: z.string().min(1).max(1024), password: zNewPassword, confirmPassword: z.string() }),
  ),
  response: dataOf(tokenSetSchema),
});

export const setSubAccountPassword = route.put('auth.setAccountPassword', '/{auth}/account/password', {
  access: tiers(TIERS, 'accounts.write'),
  summary: 'Sets the password of an account the caller owns; that account is logged out everywhere',
  params: authParams,
  body: withConfirmation(z.object({ id: zId, password: zNewPassword, confirmPassword: z.string() })),
  response: okReply,
});

export const getSelf = route.get('auth.self', '/{auth}/account/self', {
  summary: "The caller's own account",
  params: authParams,
  response: dataOf(selfSchema),
});

export const updateSelf = route.put('auth.updateSelf', '/{auth}/account/self', {
  access: tiers(TIERS, 'account.self'),
  codes: [101012, 101017],
  summary: "Edits the caller's name and e-mail; a new e-mail needs the current password",
  params: authParams,
  body: z.object({ name: zName, email: zEmail, password: z.string().max(1024).optional() }),
  response: dataOf(selfSchema),
});

export const totpPhase0 = route.post('auth.login2fa.phase0', '/{auth}/login2fa/phase0', {
  access: tiers(TIERS, 'account.self'),
  codes: [101012],
  summary:
    'Second-factor setup, phase 0: confirm the password and, while a second factor is on, a code of it (a current one from the authenticator, or the one `login2fa/phase0/code` mailed); answers a ticket for phases 1 and 2',
  params: authParams,
  body: z.object({
    password: z.string().min(1).max(1024),
    /**
     * Required while a second factor is on: a current code from the authenticator, or the code
     * `login2fa/phase0/code` mailed while the e-mail second factor is on.
     */
    code: z
      .string()
      .regex(/^\d{6}$/)
      .optional(),
  }),
  response: dataOf(z.object({ onePassKey: z.string(), login2FAType: login2FATypeSchema })),
});

export const totpPhase0Code = route.post('auth.login2fa.phase0.code', '/{auth}/login2fa/phase0/code', {
  access: tiers(TIERS, 'account.self'),
  codes: [101020, 101029],
  sendsOnDemand: true,
  summary:
    "While the e-mail second factor is on: mails a code to the account's address for phase 0 (good once, for 10 minutes; a new one replaces the last; at most 5 mails per code's lifetime)",
  params: authParams,
  response: okReply,
});

export const totpPhase1 = route.post('auth.login2fa.phase1', '/{auth}/login2fa/phase1', {
  access: tiers(TIERS, 'account.self'),
  summary: 'Phase 1: a new authenticator secret, as a QR code and its otpauth URI',
  params: authParams,
  body: z.object({ onePassKey: secretString }),
  response: dataOf(z.object({ qrCode: z.string(), qrCodeData: z.string() })),
});

export const totpPhase2 = route.post('auth.login2fa.phase2', '/{auth}/login2fa/phase2', {
  access: tiers(TIERS, 'account.self'),
  codes: [101012, 101020],
  summary: 'Phase 2: choose the second factor; for an authenticator, confirm a code from it',
  params: authParams,
  body: z.object({
    onePassKey: secretString,
    login2FAType: settableLogin2FATypeSchema,
    code: z
      .string()
      .regex(/^\d{6}$/)
      .optional(),
  }),
  response: dataOf(z.object({ login2FAType: login2FATypeSchema })),
});

export const checkRegisterToken = route.post('register.checkToken', '/token/check', {
  codes: [101013],
  summary: 'Checks the token of a create-password e-mail and names the account it is for',
  body: z.object({ token: secretString }),
  response: dataOf(z.object({ auth: tierSchema, email: z.string(), id: z.number().int(), name: z.string() })),
});

export const registerPassword = route.post('register.password', '/register/password', {
  codes: [101013],
  summary: 'Sets the first password of a new account with the token from its e-mail (one use)',
  body: withConfirmation(z.object({ token: secretString, password: zNewPassword, confirmPassword: z.string() })),
  response: okReply,
});

/** Service inputs: the parsed bodies of the routes above. */
export type UpdateSelfIn = z.output<typeof updateSelf.request.body>;
export type ChangePasswordIn = z.output<typeof changePassword.request.body>;
export type SetAccountPasswordIn = z.output<typeof setSubAccountPassword.request.body>;
export type SetupPhase0In = z.output<typeof totpPhase0.request.body>;
export type SetupPhase2In = z.output<typeof totpPhase2.request.body>;

export const authRoutes = {
  requestLogin,
  login,
  resendLoginCode,
  logout,
  refresh,
  changePassword,
  setSubAccountPassword,
  getSelf,
  updateSelf,
  totpPhase0,
  totpPhase0Code,
  totpPhase1,
  totpPhase2,
  checkRegisterToken,
  registerPassword,
} as const;

/** Cookie names of a tier's token set (spec part 1 §3: prefixes u_, c_, a_). */
export function tokenCookieNames(tier: Tier) {
  const prefix = TOKEN_COOKIE_PREFIX[tier];
  return {
    accessToken: `${prefix}accessToken`,
    refreshToken: `${prefix}refreshToken`,
    tokenType: `${prefix}tokenType`,
  };
}
