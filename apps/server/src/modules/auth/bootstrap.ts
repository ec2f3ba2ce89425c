import { randomBytes } from 'node:crypto';
import { TIERS, type Tier, validateNewPassword } from '@rampart/contract';
import { ConfigError } from '../../config.js';
import { hashPassword, isCommonPassword } from '../../platform/crypto/passwords.js';
import type { AccountsRepository } from './accounts.repository.js';

export interface CreatedRoot {
  readonly tier: Tier;
  readonly account: string;
  /** Set only when the password was generated (to be shown once to whoever starts Rampart). */
  readonly generatedPassword: string | null;
}

/**
 * On first start, one root account per tier: `admin`, `client` (owned by admin) and `user`
 * (owned by client). Their password is RAMPART_INIT_PASSWORD, or a random one per account that
 * the caller prints once. There is never a fixed default password.
 */
export async function ensureRootAccounts(
  accounts: AccountsRepository,
  initPassword: string | undefined,
): Promise<CreatedRoot[]> {
  if (initPassword !== undefined) {
    const check = validateNewPassword(initPassword);
    if (!check.ok || isCommonPassword(initPassword)) {
      throw new ConfigError('RAMPART_INIT_PASSWORD must be 8-256 characters and not a common password');
    }
  }
  const created: CreatedRoot[] = [];
  let parentId: number | null = null;
  for (const tier of TIERS) {
    const existing = await accounts.findRoot(tier);
    if (existing) {
      parentId = existing.id;
      continue;
    }
    const generated = initPassword === undefined ? randomBytes(15).toString('base64url') : null;
    const row = await accounts.insert({
      tier,
      parentId,
      account: tier,
      name: tier,
      isRoot: true,
      passwordHash: await hashPassword(generated ?? (initPassword as string)),
    });
    parentId = row.id;
    created.push({ tier, account: tier, generatedPassword: generated });
  }
  return created;
}
