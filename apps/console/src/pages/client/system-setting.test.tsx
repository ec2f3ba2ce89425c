import {
  getAccountVerifySetting,
  getFrequencySetting,
  getOperatorErrorPages,
  getOutgoingUrlSetting,
  getPerdefinedSetting,
  getRestrictCidrsSetting,
  saveAccountVerifySetting,
  saveFrequencySetting,
  saveOperatorErrorPages,
  saveOutgoingUrlSetting,
  savePerdefinedSetting,
  saveRestrictCidrsSetting,
} from '@rampart/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { chooseOption, clickButton, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The systemSetting page (tabs: outgoing URL, account verify, restrict group CIDRs) and the
// errorSetting page, against a fake API: what they send, and that each save says what it did.
const api = pageTestApi(() => signedInFakeApi('client'));
const PAGE = '/client/systemManagement/systemSetting';

beforeEach(() => {
  api.on(getOutgoingUrlSetting, ok({ urls: ['https://api.cloudflare.com'] }));
  api.on(getAccountVerifySetting, ok({ mode: 'off' }));
  api.on(getRestrictCidrsSetting, ok({ cidrs: [] }));
  api.on(getFrequencySetting, ok({ spikeThreshold: 1000, spikeWindowMinutes: 5 }));
  api.on(
    getPerdefinedSetting,
    ok({ gzip: { enabled: false, types: ['text/html'], minLength: 1024 }, errorPageLanguage: 'en_US' }),
  );
  api.on(getOperatorErrorPages, ok({ pages: [{ status: 404, body: '<h1>Not ours</h1>' }] }));
});

describe('systemManagement/systemSetting', () => {
  it('is in the menu; saves the outgoing URL list one per line and says what it now allows', async () => {
    api.on(saveOutgoingUrlSetting, (request) => ok(request.body));
    renderAt(PAGE);
    const area = (await screen.findByLabelText('Allowed destinations, one per line')) as HTMLTextAreaElement;
    expect(area.value).toBe('https://api.cloudflare.com');
    expect(screen.getByRole('link', { name: 'System settings' }).getAttribute('href')).toBe(PAGE);
    typeInto(document.body, 'Allowed destinations, one per line', 'https://api.cloudflare.com\n\n  *.example.com  \n');
    clickButton('Save');
    await waitFor(() =>
      expect(api.sent(saveOutgoingUrlSetting).map((r) => r.body)).toEqual([
        { urls: ['https://api.cloudflare.com', '*.example.com'] },
      ]),
    );
    expect(await screen.findByText('Saved: only 2 destination(s) on the list may be called')).toBeTruthy();
  });

  it('names every bad or repeated destination with its line before saving', async () => {
    api.on(saveOutgoingUrlSetting, (request) => ok(request.body));
    renderAt(PAGE);
    const urls = 'Allowed destinations, one per line';
    await screen.findByLabelText(urls);
    typeInto(document.body, urls, 'https://api.cloudflare.com\nftp://files.example.com\n\nHTTPS://API.cloudflare.com');
    clickButton('Save');
    expect(await screen.findByText('Line 2 (ftp://files.example.com): Wrong format')).toBeTruthy();
    expect(screen.getByText('Line 4 (HTTPS://API.cloudflare.com): Not one of the allowed values')).toBeTruthy();
    expect(api.sent(saveOutgoingUrlSetting)).toHaveLength(0);
  });

  it('names every bad or repeated sign-in address with its line before saving', async () => {
    api.on(saveRestrictCidrsSetting, (request) => ok(request.body));
    renderAt(`${PAGE}?tab=restrictGroupCIDRs`);
    const cidrs = 'Allowed addresses (IP or CIDR), one per line';
    await screen.findByLabelText(cidrs);
    typeInto(document.body, cidrs, '10.0.0.0/8\n10.0.0.0/33\n10.0.0.0/8\nnot-an-address');
    clickButton('Save');
    expect(await screen.findByText('Line 2 (10.0.0.0/33): Wrong format')).toBeTruthy();
    expect(screen.getByText('Line 3 (10.0.0.0/8): Duplicate IP')).toBeTruthy();
    expect(screen.getByText('Line 4 (not-an-address): Wrong format')).toBeTruthy();
    expect(api.sent(saveRestrictCidrsSetting)).toHaveLength(0);
  });

  it('saves the second-factor requirement and says whom it holds', async () => {
    api.on(saveAccountVerifySetting, (request) => ok(request.body));
    renderAt(`${PAGE}?tab=accountVerify`);
    fireEvent.click(await screen.findByLabelText('This operator account and its sub-accounts'));
    clickButton('Save');
    await waitFor(() => expect(api.sent(saveAccountVerifySetting).map((r) => r.body)).toEqual([{ mode: 'operator' }]));
    expect(
      await screen.findByText('Saved: your accounts without a second factor must set one up before anything else'),
    ).toBeTruthy();
  });

  it('saves the sign-in addresses; the server refusing a list without the caller is shown', async () => {
    api.on(saveRestrictCidrsSetting, () =>
      fail(400, 101003, 'Parameter Error', {
        fields: [{ in: 'body', field: 'cidrs', key: 'invalidValue', message: 'Not your current address' }],
      }),
    );
    renderAt(`${PAGE}?tab=restrictGroupCIDRs`);
    await screen.findByLabelText('Allowed addresses (IP or CIDR), one per line');
    typeInto(document.body, 'Allowed addresses (IP or CIDR), one per line', '10.0.0.0/8');
    clickButton('Save');
    await waitFor(() =>
      expect(api.sent(saveRestrictCidrsSetting).map((r) => r.body)).toEqual([{ cidrs: ['10.0.0.0/8'] }]),
    );
    expect(await screen.findByText(/Not your current address/)).toBeTruthy();
    expect(screen.queryByText(/Saved:/)).toBeNull();

    api.on(saveRestrictCidrsSetting, (request) => ok(request.body));
    typeInto(document.body, 'Allowed addresses (IP or CIDR), one per line', '');
    clickButton('Save');
    expect(await screen.findByText('Saved: your accounts may sign in from any address')).toBeTruthy();
  });
});

