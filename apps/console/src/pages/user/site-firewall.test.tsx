import {
  addBlacklistRules,
  addWhitelistRules,
  deleteWhitelistRules,
  getSelf,
  listBlacklistRules,
  listWhitelistRules,
  tierPermissions,
  updateWhitelistRule,
  wafRoutes,
} from '@rampart/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { fail, ok, okPage, pageTestApi, selfInfo } from '../../test/fake-api';
import { signedInSiteTab } from '../../test/fixtures';
import {
  chooseOption,
  clickButton,
  findModal,
  findPopconfirm,
  findRow,
  modalClosed,
  selectRows,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The site's firewall tab: the whitelist and the blacklist, each a server-paged list of rules.
const api = pageTestApi(signedInSiteTab);

const FIREWALL = '/user/sitesManagement/sitesSetting/3/shop?tab=firewall';
const NO_METHODS = { get: false, post: false, put: false, delete: false, head: false, patch: false, options: false };
const ALL_METHODS = { get: true, post: true, put: true, delete: true, head: true, patch: true, options: true };

const office = {
  id: 11,
  siteID: 3,
  ips: ['10.0.0.1', '10.0.0.2', '10.0.0.3', '192.0.2.0/24', '198.51.100.1-198.51.100.9'],
  url: '.*',
  methods: { ...NO_METHODS, get: true, post: true },
  memo: 'office',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
};
const monitor = {
  ...office,
  id: 12,
  ips: ['203.0.113.7'],
  url: 'https?:\\/\\/www.example.com/health(.*)',
  methods: ALL_METHODS,
  memo: 'monitoring',
};
const bots = {
  ...office,
  id: 21,
  ips: ['198.51.100.66'],
  url: '/wp-login.php',
  methods: { ...NO_METHODS, post: true },
  memo: 'bots',
  blockType: 10,
};

beforeEach(() => {
  api.on(listWhitelistRules, { siteId: 3 }, okPage([office, monitor], 25));
  api.on(listBlacklistRules, { siteId: 3 }, okPage([bots]));
});

/** Signs the customer in with the user tier's permissions less those `without` starts. */
function signedInWithout(without: string): void {
  const permissions = tierPermissions('user').filter((key) => !key.startsWith(without));
  api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions })));
}

