import {
  copyDomainsToSite,
  deleteDomains,
  errorMessage,
  exportDomains,
  listDomains,
  listUserSites,
  modifyUpstreamIPs,
  setDomainsTags,
  userDomainsTags,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fileNameOf } from '../../features/download/save-file';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { SITE_SETTING as SETTING, siteDomain, stubSitePage, userSite } from '../../test/fixtures';
import {
  buttonByText,
  chooseOption,
  clickButton,
  findMessageDialog,
  findModal,
  findPopconfirm,
  findRow,
  selectRows,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';
import { fromLocalInput, toLocalInput } from './site-setting/domains/DomainAdvancedFilter';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
const api = pageTestApi(() => signedInFakeApi('user'));

const site = userSite();
const domain = siteDomain({ certificateID: 7, certificateName: 'wildcard-2026', certStatus: 2, tags: ['main', 'eu'] });
const listed = () => Object.fromEntries(api.sent(listDomains, { siteId: 3 }).at(-1)?.search ?? []);

beforeEach(() => {
  stubSitePage(api, [domain], site);
  api.on(userDomainsTags, ok(['eu', 'main', 'shop']));
});

describe('sitesSetting: domains advanced filter', () => {
  it('reads tags, certificate status and ranges from the URL and sends them to the list call', async () => {
    renderAt(
      `${SETTING}?tags=eu&tags=shop&certStatus=2&createdAtStart=2026-01-01T00:00:00.000Z&updatedAtEnd=2026-02-01T00:00:00.000Z`,
    );
    const row = await findRow('www.example.com');
    await showAllColumns();
    expect(within(row).getByText('wildcard-2026 (Expired)')).toBeTruthy();
    expect(within(row).getByText('eu')).toBeTruthy();
    await waitFor(() =>
      expect(listed()).toMatchObject({
        certStatus: '2',
        createdAtStart: '2026-01-01T00:00:00.000Z',
        updatedAtEnd: '2026-02-01T00:00:00.000Z',
      }),
    );
    expect(api.sent(listDomains, { siteId: 3 }).at(-1)?.search.getAll('tags')).toEqual(['eu', 'shop']);
  });

  it('applies the drawer into the URL, checks the range, and resets it', async () => {
    const router = renderAt(SETTING);
    await findRow('www.example.com');
    clickButton('Advanced filter');
    const drawer = (await screen.findByText('Apply')).closest('.ant-drawer') as HTMLElement;
    await chooseOption(drawer, 'Certificate status', 'No certificate');
    typeInto(drawer, 'Created from', '2026-04-02T10:00');
    typeInto(drawer, 'Created to', '2026-04-01T10:00');
    clickButton('Apply', drawer);
    expect(await within(drawer).findByText('The end is before the start')).toBeTruthy();

    typeInto(drawer, 'Created to', '2026-04-03T10:00');
    clickButton('Apply', drawer);
    await waitFor(() => expect(router.state.location.search).toContain('certStatus=0'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('createdAtStart')).toBe(new Date('2026-04-02T10:00').toISOString());
    expect(params.get('createdAtEnd')).toBe(new Date(new Date('2026-04-03T10:00').getTime() + 59_999).toISOString());
    await waitFor(() => expect(listed()).toMatchObject({ certStatus: '0' }));
    expect(api.sent(userDomainsTags)[0]?.body).toEqual({ siteIDs: [3] });

    clickButton('Advanced filter');
    const again = (await screen.findByText('Reset')).closest('.ant-drawer') as HTMLElement;
    clickButton('Reset', again);
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('reads the tag filter’s choices again after a domain is deleted', async () => {
    api.on(deleteDomains, { siteId: 3 }, ok(true));
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    clickButton('Advanced filter');
    const drawer = (await screen.findByText('Apply')).closest('.ant-drawer') as HTMLElement;
    await waitFor(() => expect(api.sent(userDomainsTags)).toHaveLength(1));
    fireEvent.click(within(drawer).getByRole('button', { name: 'Close' }));

    clickButton('Delete', row);
    clickButton('Delete', await findPopconfirm('Delete the domain www.example.com?'));
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    clickButton('Advanced filter');
    await waitFor(() => expect(api.sent(userDomainsTags)).toHaveLength(2));
  });

  it('converts between datetime-local values and ISO instants', () => {
    const iso = new Date('2026-05-06T07:08').toISOString();
    expect(toLocalInput(iso)).toBe('2026-05-06T07:08');
    expect(toLocalInput('nonsense')).toBe('');
    expect(fromLocalInput('2026-05-06T07:08')).toBe(iso);
    expect(fromLocalInput('')).toBeUndefined();
  });
});

describe('sitesSetting: domain batch actions', () => {
  it('names every bad tag of the chosen domains with its place and sends nothing', async () => {
    api.on(setDomainsTags, { siteId: 3 }, ok(true));
    renderAt(SETTING);
    await selectRows(['www.example.com']);
    clickButton('Set tags (1)');
    const dialog = await findModal();
    const input = within(dialog).getByLabelText('Tags');
    fireEvent.change(input, { target: { value: `promo,${'z'.repeat(65)},` } });
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Tag 2 \(z+\): /)).toBeTruthy();
    expect(api.sent(setDomainsTags, { siteId: 3 })).toHaveLength(0);
  });

  it('replaces the tags of the chosen domains', async () => {
    api.on(setDomainsTags, { siteId: 3 }, ok(true));
    renderAt(SETTING);
    await selectRows(['www.example.com']);
    clickButton('Set tags (1)');
    const dialog = await findModal();
    const input = within(dialog).getByLabelText('Tags');
    fireEvent.change(input, { target: { value: 'promo' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(setDomainsTags, { siteId: 3 })[0]?.body).toEqual({ domainIDs: [9], tags: ['promo'] }),
    );
    expect(await screen.findByText('Update Tags Success!')).toBeTruthy();
  });

  it("copies the chosen domains to another of the customer's sites", async () => {
    api.on(listUserSites, okPage([site, { ...site, siteID: 5, siteName: 'blog' }]));
    api.on(copyDomainsToSite, { siteId: 3 }, ok([]));
    renderAt(SETTING);
    await selectRows(['www.example.com']);
    clickButton('Copy to site (1)');
    const dialog = await findModal();
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Choose a site')).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByLabelText('Target site'));
    expect(screen.queryByText('my shop', { selector: '.ant-select-item-option-content' })).toBeNull();
    fireEvent.click(await screen.findByText('blog', { selector: '.ant-select-item-option-content' }));
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(copyDomainsToSite, { siteId: 3 })[0]?.body).toEqual({ domainIDs: [9], siteID: 5 }),
    );
    expect(await screen.findByText('Copy Domain To Site Success!')).toBeTruthy();
  });

  it('shows a copy refused per name (101009) without closing the dialog', async () => {
    api.on(listUserSites, okPage([{ ...site, siteID: 5, siteName: 'blog' }]));
    api.on(
      copyDomainsToSite,
      { siteId: 3 },
      {
        status: 400,
        body: {
          code: 101009,
          message: 'Multiple Errors',
          errors: [{ code: 101025, message: 'Duplicated data', targets: ['www.example.com'] }],
        },
      },
    );
    renderAt(SETTING);
    await selectRows(['www.example.com']);
    clickButton('Copy to site (1)');
    const dialog = await findModal();
    await chooseOption(dialog, 'Target site', 'blog');
    clickButton('OK', dialog);
    const errorDialog = await findMessageDialog('Multiple Errors');
    expect(within(errorDialog).getByText('Duplicated data')).toBeTruthy();
    expect(within(errorDialog).getByText('www.example.com')).toBeTruthy();
    // The copy dialog stays open to pick another site.
    expect(within(dialog).getByLabelText('Target site')).toBeTruthy();
  });

  it('changes an origin across the site to an IP or a host name, checking both first', async () => {
    api.on(modifyUpstreamIPs, { siteId: 3 }, ok({ domains: 1, upstreams: 1 }));
    renderAt(SETTING);
    await findRow('www.example.com');
    clickButton('Change origin IP');
    const dialog = await findModal();
    expect(within(dialog).getByText('In the origins of every domain of this site.')).toBeTruthy();
    typeInto(dialog, 'Current origin (IP or host name)', '192.0.2.10');
    typeInto(dialog, 'New origin (IP or host name)', '999.1.1.1');
    clickButton('OK', dialog);
    const refusal = 'Please enter an IP address or a host name (such as origin.example.com, without port or path)';
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    typeInto(dialog, 'New origin (IP or host name)', 'origin_1.example.com');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    expect(api.sent(modifyUpstreamIPs, { siteId: 3 })).toHaveLength(0);
    // A host name is an origin too (the node resolves it).
    typeInto(dialog, 'New origin (IP or host name)', 'my-app.herokuapp.com');
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(modifyUpstreamIPs, { siteId: 3 })[0]?.body).toEqual({
        domainIDs: [],
        oldIP: '192.0.2.10',
        newIP: 'my-app.herokuapp.com',
      }),
    );
  });

  it('exports the chosen domains to the file the response names', async () => {
    api.on(
      exportDomains,
      { siteId: 3 },
      {
        status: 200,
        text: 'name\r\nwww.example.com\r\n',
        headers: { 'Content-Disposition': 'attachment; filename="domains-site3-20260301T100000.csv"' },
      },
    );
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    const revoked = vi.fn();
    URL.createObjectURL = () => 'blob:export';
    URL.revokeObjectURL = revoked;
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderAt(SETTING);
    await selectRows(['www.example.com']);
    fireEvent.click(buttonByText('Export (1)'));
    await waitFor(() => expect(names).toEqual(['domains-site3-20260301T100000.csv']));
    expect(api.sent(exportDomains, { siteId: 3 })[0]?.body).toEqual({ ids: [9] });
    expect(revoked).toHaveBeenCalledWith('blob:export');
    click.mockRestore();
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });

  it('shows a failed export', async () => {
    api.on(exportDomains, { siteId: 3 }, fail(403, 101018, 'No Permission'));
    renderAt(SETTING);
    await findRow('www.example.com');
    fireEvent.click(buttonByText('Export all'));
    expect(await screen.findByText(errorMessage(101018, 'en_US'))).toBeTruthy();
  });
});

describe('fileNameOf', () => {
  const named = (value: string) => new Response('', { headers: { 'Content-Disposition': value } });
  it('reads the plain and the UTF-8 forms, keeps only the last path segment, and falls back', () => {
    expect(fileNameOf(named('attachment; filename="a.csv"'), 'x')).toBe('a.csv');
    expect(fileNameOf(named('attachment; filename*=UTF-8\'\'%E5%9F%9F.csv; filename="b.csv"'), 'x')).toBe('域.csv');
    expect(fileNameOf(named('attachment; filename="../../etc/passwd"'), 'x')).toBe('passwd');
    expect(fileNameOf(new Response(''), 'fallback.csv')).toBe('fallback.csv');
  });
});
