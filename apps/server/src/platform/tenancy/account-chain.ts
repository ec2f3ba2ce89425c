import { MANAGED_TIERS, type Tier } from '@rampart/contract';
import type { AccountRow } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import type { Caller } from '../http/bind-route.js';

/**
 * The account chain as the checks below read it (the auth module's AccountsRepository): an account,
 * the top account of its tier above it, and whether one account is below another.
 */
export interface AccountChain {
  findById(id: number): Promise<AccountRow | undefined>;
  topOfTier(id: number): Promise<number>;
  isDescendant(ancestorId: number, descendantId: number): Promise<boolean>;
}

/** Whether an account of `callerTier` manages accounts of `tier` at all. */
export function managesTier(callerTier: Tier, tier: Tier): boolean {
  return (MANAGED_TIERS[callerTier] as readonly Tier[]).includes(tier);
}

/**
 * The account whose direct children of `tier` the caller manages: its own sub-accounts for its own
 * tier; for a lower tier the top account of the caller's tier (a sub-account acts for its operator).
 */
export async function parentForTier(accounts: AccountChain, caller: Caller, tier: Tier): Promise<number> {
  if (!managesTier(caller.tier, tier)) throw new AppError(101018);
  return tier === caller.tier ? caller.accountId : accounts.topOfTier(caller.accountId);
}

/**
 * The account `id` if the caller manages it: of a tier its console manages, and below the caller
 * (own tier) or below the caller's top account (lower tier). Missing, another tenant's, the caller
 * itself and anything above it all answer 101018, so ids cannot be probed.
 */
export async function requireManaged(accounts: AccountChain, caller: Caller, id: number): Promise<AccountRow> {
  const target = await accounts.findById(id);
  if (!target || target.id === caller.accountId || !managesTier(caller.tier, target.tier)) {
    throw new AppError(101018);
  }
  const ancestor = target.tier === caller.tier ? caller.accountId : await accounts.topOfTier(caller.accountId);
  if (!(await accounts.isDescendant(ancestor, target.id))) throw new AppError(101018);
  return target;
}
