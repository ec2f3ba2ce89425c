import {
  addBlacklistRules,
  createSimpleDomains,
  getUserSite,
  listBlacklistRules,
  listSitePorts,
  listSiteZonePorts,
  listWhitelistRules,
  userDomainsTags,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BAD_LINES_SHOWN } from '../../forms/line-rules';
import { i18n } from '../../i18n/i18n';
import { fail, fakeApiForEachTest, ok, okPage, signedInFakeApi } from '../../test/fake-api';
import { SITE_SETTING, siteDomain, stubSitePage, userSite } from '../../test/fixtures';
import { clickButton, findModal, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// A list box (one entry a line) names every bad line under itself, not only the first, and sends
// nothing: the blacklist's addresses (the IP lists' rule) and a domain list (the line lists' rule).
vi.setConfig({ testTimeout: 30_000 });

const api = fakeApiForEachTest(() => signedInFakeApi('user'));

const FIREWALL = '/user/sitesManagement/sitesSetting/3/shop?tab=firewall';

/**
 * The error lines under the form field labelled `label` (found through its label: antd wraps a box
 * in another element once it shows an error).
 */
function fieldErrors(scope: HTMLElement, label: string): string[] {
  return errorsUnder(within(scope).getByText(label, { selector: 'label' }));
}

function errorsUnder(label: HTMLElement): string[] {
  const item = label.closest('.ant-form-item') as HTMLElement;
  return [...item.querySelectorAll('.ant-form-item-explain-error')].map((error) => error.textContent ?? '');
}

const rule = {
  id: 21,
  siteID: 3,
  ips: ['198.51.100.66'],
  url: '/wp-login.php',
  methods: { get: false, post: true, put: false, delete: false, head: false, patch: false, options: false },
  memo: 'bots',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
};

async function openBlacklistDialog(): Promise<HTMLElement> {
  api.on(getUserSite, { siteId: 3 }, fail(404, 101004, 'not here')); // the tab alone, as the firewall tests
  api.on(listWhitelistRules, { siteId: 3 }, okPage([{ ...rule, id: 11, memo: 'office' }]));
  api.on(listBlacklistRules, { siteId: 3 }, okPage([{ ...rule, blockType: 10 }]));
  renderAt(FIREWALL);
  await findRow('office');
  fireEvent.click(screen.getByText('Blacklist'));
  await findRow('bots');
  clickButton('Create');
  const dialog = await findModal();
  expect(within(dialog).getByText('New blacklist rule')).toBeTruthy();
  return dialog;
}

/** The site's domain list (one domain, no ports) with its quick-add dialog open; adding answers nothing. */
async function openQuickAdd(): Promise<HTMLElement> {
  stubSitePage(api, [siteDomain()], userSite());
  api.on(userDomainsTags, ok([]));
  api.on(listSitePorts, { siteId: 3 }, okPage([]));
  api.on(listSiteZonePorts, { siteId: 3 }, ok([]));
  api.on(createSimpleDomains, { siteId: 3 }, ok([]));
  renderAt(SITE_SETTING);
  await findRow('www.example.com');
  clickButton('Quick add');
  return findModal();
}

describe('list boxes report every bad line', () => {
  it('the blacklist names each malformed and each repeated address with its line, and sends nothing', async () => {
    api.on(addBlacklistRules, { siteId: 3 }, ok([]));
    const dialog = await openBlacklistDialog();
    typeInto(dialog, 'IPs', '10.0.0.1\n10.0.0.300\n\n10.0.0.1\n2001:db8::/32\nnot-an-ip\n2001:DB8::/32');
    clickButton('OK', dialog);
    await waitFor(() => expect(fieldErrors(dialog, 'IPs')).toHaveLength(4));
    expect(fieldErrors(dialog, 'IPs')).toEqual([
      'Line 2 (10.0.0.300): Wrong format',
      'Line 4 (10.0.0.1): Duplicate IP',
      'Line 6 (not-an-ip): Wrong format',
      'Line 7 (2001:DB8::/32): Duplicate IP',
    ]);
    expect(api.sent(addBlacklistRules, { siteId: 3 })).toHaveLength(0);
  });

  it(`lists the first ${BAD_LINES_SHOWN} bad lines and counts the others, in zh_TW`, async () => {
    const dialog = await openBlacklistDialog();
    const label = within(dialog).getByText('IPs', { selector: 'label' });
    const box = within(dialog).getByLabelText('IPs');
    await i18n.changeLanguage('zh_TW'); // the setup file sets English back before each test
    const bad = Array.from({ length: BAD_LINES_SHOWN + 5 }, (_, i) => `10.0.0.${300 + i}`);
    fireEvent.change(box, { target: { value: ['192.0.2.1', ...bad].join('\n') } });
    fireEvent.click(dialog.querySelector('.ant-btn-primary') as HTMLElement);
    await waitFor(() => expect(errorsUnder(label)).toHaveLength(BAD_LINES_SHOWN + 1));
    expect(errorsUnder(label)).toEqual([
      ...bad.slice(0, BAD_LINES_SHOWN).map((ip, i) => `第 ${i + 2} 行（${ip}）：格式錯誤`),
      '另有 5 行有誤',
    ]);
  });

  it('quick-adding domains names every bad name with its line, and sends nothing', async () => {
    const dialog = await openQuickAdd();
    typeInto(dialog, 'Domain names', 'a.example.com\nnot a name\n\nb.example.com\nbad..example.com');
    typeInto(dialog, 'Origin 1 IP', '192.0.2.20');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Line 5: /)).toBeTruthy();
    const errors = fieldErrors(dialog, 'Domain names');
    expect(errors.map((error) => error.split(':')[0])).toEqual(['Line 2', 'Line 5']);
    expect(api.sent(createSimpleDomains, { siteId: 3 })).toHaveLength(0);
  });

  it('quick-adding domains names every repeated name with its line, compared as the server compares them', async () => {
    const dialog = await openQuickAdd();
    typeInto(dialog, 'Domain names', 'a.example.com\nbücher.example\nA.Example.COM\nxn--bcher-kva.example\nnot a name');
    typeInto(dialog, 'Origin 1 IP', '192.0.2.20');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Line 5: /)).toBeTruthy();
    expect(fieldErrors(dialog, 'Domain names')).toEqual([
      'Line 3 (A.Example.COM): the same name as line 1',
      'Line 4 (xn--bcher-kva.example): the same name as line 2',
      expect.stringMatching(/^Line 5: /),
    ]);
    expect(api.sent(createSimpleDomains, { siteId: 3 })).toHaveLength(0);
  });
});
