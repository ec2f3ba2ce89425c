import type { TokenSet } from '@rampart/contract';
import type { FastifyInstance } from 'fastify';
import { TEST_PASSWORD } from './test-app.js';

export type TierName = 'admin' | 'client' | 'user';

/** Signs in with account and password (no second factor) and returns the token set. */
export async function signIn(
  app: FastifyInstance,
  tier: TierName,
  account: string = tier,
  password = TEST_PASSWORD,
): Promise<TokenSet> {
  const res = await app.inject({ method: 'POST', url: `/api/v1/${tier}/code`, payload: { account, password } });
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

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A signed-in call of the console API: `/api/v1/<url>` with the bearer of `tokens` and an optional JSON body. */
export function callApi(
  app: FastifyInstance,
  tokens: Pick<TokenSet, 'accessToken'>,
  method: Method,
  url: string,
  payload?: Record<string, unknown>,
) {
  return app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: bearer(tokens),
    ...(payload === undefined ? {} : { payload }),
  });
}
