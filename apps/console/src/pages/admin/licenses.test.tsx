import {
  createLicense,
  issueLicense,
  issueOfflineLicense,
  type License,
  listAccounts,
  listLicenses,
  listOfflineLicenses,
  type ManagedAccount,
  type OfflineLicense,
  putOfflineLicense,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findModal, findPopconfirm, findRow, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The vendor's licence pages, rendered in jsdom against a fake API.
const api = pageTestApi(() => signedInFakeApi('admin'));

const setting = {
  nodes: 5,
  sites: 20,
  domains: 100,
  autoSSLDomains: 50,
  ports: 10,
  zones: 3,
  expiredAt: '2027-06-30T23:59:59.999Z',
};
const draft: License = {
  id: 7,
  userID: 3,
  userName: 'acme-cdn',
  licenseSetting: setting,
  issued: false,
  issuedAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const offline: OfflineLicense = {
  id: 4,
  customer: 'Acme hosting',
  installID: '6f1c2f1e-1b2c-4d5e-8f90-1234567890ab',
  operator: 'acme-cdn',
  licenseSetting: setting,
  key: null,
  issuedAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

const operator: ManagedAccount = {
  id: 3,
  auth: 'client',
  account: 'acme-cdn',
  name: '',
  email: 'ops@acme.test',
  status: 'normal',
  isRoot: true,
  hasPassword: true,
  login2FAType: 0,
  maxLogExportTimes: 10,
  zoneLimit: 0,
  subCount: 0,
  role: null,
  createdAt: '2026-10-01T10:00:00.000Z',
};

beforeEach(() => {
  api.on(listLicenses, okPage([draft]));
  api.on(listOfflineLicenses, okPage([offline]));
  api.on(listAccounts, okPage([operator]));
});

describe('licenses', () => {
  it('is in the menu and lists each licence with its operator, limits and status', async () => {
    renderAt('/admin/licenses');
    const row = await findRow('acme-cdn');
    expect(within(row).getByText('Sites: 20')).toBeTruthy();
    expect(within(row).getByText('Draft')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Licences' }).getAttribute('href')).toBe('/admin/licenses');
    expect(screen.getByRole('link', { name: 'Offline licences' }).getAttribute('href')).toBe('/admin/offlineLicense');
  });

  it('issues a draft after asking', async () => {
    api.on(issueLicense, ok({ ...draft, issued: true, issuedAt: '2026-11-02T10:00:00.000Z' }));
    renderAt('/admin/licenses');
    clickButton('Issue', await findRow('acme-cdn'));
    clickButton('Yes', await findPopconfirm(/Issue this licence/));
    await waitFor(() => expect(api.sent(issueLicense)[0]?.body).toEqual({ id: 7 }));
    expect(await screen.findByText('Issue License Success!')).toBeTruthy();
  });

  it('drafts a licence for an operator with its limits and expiry', async () => {
    api.on(createLicense, ok(draft));
    renderAt('/admin/licenses');
    await findRow('acme-cdn');
    clickButton('New licence');
    const dialog = await findModal();
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('acme-cdn'));
    typeInto(dialog, 'Sites', '2');
    fireEvent.change(within(dialog).getByLabelText('Expires'), { target: { value: '2027-01-31' } });
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(createLicense)).toHaveLength(1));
    expect(api.sent(createLicense)[0]?.body).toEqual({
      userID: 3,
      licenseSetting: {
        nodes: 10,
        sites: 2,
        domains: 10,
        autoSSLDomains: 10,
        ports: 10,
        zones: 10,
        expiredAt: '2027-01-31T23:59:59.999Z',
      },
    });
    expect(await screen.findByText('Create Licenses Success!')).toBeTruthy();
    await modalClosed(dialog);
  });
});

describe('offlineLicense', () => {
  it('creates an offline licence for an installation ID and operator account, then issues its key', async () => {
    api.on(putOfflineLicense, ok(offline));
    api.on(issueOfflineLicense, ok({ ...offline, key: 'RL1.abc.def', issuedAt: '2026-11-02T10:00:00.000Z' }));
    renderAt('/admin/offlineLicense');
    expect(within(await findRow('Acme hosting')).getByText('acme-cdn')).toBeTruthy();
    clickButton('New offline licence');
    const dialog = await findModal();
    typeInto(dialog, 'Customer', 'Beta net');
    typeInto(dialog, 'Installation ID', '11111111-1111-4111-8111-111111111111');
    // Without the operator account the form does not send.
    clickButton('OK', dialog);
    await waitFor(() => expect(dialog.querySelector('.ant-form-item-explain-error')).not.toBeNull());
    expect(api.sent(putOfflineLicense)).toHaveLength(0);
    typeInto(dialog, 'Operator account', 'beta-ops');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(putOfflineLicense)).toHaveLength(1));
    expect(api.sent(putOfflineLicense)[0]?.body).toMatchObject({
      customer: 'Beta net',
      installID: '11111111-1111-4111-8111-111111111111',
      operator: 'beta-ops',
      licenseSetting: { nodes: 10, sites: 10 },
    });
    expect(await screen.findByText('Create Offline License Success!')).toBeTruthy();
    await modalClosed(dialog);

    clickButton('Issue', await findRow('Acme hosting'));
    await waitFor(() => expect(api.sent(issueOfflineLicense)[0]?.body).toEqual({ id: 4 }));
    expect(await screen.findByText('Issue License Success!')).toBeTruthy();
  });

  it('refuses an installation ID that is not one before sending', async () => {
    renderAt('/admin/offlineLicense');
    await findRow('Acme hosting');
    clickButton('New offline licence');
    const dialog = await findModal();
    typeInto(dialog, 'Customer', 'Beta net');
    typeInto(dialog, 'Installation ID', 'not-an-id');
    clickButton('OK', dialog);
    await waitFor(() => expect(dialog.querySelector('.ant-form-item-explain-error')).not.toBeNull());
    expect(api.sent(putOfflineLicense)).toHaveLength(0);
  });
});
