import type { SelfInfo } from '@rampart/contract';
import type { AccountRow } from './accounts.repository.js';

/** What the API shows of an account to itself: no hash, no seed. */
export function presentSelf(row: AccountRow, permissions: ReadonlySet<string>, operator: string | null): SelfInfo {
  return {
    id: row.id,
    auth: row.tier,
    account: row.account,
    email: row.email,
    name: row.name,
    status: row.status,
    isRoot: row.isRoot,
    dnsType: row.dnsType,
    maxLogExportTimes: row.maxLogExportTimes,
    login2FAType: row.login2FAType as SelfInfo['login2FAType'],
    permissions: [...permissions].sort(),
    operator,
    createdAt: row.createdAt.toISOString(),
  };
}
