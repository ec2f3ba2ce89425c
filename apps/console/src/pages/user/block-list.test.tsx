import {
  type BlockedIpEntry,
  getSelf,
  listBlockedIps,
  metaUserSites,
  tierPermissions,
  unblockIps,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { ok, okPage, pageTestApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { blockedIp } from '../../test/fixtures';
import { chooseOption, clickButton, findPopconfirm, findRow, selectRows, showAllColumns } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The customer's block list: a server-paged list of the addresses its DROP + Blacklist rules blocked.
const api = pageTestApi(() => signedInFakeApi('user'));

const BLOCK_LIST = '/user/sitesManagement/blockList';

const scanner = blockedIp();
const flooder: BlockedIpEntry = {
  ...scanner,
  id: 6,
  ip: '2001:db8::66',
  siteName: 'blog',
  siteID: 4,
  cause: 'secondLimit',
  ruleID: null,
  nodeName: 'edge-sin-1',
};

beforeEach(() => {
  api.on(listBlockedIps, okPage([scanner, flooder], 42));
  api.on(
    metaUserSites,
    ok([
      { id: 3, name: 'my shop' },
      { id: 4, name: 'blog' },
    ]),
  );
});

/** Signs the customer in with the user tier's permissions less those `without` starts. */
function signedInWithout(without: string): void {
  const permissions = tierPermissions('user').filter((key) => !key.startsWith(without));
  api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions })));
}

const lastQuery = () => api.sent(listBlockedIps).at(-1)?.search;

