import type { SelfInfo } from '@rampart/contract';
import type { AccountRow } from './accounts.repository.js';

/** The operator above an account (its login name) and that operator's switches the consoles read. */
export interface SelfOperator {
  readonly account: string;
  readonly l4AttackPage: boolean;
}

/** What the API shows of an account to itself: no hash, no seed. */
export function presentSelf(
  row: AccountRow,
  permissions: ReadonlySet<string>,
  operator: SelfOperator | null,
): SelfInfo {
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
    operator: operator?.account ?? null,
    l4AttackPage: operator?.l4AttackPage ?? false,
    createdAt: row.createdAt.toISOString(),
  };
}
