import { listUserAnnouncements, listUserProducts, userExpiringCertificates } from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, fail, ok, okPage, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { findRow } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The customer's dashboard: its operator's running announcements and its products.
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;

beforeEach(() => {
  api = signedInFakeApi('user');
});

afterEach(() => restoreFakeApi());

describe('user dashboard', () => {
  it("shows the operator's running announcements and the customer's products", async () => {
    api.on(
      listUserAnnouncements,
      okPage([
        {
          id: 12,
          title: 'New PoP',
          content: 'Frankfurt is live',
          running: true,
          createdAt: '2026-03-01T10:00:00.000Z',
          updatedAt: '2026-03-01T10:00:00.000Z',
        },
      ]),
    );
    api.on(
      listUserProducts,
      okPage([
        { id: 4, name: 'Standard', portType: 7, siteCount: 2 },
        { id: 5, name: 'Game ports', portType: 4, siteCount: 1 },
      ]),
    );
    renderAt('/user/dashboard');
    const panel = await screen.findByTestId('announcements-panel');
    expect(await within(panel).findByText('New PoP')).toBeTruthy();
    expect(within(panel).getByText('Frankfurt is live')).toBeTruthy();
    const search = api.sent(listUserAnnouncements)[0]?.search;
    expect(search?.get('running')).toBe('true');
    expect(search?.get('pageSize')).toBe('5');

    const standard = await findRow('Standard');
    expect(within(standard).getByText('Layer 7 (HTTP/HTTPS)')).toBeTruthy();
    expect(within(standard).getByText('2')).toBeTruthy();
    expect(within(await findRow('Game ports')).getByText('Layer 4 (TCP/UDP)')).toBeTruthy();
  });

  it('says when there is no announcement, and offers a retry when the list fails', async () => {
    api.on(listUserAnnouncements, okPage([]));
    api.on(listUserProducts, fail(500, 100001, 'boom'));
    renderAt('/user/dashboard');
    const panel = await screen.findByTestId('announcements-panel');
    expect(await within(panel).findByText('No announcements right now.')).toBeTruthy();
    const products = screen.getByTestId('products-panel');
    await waitFor(() => expect(within(products).getByRole('button', { name: /retry/i })).toBeTruthy());
  });

  it('lists the certificates ending soon or ended, each linking to its site', async () => {
    api.on(listUserAnnouncements, okPage([]));
    api.on(listUserProducts, okPage([]));
    api.on(
      userExpiringCertificates,
      ok({
        total: 3,
        certificates: [
          {
            id: 7,
            name: 'old-shop',
            siteID: 3,
            siteName: 'shop',
            notAfter: '2026-03-01T00:00:00.000Z',
            status: 'expired',
          },
          {
            id: 8,
            name: 'www-blog',
            siteID: 4,
            siteName: 'blog',
            notAfter: '2026-03-20T00:00:00.000Z',
            status: 'expiring',
          },
        ],
      }),
    );
    renderAt('/user/dashboard');
    const panel = await screen.findByTestId('expiring-certificates');
    const old = (await within(panel).findByText('old-shop')).closest('tr') as HTMLElement;
    expect(within(old).getByText('Expired')).toBeTruthy();
    expect(within(old).getByText('shop')).toBeTruthy();
    expect(within(old).getByRole('link', { name: 'old-shop' }).getAttribute('href')).toBe(
      '/user/sitesManagement/sitesSetting/3/shop?tab=certificates',
    );
    const blog = within(panel).getByText('www-blog').closest('tr') as HTMLElement;
    expect(within(blog).getByText('Expiring')).toBeTruthy();
    expect(within(panel).getByText('2 of 3 shown, soonest first.')).toBeTruthy();
  });

  it('says when no certificate ends soon', async () => {
    api.on(listUserAnnouncements, okPage([]));
    api.on(listUserProducts, okPage([]));
    api.on(userExpiringCertificates, ok({ total: 0, certificates: [] }));
    renderAt('/user/dashboard');
    const panel = await screen.findByTestId('expiring-certificates');
    expect(await within(panel).findByText('No certificate of your sites ends within 30 days.')).toBeTruthy();
  });

  it('shows an operator no customer panels', async () => {
    restoreFakeApi();
    api = signedInFakeApi('client');
    renderAt('/client/dashboard');
    expect(await screen.findByTestId('account-summary')).toBeTruthy();
    expect(screen.queryByTestId('announcements-panel')).toBeNull();
    expect(api.sent(listUserAnnouncements)).toHaveLength(0);
  });
});
