import {
  createDomains,
  deleteDomains,
  getResourceInfo,
  getSelf,
  getUserSite,
  grantSiteUsers,
  listDomains,
  listSiteUsers,
  listUserSites,
  revokeSiteUsers,
  setDomainsForceSSL,
  setUserSiteTags,
  updateDomain,
  userSiteTags,
  VALIDATION_MESSAGES,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { SITE_SETTING as SETTING, siteDomain, stubSitePage, userSite } from '../../test/fixtures';
import {
  buttonByText,
  clickButton,
  findMessageDialog,
  findModal,
  findPopconfirm,
  findRow,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds), so the
// screens of a menu group share one file.
const api = pageTestApi(() => signedInFakeApi('user'));

const site = userSite();

describe('sites (user console)', () => {
  beforeEach(() => {
    api.on(getResourceInfo, ok({ siteCount: 2, domainCount: 5, currentMonthTraffic: 0, lastMonthTraffic: 0 }));
    api.on(userSiteTags, ok(['live', 'web']));
  });

  it('lists the caller’s sites with the URL’s filters, links each to its settings and filters by product', async () => {
    api.on(listUserSites, okPage([site]));
    const router = renderAt('/user/sitesManagement/sites?status=normal');
    const row = await findRow('my shop');
    expect(within(row).getByText('my shop').closest('a')?.getAttribute('href')).toBe(
      '/user/sitesManagement/sitesSetting/3/my%20shop',
    );
    expect(Object.fromEntries(api.sent(listUserSites)[0]?.search ?? [])).toEqual({
      page: '1',
      pageSize: '10',
      status: 'normal',
    });

    fireEvent.click(within(row).getByText('Standard'));
    expect(await screen.findByText('Product: Standard')).toBeTruthy();
    expect(router.state.location.search).toBe('?status=normal&productID=4');
    await waitFor(() => expect(api.sent(listUserSites).at(-1)?.search.get('productID')).toBe('4'));
  });
  it('shows the caller’s totals above the list and filters by tags from the URL', async () => {
    api.on(listUserSites, okPage([{ ...site, tags: ['web'] }]));
    renderAt('/user/sitesManagement/sites?tags=web&tags=live');
    await findRow('my shop');
    const summary = screen.getByTestId('resource-summary');
    await waitFor(() => expect(within(summary).getByText('5')).toBeTruthy());
    expect(within(summary).getByText('2')).toBeTruthy();
    // No traffic totals until traffic is recorded: the route's are always 0 today.
    expect(within(summary).queryByText(/Traffic/)).toBeNull();
    expect(within(summary).queryByText('0.00 Byte')).toBeNull();
    expect(api.sent(listUserSites)[0]?.search.getAll('tags')).toEqual(['web', 'live']);
  });

  it('names every bad tag of a site with its place and sends nothing', async () => {
    api.on(listUserSites, okPage([{ ...site, tags: ['web'] }]));
    renderAt('/user/sitesManagement/sites');
    clickButton('Tags', await findRow('my shop'));
    const dialog = await findModal();
    const input = within(dialog).getByLabelText('Tags') as HTMLInputElement;
    const long = 'x'.repeat(65);
    fireEvent.change(input, { target: { value: `eu,${long},${'y'.repeat(70)},` } });
    clickButton('OK', dialog);
    expect(
      await within(dialog).findByText(`Tag 3 (${long}): ${VALIDATION_MESSAGES.tooLong.en_US.replace('{max}', '64')}`),
    ).toBeTruthy();
    expect(within(dialog).getByText(/^Tag 4 \(y+\): /)).toBeTruthy();
    expect(within(dialog).queryByText(/^Tag 2 /)).toBeNull();
    expect(api.sent(setUserSiteTags, { siteId: 3 })).toHaveLength(0);
  });

  it('edits the tags of a site and puts a refused tag under the field', async () => {
    api.on(listUserSites, okPage([{ ...site, tags: ['web'] }]));
    const fields = [{ in: 'body', field: 'tags.1', key: 'wrongFormat', message: 'Wrong format' }];
    api.on(setUserSiteTags, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt('/user/sitesManagement/sites');
    clickButton('Tags', await findRow('my shop'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Tags of my shop')).toBeTruthy();
    const input = within(dialog).getByLabelText('Tags') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'eu' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Wrong format')).toBeTruthy();
    expect(api.sent(setUserSiteTags, { siteId: 3 })[0]?.body).toEqual({ tags: ['web', 'eu'] });

    api.on(setUserSiteTags, { siteId: 3 }, ok({ ...site, tags: ['web', 'eu'] }));
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Tags Success!')).toBeTruthy();
    await waitFor(() => expect(api.sent(listUserSites).length).toBeGreaterThan(1));
  });
});

describe('a read-only caller', () => {
  const readOnly = ['account.self', 'user.domains.read', 'user.sites.read'];
  beforeEach(() => {
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions: readOnly })));
    api.on(getResourceInfo, ok({ siteCount: 1, domainCount: 1, currentMonthTraffic: 0, lastMonthTraffic: 0 }));
    api.on(userSiteTags, ok([]));
  });

  it('sees its sites without the tags button', async () => {
    api.on(listUserSites, okPage([site]));
    renderAt('/user/sitesManagement/sites');
    const row = await findRow('my shop');
    expect(within(row).getByText('Settings')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Tags' })).toBeNull();
  });
});

describe('sitesSetting: sub-accounts', () => {
  beforeEach(() => {
    api.on(getUserSite, { siteId: 3 }, ok(site));
  });

  it('lists the sub-accounts with their access and gives or takes it with a switch', async () => {
    const users = [
      { id: 21, account: 'ops', name: 'Ops team', email: 'ops@example.com', granted: false },
      { id: 22, account: 'dev', name: 'Dev', email: '', granted: true },
    ];
    api.on(listSiteUsers, { siteId: 3 }, ok(users));
    api.on(grantSiteUsers, ok(true));
    api.on(revokeSiteUsers, ok(true));
    renderAt(`${SETTING}?tab=users`);
    const ops = await screen.findByLabelText('Access to this site for ops');
    expect(ops.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByLabelText('Access to this site for dev').getAttribute('aria-checked')).toBe('true');
    expect(within(await findRow('ops')).getByText('ops@example.com')).toBeTruthy();

    fireEvent.click(ops);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(grantSiteUsers)[0]?.body).toEqual({ siteIDs: [3], userIDs: [21] });
    fireEvent.click(screen.getByLabelText('Access to this site for dev'));
    await waitFor(() => expect(api.sent(revokeSiteUsers)[0]?.body).toEqual({ siteIDs: [3], userIDs: [22] }));
  });

  it('says when there are no sub-accounts', async () => {
    api.on(listSiteUsers, { siteId: 3 }, ok([]));
    renderAt(`${SETTING}?tab=users`);
    expect(await screen.findByText('You have no sub-accounts.')).toBeTruthy();
  });
});

