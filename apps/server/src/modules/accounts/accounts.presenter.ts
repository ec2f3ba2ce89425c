import type { ManagedAccount } from '@rampart/contract';
import type { AccountRow } from '../auth/accounts.repository.js';

/** An account below the caller as the API shows it: no hash, no seed. */
export function presentAccount(row: AccountRow, subCount: number, role: ManagedAccount['role'] = null): ManagedAccount {
  return {
    id: row.id,
    auth: row.tier,
    account: row.account,
    name: row.name,
    email: row.email,
    status: row.status,
    isRoot: row.isRoot,
    hasPassword: row.passwordHash !== null,
    login2FAType: row.login2FAType,
    maxLogExportTimes: row.maxLogExportTimes,
    zoneLimit: isOperator(row) ? row.zoneLimit : 0,
    subCount,
    role,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An operator: the top account of the client tier (the zone limit is its own). */
export function isOperator(row: Pick<AccountRow, 'tier' | 'isRoot'>): boolean {
  return row.tier === 'client' && row.isRoot;
}
