import { authRoutes, getSelf, login, requestLogin, resendLoginCode } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import type { ConsolePage } from '../app/console-routes';
import { landingPath } from '../app/landing';
import { CLIENT_PAGES } from '../pages/client/client.routes';
import { fail, ok, selfInfo, sessionTestEach, signedInCookies } from '../test/fake-api';
import { readTokenSet } from './cookies';
import { pendingLogin, resendCode, submitCode, submitCredentials } from './login-flow';
import { logout, NoSessionError, restoreSession } from './session';
import { sessionStore } from './session-store';

const rig = sessionTestEach();
const tokens = { accessToken: 'access-1', refreshToken: 'refresh-1', tokenType: 'Bearer' };
/** What the page keeps of `tokens`: the refresh token is the server's HttpOnly cookie. */
const stored = { accessToken: 'access-1', tokenType: 'Bearer' };
const credentials = { account: 'alice', password: 'correct horse' };

describe('login', () => {
  it('type 0: stores the returned tokens and loads the account with them', async () => {
    rig.api.on(requestLogin, { auth: 'client' }, ok({ login2FAType: 0, ...tokens }));
    rig.api.on(getSelf, { auth: 'client' }, ok(selfInfo('client')));

    const outcome = await submitCredentials('client', credentials);

    expect(outcome).toEqual({ kind: 'signedIn', self: selfInfo('client') });
    expect(rig.api.sent(requestLogin, { auth: 'client' })[0]?.body).toEqual(credentials);
    expect(rig.api.sent(getSelf, { auth: 'client' })[0]?.headers.get('Authorization')).toBe('Bearer access-1');
    expect(readTokenSet('client')).toEqual(stored);
    expect(sessionStore.get('client').self?.account).toBe('alice');
  });

  it('type 1: keeps the step-1 info for verifyAccount, which can resend the code and then log in', async () => {
    rig.api.on(requestLogin, { auth: 'user' }, ok({ login2FAType: 1, onePassKey: 'ticket' }));
    expect(await submitCredentials('user', credentials)).toEqual({ kind: 'needsCode', login2FAType: 1 });
    expect(readTokenSet('user')).toBeNull();
    expect(pendingLogin('user')).toEqual({ ...credentials, onePassKey: 'ticket', login2FAType: 1 });

    rig.api.on(resendLoginCode, { auth: 'user' }, ok(true));
    await resendCode('user');
    expect(rig.api.sent(resendLoginCode, { auth: 'user' })[0]?.body).toEqual({ ...credentials, onePassKey: 'ticket' });

    rig.api.on(login, { auth: 'user' }, ok(tokens));
    rig.api.on(getSelf, { auth: 'user' }, ok(selfInfo('user')));
    await submitCode('user', '123456');
    expect(rig.api.sent(login, { auth: 'user' })[0]?.body).toEqual({
      ...credentials,
      onePassKey: 'ticket',
      login2FAType: 1,
      code: '123456',
    });
    expect(readTokenSet('user')).toEqual(stored);
    expect(document.cookie).not.toContain('refresh-1');
    expect(pendingLogin('user')).toBeNull();
  });

  it('type 2: logs in at once with the returned one-pass key and code', async () => {
    rig.api.on(requestLogin, { auth: 'admin' }, ok({ login2FAType: 2, onePassKey: 'ticket', code: '654321' }));
    rig.api.on(login, { auth: 'admin' }, ok(tokens));
    rig.api.on(getSelf, { auth: 'admin' }, ok(selfInfo('admin')));

    expect((await submitCredentials('admin', credentials)).kind).toBe('signedIn');
    expect(rig.api.sent(login, { auth: 'admin' })[0]?.body).toEqual({
      ...credentials,
      onePassKey: 'ticket',
      login2FAType: 2,
      code: '654321',
    });
  });

  it('type 3: waits for the authenticator code', async () => {
    rig.api.on(requestLogin, { auth: 'user' }, ok({ login2FAType: 3, onePassKey: 'ticket' }));
    expect(await submitCredentials('user', credentials)).toEqual({ kind: 'needsCode', login2FAType: 3 });
  });

  it('ends the session with "Auth is not match !" when the account is of another console', async () => {
    rig.api.on(requestLogin, { auth: 'user' }, ok({ login2FAType: 0, ...tokens }));
    rig.api.on(getSelf, { auth: 'user' }, ok(selfInfo('client')));

    await expect(submitCredentials('user', credentials)).rejects.toBeInstanceOf(NoSessionError);

    expect(readTokenSet('user')).toBeNull();
    expect(sessionStore.get('user').self).toBeNull();
    expect(rig.toasts.toasts).toEqual([{ kind: 'error', text: 'Auth is not match !' }]);
    expect(rig.navigate).toHaveBeenCalledWith('/user/login');
  });
});

