import type { TokenSet } from '@rampart/contract';
import { requestLogin } from '@rampart/contract';
import type { FastifyInstance } from 'fastify';
import { send } from './call.js';
import { TEST_PASSWORD } from './test-app.js';

export type TierName = 'admin' | 'client' | 'user';

/** Signs in with account and password (no second factor) and returns the token set. */
export async function signIn(
  app: FastifyInstance,
  tier: TierName,
  account: string = tier,
  password = TEST_PASSWORD,
): Promise<TokenSet> {
  const res = await send(app, requestLogin, { params: { auth: tier }, body: { account, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const { data } = res.json();
  if (!data.accessToken) throw new Error(`sign-in needs a second factor: ${res.body}`);
  return { accessToken: data.accessToken, refreshToken: data.refreshToken, tokenType: 'Bearer' };
}

export function bearer(tokens: Pick<TokenSet, 'accessToken'>) {
  return { authorization: `Bearer ${tokens.accessToken}` };
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.now()) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}
