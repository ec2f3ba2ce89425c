import {
  getCnameMeta,
  getCnameSetting,
  getDnsSetting,
  getDomainProofSetting,
  listDnsCnames,
  listDnsLines,
  listDnsUnprocessed,
  recoverDns,
  retryDnsUnprocessed,
  setDnsCnames,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findModal, modalClosed } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The publication of the operator's DNS records in the console: the unprocessed records under the
// DNS setting (dns/unprocessed, retry, dns/recovery) and the published CNAME records under the CNAME
// domain (cname/meta, dns/cnames), against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));

const pdns = {
  type: 'powerdns',
  apiUrl: 'http://127.0.0.1:8081/',
  serverId: 'localhost',
  zone: 'cdn.example.net',
  ttl: 60,
  hasSecret: true,
} as const;
const failed = {
  id: 7,
  name: 'aaaa0000aaaa0000.cname.cdn.example.net',
  type: 'A',
  line: 'default',
  action: 'upsert',
  ttl: 60,
  values: ['192.0.2.11', '192.0.2.12'],
  error: 'PowerDNS 401: Unauthorized',
  attempts: 3,
  nextAttemptAt: '2026-11-25T04:00:00.000Z',
  updatedAt: '2026-11-25T03:59:00.000Z',
} as const;

describe('unprocessed DNS records under the DNS setting', () => {
  it('lists them with the error, retries one, and re-publishes everything after confirming', async () => {
    api.on(getDnsSetting, ok(pdns));
    api.on(listDnsUnprocessed, okPage([failed]));
    api.on(retryDnsUnprocessed, ok({ ran: true, written: 0, failed: 1 }));
    api.on(recoverDns, ok({ ran: true, written: 2, failed: 0 }));
    renderAt('/client/systemManagement/dnsSetting');
    expect(await screen.findByText('PowerDNS 401: Unauthorized', {}, { timeout: 10_000 })).toBeTruthy();
    const row = screen.getByText(failed.name).closest('tr') as HTMLElement;
    expect(within(row).getByText('192.0.2.11, 192.0.2.12')).toBeTruthy();
    expect(within(row).getByText('Write')).toBeTruthy();

    clickButton('Retry', row);
    await waitFor(() => expect(api.sent(retryDnsUnprocessed).map((r) => r.body)).toEqual([{ ids: [7] }]));
    expect(await screen.findByText('Written: 0, failed: 1')).toBeTruthy();

    clickButton('Re-publish all records');
    const dialog = await findModal();
    expect(within(dialog).getByText('Re-publish every DNS record now?')).toBeTruthy();
    expect(api.sent(recoverDns)).toHaveLength(0);
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(recoverDns)).toHaveLength(1));
    await modalClosed(dialog);
    expect(await screen.findByText('Written: 2, failed: 0')).toBeTruthy();
  });

  it('is not shown before a provider is set', async () => {
    api.on(getDnsSetting, ok(null));
    api.on(listDnsUnprocessed, okPage([]));
    renderAt('/client/systemManagement/dnsSetting');
    expect(await screen.findByText('No DNS provider set', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('Unprocessed DNS records')).toBeNull();
  });
});

describe('published CNAME records under the CNAME domain', () => {
  const record = {
    id: 41,
    domain: 'shop.example.com',
    target: 'aaaa0000aaaa0000.cname.cdn.example.net',
    siteId: 3,
    siteName: 'shop',
    enabled: true,
    disabled: false,
  };

  it('shows the zone, TTL and lines named, lists the records, searches and turns one off', async () => {
    api.on(getCnameSetting, ok({ domain: 'cname.cdn.example.net', defaultDomain: 'cname.rampart.test', custom: true }));
    api.on(getDomainProofSetting, ok({ required: true }));
    api.on(
      getCnameMeta,
      ok({
        cnameDomain: 'cname.cdn.example.net',
        providerType: 'dnspod',
        zone: 'cdn.example.net',
        ttl: 120,
        lines: ['default', 'telecom'],
      }),
    );
    api.on(
      listDnsLines,
      ok([
        { id: 'default', name: 'Default' },
        { id: 'telecom', name: 'China Telecom' },
      ]),
    );
    api.on(listDnsCnames, okPage([record]));
    api.on(setDnsCnames, ok(true));
    renderAt('/client/systemManagement/cname');
    expect(await screen.findByText(record.target, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('cdn.example.net', { selector: 'td, td *' })).toBeTruthy();
    expect(screen.getByText('120')).toBeTruthy();
    expect(await screen.findByText('China Telecom')).toBeTruthy();

    const search = screen.getByLabelText('Domain or target');
    fireEvent.change(search, { target: { value: 'shop' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(api.sent(listDnsCnames).some((r) => r.search.get('keyword') === 'shop')).toBe(true));

    fireEvent.click(screen.getByRole('switch', { name: 'Publish the CNAME record of shop.example.com' }));
    await waitFor(() => expect(api.sent(setDnsCnames).map((r) => r.body)).toEqual([{ ids: [41], disabled: true }]));
  });
});
