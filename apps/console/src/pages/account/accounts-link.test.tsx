import { accountCreatePasswordLink, createAccount, listAccounts } from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, ok, okPage, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { managedAccount } from '../../test/fixtures';
import { clickButton, findModal, findPopconfirm, findRow, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// An account's create-password link handed over by its parent, without a mail server
// (docs/decisions "new-harden-create-password-link").
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;
afterEach(() => restoreFakeApi());

const LINK = 'https://cdn.example.test/user/verifyMail?token=cp_first&operator=client';
const NEW_LINK = 'https://cdn.example.test/user/verifyMail?token=cp_second&operator=client';

describe('a create-password link to copy', () => {
  beforeEach(() => {
    api = signedInFakeApi('client');
    api.on(
      listAccounts,
      { auth: 'client' },
      okPage([managedAccount(), managedAccount({ id: 22, account: 'pending', name: 'Pending', hasPassword: false })]),
    );
  });

  it('creates a customer with the link shown once instead of mailed, and makes a new one for a pending account', async () => {
    api.on(
      createAccount,
      { auth: 'client' },
      ok({ ...managedAccount({ id: 40, account: 'newco', hasPassword: false }), createPasswordLink: LINK }),
    );
    api.on(accountCreatePasswordLink, { auth: 'client' }, ok({ link: NEW_LINK }));
    renderAt('/client/userManagement/users');
    await findRow('acme');
    clickButton('New account');
    const dialog = await findModal();
    typeInto(dialog, 'Account', 'newco');
    typeInto(dialog, 'Name', 'New Co');
    typeInto(dialog, 'E-mail', 'hi@newco.test');
    within(dialog).getByLabelText('Show it here to copy (no mail server needed)').click();
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(createAccount, { auth: 'client' })[0]?.body).toEqual({
        auth: 'user',
        account: 'newco',
        name: 'New Co',
        email: 'hi@newco.test',
        delivery: 'link',
      }),
    );
    await modalClosed(dialog);
    const shown = await findModal();
    expect(within(shown).getByText(LINK)).toBeTruthy();
    expect(within(shown).getByText(/works once, and stops working when a newer link/)).toBeTruthy();
    clickButton('OK', shown);
    await modalClosed(shown);

    // acme has a password: no link is offered for it.
    expect(within(await findRow('acme')).queryByText('Copy link')).toBeNull();
    clickButton('Copy link', await findRow('pending'));
    clickButton('Yes', await findPopconfirm(/Earlier links stop working/));
    const again = await findModal();
    expect(within(again).getByText(NEW_LINK)).toBeTruthy();
    expect(api.sent(accountCreatePasswordLink, { auth: 'client' })[0]?.body).toEqual({ id: 22 });
    expect(screen.queryByText(LINK)).toBeNull();
  });
});
