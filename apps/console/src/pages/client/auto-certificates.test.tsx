import { listAutoCertificates, renewAutoCertificates } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { chooseOption, findRow, selectRows } from '../../test/queries';
import { renderAt } from '../../test/render-app';

const api = pageTestApi(() => signedInFakeApi('client'));
const row = {
  siteID: 1,
  siteName: 'shop',
  challenge: 'http-01' as const,
  failures: 0,
  lastAttemptAt: '2026-03-01T10:00:00.000Z',
  nextAttemptAt: '2026-05-01T10:00:00.000Z',
};
beforeEach(() => {
  api.on(
    listAutoCertificates,
    okPage([
      {
        ...row,
        id: 1,
        domainID: 11,
        domain: 'www.shop.example',
        status: 'valid',
        notAfter: '2026-05-31T10:00:00.000Z',
        lastError: '',
      },
      {
        ...row,
        id: 2,
        domainID: 12,
        domain: 'lost.shop.example',
        status: 'failed',
        notAfter: null,
        lastError: 'Connection refused to 127.0.0.2:80',
        failures: 2,
      },
    ]),
  );
});

describe('automatic certificates (operator)', () => {
  it('lists status, expiry and last error with the filters of the URL; renews the chosen ones', async () => {
    api.on(renewAutoCertificates, ok(true));
    const router = renderAt('/client/sitesManagement/autoSSLManagement?status=failed&domain=shop');
    expect(within(await findRow('www.shop.example')).getByText('Issued')).toBeTruthy();
    const lost = await findRow('lost.shop.example');
    expect(within(lost).getByText('Failed')).toBeTruthy();
    expect(within(lost).getByText('Connection refused to 127.0.0.2:80')).toBeTruthy();
    expect(Object.fromEntries(api.sent(listAutoCertificates)[0]?.search ?? [])).toEqual({
      page: '1',
      pageSize: '10',
      domain: 'shop',
      status: 'failed',
    });
    const filters = screen.getByLabelText('Search domain name').closest('.ant-flex') as HTMLElement;
    await chooseOption(filters, 'Status', 'All statuses');
    await waitFor(() => expect(router.state.location.search).toBe('?domain=shop'));
    // The list is read again for the new filter: rows chosen before that read ends may be its old rows.
    await waitFor(() => expect(api.sent(listAutoCertificates).length).toBeGreaterThanOrEqual(2));
    await findRow('lost.shop.example');

    await selectRows(['lost.shop.example']);
    fireEvent.click(await screen.findByRole('button', { name: 'Issue or renew now (1)' }));
    expect(await screen.findByText('Issuing started.')).toBeTruthy();
    expect(api.sent(renewAutoCertificates)[0]?.body).toEqual({ ids: [2] });
  });
});
