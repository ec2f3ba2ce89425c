import {
  type AnyRoute,
  authRoutes,
  type RouteInput,
  type RouteReply,
  SECOND_FACTOR_REQUIRED,
  type Tier,
} from '@rampart/contract';
import { ApiError, type CallOptions, callApi, callApiRaw } from '../api/client';
import { appNavigation } from '../app/app-navigation';
import { consolePath } from '../app/console-paths';
import { toast } from '../app/toast';
import { i18n } from '../i18n/i18n';
import { readTokenSet, writeTokenSet } from './cookies';
import { endSession } from './session-end';
import { sessionStore } from './session-store';

/** Access token expired: refresh once, then replay. */
export const TOKEN_EXPIRED = 101014;
/** Codes that end the session at once (spec part 1 §8). 101014 joins them when the replay fails again. */
export const SESSION_END_CODES: ReadonlySet<number> = new Set([101013, 101015, 101016]);

/** Failures that ended a session here; their message has been shown already. */
const handled = new WeakSet<object>();

/** True for a failure the session layer has already handled (toast, logout): pages show nothing more. */
export function isSessionError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && handled.has(error);
}

function endSessionFor(tier: Tier, error: ApiError): void {
  handled.add(error);
  endSession(tier, serverText(error));
}

/** The server's message of a reply, for the session-ending toast (spec: "show the server message"). */
function serverText(error: ApiError): string {
  return error.serverMessage || error.message;
}

/** The operator requires a second factor of this account, which has none (contract system-settings.ts). */
function secondFactorRequired(error: ApiError): boolean {
  const extra = error.extra as { reason?: unknown } | undefined;
  return error.code === 101018 && extra?.reason === SECOND_FACTOR_REQUIRED;
}

/** Takes the account to its second-factor setup, the one page it may use until it has one. */
function toSecondFactorSetup(tier: Tier, error: ApiError): void {
  handled.add(error);
  const setup = consolePath(tier, 'twoFactor');
  if (window.location.pathname === setup) return;
  toast.warning(i18n.t('account:secondFactorRequired'));
  appNavigation.replace(setup);
}

/**
 * Calls a route as the tier's signed-in account (bearer token from the tier's cookies).
 *
 * On 101014 the first failing call starts ONE refresh (`PATCH {auth}`); calls that fail meanwhile
 * or start meanwhile wait for it and then replay with the new token. A call whose token was already
 * replaced when its 101014 arrived replays without refreshing again. If the refresh is refused, or
 * on 101013/101015/101016 (or a second 101014 after the replay), the session ends: cookies and
 * state are cleared, the server message is shown and the visitor goes to the tier's login form.
 */
export function callAuthed<R extends AnyRoute>(
  tier: Tier,
  route: R,
  input: RouteInput<R>,
  options: Omit<CallOptions, 'token'> = {},
): Promise<RouteReply<R>> {
  return withSession(tier, (token) => callApi(route, input, { ...options, ...(token ? { token } : {}) }));
}

/**
 * {@link callAuthed} for a route that answers raw content (`reply: 'raw'`, e.g. the `key=value`
 * text of `client/node-info`): resolves with the buffered Response.
 */
export function callAuthedRaw<R extends AnyRoute>(
  tier: Tier,
  route: R,
  input: RouteInput<R>,
  options: Omit<CallOptions, 'token'> = {},
): Promise<Response> {
  return withSession(tier, (token) => callApiRaw(route, input, { ...options, ...(token ? { token } : {}) }));
}

/** One call with the tier's access token, under the refresh and session-end rules of {@link callAuthed}. */
async function withSession<T>(tier: Tier, send: (token: string | undefined) => Promise<T>): Promise<T> {
  let replayed = false;
  for (;;) {
    const inFlight = sessionStore.get(tier).refreshing;
    if (inFlight) await inFlight;
    const { generation } = sessionStore.get(tier);
    const token = readTokenSet(tier)?.accessToken;
    try {
      return await send(token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === undefined) throw error;
      // A reply that belongs to a session that has ended or been replaced since changes nothing,
      // and is not worth showing: the visitor has been told why that session ended.
      if (sessionStore.get(tier).generation !== generation) {
        handled.add(error);
        throw error;
      }
      if (error.code === TOKEN_EXPIRED && !replayed && token !== undefined) {
        replayed = true;
        // Still the token that expired? Then refresh (or join the refresh in flight); else replay at once.
        if (readTokenSet(tier)?.accessToken === token) await refreshSession(tier, token);
        continue;
      }
      if (SESSION_END_CODES.has(error.code) || error.code === TOKEN_EXPIRED) endSessionFor(tier, error);
      if (secondFactorRequired(error)) toSecondFactorSetup(tier, error);
      throw error;
    }
  }
}

/**
 * Exchanges the tier's refresh token for a new token set, once: while a refresh is in flight,
 * every caller gets the same promise. A refused refresh ends the session (before the promise
 * rejects, so the waiting calls only pass the error on). A refresh that got no reply at all
 * (network, time-out) rejects without ending the session: the old refresh token may still be
 * good, and a dropped connection should not sign anybody out.
 */
export function refreshSession(tier: Tier, expiredAccessToken: string): Promise<void> {
  const inFlight = sessionStore.get(tier).refreshing;
  if (inFlight) return inFlight;
  const { generation } = sessionStore.get(tier);
  // Started a microtask later, so the promise is in the store before any of its work runs.
  const refreshing = Promise.resolve()
    .then(() =>
      withRefreshLock(tier, async () => {
        const current = readTokenSet(tier);
        // Another tab of this browser refreshed while we waited for the lock: its tokens are ours too.
        if (current && current.accessToken !== expiredAccessToken) return;
        // Signed out in another tab meanwhile: end this tab's session too, without a message.
        if (!current) throw new ApiError({ failure: 'reply', status: 401, code: 101016, message: '' });
        const reply = await callApi(authRoutes.refresh, {
          params: { auth: tier },
          // The refresh token is the HttpOnly cookie the browser sends with this call only.
          body: { accessToken: current.accessToken },
        });
        if (sessionStore.get(tier).generation !== generation) return; // logged out meanwhile
        writeTokenSet(tier, reply.data);
        sessionStore.tokensRotated(tier, reply.data.accessToken);
      }),
    )
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.failure === 'reply' && sessionStore.get(tier).generation === generation) {
        endSessionFor(tier, error);
      }
      throw error;
    });
  sessionStore.setRefreshing(tier, refreshing);
  const done = () => {
    if (sessionStore.get(tier).refreshing === refreshing) sessionStore.setRefreshing(tier, null);
  };
  refreshing.then(done, done);
  return refreshing;
}

/**
 * Tabs of one browser share the cookies, and a refresh token is spent by its first use (a reuse
 * kills the session, 101016): the Web Locks API lets one tab refresh at a time; the others then
 * find the new tokens in the cookies. Without the API (old browsers, jsdom) the tab refreshes alone.
 */
function withRefreshLock(tier: Tier, run: () => Promise<void>): Promise<void> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return run();
  return locks.request(`rampart-token-refresh-${tier}`, run).then(() => undefined);
}
