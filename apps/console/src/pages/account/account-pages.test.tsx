import {
  changePassword,
  getSelf,
  totpPhase0,
  totpPhase0Code,
  totpPhase1,
  totpPhase2,
  updateSelf,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readTokenSet } from '../../session';
import { fail, ok, pageTestApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
const api = pageTestApi(() => signedInFakeApi('user'));

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('dashboard', () => {
  it('summarises the account', async () => {
    renderAt('/user/dashboard');
    const card = within(await screen.findByTestId('account-summary'));
    for (const text of ['alice', 'Alice', 'alice@example.com', 'User console', 'Normal', 'Yes', 'None']) {
      expect(card.getByText(text)).toBeTruthy();
    }
    expect(card.getByText('Created at')).toBeTruthy();
    expect(card.getByText(/2026/)).toBeTruthy();
  });
});

describe('changePassword', () => {
  it('checks the confirmation on the client', async () => {
    renderAt('/user/changePassword');
    await screen.findByRole('button', { name: 'Change password' });
    type('Current password', 'old secret');
    type('New password', 'a long passphrase');
    type('Confirm new password', 'a different one');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
    expect(api.sent(changePassword, { auth: 'user' })).toHaveLength(0);
  });

  it('changes the password and keeps the new token set it answers', async () => {
    api.on(
      changePassword,
      { auth: 'user' },
      ok({ accessToken: 'access-9', refreshToken: 'refresh-9', tokenType: 'Bearer' }),
    );
    renderAt('/user/changePassword');
    await screen.findByRole('button', { name: 'Change password' });
    type('Current password', 'old secret');
    type('New password', 'a long passphrase');
    type('Confirm new password', 'a long passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Change password successful!')).toBeTruthy();
    expect(api.sent(changePassword, { auth: 'user' })[0]?.body).toEqual({
      oldPassword: 'old secret',
      password: 'a long passphrase',
      confirmPassword: 'a long passphrase',
    });
    // The page keeps the access token and its type; the refresh token lives in the HttpOnly cookie.
    expect(readTokenSet('user')).toEqual({ accessToken: 'access-9', tokenType: 'Bearer' });
    expect(document.cookie).not.toContain('refresh-9');
  });

  it('shows a refused current password under its field', async () => {
    const fields = [
      { in: 'body', field: 'oldPassword', key: 'wrongPassword', message: 'The current password is wrong' },
    ];
    api.on(changePassword, { auth: 'user' }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt('/user/changePassword');
    await screen.findByRole('button', { name: 'Change password' });
    type('Current password', 'bad');
    type('New password', 'a long passphrase');
    type('Confirm new password', 'a long passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is wrong')).toBeTruthy();
    expect(readTokenSet('user')?.accessToken).toBe('access-1');
  });
});

