import { type AnyRoute, totpPhase0, totpPhase1, totpPhase2 } from '@rampart/contract';
import type { CallInput } from '@rampart/contract/testing';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_FACTOR_LIMIT } from '../../src/modules/auth/credential-guard.js';
import { timeStep, totpAt } from '../../src/platform/crypto/totp.js';
import { addAccount, rootId } from '../helpers/accounts.js';
import { manualClock, signIn } from '../helpers/auth.js';
import { sendWith } from '../helpers/call.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/test-app.js';

/**
 * A wrong second-factor code always counts: the call that refuses it rolls its transaction back,
 * yet the failure stays recorded, on the database every control plane reads. Two app instances
 * (two control planes, each with its own memory) share one database here, PGlite or PostgreSQL.
 */
const clock = manualClock(1_800_000_000_000);
let a: TestApp;
let b: FastifyInstance;
let rootUserId = 0;
beforeAll(async () => {
  // The clock passes the throttle's window here: the access tokens must outlive it.
  const config = { accessTokenTtlSeconds: 86_400 };
  a = await createTestApp({ clock: clock.now, config });
  b = (await createTestApp({ clock: clock.now, config, db: a.db })).app;
  rootUserId = await rootId(a.app, 'user');
});
afterAll(async () => {
  // B's database is A's: A's close drops it.
  await b.close();
  await a.close();
});

const as = <R extends AnyRoute>(app: FastifyInstance, route: R, input: CallInput<R>, accessToken: string) =>
  sendWith(app, route, input, { token: { accessToken } });

let n = 0;
async function freshWithTotp(): Promise<{ id: number; token: string; secret: string }> {
  n += 1;
  const id = await addAccount(a.app, 'user', `second-factor-${n}`, rootUserId);
  const token = (await signIn(a.app, 'user', `second-factor-${n}`)).accessToken;
  const { onePassKey, secret } = await setupTicket(a.app, token);
  const p2 = await as(
    a.app,
    totpPhase2,
    { params: { auth: 'user' }, body: { onePassKey, login2FAType: 3, code: totpAt(secret, timeStep(clock.now())) } },
    token,
  );
  expect(p2.json()).toEqual({ data: { login2FAType: 3 } });
  clock.advance(30_000);
  return { id, token, secret };
}

/** Phases 0 and 1 (while no second factor is on): a set-up ticket and the new seed. */
async function setupTicket(app: FastifyInstance, token: string) {
  const p0 = await as(app, totpPhase0, { params: { auth: 'user' }, body: { password: TEST_PASSWORD } }, token);
  const { onePassKey } = p0.json().data;
  const { qrCodeData } = (await as(app, totpPhase1, { params: { auth: 'user' }, body: { onePassKey } }, token)).json()
    .data;
  return { onePassKey: onePassKey as string, secret: new URL(qrCodeData).searchParams.get('secret') ?? '' };
}

function wrongCode(secret: string): string {
  const near = [-1, 0, 1].map((d) => totpAt(secret, timeStep(clock.now()) + d));
  for (let i = 0; ; i++) {
    const code = String(200000 + i);
    if (!near.includes(code)) return code;
  }
}

async function recordedFailures(accountId: number): Promise<number> {
  const result = (await a.db.database.db.execute(
    sql`SELECT count(*)::int AS n FROM second_factor_failures WHERE account_id = ${accountId}`,
  )) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n);
}

describe('wrong second-factor codes', () => {
  it('are recorded although the refused call rolls back, and count on every control plane', async () => {
    const { id, token, secret } = await freshWithTotp();
    const phase0 = (app: FastifyInstance, code: string) =>
      as(app, totpPhase0, { params: { auth: 'user' }, body: { password: TEST_PASSWORD, code } }, token);
    const half = SECOND_FACTOR_LIMIT.limit / 2;
    for (const app of [a.app, b]) {
      for (let i = 0; i < half; i++) {
        const res = await phase0(app, wrongCode(secret));
        expect(res.json().extra.fields[0]).toMatchObject({ field: 'code', key: 'wrongCode' });
      }
    }
    expect(await recordedFailures(id)).toBe(SECOND_FACTOR_LIMIT.limit);
    // Neither control plane takes even the right code now.
    const code = totpAt(secret, timeStep(clock.now()));
    for (const app of [a.app, b]) {
      const right = await phase0(app, code);
      expect(right.statusCode).toBe(429);
      expect(right.json().code).toBe(101012);
    }
    // After the window the right code is taken, and the count starts again.
    clock.advance(SECOND_FACTOR_LIMIT.windowMs + 1000);
    const later = await phase0(b, totpAt(secret, timeStep(clock.now())));
    expect(later.statusCode, later.body).toBe(200);
    expect(await recordedFailures(id)).toBe(0);
  });

  it('spend a set-up ticket after 5 wrong codes on either control plane, although each refusal rolled back', async () => {
    n += 1;
    await addAccount(a.app, 'user', `second-factor-${n}`, rootUserId);
    const token = (await signIn(a.app, 'user', `second-factor-${n}`)).accessToken;
    const { onePassKey, secret } = await setupTicket(a.app, token);
    const phase2 = (app: FastifyInstance, code: string) =>
      as(app, totpPhase2, { params: { auth: 'user' }, body: { onePassKey, login2FAType: 3, code } }, token);
    for (const app of [a.app, b, a.app, b, a.app]) {
      expect((await phase2(app, wrongCode(secret))).json().extra.fields[0]).toMatchObject({ key: 'wrongCode' });
    }
    const right = await phase2(b, totpAt(secret, timeStep(clock.now())));
    expect(right.json().code).toBe(101013);
    clock.advance(SECOND_FACTOR_LIMIT.windowMs + 1000);
  });
});