describe('sitesManagement/blockList', () => {
  it('lists the blocked addresses a page at a time with their site, cause, rule and node', async () => {
    renderAt(`${BLOCK_LIST}?page=2&pageSize=20`);
    const row = await findRow('203.0.113.7');
    expect(within(row).getByText('my shop')).toBeTruthy();
    expect(within(row).getByText('Blacklist #11')).toBeTruthy();
    // The node and its zone are chosen in the column chooser (the list fits 1280 px without them).
    expect(within(row).queryByText('edge-fra-1')).toBeNull();
    await showAllColumns();
    expect(within(await findRow('203.0.113.7')).getByText('edge-fra-1')).toBeTruthy();
    expect(within(await findRow('203.0.113.7')).getByText('Europe')).toBeTruthy();
    const other = await findRow('2001:db8::66');
    expect(within(other).getByText('Per-second limit (rule deleted)')).toBeTruthy();
    expect(screen.getByText('42 in total')).toBeTruthy();
    expect(Object.fromEntries(lastQuery() ?? [])).toEqual({ page: '2', pageSize: '20' });
  });

  it('filters by site and causes, and sorts by the expiry on the server', async () => {
    const router = renderAt(BLOCK_LIST);
    await findRow('203.0.113.7');
    await chooseOption(document.body, 'Site', 'blog');
    await waitFor(() => expect(lastQuery()?.get('siteID')).toBe('4'));
    await chooseOption(document.body, 'Causes', 'Geo');
    await waitFor(() => expect(lastQuery()?.getAll('causes')).toEqual(['geo']));
    await chooseOption(document.body, 'Causes', 'Anti-CC');
    await waitFor(() => expect(lastQuery()?.getAll('causes')).toEqual(['geo', 'antiCc']));
    expect(lastQuery()?.get('siteID')).toBe('4');

    fireEvent.click(screen.getAllByText('Expires at', { selector: 'th *' })[0] as HTMLElement);
    await waitFor(() => expect(lastQuery()?.get('sortBy')).toBe('expiresAt'));
    expect(lastQuery()?.get('orderBy')).toBe('asc');
    fireEvent.click(screen.getAllByText('Expires at', { selector: 'th *' })[0] as HTMLElement);
    await waitFor(() => expect(lastQuery()?.get('orderBy')).toBe('desc'));
    expect(router.state.location.search).toContain('sortBy=expiresAt');
  });

  it('sends the typed IPs as a list, and names a wrong one instead of sending it', async () => {
    renderAt(BLOCK_LIST);
    await findRow('203.0.113.7');
    const input = screen.getByLabelText('IPs');
    fireEvent.change(input, { target: { value: '203.0.113.7, 10.0.0' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.keyUp(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('Not an IPv4 or IPv6 address: 10.0.0')).toBeTruthy();
    expect(api.sent(listBlockedIps).some((request) => request.search.has('ips'))).toBe(false);

    const again = screen.getByLabelText('IPs') as HTMLInputElement;
    expect(again.value).toBe('203.0.113.7, 10.0.0');
    fireEvent.change(again, { target: { value: '203.0.113.7, 2001:db8::66 198.51.100.1' } });
    expect(again.getAttribute('aria-invalid')).toBeNull();
    fireEvent.keyDown(again, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastQuery()?.getAll('ips')).toEqual(['203.0.113.7', '2001:db8::66', '198.51.100.1']));
  });

  it('unblocks one address after asking, and the chosen ones together', async () => {
    api.on(unblockIps, ok(true));
    renderAt(BLOCK_LIST);
    clickButton('Unblock', await findRow('203.0.113.7'));
    const popconfirm = await findPopconfirm(/Unblock 203\.0\.113\.7\?/);
    clickButton('Yes', popconfirm);
    expect(await screen.findByText('1 address unblocked.')).toBeTruthy();
    expect(api.sent(unblockIps)[0]?.body).toEqual({ ids: [5] });
    await waitFor(() => expect(api.sent(listBlockedIps).length).toBeGreaterThan(1));

    await selectRows(['203.0.113.7', '2001:db8::66']);
    clickButton('Unblock (2)');
    clickButton('Yes', await findPopconfirm('Unblock 2 addresses?'));
    expect(await screen.findByText('2 addresses unblocked.')).toBeTruthy();
    expect(api.sent(unblockIps)[1]?.body).toEqual({ ids: [5, 6] });
  });

  it('says how addresses get here when none is blocked', async () => {
    api.on(listBlockedIps, okPage([]));
    renderAt(BLOCK_LIST);
    expect(
      await screen.findByText(
        'No blocked addresses. An address shows here when a firewall rule with the DROP + Blacklist protection mode blocks it, and stays until its block expires or it is unblocked.',
        undefined,
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
  });

  it('shows the list in zh_TW', async () => {
    await i18n.changeLanguage('zh_TW'); // the setup file sets English back before each test
    api.on(listBlockedIps, okPage([scanner]));
    renderAt(BLOCK_LIST);
    const row = await findRow('203.0.113.7');
    expect(within(row).getByText('黑名單 #11')).toBeTruthy();
    expect(within(row).getByText('解除封鎖')).toBeTruthy();
    expect(screen.getAllByText('封鎖清單').length).toBeGreaterThan(0);
    expect(screen.getAllByText('到期時間').length).toBeGreaterThan(0);
  });

  it('is in the sidebar under site management with the firewall read key', async () => {
    renderAt(BLOCK_LIST);
    const nav = await screen.findByRole('menu', { name: 'Navigation' });
    const link = await within(nav).findByRole('link', { name: 'Block list' });
    expect(link.getAttribute('href')).toBe(BLOCK_LIST);
    expect(link.closest('li')?.className).toContain('ant-menu-item-selected');
  });

  it('has no sidebar entry without the firewall keys', async () => {
    signedInWithout('user.firewall');
    renderAt('/user/sitesManagement/sites');
    const nav = await screen.findByRole('menu', { name: 'Navigation' });
    expect(await within(nav).findByRole('link', { name: 'Sites' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Block list' })).toBeNull();
  });

  it('lists without unblock buttons for a caller who may only read', async () => {
    signedInWithout('user.firewall.write');
    renderAt(BLOCK_LIST);
    const row = await findRow('203.0.113.7');
    expect(within(row).queryByText('Unblock')).toBeNull();
    expect(row.querySelector('input[type="checkbox"]')).toBeNull();
  });
});
