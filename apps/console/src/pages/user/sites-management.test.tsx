import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, fail, ok, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { buttonByText, clickButton, findModal, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds), so the
// screens of a menu group share one file.
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;

beforeEach(() => {
  api = signedInFakeApi('user');
});

afterEach(() => restoreFakeApi());

const site = {
  siteID: 3,
  siteName: 'my shop',
  status: 'normal',
  tags: [],
  productID: 4,
  productName: 'Standard',
  userID: 7,
  userAccount: 'alice',
  expiredAt: null,
  forceBackup: false,
  createdAt: '2026-03-01T10:00:00.000Z',
};

describe('sites (user console)', () => {
  it('lists the caller’s sites with the URL’s filters, links each to its settings and filters by product', async () => {
    api.on('GET', '/user/sites', { status: 200, body: { data: [site], total: 1 } });
    const router = renderAt('/user/sitesManagement/sites?status=normal');
    const row = await findRow('my shop');
    expect(within(row).getByText('my shop').closest('a')?.getAttribute('href')).toBe(
      '/user/sitesManagement/sitesSetting/3/my%20shop',
    );
    expect(Object.fromEntries(api.sent('GET', '/user/sites')[0]?.search ?? [])).toEqual({
      page: '1',
      pageSize: '10',
      status: 'normal',
    });

    fireEvent.click(within(row).getByText('Standard'));
    expect(await screen.findByText('Product: Standard')).toBeTruthy();
    expect(router.state.location.search).toBe('?status=normal&productID=4');
    await waitFor(() => expect(api.sent('GET', '/user/sites').at(-1)?.search.get('productID')).toBe('4'));
  });
});

const SETTING = '/user/sitesManagement/sitesSetting/3/my%20shop';

const upstream = { id: 40, ip: '192.0.2.10', port: 8080, weight: 1, backup: false, status: 1 };
const domain = {
  id: 9,
  siteID: 3,
  name: 'www.example.com',
  status: 1,
  scheme: 0,
  hashType: 0,
  hostName: '',
  forceSSL: false,
  certificateID: 7,
  certificateName: 'wildcard-2026',
  certStatus: 1,
  tags: ['main'],
  upstreams: [upstream],
  upstreamURL: '192.0.2.10:8080',
  upstreamCount: 1,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
};

/** Opens the add-domains dialog and fills the names and the first origin. */
async function fillNewDomains(names: string) {
  await findRow('www.example.com');
  clickButton('Add domains');
  const dialog = await findModal();
  typeInto(dialog, 'Domain names', names);
  typeInto(dialog, 'Origin 1 IP', '203.0.113.9');
  return dialog;
}

