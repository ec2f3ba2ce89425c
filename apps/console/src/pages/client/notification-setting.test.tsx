import {
  getEmailSetting,
  getOperatorNotify,
  getTgSetting,
  saveEmailSetting,
  saveOperatorNotify,
  saveTgSetting,
  testEmailSetting,
  testTgSetting,
} from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { clickButton, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's notification page (client/setting/email, email/test, tg, tg/test, notify), against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));
const PAGE = '/client/systemManagement/notification';
const notify = {
  kinds: ['nodeDown', 'nodeUp'],
  emails: ['noc@example.com'],
  telegram: true,
  language: 'en_US',
} as const;
const stored = {
  host: 'smtp.example.com',
  port: 587,
  tlsMode: 'starttls',
  user: 'relay',
  from: 'alerts@example.com',
  hasPassword: true,
} as const;

function stubs(email: typeof stored | null = null) {
  api.on(getEmailSetting, ok(email));
  api.on(getTgSetting, ok({ chatId: '1001', hasToken: true }));
  api.on(getOperatorNotify, ok(notify));
}
const card = async (title: string) =>
  (await screen.findByText(title, {}, { timeout: 10_000 })).closest('.ant-card') as HTMLElement;

describe('the notification setting page', () => {
  it('is in the menu; saves the SMTP server with its password', async () => {
    stubs();
    api.on(saveEmailSetting, ok(stored));
    renderAt(PAGE);
    const form = await card('E-mail (SMTP server)');
    expect(screen.getByRole('link', { name: 'Notifications' }).getAttribute('href')).toBe(PAGE);
    typeInto(form, 'SMTP host', 'smtp.example.com');
    typeInto(form, 'User name (empty: no sign-in)', 'relay');
    typeInto(form, 'Password', 'pa55word');
    typeInto(form, 'Sender address', 'alerts@example.com');
    clickButton('Save', form);
    await waitFor(() =>
      expect(api.sent(saveEmailSetting).map((r) => r.body)).toEqual([
        {
          host: 'smtp.example.com',
          port: 587,
          tlsMode: 'starttls',
          user: 'relay',
          password: 'pa55word',
          from: 'alerts@example.com',
        },
      ]),
    );
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
  });

  it('refuses a malformed sender address with the contract’s rule before calling the API', async () => {
    stubs(stored);
    renderAt(PAGE);
    const form = await card('E-mail (SMTP server)');
    expect(within(form).getByText('A secret is stored; leave the field empty to keep it.')).toBeTruthy();
    typeInto(form, 'Sender address', 'nobody');
    clickButton('Save', form);
    expect(await within(form).findByText('Please enter a valid email')).toBeTruthy();
    expect(api.sent(saveEmailSetting)).toHaveLength(0);
  });

  it('shows the mail server’s words when the test mail is refused (101020)', async () => {
    stubs(stored);
    api.on(
      testEmailSetting,
      fail(400, 101020, 'Illegal Email Settings', { reason: 'Invalid login: 535 Authentication failed' }),
    );
    renderAt(PAGE);
    const form = await card('E-mail (SMTP server)');
    typeInto(form, 'Send the test mail to', 'ops@example.com');
    clickButton('Test', form);
    expect(await within(form).findByText('Invalid login: 535 Authentication failed')).toBeTruthy();
    expect(within(form).getByText('Test failed')).toBeTruthy();
    expect(api.sent(testEmailSetting)[0]?.body).toMatchObject({ host: 'smtp.example.com', to: 'ops@example.com' });
    expect(api.sent(testEmailSetting)[0]?.body).not.toHaveProperty('password');
  });

  it('tests and saves the Telegram bot; a refused token shows Telegram’s words (101021)', async () => {
    stubs(stored);
    api.on(testTgSetting, fail(400, 101021, 'Illegal Telegram Token', { reason: 'Unauthorized' }));
    api.on(saveTgSetting, ok({ chatId: '-100200', hasToken: true }));
    renderAt(PAGE);
    const form = await card('Telegram');
    typeInto(form, 'Bot token', '123:bad');
    clickButton('Test', form);
    expect(await within(form).findByText('Unauthorized')).toBeTruthy();
    typeInto(form, 'Your chat ID', '-100200');
    clickButton('Save', form);
    await waitFor(() =>
      expect(api.sent(saveTgSetting).map((r) => r.body)).toEqual([{ botToken: '123:bad', chatId: '-100200' }]),
    );
  });

  it('saves who gets the operator’s alerts', async () => {
    stubs(stored);
    api.on(saveOperatorNotify, ok(notify));
    renderAt(PAGE);
    const form = await card('Your alerts');
    clickButton('Save', form);
    await waitFor(() => expect(api.sent(saveOperatorNotify).map((r) => r.body)).toEqual([notify]));
  });
});
