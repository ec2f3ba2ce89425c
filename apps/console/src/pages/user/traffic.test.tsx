import { listUserMonthlyUsages, listUserTrafficPlans } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { findRow } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The customer's traffic packages page: its extra plans and, on the second tab, its monthly report.
const api = pageTestApi(() => signedInFakeApi('user'));
const PAGE = '/user/trafficPkgManagement/trafficPkgList';

beforeEach(() => {
  api.on(
    listUserTrafficPlans,
    okPage([
      {
        id: 5,
        userID: 7,
        userName: 'alice',
        siteID: 3,
        siteName: 'shop',
        productID: 2,
        productName: 'CDN',
        bytes: 2_000_000_000,
        year: 2026,
        month: 11,
        memo: 'extra',
        createdAt: '2026-11-01T10:00:00.000Z',
        updatedAt: '2026-11-01T10:00:00.000Z',
      },
    ]),
  );
  api.on(
    listUserMonthlyUsages,
    okPage([
      {
        year: 2026,
        month: 11,
        userID: 7,
        userName: 'alice',
        siteID: 3,
        siteName: 'shop',
        productID: 2,
        productName: 'CDN',
        used: 4_000_000_000,
        planBytes: 5_000_000_000,
        extraBytes: 2_000_000_000,
        allowance: 7_000_000_000,
        left: 3_000_000_000,
        restriction: 'throttle',
      },
    ]),
  );
});

describe('trafficPkgList (customer)', () => {
  it('is in the menu, lists the plans and shows the monthly report on its tab', async () => {
    renderAt(PAGE);
    const row = await findRow('extra');
    for (const text of ['shop', 'CDN', '2026-11', '2.00 GB']) expect(within(row).getByText(text)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Traffic packages' }).getAttribute('href')).toBe(PAGE);
    expect(api.sent(listUserTrafficPlans).at(-1)?.search.get('pageSize')).toBe('25');

    fireEvent.click(screen.getByRole('tab', { name: 'Monthly usage' }));
    const usage = await findRow('4.00 GB');
    for (const text of ['7.00 GB', '3.00 GB', 'Throttled']) expect(within(usage).getByText(text)).toBeTruthy();
    expect(within(usage).queryByRole('button', { name: 'Lift' })).toBeNull();
    await waitFor(() => expect(api.sent(listUserMonthlyUsages).at(-1)?.search.get('pageSize')).toBe('25'));
  });
});
