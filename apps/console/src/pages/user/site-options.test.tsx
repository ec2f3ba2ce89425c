import {
  addRateRules,
  deleteErrorPages,
  getErrorPages,
  getGzipSetting,
  listRateRules,
  setErrorPage,
  setErrorPageLanguage,
  setGzipSetting,
  updateRateRule,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, pageTestApi } from '../../test/fake-api';
import { gzipSetting, signedInSiteTab } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findRow, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The site settings tab: compression, rate limits and error pages of one site.
const api = pageTestApi(signedInSiteTab);

beforeEach(() => {
  api.on(getGzipSetting, { siteId: 3 }, ok(gzipSetting()));
  api.on(listRateRules, { siteId: 3 }, ok([rule]));
  api.on(getErrorPages, { siteId: 3 }, ok({ language: 'en_US', pages: [page404] }));
});

const SETTINGS = '/user/sitesManagement/sitesSetting/3/shop?tab=settings';
const rule = {
  id: 11,
  siteID: 3,
  url: '/downloads/*',
  rate: 16,
  memo: 'big files',
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};
const page404 = { status: 404, body: '<h1>gone</h1>', updatedAt: '2026-01-02T00:00:00.000Z' };

describe('sitesSetting: site settings', () => {
  it('turns compression on with the chosen types and minimum length', async () => {
    api.on(
      setGzipSetting,
      { siteId: 3 },
      ok(gzipSetting({ enabled: true, types: ['text/html'], minLength: 2048, updatedAt: '2026-03-02T10:00:00.000Z' })),
    );
    renderAt(SETTINGS);
    const toggle = await screen.findByLabelText('Compress responses (gzip)', undefined, { timeout: 10_000 });
    fireEvent.click(toggle);
    await waitFor(() => expect((screen.getByLabelText('text/css') as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(screen.getByLabelText('text/css')); // untick: text/html stays
    fireEvent.change(screen.getByLabelText('Minimum length (bytes)'), { target: { value: '2048' } });
    clickButton('Save');
    expect(await screen.findByText('HTTP compression set success!')).toBeTruthy();
    expect(api.sent(setGzipSetting, { siteId: 3 })[0]?.body).toEqual({
      enabled: true,
      types: ['text/html'],
      minLength: 2048,
    });
  });

  it('adds a rate limit, refuses a pattern with two stars before calling, and edits one', async () => {
    api.on(addRateRules, { siteId: 3 }, ok([{ ...rule, id: 12, url: '*.iso', rate: 1, memo: '' }]));
    api.on(updateRateRule, { siteId: 3, ruleId: 11 }, ok({ ...rule, rate: 32 }));
    renderAt(SETTINGS);
    const row = await findRow('/downloads/*');
    expect(within(row).getByText('16 KB/s')).toBeTruthy();

    clickButton('Add rate');
    let dialog = await findModal();
    typeInto(dialog, 'URL pattern', '/a/*/b/*');
    typeInto(dialog, 'Rate limit', '1');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Wrong format')).toBeTruthy();
    expect(api.sent(addRateRules, { siteId: 3 })).toHaveLength(0);
    typeInto(dialog, 'URL pattern', '*.iso');
    clickButton('OK', dialog);
    expect(await screen.findByText('Rate Added Success!')).toBeTruthy();
    expect(api.sent(addRateRules, { siteId: 3 })[0]?.body).toEqual({
      data: [{ url: '*.iso', rate: 1, memo: '' }],
    });
    await modalClosed(dialog);

    clickButton('Edit', await findRow('/downloads/*'));
    dialog = await findModal();
    expect((within(dialog).getByLabelText('URL pattern') as HTMLInputElement).value).toBe('/downloads/*');
    typeInto(dialog, 'Rate limit', '32');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(updateRateRule, { siteId: 3, ruleId: 11 })).toHaveLength(1));
    expect(api.sent(updateRateRule, { siteId: 3, ruleId: 11 })[0]?.body).toEqual({
      url: '/downloads/*',
      rate: 32,
      memo: 'big files',
    });
  });

  it("sets a page for a status, removes one, and changes the default pages' language", async () => {
    api.on(setErrorPage, { siteId: 3 }, ok({ status: 502, body: '<h1>resting</h1>', updatedAt: '' }));
    api.on(deleteErrorPages, { siteId: 3 }, ok(true));
    api.on(setErrorPageLanguage, { siteId: 3 }, ok({ language: 'zh_TW' }));
    renderAt(SETTINGS);
    const row404 = await findRow('404');
    expect(await within(row404).findByText('Custom')).toBeTruthy();
    expect(within(await findRow('929')).getByText('Default')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('Edit the page for 502'));
    const dialog = await findModal();
    typeInto(dialog, 'HTML', '<h1>resting</h1>');
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(setErrorPage, { siteId: 3 })[0]?.body).toEqual({
      status: 502,
      body: '<h1>resting</h1>',
    });
    await modalClosed(dialog);

    clickButton('Use default', row404);
    fireEvent.click(await screen.findByText('Delete', { selector: '.ant-popconfirm button *' }));
    await waitFor(() => expect(api.sent(deleteErrorPages, { siteId: 3 })).toHaveLength(1));
    expect(api.sent(deleteErrorPages, { siteId: 3 })[0]?.body).toEqual({ statuses: [404] });

    await chooseOption(document.body, 'Language of the default pages', '繁體中文');
    await waitFor(() => expect(api.sent(setErrorPageLanguage, { siteId: 3 })).toHaveLength(1));
    expect(api.sent(setErrorPageLanguage, { siteId: 3 })[0]?.body).toEqual({ language: 'zh_TW' });
  });
});