const domain = siteDomain({ certificateID: 7, certificateName: 'wildcard-2026', certStatus: 1, tags: ['main'] });

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
    stubSitePage(api, [domain], site);
  });

  it('shows a read-only caller the domains without add, edit, delete or bulk buttons, and its switches off', async () => {
    api.on(
      getSelf,
      { auth: 'user' },
      ok(selfInfo('user', { isRoot: false, permissions: ['account.self', 'user.domains.read', 'user.sites.read'] })),
    );
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    expect(within(row).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect((within(row).getByLabelText('Enable www.example.com') as HTMLButtonElement).disabled).toBe(true);
    await showAllColumns();
    expect((within(row).getByLabelText('Force HTTPS for www.example.com') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: /Add domains/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Change origin IP/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
  });

  it('shows the site and its domains with the URL’s search and sort, switches force HTTPS and deletes', async () => {
    api.on(setDomainsForceSSL, { siteId: 3 }, ok(true));
    api.on(deleteDomains, { siteId: 3 }, ok(true));
    renderAt(`${SETTING}?keywords=www&sortBy=name&orderBy=asc`);
    const row = await findRow('www.example.com');
    await showAllColumns();
    expect(within(row).getByText('http://192.0.2.10:8080')).toBeTruthy();
    expect(within(row).getByText('wildcard-2026')).toBeTruthy();
    expect(within(screen.getByTestId('site-header')).getByText('Standard')).toBeTruthy();
    expect(screen.getByText('my shop', { selector: 'h1' })).toBeTruthy();
    const query = Object.fromEntries(api.sent(listDomains, { siteId: 3 })[0]?.search ?? []);
    expect(query).toEqual({ page: '1', pageSize: '10', keywords: 'www', sortBy: 'name', orderBy: 'asc' });

    fireEvent.click(within(row).getByLabelText('Force HTTPS for www.example.com'));
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(setDomainsForceSSL, { siteId: 3 })[0]?.body).toEqual({
      domainIDs: [9],
      forceSSL: true,
    });

    clickButton('Delete', row);
    clickButton('Delete', await findPopconfirm('Delete the domain www.example.com?'));
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    expect(api.sent(deleteDomains, { siteId: 3 })[0]?.body).toEqual({ ids: [9] });
  });

  it('takes a host name as an origin and explains a name it refuses', async () => {
    api.on(createDomains, { siteId: 3 }, ok([]));
    renderAt(SETTING);
    const dialog = await fillNewDomains('paas.example.com');
    expect(
      within(dialog).getByText(/An origin is an IP address or a host name such as app\.example\.com/),
    ).toBeTruthy();
    typeInto(dialog, 'Origin 1 IP', 'my-app.herokuapp.com:443');
    clickButton('OK', dialog);
    expect(
      await within(dialog).findByText(
        'Please enter an IP address or a host name (such as origin.example.com, without port or path)',
      ),
    ).toBeTruthy();
    expect(api.sent(createDomains, { siteId: 3 })).toHaveLength(0);
    typeInto(dialog, 'Origin 1 IP', 'My-App.HerokuApp.com');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    // Sent as typed: the API takes the name in lower case.
    expect(api.sent(createDomains, { siteId: 3 })[0]?.body).toMatchObject({
      domains: [{ name: 'paas.example.com', upstreams: [{ ip: 'My-App.HerokuApp.com', port: 80 }] }],
    });
  });

  it('adds several names with one shared origin, after checking each line', async () => {
    api.on(createDomains, { siteId: 3 }, ok([]));
    renderAt(SETTING);
    const dialog = await fillNewDomains('a.example.com\nnot a name');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Line 2: /)).toBeTruthy();
    expect(api.sent(createDomains, { siteId: 3 })).toHaveLength(0);

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
      autoSSL: false,
      portMap: false,
      certificateID: 0,
    };
    expect(api.sent(createDomains, { siteId: 3 })[0]?.body).toEqual({
      domains: [
        { name: 'a.example.com', ...shared },
        { name: '*.b.example.com', ...shared },
      ],
    });
  });

  it('lists each code of a 101009 reply with the names it concerns in a dialog', async () => {
    api.on(
      createDomains,
      { siteId: 3 },
      {
        status: 400,
        body: {
          code: 101009,
          message: 'Multiple Errors',
          errors: [
            { code: 401001, message: 'enabled elsewhere', targets: ['a.example.com'] },
            { code: 101025, message: 'already in this site', targets: ['b.example.com', 'c.example.com'] },
          ],
        },
      },
    );
    renderAt(SETTING);
    const dialog = await fillNewDomains('a.example.com\nb.example.com\nc.example.com');
    clickButton('OK', dialog);
    const errorDialog = await findMessageDialog('Multiple Errors');
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
    api.on(updateDomain, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
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
    expect(api.sent(updateDomain, { siteId: 3 })[0]?.body).toEqual({
      id: 9,
      upstreams: [
        { ip: '192.0.2.10', port: 8080, weight: 1, backup: false, status: 1 },
        { ip: '10.0.0.5', port: 80, weight: 1, backup: false, status: 1 },
      ],
      scheme: 0,
      hashType: 0,
      hostName: '',
      forceSSL: false,
      autoSSL: false,
      portMap: false,
      certificateID: 7,
      status: 1,
      tags: ['main'],
    });
  });
});
