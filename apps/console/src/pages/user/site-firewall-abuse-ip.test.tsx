import { getAbuseIPSetting, getSelf, tierPermissions, updateAbuseIPSetting } from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { fail, ok, pageTestApi, selfInfo } from '../../test/fake-api';
import { signedInSiteTab } from '../../test/fixtures';
import { chooseOption, clickButton, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The site's firewall tab: IP trust protection, one setting of the site.
const api = pageTestApi(signedInSiteTab);

const TAB = '/user/sitesManagement/sitesSetting/3/shop?tab=firewall&kind=abuseIP';

async function findPanel(): Promise<HTMLElement> {
  const label = await screen.findByText('Score threshold', undefined, { timeout: 10_000 });
  const card = label.closest<HTMLElement>('.ant-card');
  if (!card) throw new Error('no card around the setting');
  return card;
}

const threshold = (panel: HTMLElement) => within(panel).getByLabelText('Score threshold') as HTMLInputElement;
const enabledSwitch = (panel: HTMLElement) => within(panel).getByLabelText('IP trust protection');

describe('sitesSetting: firewall IP trust protection', () => {
  it('shows the saved setting with the legacy-suffix labels of the modes, and saves the exact body', async () => {
    api.on(getAbuseIPSetting, { siteId: 3 }, ok({ enabled: true, threshold: 70, blockType: 8 }));
    api.on(updateAbuseIPSetting, { siteId: 3 }, ok({ enabled: true, threshold: 85, blockType: 11 }));
    renderAt(TAB);
    const panel = await findPanel();
    await waitFor(() => expect(threshold(panel).value).toBe('70'));
    expect(enabledSwitch(panel).getAttribute('aria-checked')).toBe('true');
    // A stored legacy value shows with its suffix.
    expect(within(panel).getByText('Click to Verify (legacy)')).toBeTruthy();
    expect(screen.getByText('IP trust', { selector: '.ant-segmented-item-label' })).toBeTruthy();

    typeInto(panel, 'Score threshold', '85');
    await chooseOption(panel, 'Protection mode', 'DROP');
    clickButton('Save', panel);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(updateAbuseIPSetting, { siteId: 3 })[0]?.body).toEqual({
      enabled: true,
      threshold: 85,
      blockType: 11,
    });
  });

  it('offers the challenges the edge serves and the blocking modes, and refuses a threshold out of range', async () => {
    api.on(getAbuseIPSetting, { siteId: 3 }, ok({ enabled: false, threshold: 60, blockType: 10 }));
    renderAt(TAB);
    const panel = await findPanel();
    await waitFor(() => expect(threshold(panel).value).toBe('60'));
    expect(enabledSwitch(panel).getAttribute('aria-checked')).toBe('false');
    // The threshold waits for the switch.
    expect(threshold(panel).disabled).toBe(true);
    enabledSwitch(panel).click();
    await waitFor(() => expect(threshold(panel).disabled).toBe(false));
    typeInto(panel, 'Score threshold', '101');
    clickButton('Save', panel);
    expect(await within(panel).findByText('Must be at most 100')).toBeTruthy();
    expect(api.sent(updateAbuseIPSetting, { siteId: 3 })).toHaveLength(0);

    await chooseOption(panel, 'Protection mode', 'Five-Second Shield');
    const options = [...document.querySelectorAll('.ant-select-item-option-content')].map((o) => o.textContent);
    expect(options).toEqual([
      'Five-Second Shield',
      'Verification Code',
      'Click to Verify',
      'Redirect Verification',
      'Slider Captcha',
      'DENY',
      'DROP',
      'DROP + Blacklist',
    ]);
  });

  it('shows the server’s refusal under its field', async () => {
    api.on(getAbuseIPSetting, { siteId: 3 }, ok({ enabled: true, threshold: 60, blockType: 10 }));
    const fields = [{ in: 'body', field: 'blockType', key: 'wrongFormat', message: 'Wrong format' }];
    api.on(updateAbuseIPSetting, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(TAB);
    const panel = await findPanel();
    await waitFor(() => expect(threshold(panel).value).toBe('60'));
    clickButton('Save', panel);
    const message = await within(panel).findByText('Wrong format');
    expect(within(message.closest('.ant-form-item') as HTMLElement).getByLabelText('Protection mode')).toBeTruthy();
  });

  it('is read-only without user.firewall.write, and speaks zh_TW', async () => {
    const permissions = tierPermissions('user').filter((key) => key !== 'user.firewall.write');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions })));
    api.on(getAbuseIPSetting, { siteId: 3 }, ok({ enabled: true, threshold: 60, blockType: 12 }));
    renderAt(TAB);
    const panel = await findPanel();
    await waitFor(() => expect(threshold(panel).value).toBe('60'));
    expect(within(panel).queryByText('Save')).toBeNull();
    expect(threshold(panel).disabled).toBe(true);
    await i18n.changeLanguage('zh_TW');
    expect(await screen.findByText('分數門檻')).toBeTruthy();
    expect(screen.getByText('丟棄並加入黑名單')).toBeTruthy();
  });
});
