import type { TokenSet } from '@rampart/contract';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../src/platform/crypto/passwords.js';
import { signIn, type TierName } from './auth.js';
import { TEST_PASSWORD, type TestApp } from './test-app.js';

/**
 * Adds an account with the test password: a customer (`user`) below `parentId`, or with no parent
 * an account of no operator's tree — a `client` without a parent is a second operator.
 */
export async function addAccount(
  app: FastifyInstance,
  tier: 'client' | 'user',
  account: string,
  parentId?: number,
): Promise<number> {
  const row = await app.rampart.accounts.insert({
    tier,
    account,
    name: account,
    passwordHash: await hashPassword(TEST_PASSWORD),
    ...(parentId === undefined ? {} : { parentId }),
  });
  return row.id;
}

/**
 * A second account of `tier` under the root account of the tier above (the admin console's account
 * calls come later), signed in with the test password. A client made this way is a second
 * operator: isolation tests check that it reaches nothing of the root client's.
 */
export async function createSignedInAccount(
  t: TestApp,
  tier: Exclude<TierName, 'admin'>,
  account: string,
): Promise<TokenSet & { id: number }> {
  const parent = await t.app.rampart.accounts.findRoot(tier === 'user' ? 'client' : 'admin');
  const id = await addAccount(t.app, tier, account, parent?.id);
  return { ...(await signIn(t.app, tier, account)), id };
}
