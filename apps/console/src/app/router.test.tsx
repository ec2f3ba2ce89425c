import { checkRegisterToken, getSelf, refresh, requestLogin } from '@rampart/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OPERATOR_STORAGE_KEY } from '../features/branding/use-branding';
import { pendingLogin, readTokenSet, submitCredentials } from '../session';
import {
  type FakeApi,
  fail,
  installFakeApi,
  ok,
  resetBrowserSession,
  restoreFakeApi,
  selfInfo,
  signedInCookies,
} from '../test/fake-api';
import { renderAt } from '../test/render-app';
import { documentNavigation } from './document-navigation';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;

beforeEach(() => {
  resetBrowserSession();
  api = installFakeApi();
});

afterEach(() => {
  restoreFakeApi();
  vi.restoreAllMocks();
});

async function expectLoginForm() {
  expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
  expect(screen.getByLabelText('Account')).toBeTruthy();
  expect(screen.getByLabelText('Password')).toBeTruthy();
}

describe('routes', () => {
  it('sends / to the user console’s login form', async () => {
    const router = renderAt('/');
    await expectLoginForm();
    expect(router.state.location.pathname).toBe('/user/login');
  });

  it.each(['/404', '/no/such/page', '/user/no-such-page', '/admin/no-such-page'])(
    'shows the 404 page at %s without changing the address',
    async (path) => {
      const router = renderAt(path);
      expect(await screen.findByText('Page not found')).toBeTruthy();
      expect(router.state.location.pathname).toBe(path);
    },
  );

  it('goes from the 404 page to the user login form', async () => {
    const router = renderAt('/nowhere');
    (await screen.findByRole('button', { name: 'Back home' })).click();
    await expectLoginForm();
    expect(router.state.location.pathname).toBe('/user/login');
  });

  it.each(['/user/apiDoc', '/client/apiDoc'])('leaves %s for the server-served API docs', async (path) => {
    const assign = vi.spyOn(documentNavigation, 'assign').mockImplementation(() => {});
    renderAt(path);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/v1/docs'));
  });
});