describe('sitesSetting: firewall lists', () => {
  it('lists the whitelist a page at a time, page and size from the URL, the IPs shortened', async () => {
    renderAt(`${FIREWALL}&page=2&pageSize=20`);
    const row = await findRow('office');
    const query = api.sent(listWhitelistRules, { siteId: 3 })[0]?.search;
    expect([query?.get('page'), query?.get('pageSize')]).toEqual(['2', '20']);
    expect(screen.getByText('25 in total')).toBeTruthy();
    expect(within(row).getByText('10.0.0.1, 10.0.0.2')).toBeTruthy();
    expect(within(row).getByText('+3 more')).toBeTruthy();
    expect(within(row).getByText('GET')).toBeTruthy();
    expect(within(row).getByText('POST')).toBeTruthy();
    expect(within(await findRow('monitoring')).getByText('All methods')).toBeTruthy();

    fireEvent.mouseEnter(within(row).getByText('+3 more'));
    const all = await screen.findByTestId('firewall-ips');
    expect([...all.children].map((entry) => entry.textContent)).toEqual(office.ips);

    expect(screen.queryByText('Updated', { selector: 'th' })).toBeNull();
    await showAllColumns();
    expect(await screen.findByText('Updated', { selector: 'th' })).toBeTruthy();
  });

  it('creates a whitelist rule: one IP a line, GET and POST ticked by default, a bad line named first', async () => {
    api.on(addWhitelistRules, { siteId: 3 }, ok([{ ...office, id: 13 }]));
    renderAt(FIREWALL);
    await findRow('office');
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New whitelist rule')).toBeTruthy();
    expect((within(dialog).getByLabelText('GET') as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByLabelText('POST') as HTMLInputElement).checked).toBe(true);
    expect(
      within(dialog).getByText(/searched for in the request's scheme:\/\/host\[:port\]\/path\?query/),
    ).toBeTruthy();

    typeInto(dialog, 'IPs', '10.0.0.1\n\n10.0.0.300');
    typeInto(dialog, 'URL', '.*');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Line 3 (10.0.0.300): Wrong format')).toBeTruthy();
    expect(api.sent(addWhitelistRules, { siteId: 3 })).toHaveLength(0);

    typeInto(dialog, 'IPs', '10.0.0.1\n\n 10.0.0.0/24 \n');
    fireEvent.click(within(dialog).getByLabelText('PUT'));
    typeInto(dialog, 'Memo', 'branch');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addWhitelistRules, { siteId: 3 })[0]?.body).toEqual({
      data: [
        {
          ips: ['10.0.0.1', '10.0.0.0/24'],
          url: '.*',
          methods: { ...NO_METHODS, get: true, post: true, put: true },
          memo: 'branch',
        },
      ],
    });
  });

  it('creates a blacklist rule with the protection mode chosen (DENY unless changed)', async () => {
    api.on(addBlacklistRules, { siteId: 3 }, ok([{ ...bots, id: 22, blockType: 11 }]));
    renderAt(FIREWALL);
    await findRow('office');
    fireEvent.click(screen.getByText('Blacklist'));
    const row = await findRow('bots');
    expect(within(row).getByText('DENY')).toBeTruthy();
    expect(api.sent(listBlacklistRules, { siteId: 3 })[0]?.search.get('page')).toBe('1');

    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New blacklist rule')).toBeTruthy();
    expect(within(dialog).getByText('DENY')).toBeTruthy(); // the mode's select shows it
    typeInto(dialog, 'IPs', '2001:db8::/32');
    typeInto(dialog, 'URL', 'https?:\\/\\/www.example.com(.*)');
    fireEvent.click(within(dialog).getByLabelText('GET'));
    await chooseOption(dialog, 'Protection mode', 'DROP');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addBlacklistRules, { siteId: 3 })[0]?.body).toEqual({
      data: [
        {
          ips: ['2001:db8::/32'],
          url: 'https?:\\/\\/www.example.com(.*)',
          methods: { ...NO_METHODS, post: true },
          memo: '',
          blockType: 11,
        },
      ],
    });
  });

  it('offers the challenges as protection modes, and names a legacy one with its suffix', async () => {
    api.on(
      listBlacklistRules,
      { siteId: 3 },
      okPage([
        { ...bots, id: 23, memo: 'shielded', blockType: 1 },
        { ...bots, id: 24, memo: 'old rule', blockType: 8 },
      ]),
    );
    api.on(addBlacklistRules, { siteId: 3 }, ok([{ ...bots, id: 25, blockType: 4 }]));
    renderAt(FIREWALL);
    await findRow('office');
    fireEvent.click(screen.getByText('Blacklist'));
    expect(within(await findRow('shielded')).getByText('Five-Second Shield')).toBeTruthy();
    expect(within(await findRow('old rule')).getByText('Click to Verify (legacy)')).toBeTruthy();

    clickButton('Create');
    const dialog = await findModal();
    typeInto(dialog, 'IPs', '192.0.2.0/24');
    typeInto(dialog, 'URL', '.*');
    await chooseOption(dialog, 'Protection mode', 'Verification Code');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addBlacklistRules, { siteId: 3 })[0]?.body).toMatchObject({ data: [{ blockType: 2 }] });
  });

  it('offers DROP + Blacklist for a blacklist rule and shows it in the list', async () => {
    api.on(listBlacklistRules, { siteId: 3 }, okPage([{ ...bots, id: 26, memo: 'to the block list', blockType: 12 }]));
    api.on(addBlacklistRules, { siteId: 3 }, ok([{ ...bots, id: 27, blockType: 12 }]));
    renderAt(FIREWALL);
    await findRow('office');
    fireEvent.click(screen.getByText('Blacklist'));
    expect(within(await findRow('to the block list')).getByText('DROP + Blacklist')).toBeTruthy();

    clickButton('Create');
    const dialog = await findModal();
    typeInto(dialog, 'IPs', '192.0.2.0/24');
    typeInto(dialog, 'URL', '.*');
    await chooseOption(dialog, 'Protection mode', 'DROP + Blacklist');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addBlacklistRules, { siteId: 3 })[0]?.body).toMatchObject({ data: [{ blockType: 12 }] });
  });

  it('edits a rule with PUT on the singular path, its id in the body', async () => {
    api.on(updateWhitelistRule, { siteId: 3 }, ok({ ...monitor, memo: 'uptime' }));
    renderAt(FIREWALL);
    clickButton('Edit', await findRow('monitoring'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit whitelist rule')).toBeTruthy();
    expect((within(dialog).getByLabelText('IPs') as HTMLTextAreaElement).value).toBe('203.0.113.7');
    expect((within(dialog).getByLabelText('OPTIONS') as HTMLInputElement).checked).toBe(true);
    typeInto(dialog, 'Memo', 'uptime');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    const sent = api.sent(updateWhitelistRule, { siteId: 3 })[0];
    expect(sent?.method).toBe('PUT');
    expect(sent?.path).toBe('/user/site/3/firewall/setting/whitelist');
    expect(sent?.body).toEqual({
      ips: ['203.0.113.7'],
      url: 'https?:\\/\\/www.example.com/health(.*)',
      methods: ALL_METHODS,
      memo: 'uptime',
      id: 12,
    });
    await modalClosed(dialog);
  });

  it('shows the server’s duplicateIP at ips.2 on the IPs field, naming the line it is on', async () => {
    const fields = [{ in: 'body', field: 'ips.2', key: 'duplicateIP', message: 'Duplicate IP' }];
    api.on(updateWhitelistRule, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(FIREWALL);
    clickButton('Edit', await findRow('monitoring'));
    const dialog = await findModal();
    typeInto(dialog, 'IPs', '203.0.113.7\n\n203.0.113.8\n203.0.113.9');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Line 4 (203.0.113.9): Duplicate IP')).toBeTruthy();
    expect(api.sent(updateWhitelistRule, { siteId: 3 })[0]?.body).toMatchObject({
      ips: ['203.0.113.7', '203.0.113.8', '203.0.113.9'],
    });
  });

  it('deletes the chosen rules in one call after the confirm', async () => {
    api.on(deleteWhitelistRules, { siteId: 3 }, ok(true));
    renderAt(FIREWALL);
    await findRow('office');
    await selectRows(['office', 'monitoring']);
    clickButton('Delete (2)');
    const confirm = await findPopconfirm('Delete 2 rules?');
    expect(api.sent(deleteWhitelistRules, { siteId: 3 })).toHaveLength(0);
    clickButton('Delete', confirm);
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    expect(api.sent(deleteWhitelistRules, { siteId: 3 })[0]?.body).toEqual({ ids: [11, 12] });
  });

  it('says when the site also has Lua ACL or WAF modules, and opens them', async () => {
    api.on(wafRoutes.advExists, { siteId: 3 }, ok(true));
    renderAt(FIREWALL);
    await findRow('office');
    const notice = await screen.findByText(/also has Lua ACL or WAF modules/);
    fireEvent.click(within(notice.closest('.ant-alert') as HTMLElement).getByText('Open modules'));
    expect(await screen.findByRole('tab', { name: 'Modules', selected: true })).toBeTruthy();
  });

  it('says nothing of modules when the site has none', async () => {
    api.on(wafRoutes.advExists, { siteId: 3 }, ok(false));
    renderAt(FIREWALL);
    await findRow('office');
    await vi.waitFor(() => expect(api.sent(wafRoutes.advExists, { siteId: 3 })).toHaveLength(1));
    expect(screen.queryByText(/also has Lua ACL or WAF modules/)).toBeNull();
  });

  it('says so when the kind has no rules', async () => {
    api.on(listBlacklistRules, { siteId: 3 }, okPage([]));
    renderAt(`${FIREWALL}&kind=blacklist`);
    expect(await screen.findByText('No blacklist rules yet.', undefined, { timeout: 10_000 })).toBeTruthy();
  });

  it('hides the tab from a caller without user.firewall.read', async () => {
    signedInWithout('user.firewall.');
    renderAt(FIREWALL);
    const tabs = await screen.findAllByRole('tab', undefined, { timeout: 10_000 });
    expect(tabs.map((tab) => tab.textContent)).not.toContain('Firewall');
    expect(tabs.map((tab) => tab.textContent)).toContain('Domains');
    expect(api.sent(listWhitelistRules)).toHaveLength(0);
  });

  it('shows the rules without create, edit, delete or selection to a caller without user.firewall.write', async () => {
    signedInWithout('user.firewall.write');
    renderAt(FIREWALL);
    const row = await findRow('office');
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(row.querySelector('input[type="checkbox"]')).toBeNull();
    expect(screen.queryByText('Create')).toBeNull();
  });

  it.each([
    ['zh_CN', '防火墙', '黑名单', '拒绝', '暂无白名单规则。'],
    ['zh_TW', '防火牆', '黑名單', '拒絕', '尚無白名單規則。'],
  ] as const)('shows the tab in %s', async (locale, tab, blacklist, deny, empty) => {
    api.on(listWhitelistRules, { siteId: 3 }, okPage([]));
    await i18n.changeLanguage(locale); // the setup file sets English back before each test
    renderAt(FIREWALL);
    expect(await screen.findByText(empty, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText(tab)).toBeTruthy();
    fireEvent.click(screen.getByText(blacklist));
    expect(within(await findRow('bots')).getByText(deny)).toBeTruthy();
  });
});
