import type { ApiToken, Role } from '@rampart/contract';
import {
  createApiToken,
  createRole,
  deleteApiTokens,
  deleteRole,
  getSelf,
  listApiTokens,
  listRoles,
  metaRoles,
  updateRole,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, fail, ok, okPage, restoreFakeApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findModal, findRow, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// userManagement/roles and userManagement/apiTokenSetting.
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;

afterEach(() => restoreFakeApi());

function role(overrides: Partial<Role> = {}): Role {
  return {
    id: 3,
    name: 'Support',
    remark: 'read only',
    permissions: ['user.sites.read'],
    accounts: 2,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-02T10:00:00.000Z',
    ...overrides,
  };
}

const META = [
  {
    key: 'sitesManagement',
    name: 'Site management',
    permissions: [
      { key: 'user.sites.read', name: 'View sites' },
      { key: 'user.sites.write', name: 'Manage sites' },
    ],
  },
  { key: 'userManagement', name: 'User Management', permissions: [{ key: 'roles.read', name: 'View roles' }] },
];

describe('roles', () => {
  beforeEach(() => {
    api = signedInFakeApi('user');
    api.on(listRoles, { auth: 'user' }, (request) =>
      okPage(request.search.get('name') === 'ops' ? [role({ id: 4, name: 'Ops' })] : [role()]),
    );
    api.on(metaRoles, { auth: 'user' }, okPage(META));
  });

  it('lists roles searched by name in the URL, with the menu entry', async () => {
    const router = renderAt('/user/userManagement/roles');
    const row = await findRow('Support');
    expect(within(row).getByText('1 key(s)')).toBeTruthy();
    expect(screen.getAllByText('Roles').length).toBeGreaterThan(1); // menu entry and title
    const box = screen.getByLabelText('Search role name');
    fireEvent.change(box, { target: { value: 'ops' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await findRow('Ops')).toBeTruthy();
    expect(router.state.location.search).toContain('name=ops');
    expect(api.sent(listRoles, { auth: 'user' }).at(-1)?.search.get('name')).toBe('ops');
  });

  it('creates a role with keys picked by group, and shows a refused key under the field', async () => {
    api.on(createRole, { auth: 'user' }, (request) =>
      (request.body as { name: string }).name === 'bad'
        ? fail(400, 101003, 'Parameter Error', {
            fields: [{ in: 'body', field: 'permissions', key: 'invalidValue', message: 'Bad keys' }],
          })
        : ok(role({ id: 9, name: 'Writers' })),
    );
    renderAt('/user/userManagement/roles');
    await findRow('Support');
    clickButton('New role');
    const dialog = await findModal();
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(api.sent(createRole, { auth: 'user' })).toHaveLength(0);

    typeInto(dialog, 'Name', 'Writers');
    const sites = await within(dialog).findByLabelText('Permissions: Site management');
    fireEvent.click(within(sites).getByLabelText('Manage sites'));
    fireEvent.click(within(dialog).getByLabelText('View roles'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Role Success !')).toBeTruthy();
    expect(api.sent(createRole, { auth: 'user' })[0]?.body).toEqual({
      name: 'Writers',
      remark: '',
      permissions: ['user.sites.write', 'roles.read'],
    });
    await modalClosed(dialog);

    clickButton('New role');
    const again = await findModal();
    typeInto(again, 'Name', 'bad');
    clickButton('OK', again);
    expect(await within(again).findByText('Bad keys')).toBeTruthy();
  });

  it('edits a role starting from its keys, and deletes one', async () => {
    api.on(updateRole, { auth: 'user', roleId: 3 }, ok(role()));
    api.on(deleteRole, { auth: 'user', roleId: 3 }, ok(true));
    renderAt('/user/userManagement/roles');
    clickButton('Edit', await findRow('Support'));
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Support');
    expect((await within(dialog).findByLabelText<HTMLInputElement>('View sites')).checked).toBe(true);
    fireEvent.click(within(dialog).getByLabelText('View sites'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Role Success !')).toBeTruthy();
    expect(api.sent(updateRole, { auth: 'user', roleId: 3 })[0]?.body).toEqual({
      name: 'Support',
      remark: 'read only',
      permissions: [],
    });
    await modalClosed(dialog);

    clickButton('Delete', await findRow('Support'));
    clickButton('Delete', document.querySelector('.ant-popover') as HTMLElement);
    expect(await screen.findByText('Remove Role Success !')).toBeTruthy();
    expect(api.sent(deleteRole, { auth: 'user', roleId: 3 })).toHaveLength(1);
  });

  it('a caller without roles.write sees no create, edit or delete', async () => {
    api.on(
      getSelf,
      { auth: 'user' },
      ok(selfInfo('user', { isRoot: false, permissions: ['account.self', 'roles.read'] })),
    );
    renderAt('/user/userManagement/roles');
    const row = await findRow('Support');
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(screen.queryByText('New role')).toBeNull();
  });
});

function token(overrides: Partial<ApiToken> = {}): ApiToken {
  return {
    id: 11,
    name: 'deploy',
    lifetime: 3600,
    permissions: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

describe('API tokens', () => {
  beforeEach(() => {
    api = signedInFakeApi('client');
    api.on(
      listApiTokens,
      { auth: 'client' },
      okPage([
        token(),
        token({
          id: 12,
          name: 'reports',
          lifetime: 60,
          permissions: ['client.sites.read'],
          revokedAt: '2026-03-02T10:00:00.000Z',
        }),
      ]),
    );
    api.on(metaRoles, { auth: 'client' }, okPage(META));
  });

  it('lists tokens and creates one whose secret is shown once with a copy button', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    api.on(createApiToken, { auth: 'client' }, ok({ ...token({ id: 13, name: 'ci' }), token: 'rat_secret123' }));
    renderAt('/client/userManagement/apiTokenSetting');
    expect(within(await findRow('deploy')).getByText('All of yours')).toBeTruthy();
    expect(within(await findRow('reports')).getByText('client.sites.read')).toBeTruthy();
    expect(within(await findRow('reports')).getByText('60 s')).toBeTruthy();
    // A token stopped by a password change says so; a working one is active.
    expect(within(await findRow('reports')).getByText('Stopped')).toBeTruthy();
    expect(within(await findRow('deploy')).getByText('Active')).toBeTruthy();

    clickButton('New API token');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'ci');
    typeInto(dialog, 'Access token lifetime', '10');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/./, { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(api.sent(createApiToken, { auth: 'client' })).toHaveLength(0);

    typeInto(dialog, 'Access token lifetime', '600');
    clickButton('OK', dialog);
    const secret = await screen.findByLabelText<HTMLTextAreaElement>('Token');
    expect(secret.value).toBe('rat_secret123');
    expect(screen.getByText(/shown only once/)).toBeTruthy();
    expect(api.sent(createApiToken, { auth: 'client' })[0]?.body).toEqual({
      name: 'ci',
      lifetime: 600,
      permissions: null,
    });
    clickButton('Copy');
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('rat_secret123'));

    clickButton('I have copied it');
    await modalClosed(secret.closest('.ant-modal') as HTMLElement);
  });

  it('limits a new token to chosen keys', async () => {
    api.on(createApiToken, { auth: 'client' }, ok({ ...token({ id: 14, name: 'ro' }), token: 'rat_x' }));
    renderAt('/client/userManagement/apiTokenSetting');
    await findRow('deploy');
    clickButton('New API token');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'ro');
    fireEvent.click(await within(dialog).findByLabelText('View sites'));
    clickButton('OK', dialog);
    expect(await screen.findByLabelText('Token')).toBeTruthy();
    expect(api.sent(createApiToken, { auth: 'client' })[0]?.body).toEqual({
      name: 'ro',
      lifetime: 3600,
      permissions: ['user.sites.read'],
    });
  });

  it('deletes the chosen tokens in one call', async () => {
    api.on(deleteApiTokens, { auth: 'client' }, ok(true));
    renderAt('/client/userManagement/apiTokenSetting');
    for (const name of ['deploy', 'reports']) {
      fireEvent.click((await findRow(name)).querySelector('input[type="checkbox"]') as HTMLInputElement);
    }
    clickButton('Delete (2)');
    clickButton('Delete', document.querySelector('.ant-popover') as HTMLElement);
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    expect(api.sent(deleteApiTokens, { auth: 'client' })[0]?.body).toEqual({ ids: [11, 12] });
  });
});
