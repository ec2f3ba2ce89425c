import {
  addUserAgentRules,
  deleteUserAgentRules,
  getSelf,
  listUserAgentRules,
  tierPermissions,
  updateUserAgentRule,
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

// The site's firewall tab: the user-agent rules, a server-paged list with a switch in each row.
const api = pageTestApi(signedInSiteTab);

const USER_AGENTS = '/user/sitesManagement/sitesSetting/3/shop?tab=firewall&kind=userAgent';

const scripts = {
  id: 31,
  siteID: 3,
  urlRegex: '.*',
  userAgentRegex: 'curl|python-requests',
  blockType: 10,
  enabled: true,
  memo: 'scripts',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
};
const scanners = {
  ...scripts,
  id: 32,
  urlRegex: 'https?:\\/\\/www.example.com/admin(.*)',
  userAgentRegex: 'sqlmap|nikto|nmap scripting engine|masscan|zgrab|nuclei|dirbuster|gobuster|wpscan|acunetix',
  blockType: 11,
  enabled: false,
  memo: 'scanners',
};

beforeEach(() => {
  api.on(listUserAgentRules, { siteId: 3 }, okPage([scripts, scanners], 25));
});

describe('sitesSetting: firewall user-agent rules', () => {
  it('lists the rules a page at a time: URL, pattern whole on hover, mode, switch; memo and dates chosen', async () => {
    renderAt(`${USER_AGENTS}&page=2&pageSize=20`);
    const row = await findRow('curl|python-requests');
    const query = api.sent(listUserAgentRules, { siteId: 3 })[0]?.search;
    expect([query?.get('page'), query?.get('pageSize')]).toEqual(['2', '20']);
    expect(screen.getByText('25 in total')).toBeTruthy();
    expect(within(row).getByText('DENY')).toBeTruthy();
    expect(ruleSwitch(row, scripts.userAgentRegex).getAttribute('aria-checked')).toBe('true');

    const other = await findRow(scanners.userAgentRegex);
    expect(within(other).getByText('DROP')).toBeTruthy();
    expect(ruleSwitch(other, scanners.userAgentRegex).getAttribute('aria-checked')).toBe('false');
    // One line at most 220 px wide; the whole pattern in the cell's title.
    expect(within(other).getByTitle(scanners.userAgentRegex)).toBeTruthy();

    expect(screen.queryByText('Memo', { selector: 'th' })).toBeNull();
    expect(within(row).queryByText('scripts')).toBeNull();
    await showAllColumns();
    expect(await screen.findByText('Memo', { selector: 'th' })).toBeTruthy();
    expect(within(await findRow('curl|python-requests')).getByText('scripts')).toBeTruthy();
    expect(screen.getByText('Updated', { selector: 'th' })).toBeTruthy();
  });

  it('creates a rule: DENY and on by default, checked with the contract first, the exact body sent', async () => {
    api.on(addUserAgentRules, { siteId: 3 }, ok([{ ...scripts, id: 33 }]));
    renderAt(USER_AGENTS);
    await findRow('curl|python-requests');
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New user-agent rule')).toBeTruthy();
    expect(
      within(dialog).getByText(/searched for in the request's scheme:\/\/host\[:port\]\/path\?query/),
    ).toBeTruthy();
    expect(
      within(dialog).getByText(
        "A regular expression, unanchored and case-insensitive (such as curl|python-requests), searched for in the request's User-Agent header; a request without the header is matched as an empty string.",
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('DENY')).toBeTruthy(); // the mode's select shows it
    expect(within(dialog).getByLabelText('Enabled').getAttribute('aria-checked')).toBe('true');

    typeInto(dialog, 'URL', '.*');
    typeInto(dialog, 'User-Agent pattern', '(a+)+bot');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(VALIDATION_MESSAGES.runaway.en_US)).toBeTruthy();
    expect(api.sent(addUserAgentRules, { siteId: 3 })).toHaveLength(0);

    typeInto(dialog, 'User-Agent pattern', 'Go-http-client|python-requests');
    await chooseOption(dialog, 'Protection mode', 'DROP');
    typeInto(dialog, 'Memo', 'libraries');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addUserAgentRules, { siteId: 3 })[0]?.body).toEqual({
      data: [
        {
          urlRegex: '.*',
          userAgentRegex: 'Go-http-client|python-requests',
          blockType: 11,
          enabled: true,
          memo: 'libraries',
        },
      ],
    });
  });

  it('edits a rule with PUT on the singular path, its id in the body', async () => {
    api.on(updateUserAgentRule, { siteId: 3 }, ok({ ...scanners, enabled: true }));
    renderAt(USER_AGENTS);
    clickButton('Edit', await findRow(scanners.userAgentRegex));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit user-agent rule')).toBeTruthy();
    expect((within(dialog).getByLabelText('User-Agent pattern') as HTMLInputElement).value).toBe(
      scanners.userAgentRegex,
    );
    expect(within(dialog).getByText('DROP')).toBeTruthy();
    const enabled = within(dialog).getByLabelText('Enabled');
    expect(enabled.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(enabled);
    typeInto(dialog, 'Memo', 'scanners, on');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    const sent = api.sent(updateUserAgentRule, { siteId: 3 })[0];
    expect(sent?.method).toBe('PUT');
    expect(sent?.path).toBe('/user/site/3/firewall/setting/userAgent');
    expect(sent?.body).toEqual({
      urlRegex: scanners.urlRegex,
      userAgentRegex: scanners.userAgentRegex,
      blockType: 11,
      enabled: true,
      memo: 'scanners, on',
      id: 32,
    });
    await modalClosed(dialog);
  });

  it('turns a rule off from its row: the rule replaced with its other fields as they are', async () => {
    api.on(updateUserAgentRule, { siteId: 3 }, ok({ ...scripts, enabled: false }));
    renderAt(USER_AGENTS);
    fireEvent.click(ruleSwitch(await findRow('curl|python-requests'), scripts.userAgentRegex));
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(updateUserAgentRule, { siteId: 3 })[0]?.body).toEqual({
      urlRegex: '.*',
      userAgentRegex: 'curl|python-requests',
      blockType: 10,
      enabled: false,
      memo: 'scripts',
      id: 31,
    });
  });

  it('shows the switch, disabled, and no other change to a caller without user.firewall.write', async () => {
    const permissions = tierPermissions('user').filter((key) => key !== 'user.firewall.write');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions })));
    renderAt(USER_AGENTS);
    const row = await findRow('curl|python-requests');
    const toggle = ruleSwitch(row, scripts.userAgentRegex);
    expect(toggle.disabled).toBe(true);
    fireEvent.click(toggle);
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(row.querySelector('input[type="checkbox"]')).toBeNull();
    expect(screen.queryByText('Create')).toBeNull();
    expect(api.sent(updateUserAgentRule)).toHaveLength(0);
  });

  it('deletes the chosen rules in one call after the confirm', async () => {
    api.on(deleteUserAgentRules, { siteId: 3 }, ok(true));
    renderAt(USER_AGENTS);
    await findRow('curl|python-requests');
    await selectRows(['curl|python-requests', scanners.userAgentRegex]);
    clickButton('Delete (2)');
    const confirm = await findPopconfirm('Delete 2 rules?');
    clickButton('Delete', confirm);
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    expect(api.sent(deleteUserAgentRules, { siteId: 3 })[0]?.body).toEqual({ ids: [31, 32] });
  });

  it('shows the server’s runaway at data.0.userAgentRegex on the pattern field', async () => {
    const fields = [{ in: 'body', field: 'data.0.userAgentRegex', key: 'runaway', message: '' }];
    api.on(addUserAgentRules, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(USER_AGENTS);
    await findRow('curl|python-requests');
    clickButton('Create');
    const dialog = await findModal();
    typeInto(dialog, 'URL', '.*');
    typeInto(dialog, 'User-Agent pattern', 'bot');
    clickButton('OK', dialog);
    const message = await within(dialog).findByText(VALIDATION_MESSAGES.runaway.en_US);
    const item = message.closest('.ant-form-item');
    expect(item && within(item as HTMLElement).getByLabelText('User-Agent pattern')).toBeTruthy();
    expect(api.sent(addUserAgentRules, { siteId: 3 })).toHaveLength(1);
  });

  it('says so when the site has no user-agent rules', async () => {
    api.on(listUserAgentRules, { siteId: 3 }, okPage([]));
    renderAt(USER_AGENTS);
    expect(await screen.findByText('No user-agent rules yet.', undefined, { timeout: 10_000 })).toBeTruthy();
  });

  it('shows the rules and the dialog in zh_CN', async () => {
    await i18n.changeLanguage('zh_CN'); // the setup file sets English back before each test
    renderAt(USER_AGENTS);
    const row = await findRow('curl|python-requests');
    expect(within(row).getByText('拒绝')).toBeTruthy();
    expect(screen.getByText('User-Agent 表达式', { selector: 'th' })).toBeTruthy();
    expect(screen.getByText('启用', { selector: 'th' })).toBeTruthy();
    expect(screen.getByText('User-Agent')).toBeTruthy(); // the kind in the sub-navigation
    clickButton(/^新\s?建$/);
    const dialog = await findModal();
    expect(within(dialog).getByText('新建 User-Agent 规则')).toBeTruthy();
    expect(
      within(dialog).getByText(
        '正则表达式，不限定首尾、不区分大小写（如 curl|python-requests），在请求的 User-Agent 请求头中查找匹配；没有该请求头的请求按空字符串匹配。',
      ),
    ).toBeTruthy();
  });
});
