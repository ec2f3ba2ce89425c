import type { TokenSet } from '@rampart/contract';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../src/platform/crypto/passwords.js';
import { signIn } from './auth.js';
import { TEST_PASSWORD } from './test-app.js';

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
 * Makes a second operator (a root client account beside the seeded one) and signs it in: the
 * isolation tests' other tenant, who must get 101018 / nothing for the first operator's objects.
 */
export async function signInOtherOperator(app: FastifyInstance, account = 'rival'): Promise<TokenSet> {
  await addAccount(app, 'client', account);
  return signIn(app, 'client', account);
}
