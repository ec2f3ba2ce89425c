import { getCustomerNotify, saveCustomerNotify } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { clickButton, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The customer's notifySetting page (user/setting/notify), against a fake API.
const api = pageTestApi(() => signedInFakeApi('user'));
const PAGE = '/user/systemManagement/notifySetting';

describe('the notifySetting page', () => {
  it('is in the menu and saves the kinds, addresses and chat chosen', async () => {
    api.on(getCustomerNotify, ok({ kinds: [], emails: [], telegramChatId: '', language: 'en_US' }));
    api.on(
      saveCustomerNotify,
      ok({ kinds: ['attackSpike'], emails: [], telegramChatId: '-100200', language: 'en_US' }),
    );
    renderAt(PAGE);
    const form = (await screen.findByText('Telegram chat ID', {}, { timeout: 10_000 })).closest('form') as HTMLElement;
    expect(screen.getByRole('link', { name: 'Notifications' }).getAttribute('href')).toBe(PAGE);
    // Only the kinds about the customer's own sites are offered.
    expect(screen.queryByText('Node down')).toBeNull();
    fireEvent.click(screen.getByLabelText('Attack spike'));
    typeInto(form, 'Telegram chat ID', '-100200');
    clickButton('Save', form);
    await waitFor(() =>
      expect(api.sent(saveCustomerNotify).map((r) => r.body)).toEqual([
        { kinds: ['attackSpike'], emails: [], telegramChatId: '-100200', language: 'en_US' },
      ]),
    );
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
  });

  it('names every bad address with its place and saves nothing', async () => {
    api.on(getCustomerNotify, ok({ kinds: [], emails: [], telegramChatId: '', language: 'en_US' }));
    api.on(saveCustomerNotify, (request) => ok(request.body));
    renderAt(PAGE);
    const form = (await screen.findByText('Telegram chat ID', {}, { timeout: 10_000 })).closest('form') as HTMLElement;
    const emails = within(form).getByLabelText('E-mail addresses');
    fireEvent.change(emails, { target: { value: 'ops@example.com,not-an-address,noc@,' } });
    await waitFor(() => expect(within(form).getAllByText(/^(ops@example\.com|not-an-address|noc@)$/)).toHaveLength(3));
    clickButton('Save', form);
    expect(await within(form).findByText('Address 2 (not-an-address): Please enter a valid email')).toBeTruthy();
    expect(within(form).getByText('Address 3 (noc@): Please enter a valid email')).toBeTruthy();
    expect(api.sent(saveCustomerNotify)).toHaveLength(0);
  });
});