describe('session routes', () => {
  it.each([
    ['/user', '/user/login'],
    ['/client/dashboard', '/client/login'],
    ['/admin/userManagement/twoFactor', '/admin/login'],
  ])('sends %s without a session to %s', async (path, login) => {
    const router = renderAt(path);
    await expectLoginForm();
    expect(router.state.location.pathname).toBe(login);
    expect(api.requests.filter((r) => r.route === getSelf)).toHaveLength(0);
  });

  it('restores the session of a console root and shows its dashboard', async () => {
    signedInCookies('admin');
    api.on(getSelf, { auth: 'admin' }, ok(selfInfo('admin')));
    const router = renderAt('/admin');
    expect(await screen.findByTestId('account-summary')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(api.sent(getSelf, { auth: 'admin' })[0]?.headers.get('Authorization')).toBe('Bearer access-1');
  });

  it('refreshes once while restoring with an expired token', async () => {
    signedInCookies('user');
    api.on(getSelf, { auth: 'user' }, (r) =>
      r.headers.get('Authorization') === 'Bearer access-2' ? ok(selfInfo('user')) : fail(401, 101014, 'Token Expired'),
    );
    api.on(refresh, { auth: 'user' }, ok({ accessToken: 'access-2', refreshToken: 'refresh-2', tokenType: 'Bearer' }));
    renderAt('/user/dashboard');
    expect(await screen.findByTestId('account-summary')).toBeTruthy();
    expect(api.sent(refresh, { auth: 'user' })).toHaveLength(1);
    expect(readTokenSet('user')?.accessToken).toBe('access-2');
  });

  it('resets the session and shows the server message when the stored token is refused', async () => {
    signedInCookies('user');
    api.on(getSelf, { auth: 'user' }, fail(401, 101013, 'This token is not valid'));
    const router = renderAt('/user/changePassword');
    await expectLoginForm();
    expect(await screen.findByText('This token is not valid')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user/login');
    expect(readTokenSet('user')).toBeNull();
  });

  it('keeps the cookies and offers a reload when the server cannot be reached', async () => {
    signedInCookies('user');
    api.on(getSelf, { auth: 'user' }, () => {
      throw new TypeError('connection refused');
    });
    renderAt('/user/dashboard');
    expect(await screen.findByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(readTokenSet('user')?.accessToken).toBe('access-1');
  });

  it.each(['/client/login', '/client/verifyAccount', '/client/createPassword?token=t'])(
    'sends a visitor holding all three cookies from %s to the dashboard',
    async (path) => {
      signedInCookies('client');
      api.on(getSelf, { auth: 'client' }, ok(selfInfo('client')));
      const router = renderAt(path);
      expect(await screen.findByTestId('account-summary')).toBeTruthy();
      expect(router.state.location.pathname).toBe('/client/dashboard');
    },
  );

  it('sends verifyAccount without the step-1 info back to the login form', async () => {
    const router = renderAt('/user/verifyAccount');
    await expectLoginForm();
    expect(router.state.location.pathname).toBe('/user/login');
  });

  it('shows verifyAccount when a login waits for its code', async () => {
    api.on(requestLogin, { auth: 'user' }, ok({ login2FAType: 3, onePassKey: 'ticket' }));
    await submitCredentials('user', { account: 'alice', password: 'pw' });
    expect(pendingLogin('user')).not.toBeNull();
    renderAt('/user/verifyAccount');
    expect(await screen.findByLabelText('Verification code')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend code' })).toBeNull(); // authenticator: nothing to resend
  });
});

describe('verifyMail and switchUser', () => {
  it('sends a spent create-password token to the login form with the server message', async () => {
    api.on(checkRegisterToken, fail(401, 101013, 'This link has expired'));
    const router = renderAt('/user/verifyMail?token=spent');
    await expectLoginForm();
    expect(await screen.findByText('This link has expired')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user/login');
    expect(api.sent(checkRegisterToken)[0]?.body).toEqual({ token: 'spent' });
  });

  it('opens createPassword with the account of a valid token', async () => {
    api.on(checkRegisterToken, ok({ auth: 'client', email: 'op@example.com', id: 12, name: 'Op' }));
    const router = renderAt('/client/verifyMail?token=good');
    expect(await screen.findByText('For Op (op@example.com)')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/client/createPassword');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      auth: 'client',
      email: 'op@example.com',
      id: '12',
      name: 'Op',
      token: 'good',
    });
  });

  it('remembers the operator a create-password link names, for the login after it', async () => {
    api.on(checkRegisterToken, ok({ auth: 'user', email: 'alice@example.com', id: 14, name: 'Alice' }));
    renderAt('/user/verifyMail?token=good&operator=rival');
    expect(await screen.findByText('For Alice (alice@example.com)')).toBeTruthy();
    expect(localStorage.getItem(OPERATOR_STORAGE_KEY)).toBe('rival');
  });

  it('stores the access token and type of switchUser and opens the dashboard with them', async () => {
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { account: 'sub-1' })));
    const router = renderAt('/user/switchUser?accessToken=sa&tokenType=Bearer');
    expect(await screen.findByTestId('account-summary')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user/dashboard');
    expect(readTokenSet('user')).toEqual({ accessToken: 'sa', tokenType: 'Bearer' });
    expect(api.sent(getSelf, { auth: 'user' })[0]?.headers.get('Authorization')).toBe('Bearer sa');
    expect(api.sent(refresh, { auth: 'user' })).toHaveLength(0);
  });

  it('exchanges a refresh token in the switchUser link, so the page never keeps it', async () => {
    api.on(refresh, { auth: 'user' }, ok({ accessToken: 'sa-2', refreshToken: 'sr-2', tokenType: 'Bearer' }));
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { account: 'sub-1' })));
    const router = renderAt('/user/switchUser?accessToken=sa&refreshToken=sr&tokenType=Bearer');
    expect(await screen.findByTestId('account-summary')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user/dashboard');
    expect(api.sent(refresh, { auth: 'user' })[0]?.body).toEqual({ refreshToken: 'sr', accessToken: 'sa' });
    expect(readTokenSet('user')).toEqual({ accessToken: 'sa-2', tokenType: 'Bearer' });
    expect(document.cookie).not.toContain('sr');
  });

  it('sends switchUser without the access token and type to the login form', async () => {
    const router = renderAt('/user/switchUser?accessToken=sa&refreshToken=sr');
    await expectLoginForm();
    expect(router.state.location.pathname).toBe('/user/login');
    expect(readTokenSet('user')).toBeNull();
  });
});
