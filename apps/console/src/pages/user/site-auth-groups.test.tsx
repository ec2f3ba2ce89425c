import { authCredentialRoutes, authGroupRoutes, listDomains } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi } from '../../test/fake-api';
import { signedInSiteTab, siteDomain } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findPopconfirm, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
const api = pageTestApi(signedInSiteTab);

const PAGE = '/user/sitesManagement/sitesSetting/3/shop?tab=auth';
const stamps = { createdAt: '2026-01-02T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' };
const staff = {
  id: 5,
  siteID: 3,
  name: 'staff',
  remark: 'office',
  basicCount: 1,
  keyCount: 0,
  jwtCount: 2,
  ruleCount: 1,
  ...stamps,
};
const adminRule = {
  id: 8,
  siteID: 3,
  name: 'admin area',
  groupID: 5,
  groupName: 'staff',
  match: 'prefix' as const,
  path: '/admin',
  domainIDs: [],
  priority: 10,
  enabled: true,
  ...stamps,
};

describe('sitesSetting: auth groups', () => {
  beforeEach(() => {
    api.on(authGroupRoutes.listGroups, { siteId: 3 }, okPage([staff]));
    api.on(authGroupRoutes.listRules, { siteId: 3 }, okPage([adminRule]));
    api.on(authGroupRoutes.metaGroups, { siteId: 3 }, ok([{ id: 5, name: 'staff' }]));
    api.on(listDomains, { siteId: 3 }, okPage([siteDomain()]));
  });

  it('lists groups and rules paged on the server', async () => {
    renderAt(PAGE);
    const group = await findRow('office');
    expect(within(group).getByText('1 basic, 0 key, 2 JWT')).toBeTruthy();
    const rule = await findRow('admin area');
    expect(within(rule).getByText('Prefix /admin')).toBeTruthy();
    await waitFor(() =>
      expect(Object.fromEntries(api.sent(authGroupRoutes.listRules, { siteId: 3 })[0]?.search ?? [])).toEqual({
        page: '1',
        pageSize: '10',
      }),
    );
  });

  it('adds a rule for a group, on every domain, sending what the form holds', async () => {
    api.on(authGroupRoutes.createRule, { siteId: 3 }, ok({ ...adminRule, id: 9 }));
    renderAt(PAGE);
    await findRow('admin area');
    clickButton('Add rule');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'api');
    await chooseOption(dialog, 'Match', 'Regex');
    typeInto(dialog, 'Path', '^/api/');
    await chooseOption(dialog, 'Group', 'staff');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(authGroupRoutes.createRule, { siteId: 3 })[0]?.body).toEqual({
      name: 'api',
      groupID: 5,
      match: 'regex',
      path: '^/api/',
      domainIDs: [],
      priority: 0,
      enabled: true,
    });
  });

  it('tells why a group in use cannot be deleted (701001)', async () => {
    api.on(
      authGroupRoutes.deleteGroups,
      { siteId: 3 },
      fail(409, 701001, 'Site auth group in use', { targets: ['admin area'] }),
    );
    renderAt(PAGE);
    clickButton('Delete', await findRow('office'));
    clickButton('Delete', await findPopconfirm('Delete this group and its credentials?'));
    expect(await screen.findByText('Site auth group in use')).toBeTruthy();
    expect(api.sent(authGroupRoutes.deleteGroups, { siteId: 3 })[0]?.body).toEqual({ ids: [5] });
  });

  it('adds a basic credential to a group from its drawer', async () => {
    const params = { siteId: 3, groupId: 5 };
    api.on(authCredentialRoutes.listBasicAuths, params, okPage([]));
    api.on(authCredentialRoutes.createBasicAuth, params, ok({ id: 1, groupID: 5, username: 'alice', ...stamps }));
    renderAt(PAGE);
    clickButton('1 basic, 0 key, 2 JWT', await findRow('office'));
    const drawer = (await screen.findByText('Credentials of staff')).closest('.ant-drawer') as HTMLElement;
    clickButton('Add Basic auth', drawer);
    const dialog = await findModal();
    typeInto(dialog, 'User name', 'alice');
    typeInto(dialog, 'Password', 'wonderland');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(authCredentialRoutes.createBasicAuth, params)[0]?.body).toEqual({
      username: 'alice',
      password: 'wonderland',
    });
  });

  it('edits a basic credential and keeps its password when the field is left empty', async () => {
    const params = { siteId: 3, groupId: 5 };
    const alice = { id: 1, groupID: 5, username: 'alice', ...stamps };
    api.on(authCredentialRoutes.listBasicAuths, params, okPage([alice]));
    api.on(authCredentialRoutes.updateBasicAuth, params, ok({ ...alice, username: 'alice2' }));
    renderAt(PAGE);
    clickButton('1 basic, 0 key, 2 JWT', await findRow('office'));
    await screen.findByText('Credentials of staff');
    clickButton('Edit', await findRow('alice'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit Basic auth')).toBeTruthy();
    expect((within(dialog).getByLabelText('User name') as HTMLInputElement).value).toBe('alice');
    expect((within(dialog).getByLabelText('Password') as HTMLInputElement).value).toBe('');
    typeInto(dialog, 'User name', 'alice2');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(authCredentialRoutes.updateBasicAuth, params)[0]?.body).toEqual({
      id: 1,
      username: 'alice2',
      password: '',
    });
  });

  it('edits a JWT credential: its fields filled in, the secret left write-only', async () => {
    const params = { siteId: 3, groupId: 5 };
    const jwt = {
      id: 7,
      groupID: 5,
      name: 'mobile app',
      alg: 'HS256' as const,
      hasSecret: true,
      publicKey: '',
      issuer: 'https://id.example.com',
      audience: 'shop',
      leeway: 30,
      requireExp: false,
      ...stamps,
    };
    api.on(authCredentialRoutes.listBasicAuths, params, okPage([]));
    api.on(authCredentialRoutes.listJwtAuths, params, okPage([jwt]));
    api.on(authCredentialRoutes.updateJwtAuth, params, ok({ ...jwt, audience: 'shop-v2' }));
    renderAt(PAGE);
    clickButton('1 basic, 0 key, 2 JWT', await findRow('office'));
    const drawer = (await screen.findByText('Credentials of staff')).closest('.ant-drawer') as HTMLElement;
    fireEvent.click(await within(drawer).findByRole('tab', { name: 'JWT auth' }));
    clickButton('Edit', await findRow('mobile app (HS256)'));
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Required issuer (iss)') as HTMLInputElement).value).toBe(
      'https://id.example.com',
    );
    typeInto(dialog, 'Required audience (aud)', 'shop-v2');
    const requireExp = within(dialog).getByLabelText('Refuse tokens without an expiry (exp)') as HTMLInputElement;
    expect(requireExp.checked).toBe(false);
    fireEvent.click(requireExp);
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(authCredentialRoutes.updateJwtAuth, params)[0]?.body).toEqual({
      id: 7,
      name: 'mobile app',
      alg: 'HS256',
      secret: '',
      issuer: 'https://id.example.com',
      audience: 'shop-v2',
      leeway: 30,
      requireExp: true,
    });
  });
});