describe('sitesSetting: domains', () => {
  beforeEach(() => {
    api.on('GET', '/user/site/3', ok(site));
    api.on('GET', '/user/site/3/domains', { status: 200, body: { data: [domain], total: 1 } });
    api.on('GET', '/user/site/3/metaCertificates', ok([]));
  });

  it('shows the site and its domains with the URL’s search and sort, switches force HTTPS and deletes', async () => {
    api.on('PATCH', '/user/site/3/domain/setting/forceSSL', ok(true));
    api.on('DELETE', '/user/site/3/domains', ok(true));
    renderAt(`${SETTING}?keywords=www&sortBy=name&orderBy=asc`);
    const row = await findRow('www.example.com');
    expect(within(row).getByText('http://192.0.2.10:8080')).toBeTruthy();
    expect(within(row).getByText('wildcard-2026')).toBeTruthy();
    expect(within(screen.getByTestId('site-header')).getByText('Standard')).toBeTruthy();
    expect(screen.getByText('my shop', { selector: 'h1' })).toBeTruthy();
    const query = Object.fromEntries(api.sent('GET', '/user/site/3/domains')[0]?.search ?? []);
    expect(query).toEqual({ page: '1', pageSize: '10', keywords: 'www', sortBy: 'name', orderBy: 'asc' });

    fireEvent.click(within(row).getByLabelText('Force HTTPS for www.example.com'));
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent('PATCH', '/user/site/3/domain/setting/forceSSL')[0]?.body).toEqual({
      domainIDs: [9],
      forceSSL: true,
    });

    clickButton('Delete', row);
    const popup = (await screen.findByText('Delete the domain www.example.com?')).closest(
      '.ant-popover',
    ) as HTMLElement;
    clickButton('Delete', popup);
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    expect(api.sent('DELETE', '/user/site/3/domains')[0]?.body).toEqual({ ids: [9] });
  });

  it('adds several names with one shared origin, after checking each line', async () => {
    api.on('POST', '/user/site/3/domains', ok([]));
    renderAt(SETTING);
    const dialog = await fillNewDomains('a.example.com\nnot a name');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Line 2: /)).toBeTruthy();
    expect(api.sent('POST', '/user/site/3/domains')).toHaveLength(0);

    typeInto(dialog, 'Domain names', 'a.example.com\n*.b.example.com\n');
    fireEvent.click(within(dialog).getByLabelText('HTTPS'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    const shared = {
      upstreams: [{ ip: '203.0.113.9', port: 80, weight: 1, backup: false, status: 1 }],
      scheme: 1,
      hashType: 0,
      hostName: '',
      forceSSL: false,
      certificateID: 0,
    };
    expect(api.sent('POST', '/user/site/3/domains')[0]?.body).toEqual({
      domains: [
        { name: 'a.example.com', ...shared },
        { name: '*.b.example.com', ...shared },
      ],
    });
  });

  it('lists each code of a 101009 reply with the names it concerns in a dialog', async () => {
    api.on('POST', '/user/site/3/domains', {
      status: 400,
      body: {
        code: 101009,
        message: 'Multiple Errors',
        errors: [
          { code: 401001, message: 'enabled elsewhere', targets: ['a.example.com'] },
          { code: 101025, message: 'already in this site', targets: ['b.example.com', 'c.example.com'] },
        ],
      },
    });
    renderAt(SETTING);
    const dialog = await fillNewDomains('a.example.com\nb.example.com\nc.example.com');
    clickButton('OK', dialog);
    const title = await screen.findByText('Multiple Errors', { selector: '.ant-modal-confirm-title' });
    const errorDialog = title.closest('.ant-modal') as HTMLElement;
    expect(within(errorDialog).getByText('Unable To Enable Duplicate Domains')).toBeTruthy();
    expect(within(errorDialog).getByText('a.example.com')).toBeTruthy();
    expect(within(errorDialog).getByText('Duplicated data')).toBeTruthy();
    expect(within(errorDialog).getByText('b.example.com, c.example.com')).toBeTruthy();
    expect(buttonByText('OK', errorDialog)).toBeTruthy();
  });

  it('edits a domain, keeping what the form does not show, and puts a refused origin under its row', async () => {
    const fields = [
      { in: 'body', field: 'upstreams.1.ip', key: 'originNotAllowed', message: 'This origin address is not allowed' },
    ];
    api.on('PUT', '/user/site/3/domain', fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(SETTING);
    clickButton('Edit', await findRow('www.example.com'));
    const dialog = await findModal();
    clickButton('Add origin', dialog);
    typeInto(dialog, 'Origin 2 IP', '10.0.0.5');
    clickButton('OK', dialog);
    const rows = await waitFor(() => {
      const found = within(dialog).getAllByTestId('upstream-row');
      expect(within(found[1] as HTMLElement).getByText('This origin address is not allowed')).toBeTruthy();
      return found;
    });
    expect(within(rows[0] as HTMLElement).queryByText('This origin address is not allowed')).toBeNull();
    expect(api.sent('PUT', '/user/site/3/domain')[0]?.body).toEqual({
      id: 9,
      upstreams: [
        { ip: '192.0.2.10', port: 8080, weight: 1, backup: false, status: 1 },
        { ip: '10.0.0.5', port: 80, weight: 1, backup: false, status: 1 },
      ],
      scheme: 0,
      hashType: 0,
      hostName: '',
      forceSSL: false,
      certificateID: 7,
      status: 1,
      tags: ['main'],
    });
  });
});
