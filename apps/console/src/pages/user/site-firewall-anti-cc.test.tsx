import { addAntiCCRules, listAntiCCRules, updateAntiCCRule } from '@rampart/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, okPage, pageTestApi } from '../../test/fake-api';
import { signedInSiteTab } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The site's firewall tab: the anti-CC rules (routes/firewall-anti-cc.ts).
const api = pageTestApi(signedInSiteTab);

const ANTI_CC = '/user/sitesManagement/sitesSetting/3/shop?tab=firewall&kind=antiCC';
const DATES = { createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-02T10:00:00.000Z' };

const apiRule = {
  id: 61,
  siteID: 3,
  urlRegex: '/api/',
  frequency: 'custom' as const,
  seconds: 60,
  times: 30,
  blockType: 1,
  errorSeconds: 60,
  errorTimes: 5,
  errorBlockType: 10,
  enabled: true,
  memo: 'api',
  ...DATES,
};
const loginRule = {
  ...apiRule,
  id: 62,
  urlRegex: '/login',
  frequency: 'full' as const,
  blockType: 3,
  errorTimes: 1,
  errorBlockType: 11,
  memo: 'login',
};

beforeEach(() => {
  api.on(listAntiCCRules, { siteId: 3 }, okPage([apiRule, loginRule]));
});

describe('sitesSetting: firewall anti-CC rules', () => {
  it('lists the rules: URL, when they challenge, the challenge and the error limit', async () => {
    renderAt(ANTI_CC);
    const custom = await findRow('30 requests / 60 s');
    expect(within(custom).getByText('/api/')).toBeTruthy();
    expect(within(custom).getByText('Five-Second Shield')).toBeTruthy();
    expect(within(custom).getByText('5 errors / 60 s')).toBeTruthy();
    const full = await findRow('Every request');
    expect(within(full).getByText('Click to Verify')).toBeTruthy();
    expect(within(full).getByText('1 error / 60 s')).toBeTruthy();
  });

  it('creates a full-verification rule: the window and count hidden, the challenge and error mode chosen', async () => {
    api.on(addAntiCCRules, { siteId: 3 }, ok([{ ...loginRule, id: 63 }]));
    renderAt(ANTI_CC);
    await findRow('Every request');
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New anti-CC rule')).toBeTruthy();
    expect(within(dialog).getByLabelText('Window')).toBeTruthy();
    fireEvent.click(within(dialog).getByLabelText('Full verification'));
    await vi.waitFor(() => expect(within(dialog).queryByLabelText('Window')).toBeNull());
    typeInto(dialog, 'URL', ' /checkout ');
    await chooseOption(dialog, 'Protection mode', 'Slider Captcha');
    await chooseOption(dialog, 'Over the error limit', 'DROP');
    typeInto(dialog, 'Errors allowed', '3');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addAntiCCRules, { siteId: 3 })[0]?.body).toEqual({
      data: [
        {
          urlRegex: '/checkout',
          frequency: 'full',
          seconds: 60,
          times: 30,
          blockType: 5,
          errorSeconds: 60,
          errorTimes: 3,
          errorBlockType: 11,
          enabled: true,
          memo: '',
        },
      ],
    });
  });

  it('refuses a count of 0 before sending, naming the field', async () => {
    renderAt(ANTI_CC);
    await findRow('Every request');
    clickButton('Create');
    const dialog = await findModal();
    typeInto(dialog, 'URL', '/api/');
    typeInto(dialog, 'Requests', '0');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/must be greater than 0|exceed 0/i)).toBeTruthy();
    expect(api.sent(addAntiCCRules, { siteId: 3 })).toHaveLength(0);
  });

  it('turns a rule off with its switch, sending the rule back whole', async () => {
    api.on(updateAntiCCRule, { siteId: 3 }, ok({ ...apiRule, enabled: false }));
    renderAt(ANTI_CC);
    const row = await findRow('30 requests / 60 s');
    fireEvent.click(within(row).getByLabelText('Rule /api/ on'));
    await vi.waitFor(() => expect(api.sent(updateAntiCCRule, { siteId: 3 })).toHaveLength(1));
    expect(api.sent(updateAntiCCRule, { siteId: 3 })[0]?.body).toMatchObject({ id: 61, enabled: false, times: 30 });
  });
});