describe('userInformation', () => {
  it('saves a new name without asking for the password', async () => {
    api.on(updateSelf, { auth: 'user' }, ok(selfInfo('user', { name: 'Alice B' })));
    renderAt('/user/userManagement/userInformation');
    await screen.findByRole('button', { name: 'Save' });
    expect(screen.queryByLabelText('Current password')).toBeNull();
    type('Name', 'Alice B');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Update Information Successful!')).toBeTruthy();
    expect(api.sent(updateSelf, { auth: 'user' })[0]?.body).toEqual({ name: 'Alice B', email: 'alice@example.com' });
    expect(within(screen.getByTestId('account-menu')).getByText('Alice B')).toBeTruthy();
  });

  it('asks for the current password when the e-mail changes', async () => {
    api.on(updateSelf, { auth: 'user' }, ok(selfInfo('user', { email: 'new@example.com' })));
    renderAt('/user/userManagement/userInformation');
    await screen.findByRole('button', { name: 'Save' });
    type('E-mail', 'new@example.com');
    expect(await screen.findByLabelText('Current password')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(api.sent(updateSelf, { auth: 'user' })).toHaveLength(0);

    type('Current password', 'my secret');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Update Information Successful!')).toBeTruthy();
    expect(api.sent(updateSelf, { auth: 'user' })[0]?.body).toEqual({
      name: 'Alice',
      email: 'new@example.com',
      password: 'my secret',
    });
  });
});

describe('twoFactor', () => {
  it('sets up an authenticator: password, QR code and URI, then a code', async () => {
    api.on(totpPhase0, { auth: 'user' }, ok({ onePassKey: 'ticket', login2FAType: 0 }));
    api.on(
      totpPhase1,
      { auth: 'user' },
      ok({ qrCode: 'data:image/png;base64,iVBORw0KGgo=', qrCodeData: 'otpauth://totp/Rampart:alice?secret=ABC' }),
    );
    api.on(totpPhase2, { auth: 'user' }, ok({ login2FAType: 3 }));
    renderAt('/user/userManagement/twoFactor');

    expect(await screen.findByText(/Current second factor/)).toBeTruthy();
    expect(screen.getAllByText('None')).toHaveLength(2); // the current one and the choice
    fireEvent.click(screen.getByLabelText('Authenticator app'));
    type('Current password', 'my secret');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    const qr = (await screen.findByRole('img', { name: 'QR code of the authenticator setup' })) as HTMLImageElement;
    expect(qr.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect((screen.getByLabelText('Setup URI') as HTMLTextAreaElement).value).toBe(
      'otpauth://totp/Rampart:alice?secret=ABC',
    );
    expect(api.sent(totpPhase0, { auth: 'user' })[0]?.body).toEqual({ password: 'my secret' });
    expect(api.sent(totpPhase1, { auth: 'user' })[0]?.body).toEqual({ onePassKey: 'ticket' });

    type('Code from the app', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(totpPhase2, { auth: 'user' })[0]?.body).toEqual({
      onePassKey: 'ticket',
      login2FAType: 3,
      code: '123456',
    });
    await waitFor(() => expect(screen.getAllByText('Authenticator app').length).toBeGreaterThan(1));
  });

  it('switches to e-mail codes without an authenticator step', async () => {
    api.on(totpPhase0, { auth: 'user' }, ok({ onePassKey: 'ticket', login2FAType: 0 }));
    api.on(totpPhase2, { auth: 'user' }, ok({ login2FAType: 1 }));
    renderAt('/user/userManagement/twoFactor');
    fireEvent.click(await screen.findByLabelText('E-mail code'));
    type('Current password', 'my secret');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(totpPhase1, { auth: 'user' })).toHaveLength(0);
    expect(api.sent(totpPhase2, { auth: 'user' })[0]?.body).toEqual({ onePassKey: 'ticket', login2FAType: 1 });
    // No authenticator is on: no code is asked for.
    expect(screen.queryByLabelText('Code from your authenticator app now')).toBeNull();
  });

  it('turning an authenticator off sends the password and a current code from it', async () => {
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { login2FAType: 3 })));
    api.on(totpPhase0, { auth: 'user' }, ok({ onePassKey: 'ticket', login2FAType: 3 }));
    api.on(totpPhase2, { auth: 'user' }, ok({ login2FAType: 0 }));
    renderAt('/user/userManagement/twoFactor');
    fireEvent.click(await screen.findByLabelText('None'));
    type('Current password', 'my secret');
    type('Code from your authenticator app now', '654321');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(totpPhase0, { auth: 'user' })[0]?.body).toEqual({ password: 'my secret', code: '654321' });
    expect(api.sent(totpPhase2, { auth: 'user' })[0]?.body).toEqual({ onePassKey: 'ticket', login2FAType: 0 });
  });

  it('turning e-mail codes off asks for a mailed code first and sends it with the password', async () => {
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { login2FAType: 1 })));
    api.on(totpPhase0Code, { auth: 'user' }, ok(true));
    api.on(totpPhase0, { auth: 'user' }, ok({ onePassKey: 'ticket', login2FAType: 1 }));
    api.on(totpPhase2, { auth: 'user' }, ok({ login2FAType: 0 }));
    renderAt('/user/userManagement/twoFactor');
    fireEvent.click(await screen.findByLabelText('None'));
    // The authenticator's field is not asked for; the mailed code's is.
    expect(screen.queryByLabelText('Code from your authenticator app now')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'E-mail me a code' }));
    expect(await screen.findByText('A code was sent to your e-mail address. It works for 10 minutes.')).toBeTruthy();
    expect(api.sent(totpPhase0Code, { auth: 'user' })).toHaveLength(1);
    expect(api.sent(totpPhase0, { auth: 'user' })).toHaveLength(0);
    type('Current password', 'my secret');
    type('Code from the e-mail', '246810');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(totpPhase0, { auth: 'user' })[0]?.body).toEqual({ password: 'my secret', code: '246810' });
    expect(api.sent(totpPhase2, { auth: 'user' })[0]?.body).toEqual({ onePassKey: 'ticket', login2FAType: 0 });
  });

  it('a wrong mailed code is shown under its field and nothing is changed', async () => {
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { login2FAType: 1 })));
    api.on(
      totpPhase0,
      { auth: 'user' },
      fail(400, 101003, 'Parameter Error', {
        fields: [{ in: 'body', field: 'code', key: 'wrongCode', message: 'Wrong code' }],
      }),
    );
    renderAt('/user/userManagement/twoFactor');
    fireEvent.click(await screen.findByLabelText('None'));
    type('Current password', 'my secret');
    type('Code from the e-mail', '111111');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Wrong code')).toBeTruthy();
    expect(api.sent(totpPhase2, { auth: 'user' })).toHaveLength(0);
  });
});
