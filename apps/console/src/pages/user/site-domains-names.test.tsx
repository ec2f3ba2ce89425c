import {
  createDomainsFrom,
  createSimpleDomains,
  deleteDomainsByNames,
  getUserSite,
  listDomains,
  listSitePorts,
  listSiteZonePorts,
  metaDomains,
  userDomainsTags,
} from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { SITE_SETTING as SETTING, siteDomain, stubSitePage, userSite } from '../../test/fixtures';
import {
  chooseOption,
  clickButton,
  findMessageDialog,
  findModal,
  findRow,
  modalClosed,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';
import { siteTabs } from './site-setting/SiteSettingPage';

// The site setting page: tabs by the product's port type, bound modules in the domain list, and
// the forms adding and deleting domains by name.
const api = pageTestApi(() => signedInFakeApi('user'));

const site = userSite();
const domain = siteDomain({
  customHeaderModuleID: 5,
  customHeaderModuleName: 'security',
  corsID: 8,
  corsName: 'app',
});
const plain = siteDomain({ id: 10, name: 'plain.example.com' });

beforeEach(() => {
  stubSitePage(api, [domain, plain], site);
  api.on(userDomainsTags, ok([]));
  api.on(listSitePorts, { siteId: 3 }, okPage([]));
  api.on(listSiteZonePorts, { siteId: 3 }, ok([]));
});

function tabNames(): string[] {
  return screen.getAllByRole('tab').map((tab) => tab.textContent ?? '');
}

describe('sitesSetting: tabs by port type', () => {
  it('shows a layer-7 site its domain tabs and no Ports tab, even when the URL asks for it', async () => {
    renderAt(`${SETTING}?tab=ports`);
    await findRow('www.example.com');
    expect(tabNames()).toEqual([
      'Domains',
      'Certificates',
      'Cache',
      'Site settings',
      'Firewall',
      'Modules',
      'Auth groups',
      'Sub-accounts',
    ]);
    expect(api.sent(listSitePorts, { siteId: 3 })).toHaveLength(0);
  });

  it('shows a layer-4 site its ports, their firewall and users only, the ports first', async () => {
    api.on(getUserSite, { siteId: 3 }, ok({ ...site, portType: 4 }));
    renderAt(SETTING);
    expect(await screen.findByText('Add port')).toBeTruthy();
    expect(tabNames()).toEqual(['Ports', 'Firewall', 'Sub-accounts']);
    expect(api.sent(listDomains, { siteId: 3 })).toHaveLength(0);
  });

  it('keeps every tab when the site cannot be read', async () => {
    api.on(getUserSite, { siteId: 3 }, fail(404, 101018, 'gone'));
    renderAt(SETTING);
    await findRow('www.example.com');
    expect(tabNames()).toHaveLength(9);
    expect(siteTabs(undefined)).toHaveLength(9);
  });
});

describe('sitesSetting: domains by name', () => {
  it('lists the modules bound to each domain', async () => {
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    await showAllColumns();
    const modules = within(row).getByLabelText('Modules of www.example.com');
    expect(within(modules).getByText('Custom header: security')).toBeTruthy();
    expect(within(modules).getByText('CORS setting: app')).toBeTruthy();
    expect(within(modules).queryByText(/Redirects/)).toBeNull();
    expect(within(await findRow('plain.example.com')).queryByLabelText('Modules of plain.example.com')).toBeNull();
  });

  it('quick-adds names with shared origins, checking each line first', async () => {
    api.on(createSimpleDomains, { siteId: 3 }, ok([{ ...plain, id: 11, name: 'a.example.com' }]));
    renderAt(SETTING);
    await findRow('www.example.com');
    clickButton('Quick add');
    const dialog = await findModal();
    typeInto(dialog, 'Domain names', 'a.example.com\nnot a name');
    typeInto(dialog, 'Origin 1 IP', '192.0.2.20');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/Line 2/)).toBeTruthy();
    expect(api.sent(createSimpleDomains, { siteId: 3 })).toHaveLength(0);

    typeInto(dialog, 'Domain names', 'a.example.com\n\n*.b.example.com');
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(createSimpleDomains, { siteId: 3 })[0]?.body).toEqual({
        names: ['a.example.com', '*.b.example.com'],
        upstreams: [{ ip: '192.0.2.20', port: 80, weight: 1, backup: false, status: 1 }],
      }),
    );
    await modalClosed(dialog);
  });

  it("shows the server's field error of a quick add on the origin row", async () => {
    api.on(
      createSimpleDomains,
      { siteId: 3 },
      fail(400, 101003, 'Parameter Error', {
        fields: [{ in: 'body', field: 'upstreams.0.ip', key: 'invalid', message: 'Not a public address' }],
      }),
    );
    renderAt(SETTING);
    await findRow('www.example.com');
    clickButton('Quick add');
    const dialog = await findModal();
    typeInto(dialog, 'Domain names', 'a.example.com');
    typeInto(dialog, 'Origin 1 IP', '192.0.2.20');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Not a public address')).toBeTruthy();
  });

  it('adds names like another domain of the site, disabled when asked', async () => {
    api.on(metaDomains, { siteId: 3 }, ok([{ id: 9, name: 'www.example.com', status: 1 }]));
    api.on(createDomainsFrom, { siteId: 3 }, ok([{ ...domain, id: 12, name: 'shop.example.com' }]));
    renderAt(SETTING);
    await findRow('www.example.com');
    clickButton('Add like a domain');
    const dialog = await findModal();
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Choose a domain')).toBeTruthy();
    await chooseOption(dialog, 'Settings from', 'www.example.com');
    typeInto(dialog, 'Domain names', 'shop.example.com');
    within(dialog).getByRole('switch').click();
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(createDomainsFrom, { siteId: 3 })[0]?.body).toEqual({
        domainID: 9,
        names: ['shop.example.com'],
        status: 0,
      }),
    );
    await modalClosed(dialog);
  });

  it('deletes by names (a name twice allowed), and shows a name the site does not have (101009) without closing', async () => {
    let calls = 0;
    api.on(deleteDomainsByNames, { siteId: 3 }, () => {
      calls++;
      return calls === 1
        ? {
            status: 400,
            body: {
              code: 101009,
              message: 'Multiple Errors',
              errors: [{ code: 101018, message: 'Data not found', targets: ['gone.example.com'] }],
            },
          }
        : ok(true);
    });
    renderAt(SETTING);
    await findRow('www.example.com');
    clickButton('Delete by names');
    const dialog = await findModal();
    typeInto(dialog, 'Domain names', 'www.example.com\ngone.example.com');
    clickButton('OK', dialog);
    const errorDialog = await findMessageDialog('Multiple Errors');
    expect(within(errorDialog).getByText('gone.example.com')).toBeTruthy();
    expect(within(dialog).getByLabelText('Domain names')).toBeTruthy();

    // A repeated name is no refusal here (unlike a new name): the server deletes it once.
    typeInto(dialog, 'Domain names', 'www.example.com\nwww.example.com');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(deleteDomainsByNames, { siteId: 3 })).toHaveLength(2));
    expect(api.sent(deleteDomainsByNames, { siteId: 3 })[1]?.body).toEqual({
      names: ['www.example.com', 'www.example.com'],
    });
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
  });
});
