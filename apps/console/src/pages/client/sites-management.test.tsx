import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, ok, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { chooseOption, clickButton, findModal, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds), so the
// screens of a menu group share one file.
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;

beforeEach(() => {
  api = signedInFakeApi('client');
});

afterEach(() => restoreFakeApi());

const product = {
  id: 4,
  name: 'Standard',
  portType: 7,
  memo: '',
  mainGroups: [{ id: 5, name: 'web-eu', zoneId: 2 }],
  backupGroups: [{ id: 9, name: 'spare-asia', zoneId: 1 }],
  createdAt: '2026-03-01T10:00:00.000Z',
};

describe('productsList', () => {
  beforeEach(() => {
    api.on('GET', '/client/products', { status: 200, body: { data: [product], total: 1 } });
    api.on(
      'GET',
      '/client/metaZones',
      ok([
        { id: 1, name: 'Asia' },
        { id: 2, name: 'Europe' },
      ]),
    );
    api.on('GET', '/client/zone/1/metaGroups', ok([{ id: 7, name: 'web-asia' }]));
    api.on('GET', '/client/zone/2/metaGroups', ok([{ id: 5, name: 'web-eu' }]));
  });

  it('lists products; a new one needs a main group and gets the groups picked in two zones', async () => {
    api.on('POST', '/client/product', ok({ ...product, id: 8, name: 'Premium' }));
    renderAt('/client/sitesManagement/productsList');
    const row = await findRow('Standard');
    expect(within(row).getByText('Layer 7 (HTTP/HTTPS)')).toBeTruthy();
    expect(within(row).getByText('web-eu')).toBeTruthy();
    expect(within(row).getByText('spare-asia')).toBeTruthy();
    clickButton('New product');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'Premium');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(api.sent('POST', '/client/product')).toHaveLength(0);

    const main = within(dialog).getByText('Main groups').closest('.ant-form-item') as HTMLElement;
    await chooseOption(main, 'Zone', 'Asia');
    await waitFor(() => expect(api.sent('GET', '/client/zone/1/metaGroups')).toHaveLength(1));
    await chooseOption(main, 'Main groups', 'web-asia');
    await chooseOption(main, 'Zone', 'Europe');
    await waitFor(() => expect(api.sent('GET', '/client/zone/2/metaGroups')).toHaveLength(1));
    await chooseOption(main, 'Main groups', 'web-eu');
    expect(within(main).getByText('Asia / web-asia')).toBeTruthy();
    clickButton('OK', dialog);

    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent('POST', '/client/product')[0]?.body).toEqual({
      name: 'Premium',
      portType: 7,
      memo: '',
      mainGroupIDs: [7, 5],
      backupGroupIDs: [],
    });
    const metaQuery = api.sent('GET', '/client/zone/1/metaGroups')[0]?.search;
    expect(Object.fromEntries(metaQuery ?? [])).toEqual({ portType: '7', isBackup: 'false' });
  });
});

const site = (siteID: number, siteName: string, status = 'normal') => ({
  siteID,
  siteName,
  status,
  tags: ['vip'],
  productID: 4,
  productName: 'Standard',
  userID: 30,
  userAccount: 'bob',
  expiredAt: null,
  forceBackup: false,
  createdAt: '2026-03-01T10:00:00.000Z',
});

describe('sitesList', () => {
  beforeEach(() => {
    api.on('GET', '/client/sites', {
      status: 200,
      body: { data: [site(1, 'shop'), site(2, 'blog', 'pause')], total: 2 },
    });
    api.on('GET', '/client/metaProducts', ok([{ id: 4, name: 'Standard', portType: 7 }]));
  });

  it('sends the filters of the URL, leaves the status out for "all", and sets the status of chosen sites', async () => {
    api.on('PATCH', '/client/site/status', ok(true));
    const router = renderAt('/client/sitesManagement/sitesList?siteName=sh&status=pause&productID=4');
    const row = await findRow('shop');
    expect(within(row).getByText('bob')).toBeTruthy();
    expect(within(row).getByText('Standard')).toBeTruthy();
    expect(within(await findRow('blog')).getByText('Paused')).toBeTruthy();
    expect(Object.fromEntries(api.sent('GET', '/client/sites')[0]?.search ?? [])).toEqual({
      page: '1',
      pageSize: '10',
      siteName: 'sh',
      status: 'pause',
      productID: '4',
    });

    const filters = screen.getByLabelText('Status').closest('.ant-flex') as HTMLElement;
    await chooseOption(filters, 'Status', 'All statuses');
    await waitFor(() => expect(router.state.location.search).toBe('?siteName=sh&productID=4'));
    await waitFor(() => expect(api.sent('GET', '/client/sites').at(-1)?.search.has('status')).toBe(false));

    for (const name of ['shop', 'blog']) {
      fireEvent.click((await findRow(name)).querySelector('input[type="checkbox"]') as HTMLInputElement);
    }
    fireEvent.mouseEnter(screen.getByText('Set status (2)'));
    fireEvent.click(await screen.findByText('Limited', { selector: '.ant-dropdown-menu-title-content' }));
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent('PATCH', '/client/site/status')[0]?.body).toEqual({ ids: [1, 2], status: 'limit' });
  });

  it('creates a site for a customer found by a server-side search', async () => {
    api.on('GET', '/client/accounts', (request) => ({
      status: 200,
      body: {
        data:
          request.search.get('name') === 'car'
            ? [{ id: 31, account: 'carol', name: 'Carol', email: 'c@example.com', status: 'normal', createdAt: '' }]
            : [],
        total: 1,
      },
    }));
    api.on('POST', '/client/site', ok(site(3, 'carol-shop')));
    renderAt('/client/sitesManagement/sitesList');
    await findRow('shop');
    clickButton('New site');
    const dialog = await findModal();
    typeInto(dialog, 'Site name', 'carol-shop');
    const customer = within(dialog).getByLabelText('Customer');
    fireEvent.mouseDown(customer);
    fireEvent.change(customer, { target: { value: 'car' } });
    fireEvent.click(await screen.findByText('carol (Carol)', { selector: '.ant-select-item-option-content' }));
    await chooseOption(dialog, 'Product', 'Standard');
    clickButton('OK', dialog);

    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent('GET', '/client/accounts').at(-1)?.search.get('name')).toBe('car');
    expect(api.sent('POST', '/client/site')[0]?.body).toEqual({
      siteName: 'carol-shop',
      userID: 31,
      productID: 4,
      tags: [],
      expiredAt: null,
    });
  });
});
