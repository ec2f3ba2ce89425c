import { authRoutes, type SelfInfo, type Tier } from '@rampart/contract';
import { ApiError, callApi } from '../api/client';
import { toastText } from '../app/toast';
import { callAuthed } from './call-authed';
import { readTokenSet, type StoredTokens, writeTokenSet } from './cookies';
import { clearSession, endSession } from './session-end';
import { sessionStore } from './session-store';

/** The session could not be restored or started; the reason was already shown (if any). */
export class NoSessionError extends Error {
  override readonly name = 'NoSessionError';
}

/** Tests whether the signed-in account belongs to this console (spec part 1 §4). */
function checkAuth(tier: Tier, self: SelfInfo): void {
  if (self.auth === tier) return;
  endSession(tier, toastText('authNotMatch'));
  throw new NoSessionError(`a ${self.auth} account in the ${tier} console`);
}

/**
 * Loads the self information with the stored token (refreshing once if needed, see callAuthed)
 * and keeps it in the store. A token of another console is answered with 101018 by the server,
 * or yields self information of another kind: both end the session with 'Auth is not match !'.
 */
export async function loadSelf(tier: Tier): Promise<SelfInfo> {
  let self: SelfInfo;
  try {
    self = (await callAuthed(tier, authRoutes.getSelf, { params: { auth: tier } })).data;
  } catch (error) {
    if (error instanceof ApiError && error.code === 101018) {
      endSession(tier, toastText('authNotMatch'));
      throw new NoSessionError('token of another console', { cause: error });
    }
    throw error;
  }
  checkAuth(tier, self);
  const tokens = readTokenSet(tier);
  if (!tokens) throw new NoSessionError('signed out while loading');
  sessionStore.setSelf(tier, self, tokens.accessToken);
  return self;
}

/**
 * Every console route but the login pages first restores the session (spec part 1 §2): the
 * account loaded earlier in this tab while the cookies still hold the same session, else the
 * self information fetched with the stored token. Rejects when there is no usable session; the
 * caller then resets state and goes to the login form.
 */
export async function restoreSession(tier: Tier): Promise<SelfInfo> {
  const tokens = readTokenSet(tier);
  if (!tokens) {
    clearSession(tier);
    throw new NoSessionError('no token cookies');
  }
  const { self, selfAccessToken } = sessionStore.get(tier);
  if (self && selfAccessToken === tokens.accessToken) return self;
  return loadSelf(tier);
}

/** Stores a new token set (login, switchUser) as a fresh session and loads its account. */
export async function beginSession(tier: Tier, tokens: StoredTokens): Promise<SelfInfo> {
  sessionStore.reset(tier);
  writeTokenSet(tier, tokens);
  return loadSelf(tier);
}

/** The server answered a new token set for the running session (password change): keep the account. */
export function replaceTokens(tier: Tier, tokens: StoredTokens): void {
  writeTokenSet(tier, tokens);
  sessionStore.tokensRotated(tier, tokens.accessToken);
}

/**
 * Logout (spec part 1 §4): revoke the session on the server (its refresh token is the HttpOnly
 * cookie, which the reply clears), then clear cookies and state whatever it answered: the visitor
 * asked to leave, and a session the server no longer knows is gone anyway.
 */
export async function logout(tier: Tier): Promise<void> {
  const tokens = readTokenSet(tier);
  if (tokens) {
    try {
      await callApi(authRoutes.logout, { params: { auth: tier }, body: { accessToken: tokens.accessToken } });
    } catch {
      // Already revoked, expired or unreachable: nothing left to do on this side but forget it.
    }
  }
  clearSession(tier);
}
