import { ApiError } from '../../api/client';
import { describeApiError } from '../../api/errors';
import { currentLocale } from '../../i18n/i18n';
import { NoSessionError } from '../../session';

/**
 * The text a login step shows for a failure: the server's own message for a refused attempt
 * (101012 wrong credentials or code, also sent with HTTP 429 while attempts are throttled, which
 * the message explains), the catalogue's otherwise. Null when it was shown already (the account
 * belongs to another console: 'Auth is not match !').
 */
export function loginFailureText(error: unknown): string | null {
  if (error instanceof NoSessionError) return null;
  if (error instanceof ApiError && error.failure === 'reply' && error.serverMessage) return error.serverMessage;
  return describeApiError(error, currentLocale())?.message ?? null;
}
