import { type DescribeOptions, describeApiError } from '../api/errors';
import { currentLocale } from '../i18n/i18n';
import { isSessionError } from '../session';
import { toast } from './toast';

/**
 * Shows a failed call as an error toast (spec part 1 §8 display rules). Session failures are
 * skipped: the session layer has shown the server message and gone to the login form already.
 */
export function showApiError(error: unknown, options?: DescribeOptions): void {
  if (isSessionError(error)) return;
  const description = describeApiError(error, currentLocale(), options);
  if (description) toast.error(description.message);
}
