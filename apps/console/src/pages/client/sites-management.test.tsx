import {
  changeSitesProduct,
  clearClientSitesCache,
  createProduct,
  createSite,
  listAccounts,
  listClientSites,
  listProducts,
  metaGroups,
  metaProducts,
  metaZones,
  productGroups,
  refreshSitesProduct,
  setSitesExpiry,
  setSitesForceBackup,
  setSitesLimitations,
  setSitesStatus,
  setSitesTags,
  setSitesUser,
  siteTags,
  updateProduct,
  updateSite,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { managedAccount } from '../../test/fixtures';
import {
  chooseOption,
  clickButton,
  findModal,
  findRow,
  modalClosed,
  selectRows,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds), so the
// screens of a menu group share one file.
const api = pageTestApi(() => signedInFakeApi('client'));

const product = {
  id: 4,
  name: 'Standard',
  portType: 7,
  memo: '',
  mainGroups: [{ id: 5, name: 'web-eu', zoneId: 2 }],
  backupGroups: [{ id: 9, name: 'spare-asia', zoneId: 1 }],
  siteLimit: 5,
  siteCount: 2,
  monthlyTraffic: 2_000_000_000,
  overTraffic: 'throttle' as const,
  throttleKbps: 256,
  createdAt: '2026-03-01T10:00:00.000Z',
};

describe('productsList', () => {
  beforeEach(() => {
    api.on(listProducts, okPage([product]));
    api.on(
      metaZones,
      ok([
        { id: 1, name: 'Asia' },
        { id: 2, name: 'Europe' },
      ]),
    );
    api.on(metaGroups, { zoneID: 1 }, ok([{ id: 7, name: 'web-asia' }]));
    api.on(metaGroups, { zoneID: 2 }, ok([{ id: 5, name: 'web-eu' }]));
  });

  it('lists products; a new one needs a main group and gets the groups picked in two zones', async () => {
    api.on(createProduct, ok({ ...product, id: 8, name: 'Premium' }));
    renderAt('/client/sitesManagement/productsList');
    const row = await findRow('Standard');
    await showAllColumns();
    expect(within(row).getByText('Layer 7 (HTTP/HTTPS)')).toBeTruthy();
    expect(within(row).getByText('web-eu')).toBeTruthy();
    expect(within(row).getByText('spare-asia')).toBeTruthy();
    clickButton('New product');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'Premium');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(api.sent(createProduct)).toHaveLength(0);

    const main = within(dialog).getByText('Main groups').closest('.ant-form-item') as HTMLElement;
    await chooseOption(main, 'Zone', 'Asia');
    await waitFor(() => expect(api.sent(metaGroups, { zoneID: 1 })).toHaveLength(1));
    await chooseOption(main, 'Main groups', 'web-asia');
    await chooseOption(main, 'Zone', 'Europe');
    await waitFor(() => expect(api.sent(metaGroups, { zoneID: 2 })).toHaveLength(1));
    await chooseOption(main, 'Main groups', 'web-eu');
    expect(within(main).getByText('Asia / web-asia')).toBeTruthy();
    clickButton('OK', dialog);

    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(createProduct)[0]?.body).toEqual({
      name: 'Premium',
      portType: 7,
      memo: '',
      mainGroupIDs: [7, 5],
      backupGroupIDs: [],
      siteLimit: 0,
      monthlyTraffic: 0,
      overTraffic: 'pause',
      throttleKbps: 1024,
    });
    const metaQuery = api.sent(metaGroups, { zoneID: 1 })[0]?.search;
    expect(Object.fromEntries(metaQuery ?? [])).toEqual({ portType: '7', isBackup: 'false' });
  });

  it("opens the edit form of each product with that product's values, sites limit and traffic included", async () => {
    api.on(listProducts, okPage([product, { ...product, id: 6, name: 'Premium', siteLimit: 0 }]));
    api.on(updateProduct, ok(product));
    renderAt('/client/sitesManagement/productsList');
    clickButton('Edit', await findRow('Standard'));
    let dialog = await findModal();
    expect((within(dialog).getByLabelText('Sites limit') as HTMLInputElement).value).toBe('5');
    expect((within(dialog).getByLabelText('Monthly traffic per site (GB)') as HTMLInputElement).value).toBe('2');
    expect((within(dialog).getByLabelText('Throttle (KB/s)') as HTMLInputElement).value).toBe('256');
    typeInto(dialog, 'Monthly traffic per site (GB)', '1.5');
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(updateProduct)[0]?.body).toMatchObject({
        id: 4,
        monthlyTraffic: 1_500_000_000,
        overTraffic: 'throttle',
        throttleKbps: 256,
      }),
    );
    await modalClosed(dialog);
    clickButton('Edit', await findRow('Premium'));
    await waitFor(() => expect(screen.getByLabelText('Name')).toBeTruthy());
    dialog = await findModal();
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Premium');
    expect((within(dialog).getByLabelText('Sites limit') as HTMLInputElement).value).toBe('0');
  });

  it("shows each product's sites against its limit, and its main and backup groups with their zones", async () => {
    api.on(productGroups, { id: 4 }, (request) =>
      ok(
        request.search.get('isBackup') === 'true'
          ? [{ id: 9, name: 'spare-asia', zoneID: 1, zoneName: 'Asia', nodeCount: 0 }]
          : [{ id: 5, name: 'web-eu', zoneID: 2, zoneName: 'Europe', nodeCount: 3 }],
      ),
    );
    renderAt('/client/sitesManagement/productsList');
    const row = await findRow('Standard');
    expect(within(row).getByText('2 of 5')).toBeTruthy();
    fireEvent.click(row.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    const panel = await screen.findByLabelText('Standard');
    expect(await within(panel).findByText('Europe')).toBeTruthy();
    expect(await within(panel).findByText('Asia')).toBeTruthy();
    expect(within(panel).getByText('3')).toBeTruthy();
    const asked = api.sent(productGroups, { id: 4 }).map((r) => r.search.get('isBackup'));
    expect(asked.sort()).toEqual(['false', 'true']);
  });
});

