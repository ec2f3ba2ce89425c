import { createHash, createHmac } from 'node:crypto';
import { authRoutes, getSelf, logout, requestLogin, type Tier } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_GRACE_MS } from '../../src/modules/auth/token.service.js';
import { bearer, manualClock, signIn } from '../helpers/auth.js';
import { send } from '../helpers/call.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/test-app.js';

const clock = manualClock();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
});
afterAll(async () => t.close());

const self = (tier: Tier, headers: Record<string, string>) =>
  send(t.app, getSelf, { params: { auth: tier } }, { headers });
const refresh = (tier: Tier, refreshToken: string) =>
  send(t.app, authRoutes.refresh, { params: { auth: tier }, body: { refreshToken } });

function b64(obj: unknown) {
  return Buffer.from(JSON.stringify(obj)).toString('base64url');
}

describe('root accounts and sign-in', () => {
  it.each(['admin', 'client', 'user'] as const)('signs %s in and reads its own account', async (tier) => {
    const tokens = await signIn(t.app, tier);
    const res = await self(tier, bearer(tokens));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      auth: tier,
      account: tier,
      isRoot: true,
      status: 'normal',
      login2FAType: 0,
    });
    expect(res.json().data).not.toHaveProperty('passwordHash');
  });

  it('stores argon2id hashes with m=19456, t=2, p=1 in the database', async () => {
    for (const tier of ['admin', 'client', 'user'] as const) {
      const hash = (await t.app.rampart.accounts.findRoot(tier))?.passwordHash ?? '';
      const [, algorithm, , params] = hash.split('$');
      expect(algorithm).toBe('argon2id');
      expect(Object.fromEntries((params ?? '').split(',').map((kv) => kv.split('=')))).toEqual({
        m: '19456',
        t: '2',
        p: '1',
      });
    }
  });

  it("logs the caller's tier and account with each signed-in request", async () => {
    const tokens = await signIn(t.app, 'client');
    await self('client', { ...bearer(tokens), 'x-request-id': 'req-self-0001' });
    const root = await t.app.rampart.accounts.findRoot('client');
    expect(t.logs.find((l) => l.reqId === 'req-self-0001' && l.msg === 'request')).toMatchObject({
      tier: 'client',
      account: root?.id,
      status: 200,
    });
  });

  it('chains the roots admin → client → user', async () => {
    const admin = await t.app.rampart.accounts.findRoot('admin');
    const client = await t.app.rampart.accounts.findRoot('client');
    const user = await t.app.rampart.accounts.findRoot('user');
    expect([admin?.parentId, client?.parentId, user?.parentId]).toEqual([null, admin?.id, client?.id]);
  });

  it('answers a wrong password and an unknown account alike', async () => {
    const wrong = await send(t.app, requestLogin, {
      params: { auth: 'user' },
      body: { account: 'user', password: 'nope-nope' },
    });
    const unknown = await send(t.app, requestLogin, {
      params: { auth: 'user' },
      body: { account: 'ghost', password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
    expect(wrong.json().code).toBe(101012);
  });

  it("does not sign an account in through another tier's console", async () => {
    const res = await send(t.app, requestLogin, {
      params: { auth: 'client' },
      body: { account: 'user', password: TEST_PASSWORD },
    });
    expect(res.json().code).toBe(101012);
  });
});

describe('access tokens', () => {
  it('refuses a call without a token, with garbage, and with alg none', async () => {
    const tokens = await signIn(t.app, 'user');
    const [, payload] = tokens.accessToken.split('.');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bearer x.y.z' },
      { authorization: `Bearer ${none}` },
      { authorization: tokens.accessToken },
    ];
    for (const headers of cases) {
      const res = await self('user', headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(101013);
    }
  });

  it('refuses a token signed with another key or carrying other claims', async () => {
    const tokens = await signIn(t.app, 'user');
    const [header, payload] = tokens.accessToken.split('.') as [string, string];
    const forged = createHmac('sha256', 'attacker-key').update(`${header}.${payload}`).digest('base64url');
    expect((await self('user', { authorization: `Bearer ${header}.${payload}.${forged}` })).json().code).toBe(101013);
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const promoted = b64({ ...claims, aud: 'rampart:admin' });
    expect(
      (
        await self('admin', { authorization: `Bearer ${header}.${promoted}.${tokens.accessToken.split('.')[2]}` })
      ).json().code,
    ).toBe(101013);
  });

  it('answers 101014 once the access token has expired, and refresh then works', async () => {
    const tokens = await signIn(t.app, 'client');
    clock.advance(16 * 60 * 1000);
    const res = await self('client', bearer(tokens));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(101014);
    const renewed = await refresh('client', tokens.refreshToken);
    expect(renewed.statusCode).toBe(200);
    expect((await self('client', bearer(renewed.json().data))).statusCode).toBe(200);
  });

  it("refuses a user's token on the client and admin consoles' calls with 101018", async () => {
    const tokens = await signIn(t.app, 'user');
    for (const tier of ['client', 'admin'] as const) {
      const res = await self(tier, bearer(tokens));
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(101018);
    }
  });

  it('refuses a refresh token sent as the bearer, and an access token sent to refresh', async () => {
    const tokens = await signIn(t.app, 'user');
    expect((await self('user', { authorization: `Bearer ${tokens.refreshToken}` })).json().code).toBe(101013);
    expect((await refresh('user', tokens.accessToken)).json().code).toBe(101016);
  });
});

describe('refresh tokens', () => {
  it('rotates: the new token works and the presented one is spent', async () => {
    const first = await signIn(t.app, 'user');
    const second = (await refresh('user', first.refreshToken)).json().data;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const third = await refresh('user', second.refreshToken);
    expect(third.statusCode).toBe(200);
  });

  it('revokes the whole session when a spent token is presented again after the grace window', async () => {
    const first = await signIn(t.app, 'user');
    const second = (await refresh('user', first.refreshToken)).json().data;
    clock.advance(REFRESH_GRACE_MS + 1);
    const reuse = await refresh('user', first.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe(101016);
    expect((await refresh('user', second.refreshToken)).json().code).toBe(101016);
    expect((await self('user', bearer(second))).json().code).toBe(101013);
    const event = t.logs.find((l) => l.event === 'auth.refresh.reuse');
    expect(event).toMatchObject({ tier: 'user', level: 40 });
  });

  it('answers a spent token presented again within the grace window with the same successor (a page reloaded mid-refresh)', async () => {
    const first = await signIn(t.app, 'user');
    const second = (await refresh('user', first.refreshToken)).json().data;
    clock.advance(REFRESH_GRACE_MS - 1000);
    const replay = await refresh('user', first.refreshToken);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data.refreshToken).toBe(second.refreshToken);
    expect((await self('user', bearer(replay.json().data))).statusCode).toBe(200);
    // One live descendant: the successor rotates once; the session lives on.
    const third = await refresh('user', second.refreshToken);
    expect(third.statusCode).toBe(200);
    expect((await self('user', bearer(third.json().data))).statusCode).toBe(200);
  });

  it('revokes on a replay within the window once the successor has been spent (no fork)', async () => {
    const first = await signIn(t.app, 'user');
    const second = (await refresh('user', first.refreshToken)).json().data;
    const third = (await refresh('user', second.refreshToken)).json().data;
    expect((await refresh('user', first.refreshToken)).json().code).toBe(101016);
    expect((await self('user', bearer(third))).json().code).toBe(101013);
  });

  it('answers ten parallel refreshes with one token with one successor: never two live descendants', async () => {
    const tokens = await signIn(t.app, 'user');
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh('user', tokens.refreshToken)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.statusCode !== 200).every((r) => r.json().code === 101016)).toBe(true);
    const successors = new Set(ok.map((r) => r.json().data.refreshToken as string));
    expect(successors.size).toBe(1);
    const [successor] = [...successors];
    // The session holds exactly one unspent refresh token: that successor.
    const hash = createHash('sha256')
      .update(successor ?? '')
      .digest('hex');
    const live = await t.db.database.db.execute(
      `SELECT token_hash FROM refresh_tokens WHERE used_at IS NULL AND session_id =
         (SELECT session_id FROM refresh_tokens WHERE token_hash = '${hash}')`,
    );
    expect((live as unknown as { rows: unknown[] }).rows).toEqual([{ token_hash: hash }]);
    expect((await refresh('user', successor ?? '')).statusCode).toBe(200);
  });

  it('ends a session at its absolute lifetime however often it is refreshed', async () => {
    let tokens = await signIn(t.app, 'admin');
    for (let day = 0; day < 3; day++) {
      clock.advance(9 * 24 * 3600 * 1000);
      const res = await refresh('admin', tokens.refreshToken);
      expect(res.statusCode).toBe(200);
      tokens = res.json().data;
    }
    clock.advance(4 * 24 * 3600 * 1000); // 31 days after sign-in
    expect((await refresh('admin', tokens.refreshToken)).json().code).toBe(101016);
  });

  it('refuses a refresh token on another tier', async () => {
    const tokens = await signIn(t.app, 'user');
    expect((await refresh('client', tokens.refreshToken)).json().code).toBe(101016);
  });
});

describe('logout', () => {
  it('revokes the refresh token and the access tokens of the session', async () => {
    const tokens = await signIn(t.app, 'user');
    const out = await send(t.app, logout, { params: { auth: 'user' }, body: tokens });
    expect(out.statusCode).toBe(200);
    expect((await refresh('user', tokens.refreshToken)).json().code).toBe(101016);
    expect((await self('user', bearer(tokens))).json().code).toBe(101013);
  });

  it('answers 101015 for a token it cannot revoke', async () => {
    const res = await send(t.app, logout, { params: { auth: 'user' }, body: { refreshToken: 'rt_unknown' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(101015);
  });

  it('keeps other sessions of the account alive', async () => {
    const a = await signIn(t.app, 'user');
    const b = await signIn(t.app, 'user');
    await send(t.app, logout, { params: { auth: 'user' }, body: a });
    expect((await self('user', bearer(b))).statusCode).toBe(200);
  });
});
