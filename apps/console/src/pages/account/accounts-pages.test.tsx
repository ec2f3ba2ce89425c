import {
  assignRole,
  createAccount,
  deleteAccount,
  getAccountZones,
  getSelf,
  listAccounts,
  listRoles,
  listSubAccounts,
  metaZones,
  resendAccountEmail,
  resetAccountTwoFactor,
  setAccountZones,
  setSubAccountPassword,
  switchUser,
  updateAccount,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readTokenSet } from '../../session/cookies';
import { type FakeApi, fail, ok, okPage, restoreFakeApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { managedAccount } from '../../test/fixtures';
import {
  buttonByText,
  chooseOption,
  clickButton,
  findModal,
  findPopconfirm,
  findRow,
  modalClosed,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Account management in the three consoles (userManagement/users, userManagement/usersList).
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;

afterEach(() => restoreFakeApi());

const rolesPage = (roles: { id: number; name: string }[]) =>
  okPage(roles.map((r) => ({ ...r, remark: '', permissions: [], accounts: 0, createdAt: '', updatedAt: '' })));

describe('client userManagement/users', () => {
  beforeEach(() => {
    api = signedInFakeApi('client');
    api.on(listAccounts, { auth: 'client' }, (request) =>
      request.search.get('auth') === 'client'
        ? okPage([managedAccount({ id: 30, auth: 'client', account: 'helper', name: 'Helper', isRoot: false })])
        : okPage([
            managedAccount(),
            managedAccount({
              id: 22,
              account: 'pending',
              name: 'Pending',
              hasPassword: false,
              login2FAType: 3,
              subCount: 1,
            }),
          ]),
    );
  });

  it('lists customers with search, sort and tab in the URL', async () => {
    const router = renderAt('/client/userManagement/users');
    const row = await findRow('acme');
    await showAllColumns();
    expect(within(row).getByText('Normal')).toBeTruthy();
    expect(within(await findRow('pending')).getByText('Waiting for the e-mail link')).toBeTruthy();
    expect(api.sent(listAccounts, { auth: 'client' })[0]?.search.get('auth')).toBe('user');

    const box = screen.getByLabelText('Search account, name or e-mail');
    fireEvent.change(box, { target: { value: ' acm ' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(router.state.location.search).toContain('name=acm'));
    await waitFor(() => expect(api.sent(listAccounts, { auth: 'client' }).at(-1)?.search.get('name')).toBe('acm'));

    fireEvent.click(screen.getByText('E-mail', { selector: 'th *' }));
    await waitFor(() => expect(router.state.location.search).toContain('sortBy=email'));
    await waitFor(() => expect(api.sent(listAccounts, { auth: 'client' }).at(-1)?.search.get('sortBy')).toBe('email'));
    expect(api.sent(listAccounts, { auth: 'client' }).at(-1)?.search.get('orderBy')).toBe('asc');

    fireEvent.click(screen.getByRole('tab', { name: 'Sub-accounts' }));
    expect(await findRow('helper')).toBeTruthy();
    expect(router.state.location.search).toContain('auth=client');
    expect(router.state.location.search).not.toContain('name=');
  });

  it('creates a customer after checking the form, then edits its status', async () => {
    api.on(
      createAccount,
      { auth: 'client' },
      ok({ ...managedAccount({ id: 40, account: 'newco', hasPassword: false }), createPasswordLink: null }),
    );
    api.on(updateAccount, { auth: 'client' }, ok(managedAccount({ status: 'lock' })));
    renderAt('/client/userManagement/users');
    await findRow('acme');
    clickButton('New account');
    let dialog = await findModal();
    expect(within(dialog).getByText(/receives an e-mail with a link/)).toBeTruthy();
    typeInto(dialog, 'Account', 'new co');
    typeInto(dialog, 'E-mail', 'not-mail');
    clickButton('OK', dialog);
    await waitFor(
      () => expect(within(dialog).getAllByText(/./, { selector: '.ant-form-item-explain-error' })).toHaveLength(3),
      { timeout: 10_000 },
    );
    expect(api.sent(createAccount, { auth: 'client' })).toHaveLength(0);

    typeInto(dialog, 'Account', 'newco');
    typeInto(dialog, 'Name', 'New Co');
    typeInto(dialog, 'E-mail', 'hi@newco.test');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create User Successful!')).toBeTruthy();
    expect(api.sent(createAccount, { auth: 'client' })[0]?.body).toEqual({
      auth: 'user',
      account: 'newco',
      name: 'New Co',
      email: 'hi@newco.test',
      delivery: 'mail',
    });
    await modalClosed(dialog);

    clickButton('Edit', await findRow('acme'));
    dialog = await findModal();
    expect((within(dialog).getByLabelText('Account') as HTMLInputElement).disabled).toBe(true);
    fireEvent.mouseDown(within(dialog).getByLabelText('Status'));
    fireEvent.click(await screen.findByText('Locked', { selector: '.ant-select-item-option-content' }));
    clickButton('OK', dialog);
    expect(await screen.findByText('Edit Account successful!')).toBeTruthy();
    expect(api.sent(updateAccount, { auth: 'client' })[0]?.body).toEqual({
      id: 21,
      name: 'Acme Ltd',
      email: 'ops@acme.test',
      status: 'lock',
      maxLogExportTimes: 10,
    });
  });

  it('shows server field errors under the fields and a clear text when a delete is refused', async () => {
    api.on(createAccount, { auth: 'client' }, fail(409, 101017, 'Duplicate Email'));
    api.on(
      deleteAccount,
      { auth: 'client' },
      fail(409, 205003, 'The Site In Use', { reason: 'accountHasSites', count: 2 }),
    );
    renderAt('/client/userManagement/users');
    const row = await findRow('acme');
    clickButton('Delete', row);
    clickButton('Delete', document.querySelector('.ant-popover') as HTMLElement);
    expect(
      await screen.findByText('This account still has 2 site(s): delete them or give them to another account first.'),
    ).toBeTruthy();
    expect(api.sent(deleteAccount, { auth: 'client' })[0]?.body).toEqual({ id: 21 });

    clickButton('New account');
    const dialog = await findModal();
    typeInto(dialog, 'Account', 'dupe');
    typeInto(dialog, 'Name', 'Dupe');
    typeInto(dialog, 'E-mail', 'ops@acme.test');
    clickButton('OK', dialog);
    expect(await screen.findByText('Duplicate Email')).toBeTruthy();
  });

  it('sets a password, resends the e-mail, resets 2FA and opens the accounts below', async () => {
    api.on(setSubAccountPassword, { auth: 'client' }, ok(true));
    api.on(resendAccountEmail, { auth: 'client' }, ok(true));
    api.on(resetAccountTwoFactor, { auth: 'client' }, ok(true));
    api.on(
      listSubAccounts,
      { auth: 'client', userId: 22 },
      okPage([managedAccount({ id: 23, account: 'pending-sub', isRoot: false })]),
    );
    renderAt('/client/userManagement/users');
    const row = await findRow('pending');
    expect(within(await findRow('acme')).queryByText('Reset 2FA')).toBeNull();
    // acme has a password: no create-password link is offered for it.
    expect(within(await findRow('acme')).queryByText('Resend e-mail')).toBeNull();

    clickButton('Password', row);
    const dialog = await findModal();
    typeInto(dialog, 'New password', 'a long new password');
    typeInto(dialog, 'Confirm password', 'another password');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('The two passwords do not match')).toBeTruthy();
    typeInto(dialog, 'Confirm password', 'a long new password');
    clickButton('OK', dialog);
    expect(await screen.findByText('Change password successful!')).toBeTruthy();
    expect(api.sent(setSubAccountPassword, { auth: 'client' })[0]?.body).toEqual({
      id: 22,
      password: 'a long new password',
      confirmPassword: 'a long new password',
    });
    await modalClosed(dialog);

    clickButton('Resend e-mail', row);
    clickButton('Yes', await findPopconfirm(/Send pending a new link/));
    expect(await screen.findByText('Resend Email Successful!')).toBeTruthy();
    expect(api.sent(resendAccountEmail, { auth: 'client' })[0]?.body).toEqual({ id: 22 });

    clickButton('Reset 2FA', row);
    clickButton('Yes', await findPopconfirm(/Turn off the second factor of pending/));
    await waitFor(() => expect(api.sent(resetAccountTwoFactor, { auth: 'client' })[0]?.body).toEqual({ id: 22 }));

    fireEvent.click(row.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    expect(await screen.findByText('pending-sub')).toBeTruthy();
  });
});

describe('roles and switch user in the accounts list', () => {
  it('client: gives a sub-account a role, and switches to a customer', async () => {
    api = signedInFakeApi('client');
    api.on(listAccounts, { auth: 'client' }, (request) =>
      request.search.get('auth') === 'client'
        ? okPage([
            managedAccount({
              id: 30,
              auth: 'client',
              account: 'helper',
              isRoot: false,
              // Holds the role once it was given (the list is reloaded after the change).
              role: api.sent(assignRole, { auth: 'client' }).length === 1 ? { id: 3, name: 'Support' } : null,
            }),
          ])
        : okPage([managedAccount(), managedAccount({ id: 24, account: 'paused', status: 'pause' })]),
    );
    api.on(listRoles, { auth: 'client' }, rolesPage([{ id: 3, name: 'Support' }]));
    api.on(assignRole, { auth: 'client' }, ok(true));
    api.on(
      switchUser,
      { auth: 'client' },
      ok({ auth: 'user', accessToken: 'sw-access', refreshToken: 'sw-refresh', tokenType: 'Bearer' }),
    );
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { id: 21, account: 'acme' })));
    const router = renderAt('/client/userManagement/users');
    const acme = await findRow('acme');
    expect(within(acme).queryByText('Role')).toBeNull(); // a customer is not a sub-account of the caller
    expect(buttonByText('Switch to', await findRow('paused')).disabled).toBe(true);

    fireEvent.click(screen.getByRole('tab', { name: 'Sub-accounts' }));
    const helper = await findRow('helper');
    expect(within(helper).queryByText('Switch to')).toBeNull();
    clickButton('Role', helper);
    const dialog = await findModal();
    // The choice starts from the role the account holds: none yet.
    expect(within(dialog).getAllByText('No role').length).toBeGreaterThan(0);
    await chooseOption(dialog, 'Role', 'Support');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update User‘s Role Success !')).toBeTruthy();
    expect(api.sent(assignRole, { auth: 'client' })[0]?.body).toEqual({ accountId: 30, roleId: 3 });
    await modalClosed(dialog);

    clickButton('Role', await findRow('helper'));
    const again = await findModal();
    expect(await within(again).findByTitle('Support')).toBeTruthy();
    await chooseOption(again, 'Role', 'No role');
    clickButton('OK', again);
    await waitFor(() =>
      expect(api.sent(assignRole, { auth: 'client' })[1]?.body).toEqual({ accountId: 30, roleId: null }),
    );
    await modalClosed(again);

    fireEvent.click(screen.getByRole('tab', { name: 'Customers' }));
    clickButton('Switch to', await findRow('acme'));
    clickButton('Yes', await findPopconfirm(/Open the console as acme/));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/dashboard'));
    expect(api.sent(switchUser, { auth: 'client' })[0]?.body).toEqual({ id: 21 });
    expect(readTokenSet('user')?.accessToken).toBe('sw-access');
    expect(readTokenSet('client')?.accessToken).toBe('access-1'); // the operator's own session stays
  });

  it('client: assigns zones to a sub-account, and lifts the restriction', async () => {
    api = signedInFakeApi('client');
    api.on(listAccounts, { auth: 'client' }, (request) =>
      request.search.get('auth') === 'client'
        ? okPage([managedAccount({ id: 30, auth: 'client', account: 'helper', isRoot: false })])
        : okPage([managedAccount()]),
    );
    api.on(
      metaZones,
      ok([
        { id: 5, name: 'Asia' },
        { id: 6, name: 'Europe' },
      ]),
    );
    api.on(getAccountZones, { clientId: 30 }, () =>
      api.sent(setAccountZones, { clientId: 30 }).length === 0
        ? ok({ restricted: true, zoneIDs: [5], zones: [{ id: 5, name: 'Asia' }] })
        : ok({ restricted: false, zoneIDs: [], zones: [] }),
    );
    api.on(setAccountZones, { clientId: 30 }, (request) =>
      (request.body as { zoneIDs: number[] }).zoneIDs.length === 2
        ? fail(403, 101018, 'Permission Denied')
        : ok({ restricted: false, zoneIDs: [], zones: [] }),
    );
    renderAt('/client/userManagement/users');
    // Customers are no sub-accounts of the operator: no zones action.
    expect(within(await findRow('acme')).queryByText('Zones')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Sub-accounts' }));
    clickButton('Zones', await findRow('helper'));
    const dialog = await findModal();
    // Starts from the assignment.
    expect(await within(dialog).findByTitle('Asia')).toBeTruthy();
    await chooseOption(dialog, 'Zones', 'Europe');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(setAccountZones, { clientId: 30 })[0]?.body).toEqual({ zoneIDs: [5, 6] }));
    // A refusal leaves the dialog open with the error.
    expect(await screen.findByText(/Permission/)).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByLabelText('Zones'));
    for (const remove of within(dialog).getAllByLabelText('close')) fireEvent.click(remove);
    await waitFor(() => expect(within(dialog).queryByTitle('Asia')).toBeNull());
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(setAccountZones, { clientId: 30 })[1]?.body).toEqual({ zoneIDs: [] }));
    expect(await screen.findByText('Zones saved')).toBeTruthy();
    await modalClosed(dialog);
  });

  it('admin: switches to an operator, a refusal is shown', async () => {
    api = signedInFakeApi('admin');
    api.on(
      listAccounts,
      { auth: 'admin' },
      okPage([managedAccount({ id: 3, auth: 'client', account: 'operator-one' })]),
    );
    api.on(switchUser, { auth: 'admin' }, fail(403, 101018, 'Permission Denied'));
    const router = renderAt('/admin/userManagement/users');
    const row = await findRow('operator-one');
    expect(within(row).queryByText('Role')).toBeNull();
    clickButton('Switch to', row);
    clickButton('Yes', await findPopconfirm(/Open the console as operator-one/));
    await waitFor(() => expect(api.sent(switchUser, { auth: 'admin' })[0]?.body).toEqual({ id: 3 }));
    expect(await screen.findByText(/Permission/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/userManagement/users');
  });

  it('user: switches to an own sub-user, whose session replaces its own in this console', async () => {
    api = signedInFakeApi('user');
    api.on(listAccounts, { auth: 'user' }, okPage([managedAccount({ id: 5, account: 'alice-sub', isRoot: false })]));
    api.on(listRoles, { auth: 'user' }, rolesPage([]));
    api.on(
      switchUser,
      { auth: 'user' },
      ok({ auth: 'user', accessToken: 'sub-access', refreshToken: 'sub-refresh', tokenType: 'Bearer' }),
    );
    const router = renderAt('/user/userManagement/usersList');
    clickButton('Switch to', await findRow('alice-sub'));
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { id: 5, account: 'alice-sub', isRoot: false })));
    clickButton('Yes', await findPopconfirm(/Open the console as alice-sub/));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/dashboard'));
    expect(api.sent(switchUser, { auth: 'user' })[0]?.body).toEqual({ id: 5 });
    expect(readTokenSet('user')?.accessToken).toBe('sub-access');
  });

  it('user: no switch and no role action without accounts.write', async () => {
    api = signedInFakeApi('user');
    api.on(
      getSelf,
      { auth: 'user' },
      ok(selfInfo('user', { isRoot: false, permissions: ['account.self', 'accounts.read', 'roles.read'] })),
    );
    api.on(listAccounts, { auth: 'user' }, okPage([managedAccount({ id: 5, account: 'alice-sub', isRoot: false })]));
    renderAt('/user/userManagement/usersList');
    const row = await findRow('alice-sub');
    expect(within(row).queryByText('Role')).toBeNull();
    expect(within(row).queryByText('Switch to')).toBeNull();
  });
});

