import {
  addIntervalLimits,
  addSecondLimits,
  deleteIntervalLimits,
  deleteSecondLimits,
  getSelf,
  listIntervalLimits,
  listSecondLimits,
  listWhitelistRules,
  tierPermissions,
  updateIntervalLimit,
  updateSecondLimit,
  VALIDATION_MESSAGES,
} from '@rampart/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
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
  ruleSwitch,
  selectRows,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The site's firewall tab: the interval and per-second frequency limits, server-paged lists with a
// switch in each row.
const api = pageTestApi(signedInSiteTab);

const FIREWALL = '/user/sitesManagement/sitesSetting/3/shop?tab=firewall';
const INTERVALS = `${FIREWALL}&kind=intervalLimit`;
const SECONDS = `${FIREWALL}&kind=secondLimit`;
const DATES = { createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-02T10:00:00.000Z' };

const login = {
  id: 41,
  siteID: 3,
  urlRegex: 'https?:\\/\\/www.example.com/login(.*)',
  seconds: 60,
  times: 20,
  priority: 10,
  blockType: 10,
  enabled: true,
  memo: 'sign-in',
  ...DATES,
};
const apiCalls = {
  ...login,
  id: 42,
  urlRegex: '/api/',
  seconds: 3600,
  times: 1_000_000,
  priority: 0,
  blockType: 11,
  enabled: false,
  memo: 'api',
};
const search = {
  id: 51,
  siteID: 3,
  urlRegex: '/search',
  rate: 5,
  burst: 2,
  blockSeconds: 300,
  priority: 5,
  blockType: 10,
  enabled: true,
  memo: 'search',
  ...DATES,
};
const wholeSite = {
  ...search,
  id: 52,
  urlRegex: '.*',
  rate: 100,
  burst: 0,
  blockSeconds: 0,
  priority: 0,
  blockType: 11,
};

beforeEach(() => {
  api.on(listIntervalLimits, { siteId: 3 }, okPage([login, apiCalls], 25));
  api.on(listSecondLimits, { siteId: 3 }, okPage([search, wholeSite], 2));
});

/** The form item (label, field, hint, errors) of the field labelled `label` in `dialog`. */
function fieldItem(dialog: HTMLElement, label: string): HTMLElement {
  const item = within(dialog).getByLabelText(label).closest('.ant-form-item');
  if (!item) throw new Error(`no form item around ${label}`);
  return item as HTMLElement;
}

describe('sitesSetting: firewall interval frequency limits', () => {
  it('lists the limits a page at a time: URL, "N requests / T s", priority, mode, switch; memo and dates chosen', async () => {
    api.on(listWhitelistRules, { siteId: 3 }, okPage([]));
    renderAt(FIREWALL);
    fireEvent.click(await screen.findByText('Interval frequency limit', undefined, { timeout: 10_000 }));
    const row = await findRow('20 requests / 60 s');
    expect(api.sent(listIntervalLimits, { siteId: 3 })[0]?.search.get('page')).toBe('1');
    expect(within(row).getByText(login.urlRegex)).toBeTruthy();
    expect(within(row).getByText('10')).toBeTruthy();
    expect(within(row).getByText('DENY')).toBeTruthy();
    expect(ruleSwitch(row, login.urlRegex).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText(/The window is fixed: it starts with the IP's first request/)).toBeTruthy();

    const other = await findRow('1,000,000 requests / 3,600 s');
    expect(within(other).getByText('DROP')).toBeTruthy();
    expect(ruleSwitch(other, '/api/').getAttribute('aria-checked')).toBe('false');

    expect(screen.queryByText('Memo', { selector: 'th' })).toBeNull();
    await showAllColumns();
    expect(await screen.findByText('Memo', { selector: 'th' })).toBeTruthy();
    expect(within(await findRow('20 requests / 60 s')).getByText('sign-in')).toBeTruthy();
    expect(screen.getByText('Updated', { selector: 'th' })).toBeTruthy();
  });

  it('reads page and size from the URL', async () => {
    renderAt(`${INTERVALS}&page=2&pageSize=20`);
    await findRow('20 requests / 60 s');
    const query = api.sent(listIntervalLimits, { siteId: 3 })[0]?.search;
    expect([query?.get('page'), query?.get('pageSize')]).toEqual(['2', '20']);
    expect(screen.getByText('25 in total')).toBeTruthy();
  });

  it('creates a limit: priority 0, DENY and on by default, checked with the contract first, the exact body sent', async () => {
    api.on(addIntervalLimits, { siteId: 3 }, ok([{ ...login, id: 43 }]));
    renderAt(INTERVALS);
    await findRow('20 requests / 60 s');
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New interval frequency limit')).toBeTruthy();
    expect(
      within(fieldItem(dialog, 'Window')).getByText(
        "1 to 86,400 seconds. The window is fixed: it starts with the IP's first request that the rule covers and ends that many seconds later, however many requests follow; the IP's next request after it starts a new window.",
      ),
    ).toBeTruthy();
    expect(within(fieldItem(dialog, 'Window')).getByText('s')).toBeTruthy();
    expect(within(fieldItem(dialog, 'Requests')).getByText('requests')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'DENY answers 929 (the status of frequency limits); DROP closes the connection without an answer; DROP + Blacklist closes it too and puts the address on the block list (Site management, Block list) until the block expires.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('DENY')).toBeTruthy(); // the mode's select shows it
    // The modes are the contract's: DROP + Blacklist (12) among them, named as FIREWALL_ACTION_LABELS names it.
    fireEvent.mouseDown(within(dialog).getByLabelText('Protection mode'));
    expect(await screen.findByText('DROP + Blacklist', { selector: '.ant-select-item-option-content' })).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByLabelText('Protection mode'));
    expect((within(dialog).getByLabelText('Priority') as HTMLInputElement).value).toBe('0');
    expect(within(dialog).getByLabelText('Enabled').getAttribute('aria-checked')).toBe('true');

    typeInto(dialog, 'URL', ' https?:\\/\\/www.example.com/cart(.*) ');
    typeInto(dialog, 'Window', '0');
    typeInto(dialog, 'Requests', '2000000');
    clickButton('OK', dialog);
    expect(await within(fieldItem(dialog, 'Window')).findByText(VALIDATION_MESSAGES.mustBePositive.en_US)).toBeTruthy();
    expect(await within(fieldItem(dialog, 'Requests')).findByText('Must be at most 1000000')).toBeTruthy();
    expect(api.sent(addIntervalLimits, { siteId: 3 })).toHaveLength(0);

    typeInto(dialog, 'Window', '10');
    typeInto(dialog, 'Requests', '30');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addIntervalLimits, { siteId: 3 })[0]?.body).toEqual({
      data: [
        {
          urlRegex: 'https?:\\/\\/www.example.com/cart(.*)',
          seconds: 10,
          times: 30,
          priority: 0,
          blockType: 10,
          enabled: true,
          memo: '',
        },
      ],
    });
  });

  it('asks for the window and the count before sending', async () => {
    renderAt(INTERVALS);
    await findRow('20 requests / 60 s');
    clickButton('Create');
    const dialog = await findModal();
    typeInto(dialog, 'URL', '.*');
    clickButton('OK', dialog);
    expect(await within(fieldItem(dialog, 'Window')).findByText(VALIDATION_MESSAGES.required.en_US)).toBeTruthy();
    expect(within(fieldItem(dialog, 'Requests')).getByText(VALIDATION_MESSAGES.required.en_US)).toBeTruthy();
    expect(api.sent(addIntervalLimits, { siteId: 3 })).toHaveLength(0);
  });

  it('edits a limit with PUT on the singular path, its id in the body', async () => {
    api.on(updateIntervalLimit, { siteId: 3 }, ok({ ...apiCalls, times: 5000 }));
    renderAt(INTERVALS);
    clickButton('Edit', await findRow('1,000,000 requests / 3,600 s'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit interval frequency limit')).toBeTruthy();
    expect((within(dialog).getByLabelText('Window') as HTMLInputElement).value).toBe('3600');
    expect(within(dialog).getByText('DROP')).toBeTruthy();
    expect(within(dialog).getByLabelText('Enabled').getAttribute('aria-checked')).toBe('false');
    typeInto(dialog, 'Requests', '5000');
    typeInto(dialog, 'Priority', '100');
    await chooseOption(dialog, 'Protection mode', 'DENY');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    const sent = api.sent(updateIntervalLimit, { siteId: 3 })[0];
    expect(sent?.method).toBe('PUT');
    expect(sent?.path).toBe('/user/site/3/firewall/setting/intervalLimit');
    expect(sent?.body).toEqual({
      urlRegex: '/api/',
      seconds: 3600,
      times: 5000,
      priority: 100,
      blockType: 10,
      enabled: false,
      memo: 'api',
      id: 42,
    });
    await modalClosed(dialog);
  });

  it('turns a limit on from its row: the limit replaced with its other fields as they are', async () => {
    api.on(updateIntervalLimit, { siteId: 3 }, ok({ ...apiCalls, enabled: true }));
    renderAt(INTERVALS);
    fireEvent.click(ruleSwitch(await findRow('1,000,000 requests / 3,600 s'), '/api/'));
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(updateIntervalLimit, { siteId: 3 })[0]?.body).toEqual({
      urlRegex: '/api/',
      seconds: 3600,
      times: 1_000_000,
      priority: 0,
      blockType: 11,
      enabled: true,
      memo: 'api',
      id: 42,
    });
  });

  it('shows the server’s mustBePositive at data.0.seconds on the Window field', async () => {
    const fields = [{ in: 'body', field: 'data.0.seconds', key: 'mustBePositive', message: '' }];
    api.on(addIntervalLimits, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(INTERVALS);
    await findRow('20 requests / 60 s');
    clickButton('Create');
    const dialog = await findModal();
    typeInto(dialog, 'URL', '.*');
    typeInto(dialog, 'Window', '60');
    typeInto(dialog, 'Requests', '100');
    clickButton('OK', dialog);
    expect(await within(fieldItem(dialog, 'Window')).findByText(VALIDATION_MESSAGES.mustBePositive.en_US)).toBeTruthy();
    expect(api.sent(addIntervalLimits, { siteId: 3 })).toHaveLength(1);
  });

  it('deletes the chosen limits in one call after the confirm', async () => {
    api.on(deleteIntervalLimits, { siteId: 3 }, ok(true));
    renderAt(INTERVALS);
    await findRow('20 requests / 60 s');
    await selectRows(['20 requests / 60 s', '1,000,000 requests / 3,600 s']);
    clickButton('Delete (2)');
    const confirm = await findPopconfirm('Delete 2 rules?');
    clickButton('Delete', confirm);
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    expect(api.sent(deleteIntervalLimits, { siteId: 3 })[0]?.body).toEqual({ ids: [41, 42] });
  });

  it('shows the switch, disabled, and no other change to a caller without user.firewall.write', async () => {
    const permissions = tierPermissions('user').filter((key) => key !== 'user.firewall.write');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions })));
    renderAt(INTERVALS);
    const row = await findRow('20 requests / 60 s');
    const toggle = ruleSwitch(row, login.urlRegex);
    expect(toggle.disabled).toBe(true);
    fireEvent.click(toggle);
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(row.querySelector('input[type="checkbox"]')).toBeNull();
    expect(screen.queryByText('Create')).toBeNull();
    expect(api.sent(updateIntervalLimit)).toHaveLength(0);
  });

  it('says so when the site has no interval limits', async () => {
    api.on(listIntervalLimits, { siteId: 3 }, okPage([]));
    renderAt(INTERVALS);
    expect(await screen.findByText('No interval frequency limits yet.', undefined, { timeout: 10_000 })).toBeTruthy();
  });
});

