import {
  clientDomainTags,
  listClientDomains,
  metaClientDomains,
  metaSites,
  setClientDomainTags,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { chooseOption, clickButton, findModal, findRow, selectRows } from '../../test/queries';
import { renderAt } from '../../test/render-app';

const api = pageTestApi(() => signedInFakeApi('client'));
beforeEach(() => {
  api.on(
    metaSites,
    ok([
      { id: 1, name: 'shop' },
      { id: 2, name: 'blog' },
    ]),
  );
  api.on(clientDomainTags, ok(['web', 'api']));
  api.on(
    listClientDomains,
    okPage([
      {
        id: 11,
        name: 'www.shop.example',
        siteID: 1,
        siteName: 'shop',
        userAccount: 'bob',
        status: 1,
        tags: ['web'],
        createdAt: '2026-03-01T10:00:00.000Z',
      },
      {
        id: 12,
        name: 'api.shop.example',
        siteID: 1,
        siteName: 'shop',
        userAccount: 'bob',
        status: 0,
        tags: [],
        createdAt: '2026-03-01T10:00:00.000Z',
      },
    ]),
  );
});

describe('domains (operator)', () => {
  it('lists the domains with the filters of the URL and keeps a changed filter there', async () => {
    const router = renderAt('/client/sitesManagement/domains?siteID=1&tags=web&status=1&name=shop');
    const row = await findRow('www.shop.example');
    expect(within(row).getByText('bob')).toBeTruthy();
    expect(within(row).getByText('Enabled')).toBeTruthy();
    expect(within(await findRow('api.shop.example')).getByText('Disabled')).toBeTruthy();
    const first = api.sent(listClientDomains)[0]?.search;
    expect(Object.fromEntries(first ?? [])).toEqual({
      page: '1',
      pageSize: '10',
      name: 'shop',
      siteID: '1',
      tags: 'web',
      status: '1',
    });

    const filters = screen.getByLabelText('Site').closest('.ant-flex') as HTMLElement;
    await chooseOption(filters, 'Status', 'All statuses');
    await waitFor(() => expect(router.state.location.search).toBe('?siteID=1&tags=web&name=shop'));
    await chooseOption(filters, 'Site', 'blog');
    await waitFor(() => expect(api.sent(listClientDomains).at(-1)?.search.get('siteID')).toBe('2'));
  });

  it("suggests names of the chosen site as the operator types, and replaces the chosen domains' tags", async () => {
    api.on(metaClientDomains, ok([{ id: 11, name: 'www.shop.example', siteID: 1 }]));
    api.on(setClientDomainTags, ok(true));
    renderAt('/client/sitesManagement/domains?siteID=1');
    await findRow('www.shop.example');
    fireEvent.change(screen.getByLabelText('Search domain name'), { target: { value: 'www' } });
    await waitFor(() => expect(api.sent(metaClientDomains).at(-1)?.body).toEqual({ siteIDs: [1], name: 'www' }));

    await selectRows(['www.shop.example', 'api.shop.example']);
    clickButton('Set tags (2)');
    const dialog = await findModal();
    const input = within(dialog).getByLabelText('Tags');
    fireEvent.change(input, { target: { value: 'gold' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Tags Success!')).toBeTruthy();
    expect(api.sent(setClientDomainTags)[0]?.body).toEqual({ ids: [11, 12], tags: ['gold'] });
  });

  it('names every bad tag of the chosen domains with its place and sends nothing', async () => {
    api.on(setClientDomainTags, ok(true));
    renderAt('/client/sitesManagement/domains?siteID=1');
    await findRow('www.shop.example');
    await selectRows(['www.shop.example']);
    clickButton('Set tags (1)');
    const dialog = await findModal();
    const input = within(dialog).getByLabelText('Tags');
    fireEvent.change(input, { target: { value: `${'x'.repeat(65)},gold,${'y'.repeat(66)},` } });
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Tag 1 \(x+\): /)).toBeTruthy();
    expect(within(dialog).getByText(/^Tag 3 \(y+\): /)).toBeTruthy();
    expect(within(dialog).queryByText(/^Tag 2 /)).toBeNull();
    expect(api.sent(setClientDomainTags)).toHaveLength(0);
  });
});
