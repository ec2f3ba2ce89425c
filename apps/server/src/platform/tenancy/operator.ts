import type { AccountRow } from '../db/schema.js';

/**
 * The operator an account belongs to, from its row: the stored `operatorId` (set when the account is
 * created below an operator), or the account itself when it is an operator (a client account with
 * none above it). Admin accounts, and customers outside every operator, have none.
 */
export function operatorOf(account: AccountRow): number | null {
  if (account.operatorId !== null) return account.operatorId;
  return account.tier === 'client' ? account.id : null;
}
