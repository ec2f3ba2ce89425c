import {
  addRateRules,
  addSitePorts,
  getErrorPages,
  getGzipSetting,
  listRateRules,
  listSitePorts,
  listSiteZonePorts,
  RATE_MAX_KBPS,
  setGzipSetting,
  updateSitePort,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { ok, okPage, pageTestApi } from '../../test/fake-api';
import { gzipSetting, signedInSiteTab } from '../../test/fixtures';
import { clickButton, findModal, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// A number typed outside the contract's bounds is refused under its field, never rewritten to the
// nearest bound and saved: the origin port, a layer-4 port, a rate limit, the compression length.
const api = pageTestApi(signedInSiteTab);

const minecraft = {
  id: 11,
  siteID: 3,
  port: 25565,
  protocol: 'tcp',
  hashType: 0,
  status: 1,
  memo: 'minecraft',
  upstreams: [{ id: 21, ip: '198.51.100.7', port: 25565, weight: 1, backup: false, status: 1 }],
  failedNodes: [] as { nodeID: number; nodeName: string; error: string }[],
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

beforeEach(() => {
  api.on(listSiteZonePorts, { siteId: 3 }, ok([]));
  api.on(listSitePorts, { siteId: 3 }, okPage([minecraft]));
  api.on(getGzipSetting, { siteId: 3 }, ok(gzipSetting({ enabled: true, types: ['text/html'], minLength: 1024 })));
  api.on(listRateRules, { siteId: 3 }, ok([]));
  api.on(getErrorPages, { siteId: 3 }, ok({ language: 'en_US', pages: [] }));
});

const PORTS = '/user/sitesManagement/sitesSetting/3/game?tab=ports';
const SETTINGS = '/user/sitesManagement/sitesSetting/3/shop?tab=settings';

/** Types `value` into the number box labelled `label` and leaves it, as a person tabbing on would. */
function typeAndLeave(scope: HTMLElement, label: string, value: string): HTMLInputElement {
  typeInto(scope, label, value);
  const input = within(scope).getByLabelText(label) as HTMLInputElement;
  fireEvent.blur(input);
  return input;
}

describe('number inputs refuse what is out of range', () => {
  it.each([
    ['70000', 'The port must be between 1 and 65535'],
    ['0', 'The port must be between 1 and 65535'],
    ['80.5', 'Wrong format'],
  ])('an origin port of %s is refused, kept as typed, and nothing is sent', async (typed, message) => {
    api.on(addSitePorts, { siteId: 3 }, ok([minecraft]));
    renderAt(PORTS);
    await findRow('minecraft');
    clickButton('Add port');
    const dialog = await findModal();
    typeInto(dialog, 'Port', '7000');
    typeInto(dialog, 'Origin 1 IP', '198.51.100.9');
    const port = typeAndLeave(dialog, 'Origin 1 port', typed);
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(message)).toBeTruthy();
    expect(port.value).toBe(typed);
    expect(api.sent(addSitePorts, { siteId: 3 })).toHaveLength(0);
  });

  it("a layer-4 port's own number above 65535 is refused in zh_CN, and the edit is not sent", async () => {
    await i18n.changeLanguage('zh_CN'); // the setup file sets English back before each test
    api.on(updateSitePort, { siteId: 3 }, ok(minecraft));
    renderAt(PORTS);
    clickButton(/^编\s?辑$/, await findRow('minecraft'));
    const dialog = await findModal();
    const input = within(dialog).getByDisplayValue('25565') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '70000' } });
    fireEvent.blur(input);
    clickButton(/^确\s?定$/, dialog);
    expect(await within(dialog).findByText('端口须在 1 到 65535 之间')).toBeTruthy();
    expect(input.value).toBe('70000');
    expect(api.sent(updateSitePort, { siteId: 3 })).toHaveLength(0);
  });

  it('a rate limit above the most is refused, and the rule is not sent', async () => {
    api.on(addRateRules, { siteId: 3 }, ok([]));
    renderAt(SETTINGS);
    await screen.findByLabelText('Minimum length (bytes)', undefined, { timeout: 10_000 });
    clickButton('Add rate');
    const dialog = await findModal();
    typeInto(dialog, 'URL pattern', '*.iso');
    const rate = typeAndLeave(dialog, 'Rate limit', String(RATE_MAX_KBPS + 1));
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(`Must be at most ${RATE_MAX_KBPS}`)).toBeTruthy();
    expect(rate.value).toBe(String(RATE_MAX_KBPS + 1));
    typeAndLeave(dialog, 'Rate limit', '0');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Must be at least 1')).toBeTruthy();
    expect(api.sent(addRateRules, { siteId: 3 })).toHaveLength(0);
  });

  it('a negative compression length is refused, and the setting is not saved', async () => {
    api.on(setGzipSetting, { siteId: 3 }, ok(gzipSetting()));
    renderAt(SETTINGS);
    const length = (await screen.findByLabelText('Minimum length (bytes)', undefined, {
      timeout: 10_000,
    })) as HTMLInputElement;
    await waitFor(() => expect(length.value).toBe('1024'));
    fireEvent.change(length, { target: { value: '-5' } });
    fireEvent.blur(length);
    clickButton('Save');
    expect(await screen.findByText('Must be at least 0')).toBeTruthy();
    expect(length.value).toBe('-5');
    expect(api.sent(setGzipSetting, { siteId: 3 })).toHaveLength(0);
  });
});