describe('restoreSession', () => {
  it('loads the account with the stored token, then answers from memory while the session is the same', async () => {
    signedInCookies('user');
    rig.api.on(getSelf, { auth: 'user' }, ok(selfInfo('user')));

    expect((await restoreSession('user')).account).toBe('alice');
    expect((await restoreSession('user')).account).toBe('alice');
    expect(rig.api.sent(getSelf, { auth: 'user' })).toHaveLength(1);

    signedInCookies('user', 'access-9'); // e.g. switchUser in another tab
    await restoreSession('user');
    expect(rig.api.sent(getSelf, { auth: 'user' })).toHaveLength(2);
  });

  it('rejects without a call when the cookies are missing', async () => {
    await expect(restoreSession('user')).rejects.toBeInstanceOf(NoSessionError);
    expect(rig.api.requests).toHaveLength(0);
  });

  it('treats 101018 (a token of another console) as "Auth is not match !"', async () => {
    signedInCookies('admin');
    rig.api.on(getSelf, { auth: 'admin' }, fail(403, 101018, 'Permission Denied'));

    await expect(restoreSession('admin')).rejects.toBeInstanceOf(NoSessionError);
    expect(readTokenSet('admin')).toBeNull();
    expect(rig.toasts.toasts).toEqual([{ kind: 'error', text: 'Auth is not match !' }]);
  });
});

describe('logout', () => {
  it('revokes the session (the refresh token is the server’s cookie) and forgets it, even when the server refuses', async () => {
    signedInCookies('user');
    sessionStore.setSelf('user', selfInfo('user'), 'access-1');
    rig.api.on(authRoutes.logout, { auth: 'user' }, fail(401, 101015, 'Revoke Token Failed'));

    await logout('user');

    expect(rig.api.sent(authRoutes.logout, { auth: 'user' })[0]?.body).toEqual({ accessToken: 'access-1' });
    expect(readTokenSet('user')).toBeNull();
    expect(sessionStore.get('user').self).toBeNull();
  });
});

describe('landingPath', () => {
  const dnsSetting: ConsolePage = { name: 'dnsSetting', path: 'systemManagement/dnsSetting', lazy: undefined };

  it('sends everyone to the dashboard while the client console has no dnsSetting page', () => {
    expect(landingPath('client', selfInfo('client', { isRoot: true, dnsType: '' }), [])).toBe('/client/dashboard');
    expect(landingPath('user', selfInfo('user'))).toBe('/user/dashboard');
    expect(landingPath('admin', selfInfo('admin'))).toBe('/admin/dashboard');
  });

  it('sends a root client without a DNS type to the console’s dnsSetting page', () => {
    expect(landingPath('client', selfInfo('client', { isRoot: true, dnsType: '' }))).toBe(
      '/client/systemManagement/dnsSetting',
    );
  });

  it('lands on the client console’s own dnsSetting page', () => {
    const page = CLIENT_PAGES.find((candidate) => candidate.name === 'dnsSetting');
    expect(page && landingPath('client', selfInfo('client', { isRoot: true, dnsType: '' }))).toBe(
      `/client/${page?.path}`,
    );
  });

  it('sends a root client without a DNS type to the dnsSetting page once it exists', () => {
    const pages = [dnsSetting];
    expect(landingPath('client', selfInfo('client', { isRoot: true, dnsType: '' }), pages)).toBe(
      '/client/systemManagement/dnsSetting',
    );
    expect(landingPath('client', selfInfo('client', { isRoot: true, dnsType: 'pdns' }), pages)).toBe(
      '/client/dashboard',
    );
    expect(landingPath('client', selfInfo('client', { isRoot: false, dnsType: '' }), pages)).toBe('/client/dashboard');
  });
});