/** Opens the menu behind `opener` (the bulk "Actions (n)" button or a row's "More") and clicks `item`. */
async function menuAction(opener: HTMLElement, item: string) {
  fireEvent.mouseEnter(opener);
  fireEvent.click(await screen.findByText(item, { selector: '.ant-dropdown-menu-title-content' }));
}
const bulkAction = (item: string) => menuAction(screen.getByText(/^Actions \(/), item);

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
  memo: '',
  limitations: { maxDomains: 0, maxPorts: 0 },
  domainCount: 1,
  createdAt: '2026-03-01T10:00:00.000Z',
});

describe('sitesList', () => {
  beforeEach(() => {
    api.on(listClientSites, okPage([site(1, 'shop'), site(2, 'blog', 'pause')]));
    api.on(metaProducts, ok([{ id: 4, name: 'Standard', portType: 7 }]));
  });

  it('sends the filters of the URL, leaves the status out for "all", and sets the status of chosen sites', async () => {
    api.on(setSitesStatus, ok(true));
    const router = renderAt('/client/sitesManagement/sitesList?siteName=sh&status=pause&productID=4');
    const row = await findRow('shop');
    expect(within(row).getByText('bob')).toBeTruthy();
    expect(within(row).getByText('Standard')).toBeTruthy();
    expect(within(await findRow('blog')).getByText('Paused')).toBeTruthy();
    expect(Object.fromEntries(api.sent(listClientSites)[0]?.search ?? [])).toEqual({
      page: '1',
      pageSize: '10',
      siteName: 'sh',
      status: 'pause',
      productID: '4',
    });

    const filters = screen.getByLabelText('Status').closest('.ant-flex') as HTMLElement;
    await chooseOption(filters, 'Status', 'All statuses');
    await waitFor(() => expect(router.state.location.search).toBe('?siteName=sh&productID=4'));
    await waitFor(() => expect(api.sent(listClientSites).at(-1)?.search.has('status')).toBe(false));

    await selectRows(['shop', 'blog']);
    await bulkAction('Paused');
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(setSitesStatus)[0]?.body).toEqual({ ids: [1, 2], status: 'pause' });
  });

  it('creates a site for a customer found by a server-side search', async () => {
    api.on(listAccounts, { auth: 'client' }, (request) =>
      okPage(
        request.search.get('name') === 'car'
          ? [managedAccount({ id: 31, account: 'carol', name: 'Carol', email: 'c@example.com' })]
          : [],
      ),
    );
    api.on(createSite, ok(site(3, 'carol-shop')));
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
    expect(api.sent(listAccounts, { auth: 'client' }).at(-1)?.search.get('name')).toBe('car');
    expect(api.sent(createSite)[0]?.body).toEqual({
      siteName: 'carol-shop',
      userID: 31,
      productID: 4,
      tags: [],
      expiredAt: null,
    });
  });

  it('reads the tags, expiry, force-backup and customer filters from the URL, and keeps a changed one there', async () => {
    api.on(siteTags, ok(['vip', 'eu']));
    const router = renderAt('/client/sitesManagement/sitesList?tags=vip&tags=eu&expired=true&userID=30');
    await findRow('shop');
    const first = api.sent(listClientSites)[0]?.search;
    expect(first?.getAll('tags')).toEqual(['vip', 'eu']);
    expect(first?.get('expired')).toBe('true');
    expect(first?.get('userID')).toBe('30');
    expect(first?.has('forceBackup')).toBe(false);

    const filters = screen.getByLabelText('Status').closest('.ant-flex') as HTMLElement;
    await chooseOption(filters, 'Force backup', 'Forced to backup');
    await waitFor(() => expect(router.state.location.search).toContain('forceBackup=true'));
    await waitFor(() => expect(api.sent(listClientSites).at(-1)?.search.get('forceBackup')).toBe('true'));
    await chooseOption(filters, 'Expiry', 'Expired or not');
    await waitFor(() => expect(api.sent(listClientSites).at(-1)?.search.has('expired')).toBe(false));
    expect(router.state.location.search).toBe('?tags=vip&tags=eu&userID=30&forceBackup=true');
  });

  it('moves the chosen sites to another product, and shows the reason when the product is full (204003)', async () => {
    api.on(
      metaProducts,
      ok([
        { id: 4, name: 'Standard', portType: 7 },
        { id: 6, name: 'Premium', portType: 7 },
        { id: 8, name: 'Ports', portType: 4 },
      ]),
    );
    api.on(changeSitesProduct, fail(422, 204003, 'product sites exceed limit'));
    renderAt('/client/sitesManagement/sitesList');
    await selectRows(['shop', 'blog']);
    await bulkAction('Change product');
    const dialog = await findModal();
    expect(within(dialog).getByText('Change product — shop, blog')).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByLabelText('Product'));
    expect(screen.queryByText('Ports', { selector: '.ant-select-item-option-content' })).toBeNull();
    fireEvent.click(await screen.findByText('Premium', { selector: '.ant-select-item-option-content' }));
    clickButton('OK', dialog);
    expect(await screen.findByText('product sites exceed limit')).toBeTruthy();
    expect(api.sent(changeSitesProduct)[0]?.body).toEqual({ ids: [1, 2], productID: 6 });

    api.on(changeSitesProduct, ok(true));
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
  });

  it("clears the chosen sites' cache after a confirmation", async () => {
    api.on(
      clearClientSitesCache,
      ok([
        { id: 1, generation: 3 },
        { id: 2, generation: 2 },
      ]),
    );
    renderAt('/client/sitesManagement/sitesList');
    await selectRows(['shop', 'blog']);
    await bulkAction('Clear cache');
    const dialog = await findModal();
    expect(within(dialog).getByText(/Every entry cached for 2 site\(s\)/)).toBeTruthy();
    clickButton('OK', dialog);
    expect(await screen.findByText('Clear Cache Success!')).toBeTruthy();
    expect(api.sent(clearClientSitesCache)[0]?.body).toEqual({ ids: [1, 2] });
  });

  it("sets one site's domain limit from its row, and edits its name and memo", async () => {
    api.on(setSitesLimitations, ok(true));
    api.on(updateSite, ok({ ...site(1, 'shop-2'), memo: 'yearly' }));
    renderAt('/client/sitesManagement/sitesList');
    const row = await findRow('shop');
    expect(within(row).getByText('1 / Unlimited')).toBeTruthy();
    await menuAction(within(row).getByText('More'), 'Set limitations');
    const dialog = await findModal();
    typeInto(dialog, 'Most domains', '25');
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(setSitesLimitations)[0]?.body).toEqual({
      ids: [1],
      limitations: { maxDomains: 25, maxPorts: 0 },
    });

    clickButton('Edit', await findRow('shop'));
    const edit = await findModal();
    typeInto(edit, 'Site name', 'shop-2');
    typeInto(edit, 'Memo', 'yearly');
    clickButton('OK', edit);
    await waitFor(() => expect(api.sent(updateSite)[0]?.body).toEqual({ id: 1, siteName: 'shop-2', memo: 'yearly' }));
  });

  it("refuses 'normal' on an expired site with the catalogue's text (205002), and gives sites to another customer", async () => {
    api.on(setSitesStatus, fail(403, 205002, 'Site Status Not Allowed To Be Set'));
    api.on(
      listAccounts,
      { auth: 'client' },
      okPage([managedAccount({ id: 31, account: 'carol', name: '', email: 'c@example.com', createdAt: '' })]),
    );
    api.on(setSitesUser, ok(true));
    renderAt('/client/sitesManagement/sitesList');
    await menuAction(within(await findRow('blog')).getByText('More'), 'Normal');
    expect(await screen.findByText('Site Status Not Allowed To Be Set')).toBeTruthy();
    expect(api.sent(setSitesStatus)[0]?.body).toEqual({ ids: [2], status: 'normal' });

    await selectRows(['blog']);
    await bulkAction('Give to another customer');
    const dialog = await findModal();
    await chooseOption(dialog, 'Customer', 'carol');
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(setSitesUser)[0]?.body).toEqual({ ids: [2], userID: 31 });
  });

  it('refreshes sites from their product, forces them to backup, clears their expiry and replaces their tags', async () => {
    api.on(refreshSitesProduct, ok([{ siteID: 1, groups: [{ id: 5, name: 'web-eu' }] }]));
    api.on(setSitesForceBackup, ok(true));
    api.on(setSitesExpiry, ok(true));
    api.on(setSitesTags, ok(true));
    renderAt('/client/sitesManagement/sitesList');
    const more = async () => within(await findRow('shop')).getByText('More');
    await menuAction(await more(), 'Refresh from product');
    expect(await screen.findByText('Published again. Serving groups: web-eu')).toBeTruthy();
    expect(api.sent(refreshSitesProduct)[0]?.body).toEqual({ ids: [1] });

    await menuAction(await more(), 'Force backup');
    let dialog = await findModal();
    expect(within(dialog).getByRole('switch').getAttribute('aria-checked')).toBe('true');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(setSitesForceBackup)[0]?.body).toEqual({ ids: [1], forceBackup: true }));
    await modalClosed(dialog);

    await menuAction(await more(), 'Set expiry');
    dialog = await findModal();
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(setSitesExpiry)[0]?.body).toEqual({ ids: [1], expiredAt: null }));
    await modalClosed(dialog);

    await menuAction(await more(), 'Set tags');
    dialog = await findModal();
    const input = within(dialog).getByLabelText('Tags');
    fireEvent.change(input, { target: { value: 'gold' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Tags Success!')).toBeTruthy();
    expect(api.sent(setSitesTags)[0]?.body).toEqual({ ids: [1], tags: ['vip', 'gold'] });
  });

  it('names every bad tag of a new site with its place and sends nothing', async () => {
    api.on(createSite, ok(site(3, 'carol-shop')));
    renderAt('/client/sitesManagement/sitesList');
    await findRow('shop');
    clickButton('New site');
    const dialog = await findModal();
    typeInto(dialog, 'Site name', 'carol-shop');
    const input = within(dialog).getByLabelText('Tags');
    fireEvent.change(input, { target: { value: `eu,${'x'.repeat(65)},${'y'.repeat(66)},` } });
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Tag 2 \(x+\): /)).toBeTruthy();
    expect(within(dialog).getByText(/^Tag 3 \(y+\): /)).toBeTruthy();
    expect(within(dialog).queryByText(/^Tag 1 /)).toBeNull();
    expect(api.sent(createSite)).toHaveLength(0);
  });

  it('names every bad tag of the chosen sites with its place and sends nothing', async () => {
    api.on(setSitesTags, ok(true));
    renderAt('/client/sitesManagement/sitesList');
    await menuAction(within(await findRow('shop')).getByText('More'), 'Set tags');
    const dialog = await findModal();
    const input = within(dialog).getByLabelText('Tags');
    fireEvent.change(input, { target: { value: `${'z'.repeat(65)},gold,` } });
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Tag 2 \(z+\): /)).toBeTruthy();
    expect(within(dialog).queryByText(/^Tag 3 /)).toBeNull();
    expect(api.sent(setSitesTags)).toHaveLength(0);
  });
});
