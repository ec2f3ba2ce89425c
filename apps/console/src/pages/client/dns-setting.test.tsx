import {
  deleteDnsSetting,
  getDnsSetting,
  getSelf,
  listDnsUnprocessed,
  requestLogin,
  saveDnsSetting,
  testDnsSetting,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, resetBrowserSession, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findModal, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's DNS provider page (client/setting/dns GET/POST/DELETE and dns/test), against a fake API.
const api = pageTestApi(() => {
  const fake = signedInFakeApi('client');
  // The unprocessed records under a saved setting (dns-publish.test.tsx).
  fake.on(listDnsUnprocessed, okPage([]));
  return fake;
});

const PAGE = '/client/systemManagement/dnsSetting';
const pdns = {
  type: 'powerdns',
  apiUrl: 'http://127.0.0.1:8081/',
  serverId: 'localhost',
  zone: 'cdn.example.net',
  ttl: 60,
  hasSecret: true,
} as const;
const formOf = async () =>
  (await screen.findByText('Provider', {}, { timeout: 10_000 })).closest('form') as HTMLElement;

describe('the DNS setting page', () => {
  it('is in the menu; with none set it offers PowerDNS, and saving sends its fields and key', async () => {
    api.on(getDnsSetting, ok(null));
    api.on(saveDnsSetting, ok(pdns));
    renderAt(PAGE);
    const form = await formOf();
    expect(screen.getByText('No DNS provider set')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'DNS setting' }).getAttribute('href')).toBe(PAGE);
    typeInto(form, 'API URL', 'http://127.0.0.1:8081');
    typeInto(form, 'Zone', 'cdn.example.net');
    typeInto(form, 'API key', 's3cret');
    clickButton('Save', form);
    await waitFor(() =>
      expect(api.sent(saveDnsSetting).map((r) => r.body)).toEqual([
        {
          type: 'powerdns',
          apiUrl: 'http://127.0.0.1:8081',
          serverId: 'localhost',
          zone: 'cdn.example.net',
          ttl: 60,
          apiKey: 's3cret',
        },
      ]),
    );
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
  });

  it('refuses a malformed zone with the contract’s rule before calling the API', async () => {
    api.on(getDnsSetting, ok(null));
    renderAt(PAGE);
    const form = await formOf();
    typeInto(form, 'API URL', 'http://127.0.0.1:8081');
    typeInto(form, 'Zone', 'not a zone');
    clickButton('Save', form);
    expect(await within(form).findByText('Invalid domain name format')).toBeTruthy();
    expect(api.sent(saveDnsSetting)).toHaveLength(0);
  });

  it('shows a stored setting without its secret, keeps it when left empty, and switches to RFC 2136 fields', async () => {
    api.on(getDnsSetting, ok(pdns));
    api.on(saveDnsSetting, ok({ ...pdns, ttl: 300 }));
    renderAt(PAGE);
    const form = await formOf();
    expect(screen.getByText('In use: PowerDNS')).toBeTruthy();
    expect((within(form).getByLabelText('Zone') as HTMLInputElement).value).toBe('cdn.example.net');
    expect((within(form).getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect(screen.getByText('A secret is stored; leave the field empty to keep it.')).toBeTruthy();
    clickButton('Save', form);
    await waitFor(() => expect(api.sent(saveDnsSetting)).toHaveLength(1));
    expect(api.sent(saveDnsSetting)[0]?.body).not.toHaveProperty('apiKey');

    fireEvent.click(within(form).getByText('RFC 2136 (TSIG)'));
    expect(await within(form).findByLabelText('TSIG key name')).toBeTruthy();
    expect(within(form).getByLabelText('Primary server (host:port)')).toBeTruthy();
    // Another type's secret is not stored: the field is required again.
    expect(screen.queryByText('A secret is stored; leave the field empty to keep it.')).toBeNull();
  });

  it('tests the form’s values and shows the provider’s answer, or its refusal', async () => {
    api.on(getDnsSetting, ok(pdns));
    api.on(testDnsSetting, ok({ detail: 'zone cdn.example.net readable; TXT probe written and removed' }));
    renderAt(PAGE);
    const form = await formOf();
    clickButton('Test', form);
    expect(await screen.findByText('The DNS provider works')).toBeTruthy();
    expect(screen.getByText('zone cdn.example.net readable; TXT probe written and removed')).toBeTruthy();
    expect(api.sent(testDnsSetting)[0]?.body).toMatchObject({ type: 'powerdns', zone: 'cdn.example.net' });

    api.on(
      testDnsSetting,
      fail(502, 101010, 'DNS Execution Error', { name: 'cdn.example.net', reason: 'PowerDNS 401: Unauthorized' }),
    );
    clickButton('Test', form);
    expect(await screen.findByText('The DNS provider refused the test')).toBeTruthy();
    expect(screen.getByText('PowerDNS 401: Unauthorized')).toBeTruthy();
  });

  it('deletes the setting after confirming', async () => {
    api.on(getDnsSetting, ok(pdns));
    api.on(deleteDnsSetting, () => {
      api.on(getDnsSetting, ok(null));
      return ok(null);
    });
    renderAt(PAGE);
    const form = await formOf();
    clickButton('Delete', form);
    const dialog = await findModal();
    expect(within(dialog).getByText(/the records already in the zone stay there/)).toBeTruthy();
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(deleteDnsSetting)).toHaveLength(1));
    await modalClosed(dialog);
    expect(await screen.findByText('No DNS provider set')).toBeTruthy();
  });

  it('is where a root operator without a DNS type lands after login', async () => {
    resetBrowserSession();
    api.on(requestLogin, { auth: 'client' }, ok({ login2FAType: 0, accessToken: 'a-2', tokenType: 'Bearer' }));
    api.on(getDnsSetting, ok(null));
    const router = renderAt('/client/login');
    await screen.findByRole('button', { name: 'Log in' });
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(PAGE));
    expect(await screen.findByText('No DNS provider set')).toBeTruthy();
  });

  it('shows a read-only operator the setting without the buttons', async () => {
    api.on(getDnsSetting, ok(pdns));
    api.on(
      getSelf,
      { auth: 'client' },
      ok(
        selfInfo('client', {
          isRoot: false,
          dnsType: 'powerdns',
          permissions: ['account.self', 'client.settings.read'],
        }),
      ),
    );
    renderAt(PAGE);
    await formOf();
    expect(screen.queryByText('Save')).toBeNull();
    expect(screen.queryByText('Test')).toBeNull();
  });
});
