import { authRoutes, type Tier } from '@rampart/contract';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { ApiError, callApi } from '../api/client';
import { rememberOperator } from '../features/branding/use-branding';
import { clearSession, hasTokenCookies, NoSessionError, pendingLogin, restoreSession, writeTokenSet } from '../session';
import { consolePath } from './console-paths';
import { toast } from './toast';

/**
 * Route loaders carrying the route rules of spec part 1 §2. They run before a page renders, so a
 * visitor who must be elsewhere never sees the wrong page flash.
 */

function searchOf(request: Request): URLSearchParams {
  return new URL(request.url).searchParams;
}

/** LoginForm, VerifyAccount, CreatePassword: a visitor holding all three auth cookies goes to the Dashboard. */
export function guestOnly(tier: Tier) {
  return () => {
    if (hasTokenCookies(tier)) throw redirect(consolePath(tier, 'dashboard'));
    return null;
  };
}

/** VerifyAccount without the step-1 info (kept in memory by the login form) returns to LoginForm. */
export function verifyAccountGuard(tier: Tier) {
  const guest = guestOnly(tier);
  return () => {
    guest();
    if (!pendingLogin(tier)) throw redirect(consolePath(tier, 'login'));
    return null;
  };
}

/** CreatePassword needs the token of its e-mail (it comes through verifyMail); without it, LoginForm. */
export function createPasswordGuard(tier: Tier) {
  const guest = guestOnly(tier);
  return ({ request }: LoaderFunctionArgs) => {
    guest();
    if (!searchOf(request).get('token')) throw redirect(consolePath(tier, 'login'));
    return null;
  };
}

/**
 * `{tier}/verifyMail?token=`: the token is checked by the server. Invalid: its message as an info
 * toast and LoginForm. Valid: CreatePassword with the account's auth, email, id, name and the token.
 * CreatePassword opens in the console of the account the token is for (normally the same one).
 * The link's `operator` (the account's operator) is remembered: the login after it names it.
 */
export function verifyMailLoader(tier: Tier) {
  return async ({ request }: LoaderFunctionArgs) => {
    const operator = searchOf(request).get('operator')?.trim();
    if (operator) rememberOperator(operator);
    const token = searchOf(request).get('token') ?? '';
    let account: { auth: Tier; email: string; id: number; name: string };
    try {
      account = (await callApi(authRoutes.checkRegisterToken, { body: { token } })).data;
    } catch (error) {
      if (!(error instanceof ApiError) || error.failure !== 'reply') throw error; // no reply: the error page offers a reload
      toast.info(error.serverMessage || error.message);
      throw redirect(consolePath(tier, 'login'));
    }
    const query = new URLSearchParams({
      auth: account.auth,
      email: account.email,
      id: String(account.id),
      name: account.name,
      token,
    });
    throw redirect(`${consolePath(account.auth, 'createPassword')}?${query}`);
  };
}

/**
 * `{tier}/switchUser?accessToken&tokenType[&refreshToken]`: the access token and type become the
 * tier's cookies (a new session) and the visitor goes to the Dashboard, which loads the account;
 * without them, LoginForm. The console's own switch sends no refresh token (the switch call set it
 * as the server's HttpOnly cookie); one in the link (the spec's form) is exchanged at once for a
 * new set, so that the server holds it in that cookie and the page forgets it.
 */
export function switchUserLoader(tier: Tier) {
  return async ({ request }: LoaderFunctionArgs) => {
    const search = searchOf(request);
    const accessToken = search.get('accessToken');
    const refreshToken = search.get('refreshToken');
    const tokenType = search.get('tokenType');
    if (!accessToken || !tokenType) throw redirect(consolePath(tier, 'login'));
    clearSession(tier);
    if (refreshToken) {
      try {
        const reply = await callApi(authRoutes.refresh, {
          params: { auth: tier },
          body: { refreshToken, accessToken },
        });
        writeTokenSet(tier, reply.data);
      } catch {
        throw redirect(consolePath(tier, 'login'));
      }
    } else {
      writeTokenSet(tier, { accessToken, tokenType });
    }
    throw redirect(consolePath(tier, 'dashboard'));
  };
}

/**
 * Every other console route first restores the session (self information with the stored token,
 * refreshing once if needed). When the server refuses it, state is reset and the visitor goes to
 * LoginForm. When no reply arrives at all, the route's error page offers a reload instead: a
 * network failure is no reason to throw a session away.
 */
export function sessionLoader(tier: Tier) {
  return async () => {
    try {
      return await restoreSession(tier);
    } catch (error) {
      if (error instanceof ApiError && error.failure !== 'reply') throw error;
      if (!(error instanceof NoSessionError)) clearSession(tier);
      throw redirect(consolePath(tier, 'login'));
    }
  };
}
