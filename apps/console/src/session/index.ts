export {
  callAuthed,
  callAuthedRaw,
  isSessionError,
  refreshSession,
  SESSION_END_CODES,
  TOKEN_EXPIRED,
} from './call-authed';
export { clearTokenSet, hasTokenCookies, readTokenSet, type StoredTokens, writeTokenSet } from './cookies';
export { type LoginOutcome, pendingLogin, resendCode, submitCode, submitCredentials } from './login-flow';
export { sessionQueryKey } from './query-keys';
export { beginSession, loadSelf, logout, NoSessionError, replaceTokens, restoreSession } from './session';
export { clearSession, endSession } from './session-end';
export { type PendingLogin, sessionStore } from './session-store';
export { useSelf, useSessionGeneration } from './use-session';
