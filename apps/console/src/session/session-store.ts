import type { SelfInfo, Tier } from '@rampart/contract';

/**
 * In-memory state of each console's session: the signed-in account (self information), the
 * step-1 info of a login waiting for its second factor, and the refresh in flight. Tokens are not
 * here: the cookies are their one home (see cookies.ts), so every call reads the current ones.
 */

/** Step-1 info (spec part 1 §3): kept in memory only, between the login form and verifyAccount. */
export interface PendingLogin {
  account: string;
  password: string;
  /** The operator the login page named (sent again with the code). */
  operator?: string;
  onePassKey: string;
  /** 1 e-mail code or 3 authenticator code. */
  login2FAType: 1 | 3;
}

interface TierState {
  self: SelfInfo | null;
  /** The access token the session had when `self` was loaded or last refreshed; `self` is stale if the cookie differs. */
  selfAccessToken: string | null;
  pending: PendingLogin | null;
  /** Bumped whenever a session starts or ends, so late replies of an older session change nothing. */
  generation: number;
  /** The one token refresh in flight (spec part 1 §4: one refresh; other calls wait for it). */
  refreshing: Promise<void> | null;
}

function initial(): TierState {
  return { self: null, selfAccessToken: null, pending: null, generation: 0, refreshing: null };
}

const states: Record<Tier, TierState> = { user: initial(), client: initial(), admin: initial() };
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export const sessionStore = {
  get(tier: Tier): Readonly<TierState> {
    return states[tier];
  },

  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** The self information of the session, valid while `accessToken` is the session's token. */
  setSelf(tier: Tier, self: SelfInfo, accessToken: string): void {
    states[tier] = { ...states[tier], self, selfAccessToken: accessToken };
    emit();
  },

  /** The account changed (edited name or e-mail, a new second factor) within the same session. */
  updateSelf(tier: Tier, self: SelfInfo): void {
    if (states[tier].self === null) return;
    states[tier] = { ...states[tier], self };
    emit();
  },

  /** The session's tokens were rotated by this tab (refresh, password change): `self` stays valid. */
  tokensRotated(tier: Tier, accessToken: string): void {
    if (states[tier].self === null) return;
    states[tier] = { ...states[tier], selfAccessToken: accessToken };
  },

  setPending(tier: Tier, pending: PendingLogin | null): void {
    states[tier] = { ...states[tier], pending };
  },

  setRefreshing(tier: Tier, refreshing: Promise<void> | null): void {
    states[tier] = { ...states[tier], refreshing };
  },

  /** A session starts or ends: forget the account and any pending step; late replies are ignored. */
  reset(tier: Tier): void {
    const { generation } = states[tier];
    states[tier] = { ...initial(), generation: generation + 1 };
    emit();
  },
};

/** Tests: every tier back to its initial state. */
export function resetSessionStoreForTests(): void {
  for (const tier of Object.keys(states) as Tier[]) states[tier] = initial();
  emit();
}
