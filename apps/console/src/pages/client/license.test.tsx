import { activateOfflineLicense, getOwnLicense, type LicenseInfo } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findRow } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's licence page, rendered in jsdom against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));
const PAGE = '/client/systemManagement/license';
const usage = (used: number, limit: number) => ({ used, limit, left: limit < 0 ? -1 : Math.max(0, limit - used) });
const none: LicenseInfo = {
  source: 'none',
  licenseSetting: null,
  expired: false,
  daysLeft: null,
  usage: {
    nodes: usage(1, -1),
    sites: usage(4, -1),
    domains: usage(9, -1),
    autoSSLDomains: usage(0, -1),
    ports: usage(0, -1),
    zones: usage(2, -1),
  },
  installID: '6f1c2f1e-1b2c-4d5e-8f90-1234567890ab',
  operator: 'acme-cdn',
  key: null,
};
const offline: LicenseInfo = {
  ...none,
  source: 'offline',
  licenseSetting: {
    nodes: 5,
    sites: 5,
    domains: 50,
    autoSSLDomains: 5,
    ports: 5,
    zones: 5,
    expiredAt: '2026-12-05T23:59:59.999Z',
  },
  daysLeft: 10,
  usage: { ...none.usage, sites: usage(4, 5) },
  key: 'RL1.a.b',
};

describe('license', () => {
  it('is in the menu and shows the installation ID, the operator account and that nothing is limited without a licence', async () => {
    api.on(getOwnLicense, ok(none));
    renderAt(PAGE);
    expect(await screen.findByText('6f1c2f1e-1b2c-4d5e-8f90-1234567890ab')).toBeTruthy();
    // An offline licence names the operator too: the page says which account to give the vendor.
    expect(screen.getByText('acme-cdn')).toBeTruthy();
    expect(screen.getByText('No licence is applied: nothing is limited until one is.')).toBeTruthy();
    expect(within(await findRow('Sites')).getAllByText('Unlimited')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Licence' }).getAttribute('href')).toBe(PAGE);
  });

  it('shows what is used and left, and warns before the expiry', async () => {
    api.on(getOwnLicense, ok(offline));
    renderAt(PAGE);
    const row = await findRow('Sites');
    expect(within(row).getByText('4')).toBeTruthy();
    expect(within(row).getByText('5')).toBeTruthy();
    expect(within(row).getByText('1')).toBeTruthy();
    expect(screen.getByText(/Your licence expires in 10 day\(s\)/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Update key' })).toBeTruthy();
  });

  it('activates a key, and shows the invalid-key message when the server cannot read it', async () => {
    let calls = 0;
    api.on(getOwnLicense, ok(none));
    api.on(activateOfflineLicense, () => {
      calls++;
      return calls === 1 ? fail(400, 101003, 'Parameter Error', 'invalid license key') : ok(offline);
    });
    renderAt(PAGE);
    const box = await screen.findByLabelText('Licence key');
    fireEvent.change(box, { target: { value: 'garbage' } });
    clickButton('Activate');
    await waitFor(() => expect(api.sent(activateOfflineLicense)).toHaveLength(1));
    expect(api.sent(activateOfflineLicense)[0]?.search.get('key')).toBe('garbage');
    expect(await screen.findByText(/invalid/i)).toBeTruthy();
    fireEvent.change(box, { target: { value: ' RL1.a.b ' } });
    clickButton('Activate');
    await waitFor(() => expect(api.sent(activateOfflineLicense)).toHaveLength(2));
    expect(api.sent(activateOfflineLicense)[1]?.search.get('key')).toBe('RL1.a.b');
    expect(await screen.findByText('Update Success')).toBeTruthy();
  });
});
