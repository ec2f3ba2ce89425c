import {
  createTrafficPlan,
  deleteTrafficPlans,
  liftTrafficRestriction,
  listClientMonthlyUsages,
  listClientTrafficPlans,
  metaSites,
  updateTrafficPlan,
} from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import {
  chooseOption,
  clickButton,
  findModal,
  findPopconfirm,
  findRow,
  modalClosed,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's traffic packages: extra plans (CRUD) and the monthly report with the lift action,
// rendered in jsdom against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));

const plan = {
  id: 5,
  userID: 30,
  userName: 'carol',
  siteID: 3,
  siteName: 'shop',
  productID: 2,
  productName: 'CDN',
  bytes: 1_500_000_000,
  year: 2026,
  month: 11,
  memo: 'Black Friday',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const usage = {
  year: 2026,
  month: 11,
  userID: 30,
  userName: 'carol',
  siteID: 3,
  siteName: 'shop',
  productID: 2,
  productName: 'CDN',
  used: 6_000_000_000,
  planBytes: 5_000_000_000,
  extraBytes: 0,
  allowance: 5_000_000_000,
  left: 0,
  restriction: 'pause' as const,
};
const unlimited = {
  ...usage,
  siteID: 4,
  siteName: 'blog',
  used: 2_000_000,
  planBytes: 0,
  allowance: null,
  left: null,
  restriction: null,
};
const PLANS = '/client/trafficPkgManagement/trafficPkgList';
const REPORT = '/client/trafficPkgManagement/trafficReport';
const now = new Date();
const thisMonth = { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };

beforeEach(() => {
  api.on(listClientTrafficPlans, okPage([plan]));
  api.on(listClientMonthlyUsages, okPage([usage, unlimited]));
  api.on(
    metaSites,
    ok([
      { id: 3, name: 'shop' },
      { id: 4, name: 'blog' },
    ]),
  );
});

describe('trafficPkgList (operator)', () => {
  it('is in the menu and lists the plans with customer, month and size, 25 a page by default', async () => {
    renderAt(PLANS);
    const row = await findRow('Black Friday');
    for (const text of ['carol', 'shop', 'CDN', '2026-11', '1.50 GB']) expect(within(row).getByText(text)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Traffic packages' }).getAttribute('href')).toBe(PLANS);
    expect(screen.getByRole('link', { name: 'Traffic report' }).getAttribute('href')).toBe(REPORT);
    expect(api.sent(listClientTrafficPlans).at(-1)?.search.get('pageSize')).toBe('25');
  });

  it('sells extra traffic: site, month and GB become the body; a field the server refuses shows under it', async () => {
    let calls = 0;
    api.on(createTrafficPlan, () => {
      calls++;
      return calls === 1
        ? fail(400, 101003, 'Parameter Error', {
            fields: [{ in: 'body', field: 'bytes', key: 'tooBig', message: 'Too much traffic' }],
          })
        : ok({ ...plan, id: 6 });
    });
    renderAt(PLANS);
    await findRow('Black Friday');
    clickButton('New extra plan');
    const dialog = await findModal();
    await chooseOption(dialog, 'Site', 'blog');
    typeInto(dialog, 'Extra traffic (GB)', '2.5');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Too much traffic')).toBeTruthy();
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(createTrafficPlan)).toHaveLength(2));
    expect(api.sent(createTrafficPlan)[1]?.body).toEqual({
      siteID: 4,
      bytes: 2_500_000_000,
      ...thisMonth,
      memo: '',
    });
    await modalClosed(dialog);
  });

  it('edits a plan in GB and deletes it', async () => {
    api.on(updateTrafficPlan, ok({ ...plan, bytes: 3_000_000_000 }));
    api.on(deleteTrafficPlans, ok(true));
    renderAt(PLANS);
    const row = await findRow('Black Friday');
    clickButton('Edit', row);
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Extra traffic (GB)') as HTMLInputElement).value).toBe('1.5');
    typeInto(dialog, 'Extra traffic (GB)', '3');
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(updateTrafficPlan)[0]?.body).toEqual({
        id: 5,
        siteID: 3,
        bytes: 3_000_000_000,
        year: 2026,
        month: 11,
        memo: 'Black Friday',
      }),
    );
    await modalClosed(dialog);
    clickButton('Delete', await findRow('carol'));
    clickButton('Delete', await findPopconfirm('Delete the plan of shop for 2026-11?'));
    await waitFor(() => expect(api.sent(deleteTrafficPlans)[0]?.body).toEqual({ ids: [5] }));
  });
});

describe('trafficReport (operator)', () => {
  it('shows each site’s month against its allowance and lifts a restriction', async () => {
    api.on(liftTrafficRestriction, ok(true));
    renderAt(REPORT);
    const row = await findRow('shop');
    for (const text of ['carol', '6.00 GB', '5.00 GB', 'Paused'])
      expect(within(row).getAllByText(text).length).toBeGreaterThan(0);
    const open = await findRow('blog');
    // Allowance and left (the product's part of the allowance is a column hidden until asked for).
    expect(within(open).getAllByText('Unlimited')).toHaveLength(2);
    expect(within(open).queryByRole('button', { name: 'Lift' })).toBeNull();
    expect(api.sent(listClientMonthlyUsages).at(-1)?.search.get('pageSize')).toBe('25');

    clickButton('Lift', row);
    clickButton(
      'Yes',
      await findPopconfirm('Lift the traffic restriction of shop? It is not restricted again this month.'),
    );
    await waitFor(() => expect(api.sent(liftTrafficRestriction)[0]?.body).toEqual({ ids: [3] }));
  });

  it('asks for the month in the URL', async () => {
    renderAt(`${REPORT}?month=2026-10&pageSize=500`);
    await findRow('shop');
    const search = api.sent(listClientMonthlyUsages).at(-1)?.search;
    expect([search?.get('year'), search?.get('month'), search?.get('pageSize')]).toEqual(['2026', '10', '500']);
  });
});