describe('systemManagement/errorSetting', () => {
  it('shows the pages, saves the ones filled in and says which statuses they answer', async () => {
    api.on(saveOperatorErrorPages, (request) => ok(request.body));
    renderAt('/client/systemManagement/errorSetting');
    const page404 = (await screen.findByLabelText('HTML of the 404 page')) as HTMLTextAreaElement;
    expect(page404.value).toBe('<h1>Not ours</h1>');
    expect(screen.getByRole('link', { name: 'Error pages' })).toBeTruthy();
    typeInto(document.body, 'HTML of the 929 page', '<h1>Slow down</h1>');
    clickButton('Save');
    await waitFor(() =>
      expect(api.sent(saveOperatorErrorPages).map((r) => r.body)).toEqual([
        {
          pages: [
            { status: 404, body: '<h1>Not ours</h1>' },
            { status: 929, body: '<h1>Slow down</h1>' },
          ],
        },
      ]),
    );
    expect(await screen.findByText('Saved: your nodes now answer 404, 929 with your pages (2)')).toBeTruthy();
  });
});

describe('trigger rates tab', () => {
  it('saves the attack-spike rate and says what it now is', async () => {
    api.on(saveFrequencySetting, (request) => ok(request.body));
    renderAt(`${PAGE}?tab=frequency`);
    const threshold = (await screen.findByLabelText('Attack spike: blocked requests of one site')) as HTMLInputElement;
    expect(threshold.value).toBe('1000');
    typeInto(document.body, 'Attack spike: blocked requests of one site', '250');
    typeInto(document.body, 'within (minutes)', '2');
    clickButton('Save');
    await waitFor(() =>
      expect(api.sent(saveFrequencySetting).map((r) => r.body)).toEqual([
        { spikeThreshold: 250, spikeWindowMinutes: 2 },
      ]),
    );
    expect(
      await screen.findByText('Saved: an attack spike is 250 blocked requests of one site within 2 minute(s)'),
    ).toBeTruthy();
  });

  it('names the field the server refuses', async () => {
    api.on(
      saveFrequencySetting,
      fail(400, 101003, 'Parameter Error', {
        fields: [{ in: 'body', field: 'spikeWindowMinutes', key: 'invalidValue', message: 'At most 1440 minutes' }],
      }),
    );
    renderAt(`${PAGE}?tab=frequency`);
    await screen.findByLabelText('within (minutes)');
    clickButton('Save');
    await waitFor(() => expect(api.sent(saveFrequencySetting)).toHaveLength(1));
    expect(await screen.findByText(/At most 1440 minutes/)).toBeTruthy();
    expect(screen.queryByText(/Saved:/)).toBeNull();
  });
});

describe('systemManagement/perdefinedSetting', () => {
  it('is in the menu; saves what new sites start with and says so', async () => {
    api.on(savePerdefinedSetting, (request) => ok(request.body));
    renderAt('/client/systemManagement/perdefinedSetting');
    const form = await screen.findByRole('form', { name: 'Predefined settings' });
    expect(screen.getByRole('link', { name: 'Predefined settings' }).getAttribute('href')).toBe(
      '/client/systemManagement/perdefinedSetting',
    );
    fireEvent.click(screen.getByRole('switch', { name: 'Compress responses (gzip)' }));
    fireEvent.click(await screen.findByLabelText('application/json'));
    await chooseOption(form, 'Language of the default pages', '繁體中文');
    clickButton('Save');
    await waitFor(() =>
      expect(api.sent(savePerdefinedSetting).map((r) => r.body)).toEqual([
        {
          gzip: { enabled: true, types: ['text/html', 'application/json'], minLength: 1024 },
          errorPageLanguage: 'zh_TW',
        },
      ]),
    );
    expect(await screen.findByText('Saved: new sites start with these settings')).toBeTruthy();
  });
});

describe('a setting that could not be loaded', () => {
  beforeEach(() => {
    api.on(getOutgoingUrlSetting, fail(500, 100001, 'Server Error'));
    api.on(getAccountVerifySetting, fail(500, 100001, 'Server Error'));
    api.on(getRestrictCidrsSetting, fail(500, 100001, 'Server Error'));
    api.on(getFrequencySetting, fail(500, 100001, 'Server Error'));
    api.on(getPerdefinedSetting, fail(500, 100001, 'Server Error'));
    api.on(getOperatorErrorPages, fail(500, 100001, 'Server Error'));
  });
  // Said with a retry, not a spinner that never ends.
  it.each([
    [PAGE, 'The outgoing URL setting could not be loaded.'],
    [`${PAGE}?tab=accountVerify`, 'The account verify setting could not be loaded.'],
    [`${PAGE}?tab=restrictGroupCIDRs`, 'The restrict group CIDRs setting could not be loaded.'],
    [`${PAGE}?tab=frequency`, 'The trigger rates could not be loaded.'],
    ['/client/systemManagement/errorSetting', 'The default error pages could not be loaded.'],
    ['/client/systemManagement/perdefinedSetting', 'The predefined settings could not be loaded.'],
  ])('%s says so with a retry', async (path, text) => {
    renderAt(path);
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