describe('the other consoles', () => {
  it('admin: operators and admin users tabs', async () => {
    api = signedInFakeApi('admin');
    api.on(listAccounts, { auth: 'admin' }, (request) =>
      okPage([
        request.search.get('auth') === 'admin'
          ? managedAccount({ id: 2, auth: 'admin', account: 'ada', isRoot: false })
          : managedAccount({ id: 3, auth: 'client', account: 'operator-one' }),
      ]),
    );
    renderAt('/admin/userManagement/users');
    expect(await findRow('operator-one')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Operators' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Admin users' }));
    expect(await findRow('ada')).toBeTruthy();
  });

  it("admin: sets an operator's zone limit, which admin users and customers do not have", async () => {
    api = signedInFakeApi('admin');
    api.on(listAccounts, { auth: 'admin' }, (request) =>
      okPage([
        request.search.get('auth') === 'admin'
          ? managedAccount({ id: 2, auth: 'admin', account: 'ada', isRoot: false })
          : managedAccount({ id: 3, auth: 'client', account: 'operator-one', zoneLimit: 4 }),
      ]),
    );
    api.on(
      updateAccount,
      { auth: 'admin' },
      ok(managedAccount({ id: 3, auth: 'client', account: 'operator-one', zoneLimit: 2 })),
    );
    renderAt('/admin/userManagement/users');
    clickButton('Edit', await findRow('operator-one'));
    const dialog = await findModal();
    const limit = within(dialog).getByLabelText('Zone limit') as HTMLInputElement;
    expect(limit.value).toBe('4');
    expect(within(dialog).getByText(/0 means no limit/)).toBeTruthy();
    fireEvent.change(limit, { target: { value: '2' } });
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(updateAccount, { auth: 'admin' })[0]?.body).toMatchObject({ id: 3, zoneLimit: 2 }),
    );
    await modalClosed(dialog);
    fireEvent.click(screen.getByRole('tab', { name: 'Admin users' }));
    clickButton('Edit', await findRow('ada'));
    expect(within(await findModal()).queryByLabelText('Zone limit')).toBeNull();
  });

  it('user: sub-users, no tabs, and the menu entry', async () => {
    api = signedInFakeApi('user');
    api.on(listAccounts, { auth: 'user' }, okPage([managedAccount({ id: 5, account: 'alice-sub', isRoot: false })]));
    renderAt('/user/userManagement/usersList');
    expect(await findRow('alice-sub')).toBeTruthy();
    expect(screen.queryByRole('tab')).toBeNull();
    expect(api.sent(listAccounts, { auth: 'user' })[0]?.search.get('auth')).toBe('user');
    expect(screen.getAllByText('Users').length).toBeGreaterThan(0);
  });
});
