import { checkDomainsCNAME, listDomains, updateDomain, userDomainsTags } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { SITE_SETTING as SETTING, siteDomain, stubSitePage, userSite } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findRow, selectRows } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
const api = pageTestApi(() => signedInFakeApi('user'));

const site = userSite();
const CNAME = '0123456789abcdef.cname.example.net';
const domain = siteDomain({ cname: CNAME, cnameStatus: 2, cnameCheckedAt: '2026-03-02T10:00:00.000Z' });
const listed = () => api.sent(listDomains, { siteId: 3 }).at(-1)?.search;

beforeEach(() => {
  stubSitePage(api, [domain], site);
  api.on(userDomainsTags, ok([]));
});

describe('sitesSetting: CNAME targets', () => {
  it('shows each domain’s CNAME target with its status and copies it', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    expect(within(row).getByLabelText('CNAME target of www.example.com').textContent).toBe(CNAME);
    expect(within(row).getByText('Not pointing here')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /Copy/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(CNAME));
  });

  it('does not offer a placeholder target (no CNAME domain set yet) for copying, and says why without a warning', async () => {
    const placeholder = '0123456789abcdef.cname.rampart.invalid';
    stubSitePage(api, [siteDomain({ cname: placeholder, cnameStatus: 2 })], site);
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    const note = within(row).getByLabelText('CNAME target of www.example.com');
    expect(note.textContent).toBe('No CNAME target yet');
    expect(within(row).queryByText(placeholder)).toBeNull();
    expect(within(row).queryByRole('button', { name: /Copy/ })).toBeNull();
    expect(within(row).queryByText('Not pointing here')).toBeNull();
    expect(row.querySelector('.ant-tag-warning')).toBeNull();
    fireEvent.mouseEnter(note);
    expect(await screen.findByText(/Your provider has not set its CNAME domain yet/)).toBeTruthy();
  });

  it('filters by CNAME status through the URL', async () => {
    const router = renderAt(`${SETTING}?cnameStatus=1`);
    await findRow('www.example.com');
    await waitFor(() => expect(listed()?.getAll('cnameStatuses')).toEqual(['1']));
    const bar = screen.getByLabelText('CNAME target').closest('.ant-flex') as HTMLElement;
    await chooseOption(bar, 'CNAME target', 'Not checked');
    await waitFor(() => expect(router.state.location.search).toContain('cnameStatus=0'));
    await waitFor(() => expect(listed()?.getAll('cnameStatuses')).toEqual(['0']));
  });

  it('checks the CNAME of the chosen domains and says how many point here', async () => {
    api.on(
      checkDomainsCNAME,
      { siteId: 3 },
      ok([
        { id: 9, name: 'www.example.com', cname: CNAME, cnameStatus: 1, cnameCheckedAt: '2026-03-03T10:00:00.000Z' },
      ]),
    );
    renderAt(SETTING);
    await selectRows(['www.example.com']);
    clickButton('Check CNAME (1)');
    await waitFor(() => expect(api.sent(checkDomainsCNAME, { siteId: 3 })[0]?.body).toEqual({ domainIDs: [9] }));
    expect(await screen.findByText('CNAME checked: 1 of 1 verified')).toBeTruthy();
  });

  it('shows a resolver failure', async () => {
    api.on(
      checkDomainsCNAME,
      { siteId: 3 },
      fail(502, 101010, 'DNS Execution Error', { name: 'x', reason: 'ETIMEOUT' }),
    );
    renderAt(SETTING);
    await selectRows(['www.example.com']);
    clickButton('Check CNAME (1)');
    expect(await screen.findByText('DNS Execution Error')).toBeTruthy();
  });
});

describe('sitesSetting: auto SSL and port map', () => {
  it('sends the port map switch, and keeps the stored auto SSL choice without showing its switch (issuance is not built)', async () => {
    api.on(updateDomain, { siteId: 3 }, ok({ ...domain, autoSSL: false, portMap: true }));
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await findModal();
    expect(within(dialog).queryByText('Auto SSL')).toBeNull();
    fireEvent.click(within(dialog).getByLabelText('Port map'));
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(updateDomain, { siteId: 3 })[0]?.body).toMatchObject({
        id: 9,
        autoSSL: domain.autoSSL,
        portMap: true,
      }),
    );
  });

  it('names the port of a refused port map (401003) and the auto SSL limit (401004)', async () => {
    api.on(
      updateDomain,
      { siteId: 3 },
      fail(400, 401003, 'Illegal Port Mapping Settings', { port: 80, portType: 'https' }),
    );
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await findModal();
    fireEvent.click(within(dialog).getByLabelText('Port map'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Illegal port mapping settings: port 80 is not available')).toBeTruthy();

    // A domain whose stored auto SSL choice the API refuses again (over the site's limit) says so.
    api.on(updateDomain, { siteId: 3 }, fail(422, 401004, 'Auto SSL exceeds limit', { limit: 50 }));
    clickButton('OK', dialog);
    expect(await screen.findByText('Auto SSL exceeds limit')).toBeTruthy();
  });
});
