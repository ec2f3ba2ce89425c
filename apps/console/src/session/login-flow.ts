import { authRoutes, LOGIN_2FA_TYPES, type SelfInfo, type Tier } from '@rampart/contract';
import { callApi } from '../api/client';
import { beginSession } from './session';
import { type PendingLogin, sessionStore } from './session-store';

/** Where a login attempt stands after a step. */
export type LoginOutcome =
  | { readonly kind: 'signedIn'; readonly self: SelfInfo }
  | { readonly kind: 'needsCode'; readonly login2FAType: PendingLogin['login2FAType'] };

/**
 * Step 1 (spec part 1 §4): account and password, and the operator the login page names (account
 * names are unique within one operator; the same name may be another operator's customer). Tokens in the reply sign in at once; type 2
 * signs in at once with the reply's one-pass key and code; types 1 and 3 keep the step-1 info in
 * memory for verifyAccount.
 */
export async function submitCredentials(
  tier: Tier,
  credentials: { account: string; password: string; operator?: string },
): Promise<LoginOutcome> {
  const { data } = await callApi(authRoutes.requestLogin, { params: { auth: tier }, body: credentials });
  if (data.accessToken && data.tokenType) {
    const self = await beginSession(tier, { accessToken: data.accessToken, tokenType: data.tokenType });
    return { kind: 'signedIn', self };
  }
  const onePassKey = data.onePassKey ?? '';
  if (data.login2FAType === LOGIN_2FA_TYPES.auto) {
    const reply = await callApi(authRoutes.login, {
      params: { auth: tier },
      body: { ...credentials, onePassKey, login2FAType: LOGIN_2FA_TYPES.auto, code: data.code ?? '' },
    });
    return { kind: 'signedIn', self: await beginSession(tier, reply.data) };
  }
  // Type 0 always carries tokens; a reply without them and without a second factor is treated as e-mail.
  const login2FAType = data.login2FAType === LOGIN_2FA_TYPES.totp ? LOGIN_2FA_TYPES.totp : LOGIN_2FA_TYPES.email;
  sessionStore.setPending(tier, { ...credentials, onePassKey, login2FAType });
  return { kind: 'needsCode', login2FAType };
}

/** The step-1 info waiting for a code, if any (verifyAccount returns to the login form without it). */
export function pendingLogin(tier: Tier): PendingLogin | null {
  return sessionStore.get(tier).pending;
}

/** Step 2: the e-mailed or authenticator code. */
export async function submitCode(tier: Tier, code: string): Promise<SelfInfo> {
  const pending = requirePending(tier);
  const reply = await callApi(authRoutes.login, {
    params: { auth: tier },
    body: {
      account: pending.account,
      password: pending.password,
      ...(pending.operator ? { operator: pending.operator } : {}),
      onePassKey: pending.onePassKey,
      login2FAType: pending.login2FAType,
      code,
    },
  });
  return beginSession(tier, reply.data);
}

/** Mails the code of a pending e-mail login again (`POST {auth}/verify`). */
export async function resendCode(tier: Tier): Promise<void> {
  const { account, password, operator, onePassKey } = requirePending(tier);
  await callApi(authRoutes.resendLoginCode, {
    params: { auth: tier },
    body: { account, password, ...(operator ? { operator } : {}), onePassKey },
  });
}

function requirePending(tier: Tier): PendingLogin {
  const pending = sessionStore.get(tier).pending;
  if (!pending) throw new Error('no login is waiting for a code');
  return pending;
}
