import { getSelf, login, registerPassword, requestLogin, resendLoginCode } from '@rampart/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { readTokenSet } from '../../session';
import {
  type FakeApi,
  fail,
  installFakeApi,
  ok,
  resetBrowserSession,
  restoreFakeApi,
  selfInfo,
} from '../../test/fake-api';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's form modules (seconds).
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;
const tokens = { accessToken: 'access-1', refreshToken: 'refresh-1', tokenType: 'Bearer' };

beforeEach(() => {
  resetBrowserSession();
  api = installFakeApi();
});

afterEach(() => restoreFakeApi());

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function logIn(account = 'alice', password = 'correct horse') {
  await screen.findByRole('button', { name: 'Log in' });
  type('Account', account);
  type('Password', password);
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login form', () => {
  it('checks the fields with the contract’s rules before calling the server', async () => {
    renderAt('/user/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }));
    // Both fields' messages (findAll answers as soon as the first is shown, and antd shows each field's on its own).
    await waitFor(() => expect(screen.getAllByText('This field is required')).toHaveLength(2), { timeout: 10_000 });
    expect(api.sent(requestLogin, { auth: 'user' })).toHaveLength(0);
  });

  it('logs in, welcomes the account and opens the dashboard', async () => {
    api.on(requestLogin, { auth: 'user' }, ok({ login2FAType: 0, ...tokens }));
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user')));
    const router = renderAt('/user/login');
    await logIn();
    expect(await screen.findByText('Login Success! Welcome!')).toBeTruthy();
    expect(await screen.findByTestId('account-summary')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user/dashboard');
    expect(api.sent(requestLogin, { auth: 'user' })[0]?.body).toEqual({ account: 'alice', password: 'correct horse' });
    // The page keeps the access token and its type; the refresh token lives in the HttpOnly cookie.
    expect(readTokenSet('user')).toEqual({ accessToken: tokens.accessToken, tokenType: tokens.tokenType });
    expect(document.cookie).not.toContain(tokens.refreshToken);
  });

  it('names the operator of the login link, also with the code and its resend', async () => {
    window.history.replaceState(null, '', '/user/login?operator=rival');
    try {
      api.on(requestLogin, { auth: 'user' }, ok({ login2FAType: 1, onePassKey: 'ticket' }));
      api.on(resendLoginCode, { auth: 'user' }, ok(true));
      api.on(login, { auth: 'user' }, ok(tokens));
      api.on(getSelf, { auth: 'user' }, ok(selfInfo('user')));
      renderAt('/user/login');
      await logIn();
      await waitFor(() => expect(api.sent(requestLogin, { auth: 'user' })).toHaveLength(1));
      expect(api.sent(requestLogin, { auth: 'user' })[0]?.body).toEqual({
        account: 'alice',
        password: 'correct horse',
        operator: 'rival',
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Resend code' }));
      await waitFor(() => expect(api.sent(resendLoginCode, { auth: 'user' })).toHaveLength(1));
      expect(api.sent(resendLoginCode, { auth: 'user' })[0]?.body).toMatchObject({ operator: 'rival' });
      type('Verification code', '123456');
      fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
      await waitFor(() => expect(api.sent(login, { auth: 'user' })).toHaveLength(1));
      expect(api.sent(login, { auth: 'user' })[0]?.body).toMatchObject({ account: 'alice', operator: 'rival' });
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('sends no operator from the admin login page', async () => {
    window.history.replaceState(null, '', '/admin/login?operator=rival');
    try {
      api.on(requestLogin, { auth: 'admin' }, fail(401, 101012, 'Wrong account or password'));
      renderAt('/admin/login');
      await logIn();
      await waitFor(() => expect(api.sent(requestLogin, { auth: 'admin' })).toHaveLength(1));
      expect(api.sent(requestLogin, { auth: 'admin' })[0]?.body).toEqual({
        account: 'alice',
        password: 'correct horse',
      });
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('shows the messages of a 101003 reply under their fields', async () => {
    const fields = [{ in: 'body', field: 'account', key: 'tooLong', message: 'At most 256 characters' }];
    api.on(requestLogin, { auth: 'admin' }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt('/admin/login');
    await logIn();
    expect(await screen.findByText('At most 256 characters')).toBeTruthy();
    expect(screen.queryByRole('alert')?.textContent ?? '').not.toContain('Parameter Error');
  });

  it('shows the server message of a refused or throttled login', async () => {
    api.on(requestLogin, { auth: 'user' }, fail(429, 101012, 'Too many attempts; try again in 60 seconds'));
    renderAt('/user/login');
    await logIn();
    expect(await screen.findByText('Too many attempts; try again in 60 seconds')).toBeTruthy();
    expect(readTokenSet('user')).toBeNull();
  });

  it('speaks the interface language, toasts included', async () => {
    await i18n.changeLanguage('zh_CN');
    api.on(requestLogin, { auth: 'client' }, ok({ login2FAType: 0, ...tokens }));
    api.on(getSelf, { auth: 'client' }, ok(selfInfo('client')));
    renderAt('/client/login');
    // antd spaces out a two-character CJK button label: 登 录.
    const button = await screen.findByRole('button', { name: /^登\s?录$/ });
    type('账号', 'alice');
    type('密码', 'pw');
    fireEvent.click(button);
    expect(await screen.findByText('登录成功！欢迎！')).toBeTruthy();
  });
});

describe('verifyAccount', () => {
  it('asks for the mailed code, can resend it, and logs in with it', async () => {
    api.on(requestLogin, { auth: 'user' }, ok({ login2FAType: 1, onePassKey: 'ticket' }));
    api.on(resendLoginCode, { auth: 'user' }, ok(true));
    api.on(login, { auth: 'user' }, ok(tokens));
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user')));
    const router = renderAt('/user/login');
    await logIn();

    expect(await screen.findByText('Please check mail to get verify code.')).toBeTruthy();
    expect(await screen.findByLabelText('Verification code')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user/verifyAccount');

    fireEvent.click(screen.getByRole('button', { name: 'Resend code' }));
    await waitFor(() => expect(api.sent(resendLoginCode, { auth: 'user' })).toHaveLength(1));
    expect(api.sent(resendLoginCode, { auth: 'user' })[0]?.body).toEqual({
      account: 'alice',
      password: 'correct horse',
      onePassKey: 'ticket',
    });
    type('Verification code', '12a');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Wrong format')).toBeTruthy();

    type('Verification code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('account-summary')).toBeTruthy();
    expect(api.sent(login, { auth: 'user' })[0]?.body).toMatchObject({ login2FAType: 1, code: '123456' });
    expect(router.state.location.pathname).toBe('/user/dashboard');
  });
});

describe('createPassword', () => {
  const page = '/user/createPassword?auth=user&email=new%40example.com&id=3&name=Newbie&token=tok';

  async function fill(password: string, confirmPassword: string) {
    type('New password', password);
    type('Confirm password', confirmPassword);
    fireEvent.click(screen.getByRole('button', { name: 'Create password' }));
  }

  it('checks the new password with the contract’s rules', async () => {
    renderAt(page);
    expect(await screen.findByText('For Newbie (new@example.com)')).toBeTruthy();
    await fill('short', 'other');
    expect(await screen.findByText('The password needs at least 8 characters')).toBeTruthy();
    expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
    expect(api.sent(registerPassword)).toHaveLength(0);
  });

  it('sets the password and goes to the login form', async () => {
    api.on(registerPassword, ok(true));
    const router = renderAt(page);
    await screen.findByText('For Newbie (new@example.com)');
    await fill('a long passphrase', 'a long passphrase');
    expect(await screen.findByText('Create Password Successful!')).toBeTruthy();
    await screen.findByRole('button', { name: 'Log in' });
    expect(router.state.location.pathname).toBe('/user/login');
    expect(api.sent(registerPassword)[0]?.body).toEqual({
      token: 'tok',
      password: 'a long passphrase',
      confirmPassword: 'a long passphrase',
    });
  });

  it('shows a failure and replaces the route with the login form', async () => {
    api.on(registerPassword, fail(401, 101013, 'Invalid Token'));
    const router = renderAt(page);
    await screen.findByText('For Newbie (new@example.com)');
    await fill('a long passphrase', 'a long passphrase');
    expect(await screen.findByText('Invalid Token')).toBeTruthy();
    await screen.findByRole('button', { name: 'Log in' });
    expect(router.state.location.pathname).toBe('/user/login');
    expect(router.state.historyAction).toBe('REPLACE');
  });
});
