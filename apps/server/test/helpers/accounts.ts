import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../src/platform/crypto/passwords.js';
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
