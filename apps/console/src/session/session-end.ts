import type { Tier } from '@rampart/contract';
import { appNavigation } from '../app/app-navigation';
import { consolePath } from '../app/console-paths';
import { toast } from '../app/toast';
import { clearTokenSet } from './cookies';
import { sessionStore } from './session-store';

/** Forgets the tier's session here: cookies and in-memory state. */
export function clearSession(tier: Tier): void {
  clearTokenSet(tier);
  sessionStore.reset(tier);
}

/**
 * The server ended the session (spec part 1 §4, §8: 101013, 101015, 101016, 101014 after a failed
 * refresh) or it belongs to another console: clear it, show why, and go to the login form.
 */
export function endSession(tier: Tier, message: string | undefined): void {
  clearSession(tier);
  if (message) toast.error(message);
  appNavigation.replace(consolePath(tier, 'login'));
}
