import { type DescribeOptions, describeApiError } from '../api/errors';
import { currentLocale } from '../i18n/i18n';
import { isSessionError } from '../session';
import { showErrorDialog } from './error-dialog';
import { toast } from './toast';

/**
 * Shows a failed call (spec part 1 §8 display rules): a 101009 as a dialog listing each code's
 * message with its targets, anything else as an error toast. Session failures are skipped: the
 * session layer has shown the server message and gone to the login form already.
 */
export function showApiError(error: unknown, options?: DescribeOptions): void {
  if (isSessionError(error)) return;
  const description = describeApiError(error, currentLocale(), options);
  if (!description) return;
  if (description.details && description.details.length > 0) showErrorDialog(description);
  else toast.error(description.message);
}
