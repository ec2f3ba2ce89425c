import type { TokenSet } from '@rampart/contract';
import { AccountsRepository } from '../../src/modules/auth/accounts.repository.js';
import { hashPassword } from '../../src/platform/crypto/passwords.js';
import { signIn, type TierName } from './auth.js';
import { TEST_PASSWORD, type TestApp } from './test-app.js';

/**
 * A second account of `tier` straight in the database (the admin console's account calls come
 * later), under the root account of the tier above, signed in with the test password. A client made
 * this way is a second operator: isolation tests check that it reaches nothing of the root client's.
 */
export async function createSignedInAccount(
  t: TestApp,
  tier: TierName,
  account: string,
): Promise<TokenSet & { id: number }> {
  const accounts = new AccountsRepository(t.db.database.db);
  const parentTier = tier === 'user' ? 'client' : 'admin';
  const parent = tier === 'admin' ? undefined : await accounts.findRoot(parentTier);
  const row = await accounts.insert({
    tier,
    parentId: parent?.id ?? null,
    account,
    name: account,
    passwordHash: await hashPassword(TEST_PASSWORD),
  });
  return { ...(await signIn(t.app, tier, account)), id: row.id };
}
