import { LOGIN_2FA_TYPES } from '@rampart/contract';
import type { AccountRow } from '../db/schema.js';

/** Whether sign-in asks the account for a second factor (login.service.ts `start`: a TOTP type needs its seed). */
export function hasSecondFactor(account: Pick<AccountRow, 'login2FAType' | 'totpSecret'>): boolean {
  if (account.login2FAType === LOGIN_2FA_TYPES.email) return true;
  return account.login2FAType === LOGIN_2FA_TYPES.totp && account.totpSecret !== null;
}
