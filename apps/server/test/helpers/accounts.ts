import { assignablePermissions, assignRole, createRole, type TokenSet } from '@rampart/contract';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../src/platform/crypto/passwords.js';
import { signIn, type TierName } from './auth.js';
import { send } from './call.js';
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

/** The id of the seeded root account of `tier` (the operator, the customer): throws when there is none. */
export async function rootId(app: FastifyInstance, tier: TierName): Promise<number> {
  const row = await app.rampart.accounts.findRoot(tier);
  if (!row) throw new Error(`no root ${tier} account`);
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

/**
 * Gives a sub-account a role holding `permissions` (every key of its tier by default), created by
 * its parent (`parentTokens`) through the API: a sub-account without a role holds no key.
 */
export async function giveRole(
  app: FastifyInstance,
  parentTokens: Pick<TokenSet, 'accessToken'>,
  tier: TierName,
  accountId: number,
  permissions: string[] = [...assignablePermissions(tier)],
): Promise<number> {
  const headers = { authorization: `Bearer ${parentTokens.accessToken}` };
  const role = await send(
    app,
    createRole,
    { params: { auth: tier }, body: { name: `role of ${accountId}`, permissions } },
    { headers },
  );
  if (role.statusCode !== 200) throw new Error(`role: ${role.body}`);
  const roleId = role.json().data.id as number;
  const res = await send(app, assignRole, { params: { auth: tier }, body: { accountId, roleId } }, { headers });
  if (res.statusCode !== 200) throw new Error(`assign role: ${res.body}`);
  return roleId;
}