describe('sitesSetting: firewall per-second frequency limits', () => {
  it('lists the limits a page at a time: rate, burst and block in one cell, the zeros left out', async () => {
    renderAt(`${SECONDS}&page=2&pageSize=10`);
    const row = await findRow('5/s, burst 2, block 300 s');
    const query = api.sent(listSecondLimits, { siteId: 3 })[0]?.search;
    expect([query?.get('page'), query?.get('pageSize')]).toEqual(['2', '10']);
    expect(within(row).getByText('/search')).toBeTruthy();
    expect(within(row).getByText('5')).toBeTruthy(); // the priority
    expect(within(row).getByText('DENY')).toBeTruthy();
    expect(ruleSwitch(row, '/search').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText(/requests over the rate but within the burst are slowed down to the rate/)).toBeTruthy();

    const other = await findRow('100/s');
    expect(within(other).getByText('DROP')).toBeTruthy();
    expect(screen.queryByText('Memo', { selector: 'th' })).toBeNull();
    expect(screen.getByText('Priority', { selector: 'th' })).toBeTruthy();
  });

  it('creates a limit: no burst, no block, priority 0, DENY and on by default, the exact body sent', async () => {
    api.on(addSecondLimits, { siteId: 3 }, ok([{ ...search, id: 53 }]));
    renderAt(SECONDS);
    await findRow('5/s, burst 2, block 300 s');
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New per-second frequency limit')).toBeTruthy();
    expect(
      within(fieldItem(dialog, 'Burst')).getByText(
        '0 to 100,000: requests an IP may make over the rate; they are slowed down to the rate rather than refused. 0 allows none over the rate.',
      ),
    ).toBeTruthy();
    expect(
      within(fieldItem(dialog, 'Block duration')).getByText(
        '0 to 86,400 seconds: once an IP goes beyond the rate and the burst, every request of it that the rule covers gets the mode for this long. 0 applies the mode only to the requests beyond the limit.',
      ),
    ).toBeTruthy();
    expect(within(fieldItem(dialog, 'Rate')).getByText('requests/s')).toBeTruthy();
    expect(within(dialog).getByText(/DENY answers 929/)).toBeTruthy();
    expect((within(dialog).getByLabelText('Burst') as HTMLInputElement).value).toBe('0');
    expect((within(dialog).getByLabelText('Block duration') as HTMLInputElement).value).toBe('0');

    typeInto(dialog, 'URL', '/search');
    typeInto(dialog, 'Rate', '0');
    typeInto(dialog, 'Block duration', '-1');
    clickButton('OK', dialog);
    expect(await within(fieldItem(dialog, 'Rate')).findByText(VALIDATION_MESSAGES.mustBePositive.en_US)).toBeTruthy();
    expect(await within(fieldItem(dialog, 'Block duration')).findByText('Must be at least 0')).toBeTruthy();
    expect(api.sent(addSecondLimits, { siteId: 3 })).toHaveLength(0);

    typeInto(dialog, 'Rate', '20');
    typeInto(dialog, 'Block duration', '0');
    typeInto(dialog, 'Memo', 'search box');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addSecondLimits, { siteId: 3 })[0]?.body).toEqual({
      data: [
        {
          urlRegex: '/search',
          rate: 20,
          burst: 0,
          blockSeconds: 0,
          priority: 0,
          blockType: 10,
          enabled: true,
          memo: 'search box',
        },
      ],
    });
  });

  it('edits a limit with PUT on the singular path, its id in the body', async () => {
    api.on(updateSecondLimit, { siteId: 3 }, ok({ ...search, burst: 10 }));
    renderAt(SECONDS);
    clickButton('Edit', await findRow('5/s, burst 2, block 300 s'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit per-second frequency limit')).toBeTruthy();
    expect((within(dialog).getByLabelText('Rate') as HTMLInputElement).value).toBe('5');
    typeInto(dialog, 'Burst', '10');
    fireEvent.click(within(dialog).getByLabelText('Enabled'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    const sent = api.sent(updateSecondLimit, { siteId: 3 })[0];
    expect(sent?.method).toBe('PUT');
    expect(sent?.path).toBe('/user/site/3/firewall/setting/secondLimit');
    expect(sent?.body).toEqual({
      urlRegex: '/search',
      rate: 5,
      burst: 10,
      blockSeconds: 300,
      priority: 5,
      blockType: 10,
      enabled: false,
      memo: 'search',
      id: 51,
    });
    await modalClosed(dialog);
  });

  it('turns a limit off from its row: the limit replaced with its other fields as they are', async () => {
    api.on(updateSecondLimit, { siteId: 3 }, ok({ ...search, enabled: false }));
    renderAt(SECONDS);
    fireEvent.click(ruleSwitch(await findRow('5/s, burst 2, block 300 s'), '/search'));
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(updateSecondLimit, { siteId: 3 })[0]?.body).toEqual({
      urlRegex: '/search',
      rate: 5,
      burst: 2,
      blockSeconds: 300,
      priority: 5,
      blockType: 10,
      enabled: false,
      memo: 'search',
      id: 51,
    });
  });

  it('deletes the chosen limits in one call after the confirm', async () => {
    api.on(deleteSecondLimits, { siteId: 3 }, ok(true));
    renderAt(SECONDS);
    await findRow('5/s, burst 2, block 300 s');
    await selectRows(['5/s, burst 2, block 300 s', '100/s']);
    clickButton('Delete (2)');
    const confirm = await findPopconfirm('Delete 2 rules?');
    clickButton('Delete', confirm);
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    expect(api.sent(deleteSecondLimits, { siteId: 3 })[0]?.body).toEqual({ ids: [51, 52] });
  });
});

describe('sitesSetting: frequency limits in zh_TW', () => {
  it('shows both kinds, their cells and the dialog', async () => {
    await i18n.changeLanguage('zh_TW'); // the setup file sets English back before each test
    renderAt(INTERVALS);
    const row = await findRow('20 次 / 60 秒');
    expect(within(row).getByText('拒絕')).toBeTruthy();
    expect(screen.getByText('限制', { selector: 'th' })).toBeTruthy();
    expect(screen.getByText('優先順序', { selector: 'th' })).toBeTruthy();
    expect(screen.getByText('區域頻率')).toBeTruthy(); // the kind in the sub-navigation
    expect(await findRow('1,000,000 次 / 3,600 秒')).toBeTruthy();
    clickButton(/^新\s?增$/);
    const dialog = await findModal();
    expect(within(dialog).getByText('新增區域頻率規則')).toBeTruthy();
    expect(
      within(dialog).getByText(
        '拒絕：回傳 929（頻率限制的狀態碼）；丟棄：不回應，直接中斷連線；丟棄並加入黑名單：同樣中斷連線，並將該位址加入封鎖清單（網站管理 › 封鎖清單），直到封鎖到期。',
      ),
    ).toBeTruthy();
    expect(within(fieldItem(dialog, '統計週期')).getByText('秒')).toBeTruthy();
    clickButton(/^取\s?消$/, dialog);
    await modalClosed(dialog);

    fireEvent.click(screen.getByText('秒級頻率'));
    const limit = await findRow('5 次/秒，突發 2，封鎖 300 秒');
    expect(within(limit).getByText('拒絕')).toBeTruthy();
    expect(await findRow('100 次/秒')).toBeTruthy();
  });
});
