import {
  type ClientBlockedIpEntry,
  clientUnblockIps,
  getSelf,
  listAccounts,
  listClientBlockedIps,
  metaSites,
  metaZones,
  tierPermissions,
} from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, okPage, pageTestApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { blockedIp, managedAccount } from '../../test/fixtures';
import { chooseOption, clickButton, findPopconfirm, findRow, selectRows } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's block list: the addresses blocked on its customers' sites, with the customer.
const api = pageTestApi(() => signedInFakeApi('client'));

const BLOCK_LIST = '/client/sitesManagement/blockList';

const scanner: ClientBlockedIpEntry = {
  ...blockedIp({ cause: 'userAgent', ruleID: 31, zoneID: 2 }),
  userAccount: 'acme',
};
const flooder: ClientBlockedIpEntry = {
  ...scanner,
  id: 6,
  ip: '198.51.100.66',
  siteID: 8,
  siteName: 'news',
  cause: 'intervalLimit',
  ruleID: 40,
  userAccount: 'globex',
};

const lastQuery = () => api.sent(listClientBlockedIps).at(-1)?.search;

beforeEach(() => {
  api.on(listClientBlockedIps, okPage([scanner, flooder]));
  api.on(
    metaZones,
    ok([
      { id: 1, name: 'Asia' },
      { id: 2, name: 'Europe' },
    ]),
  );
  api.on(
    metaSites,
    ok([
      { id: 3, name: 'my shop' },
      { id: 8, name: 'news' },
    ]),
  );
  api.on(
    listAccounts,
    { auth: 'client' },
    okPage([
      managedAccount({ id: 21, account: 'acme', name: '' }),
      managedAccount({ id: 22, account: 'globex', name: '' }),
    ]),
  );
});

describe('sitesManagement/blockList (operator)', () => {
  it("lists the blocked addresses with the customer's account, and filters by zone and customer", async () => {
    renderAt(BLOCK_LIST);
    const row = await findRow('203.0.113.7');
    expect(within(row).getByText('acme')).toBeTruthy();
    expect(within(row).getByText('User agent #31')).toBeTruthy();
    expect(within(await findRow('198.51.100.66')).getByText('globex')).toBeTruthy();

    await chooseOption(document.body, 'Zone', 'Asia');
    await waitFor(() => expect(lastQuery()?.get('zoneID')).toBe('1'));
    await chooseOption(document.body, 'Customer', 'globex');
    await waitFor(() => expect(lastQuery()?.get('userID')).toBe('22'));
    expect(lastQuery()?.get('zoneID')).toBe('1');
    // The site filter then offers that customer's sites.
    await waitFor(() => expect(api.sent(metaSites).at(-1)?.search.get('userID')).toBe('22'));
    await chooseOption(document.body, 'Site', 'news');
    await waitFor(() => expect(lastQuery()?.get('siteID')).toBe('8'));
  });

  it('unblocks a row and the chosen rows on the operator route', async () => {
    api.on(clientUnblockIps, ok(true));
    renderAt(BLOCK_LIST);
    clickButton('Unblock', await findRow('198.51.100.66'));
    clickButton('Yes', await findPopconfirm(/Unblock 198\.51\.100\.66\?/));
    expect(await screen.findByText('1 address unblocked.')).toBeTruthy();
    expect(api.sent(clientUnblockIps)[0]?.body).toEqual({ ids: [6] });

    await selectRows(['203.0.113.7', '198.51.100.66']);
    clickButton('Unblock (2)');
    clickButton('Yes', await findPopconfirm('Unblock 2 addresses?'));
    expect(await screen.findByText('2 addresses unblocked.')).toBeTruthy();
    expect(api.sent(clientUnblockIps)[1]?.body).toEqual({ ids: [5, 6] });
  });

  it('names IP trust protection as the cause of its blocks, without a rule', async () => {
    const trusted: ClientBlockedIpEntry = { ...scanner, id: 7, ip: '192.0.2.99', cause: 'reputation', ruleID: null };
    api.on(listClientBlockedIps, okPage([trusted]));
    renderAt(BLOCK_LIST);
    const row = await findRow('192.0.2.99');
    expect(within(row).getByText('IP trust')).toBeTruthy();
    expect(within(row).queryByText(/rule deleted/)).toBeNull();
  });

  it('has its sidebar entry under site management', async () => {
    renderAt(BLOCK_LIST);
    const nav = await screen.findByRole('menu', { name: 'Navigation' });
    expect((await within(nav).findByRole('link', { name: 'Block list' })).getAttribute('href')).toBe(BLOCK_LIST);
  });

  it('has no sidebar entry without the sites keys', async () => {
    const permissions = tierPermissions('client').filter((key) => !key.startsWith('client.sites'));
    api.on(getSelf, { auth: 'client' }, ok(selfInfo('client', { isRoot: false, permissions })));
    renderAt('/client/sitesManagement/domains');
    const nav = await screen.findByRole('menu', { name: 'Navigation' });
    expect(await within(nav).findByRole('link', { name: 'Domains' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Block list' })).toBeNull();
  });

  it('leaves out the zone and customer filters the caller may not list', async () => {
    const permissions = ['account.self', 'client.sites.read'];
    api.on(getSelf, { auth: 'client' }, ok(selfInfo('client', { isRoot: false, permissions })));
    renderAt(BLOCK_LIST);
    const row = await findRow('203.0.113.7');
    expect(screen.getByLabelText('Site')).toBeTruthy();
    expect(screen.queryByLabelText('Zone')).toBeNull();
    expect(screen.queryByLabelText('Customer')).toBeNull();
    expect(within(row).queryByText('Unblock')).toBeNull();
    expect(api.sent(metaZones)).toHaveLength(0);
  });
});
