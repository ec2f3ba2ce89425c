import { authRoutes, refresh } from '@rampart/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { i18n, i18nReady } from '../i18n/i18n';
import { type FakeApi, fail, ok, selfInfo, sessionTestEach, signedInCookies } from '../test/fake-api';
import { callAuthed } from './call-authed';
import { readTokenSet } from './cookies';
import { sessionStore } from './session-store';

const rig = sessionTestEach();

const getSelf = () => callAuthed('user', authRoutes.getSelf, { params: { auth: 'user' } });

/** The bearer token of a request. */
const bearer = (r: { headers: Headers }) => r.headers.get('Authorization');

/** Self information for the new token only; the old one has expired. */
function selfNeedsNewToken(api: FakeApi) {
  api.on(authRoutes.getSelf, { auth: 'user' }, (r) =>
    bearer(r) === 'Bearer access-2' ? ok(selfInfo('user')) : fail(401, 101014, 'Token Expired'),
  );
}

function delayed<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeEach(() => {
  signedInCookies('user', 'access-1');
});

describe('callAuthed', () => {
  it('sends the tier’s bearer token from its cookie', async () => {
    rig.api.on(authRoutes.getSelf, { auth: 'user' }, ok(selfInfo('user')));
    await expect(getSelf()).resolves.toEqual({ data: selfInfo('user') });
    expect(bearer(rig.api.requests[0]!)).toBe('Bearer access-1');
  });

  it('refreshes exactly once when ten concurrent calls hit 101014, and all ten replay with the new token', async () => {
    selfNeedsNewToken(rig.api);
    rig.api.on(refresh, { auth: 'user' }, () =>
      delayed(20, ok({ accessToken: 'access-2', refreshToken: '', tokenType: 'Bearer' })),
    );

    const replies = await Promise.all(Array.from({ length: 10 }, getSelf));

    expect(replies).toHaveLength(10);
    for (const reply of replies) expect(reply.data.account).toBe('alice');
    const refreshes = rig.api.sent(refresh, { auth: 'user' });
    expect(refreshes).toHaveLength(1);
    // The refresh token is the server's HttpOnly cookie: the body names only the expired access token.
    expect(refreshes[0]?.body).toEqual({ accessToken: 'access-1' });
    const selfCalls = rig.api.sent(authRoutes.getSelf, { auth: 'user' });
    expect(selfCalls.filter((r) => bearer(r) === 'Bearer access-1')).toHaveLength(10);
    expect(selfCalls.filter((r) => bearer(r) === 'Bearer access-2')).toHaveLength(10);
    expect(readTokenSet('user')).toEqual({ accessToken: 'access-2', tokenType: 'Bearer' });
    expect(document.cookie).not.toContain('refresh');
    expect(rig.navigate).not.toHaveBeenCalled();
    expect(rig.toasts.toasts).toEqual([]);
  });

  it('holds a call that starts during the refresh and sends it with the new token only', async () => {
    selfNeedsNewToken(rig.api);
    let late: Promise<unknown> | undefined;
    rig.api.on(refresh, { auth: 'user' }, () => {
      late = getSelf(); // starts while the refresh is in flight
      return delayed(20, ok({ accessToken: 'access-2', refreshToken: '', tokenType: 'Bearer' }));
    });

    await getSelf();
    await late;

    const selfCalls = rig.api.sent(authRoutes.getSelf, { auth: 'user' });
    expect(selfCalls.map(bearer)).toEqual(['Bearer access-1', 'Bearer access-2', 'Bearer access-2']);
    expect(rig.api.sent(refresh, { auth: 'user' })).toHaveLength(1);
  });

  it('clears the cookies, goes to the login form and shows the server message when the refresh fails', async () => {
    selfNeedsNewToken(rig.api);
    rig.api.on(refresh, { auth: 'user' }, () => delayed(10, fail(401, 101016, 'The session has ended; log in again')));

    const errors = await Promise.all(Array.from({ length: 3 }, () => rejection(getSelf())));

    for (const error of errors) expect(error.code).toBe(101016);
    expect(rig.api.sent(refresh, { auth: 'user' })).toHaveLength(1);
    expect(readTokenSet('user')).toBeNull();
    expect(document.cookie).not.toContain('u_');
    expect(rig.navigate).toHaveBeenCalledTimes(1);
    expect(rig.navigate).toHaveBeenCalledWith('/user/login');
    expect(rig.toasts.toasts).toEqual([{ kind: 'error', text: 'The session has ended; log in again' }]);
  });

  it.each([
    [101016, 'Refresh Token Failed'],
    [101013, 'Invalid Token'],
    [101015, 'Revoke Token Failed'],
  ])('forces a logout on %i without trying a refresh', async (code, message) => {
    sessionStore.setSelf('user', selfInfo('user'), 'access-1');
    rig.api.on(authRoutes.getSelf, { auth: 'user' }, fail(401, code, message));

    expect((await rejection(getSelf())).code).toBe(code);

    expect(rig.api.sent(refresh, { auth: 'user' })).toHaveLength(0);
    expect(readTokenSet('user')).toBeNull();
    expect(sessionStore.get('user').self).toBeNull();
    expect(rig.navigate).toHaveBeenCalledWith('/user/login');
    expect(rig.toasts.toasts).toEqual([{ kind: 'error', text: message }]);
  });

  it('ends the session when the replay after a successful refresh is still expired', async () => {
    rig.api.on(authRoutes.getSelf, { auth: 'user' }, fail(401, 101014, 'Token Expired'));
    rig.api.on(refresh, { auth: 'user' }, ok({ accessToken: 'access-2', refreshToken: '', tokenType: 'Bearer' }));

    expect((await rejection(getSelf())).code).toBe(101014);

    expect(rig.api.sent(refresh, { auth: 'user' })).toHaveLength(1);
    expect(rig.api.sent(authRoutes.getSelf, { auth: 'user' })).toHaveLength(2);
    expect(readTokenSet('user')).toBeNull();
    expect(rig.navigate).toHaveBeenCalledWith('/user/login');
  });

  it('leaves the session alone on other failures, such as 101018 or a refresh that got no reply', async () => {
    rig.api.on(authRoutes.getSelf, { auth: 'user' }, fail(403, 101018, 'Permission Denied'));
    expect((await rejection(getSelf())).code).toBe(101018);
    expect(readTokenSet('user')?.accessToken).toBe('access-1');

    rig.api.on(authRoutes.getSelf, { auth: 'user' }, fail(401, 101014, 'Token Expired'));
    rig.api.on(refresh, { auth: 'user' }, () => {
      throw new TypeError('connection reset');
    });
    expect((await rejection(getSelf())).failure).toBe('network');
    expect(readTokenSet('user')?.accessToken).toBe('access-1');
    expect(rig.navigate).not.toHaveBeenCalled();
    expect(rig.toasts.toasts).toEqual([]);
  });

  it('takes an account its operator requires a second factor of to the setup page, keeping the session', async () => {
    await i18nReady;
    await i18n.loadNamespaces('account');
    const renameSelf = () =>
      callAuthed('user', authRoutes.updateSelf, { params: { auth: 'user' }, body: { name: 'x', email: 'a@b.test' } });
    rig.api.on(
      authRoutes.updateSelf,
      { auth: 'user' },
      fail(403, 101018, 'Permission Denied', { reason: 'secondFactorRequired' }),
    );
    expect((await rejection(renameSelf())).code).toBe(101018);
    expect(readTokenSet('user')?.accessToken).toBe('access-1');
    expect(rig.navigate).toHaveBeenCalledWith('/user/userManagement/twoFactor');
    expect(rig.toasts.toasts.map((t) => t.text)).toEqual([
      'Your operator requires a second factor: set one up to continue.',
    ]);
  });

  it('ends only its own console’s session', async () => {
    signedInCookies('client', 'client-access');
    rig.api.on(authRoutes.getSelf, { auth: 'user' }, fail(401, 101013, 'Invalid Token'));

    await rejection(getSelf());

    expect(readTokenSet('user')).toBeNull();
    expect(readTokenSet('client')?.accessToken).toBe('client-access');
  });
});
