import {
  getAcmeSetting,
  getGoogleTrustSetting,
  getSelf,
  getZeroSSLSetting,
  saveAcmeSetting,
  saveGoogleTrustSetting,
  saveZeroSSLSetting,
  tierPermissions,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { fail, ok, pageTestApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { clickButton, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's ACME certificate authority page (client/setting/acme, zeroSSL, googleTrust),
// against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));
const PAGE = '/client/systemManagement/acmeSetting';
const LETS_ENCRYPT = { ca: 'letsEncrypt', directoryUrl: '', caBundle: '', email: '' } as const;
const BUNDLE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Fyb2wgQ0E=\n-----END CERTIFICATE-----\n';

const caForm = async () =>
  (await screen.findByText('Certificate authority', { selector: 'label' }, { timeout: 10_000 })).closest(
    'form',
  ) as HTMLElement;
const eabForm = (name: string) => screen.getByRole('form', { name: `${name} EAB credentials` });

function stub(acme: object = LETS_ENCRYPT, zeroSSL: object | null = null, googleTrust: object | null = null) {
  api.on(getAcmeSetting, ok(acme));
  api.on(getZeroSSLSetting, ok(zeroSSL));
  api.on(getGoogleTrustSetting, ok(googleTrust));
}

describe('the certificate authority page', () => {
  it("is in the menu; shows Let's Encrypt in use, and switching to ZeroSSL says what was set", async () => {
    stub();
    api.on(saveAcmeSetting, ok({ ca: 'zeroSSL', directoryUrl: '', caBundle: '', email: 'ops@example.net' }));
    renderAt(PAGE);
    const form = await caForm();
    expect(screen.getByRole('link', { name: 'Certificate authority' }).getAttribute('href')).toBe(PAGE);
    expect(within(form).getByText("In use: Let's Encrypt")).toBeTruthy();
    expect(within(form).getByText('https://acme-v02.api.letsencrypt.org/directory', { selector: 'code' })).toBeTruthy();
    // No directory or bundle fields for a known CA.
    expect(within(form).queryByLabelText('ACME directory URL')).toBeNull();

    fireEvent.click(within(form).getByText('ZeroSSL'));
    expect(await within(form).findByText('Directory: https://acme.zerossl.com/v2/DV90')).toBeTruthy();
    // Its EAB credentials are not stored: the page says issuing would fail.
    expect(
      within(form).getByText('ZeroSSL needs its EAB credentials (below): until they are saved, issuing fails.'),
    ).toBeTruthy();
    typeInto(form, 'Account e-mail', 'ops@example.net');
    clickButton('Save', form);
    await waitFor(() =>
      expect(api.sent(saveAcmeSetting).map((r) => r.body)).toEqual([
        { ca: 'zeroSSL', caBundle: '', email: 'ops@example.net' },
      ]),
    );
    expect(
      await screen.findByText(
        'Saved: certificates are now requested from ZeroSSL (https://acme.zerossl.com/v2/DV90); the next issue or renewal uses it.',
      ),
    ).toBeTruthy();
  });

  it('takes any ACME directory with its CA bundle; the contract refuses a missing directory first', async () => {
    stub();
    const saved = { ca: 'custom', directoryUrl: 'https://acme.example.net/dir', caBundle: BUNDLE, email: '' };
    api.on(saveAcmeSetting, ok(saved));
    renderAt(PAGE);
    const form = await caForm();
    fireEvent.click(within(form).getByText('Other ACME directory'));
    await within(form).findByLabelText('ACME directory URL');
    clickButton('Save', form);
    expect(await within(form).findByText('Please enter a valid URL')).toBeTruthy();
    expect(api.sent(saveAcmeSetting)).toHaveLength(0);

    typeInto(form, 'ACME directory URL', 'https://acme.example.net/dir');
    typeInto(form, "Certificate authority's own CA bundle (PEM)", 'not a certificate');
    clickButton('Save', form);
    expect(await within(form).findByText('Wrong format')).toBeTruthy();
    expect(api.sent(saveAcmeSetting)).toHaveLength(0);

    typeInto(form, "Certificate authority's own CA bundle (PEM)", BUNDLE);
    clickButton('Save', form);
    await waitFor(() =>
      expect(api.sent(saveAcmeSetting).map((r) => r.body)).toEqual([
        { ca: 'custom', directoryUrl: 'https://acme.example.net/dir', caBundle: BUNDLE, email: '' },
      ]),
    );
    expect(
      await screen.findByText(
        'Saved: certificates are now requested from Other ACME directory (https://acme.example.net/dir); the next issue or renewal uses it.',
      ),
    ).toBeTruthy();
  });

  it('keeps a stored HMAC key when left empty, sends a new one, and shows a refusal under its field', async () => {
    stub({ ...LETS_ENCRYPT, ca: 'zeroSSL' }, { kid: 'kid-1', hasHmacKey: true }, null);
    api.on(saveZeroSSLSetting, ok({ kid: 'kid-2', hasHmacKey: true }));
    api.on(saveGoogleTrustSetting, ok({ kid: 'gts-kid', hasHmacKey: true }));
    renderAt(PAGE);
    await caForm();
    // ZeroSSL has its credentials: no warning on the CA form.
    expect(screen.queryByText(/needs its EAB credentials/)).toBeNull();
    const zero = eabForm('ZeroSSL');
    expect(within(zero).getByLabelText('EAB key ID')).toHaveProperty('value', 'kid-1');
    expect(screen.getByText('HMAC key stored')).toBeTruthy();
    expect(within(zero).getByText('An HMAC key is stored; leave the field empty to keep it.')).toBeTruthy();
    typeInto(zero, 'EAB key ID', 'kid-2');
    clickButton('Save credentials', zero);
    await waitFor(() => expect(api.sent(saveZeroSSLSetting).map((r) => r.body)).toEqual([{ kid: 'kid-2' }]));
    expect(
      await screen.findByText('Saved ZeroSSL EAB credentials: key ID kid-2; the stored HMAC key is kept.'),
    ).toBeTruthy();

    const google = eabForm('Google Trust Services');
    expect(within(google).getByLabelText('EAB key ID')).toHaveProperty('value', '');
    typeInto(google, 'EAB key ID', 'gts-kid');
    typeInto(google, 'EAB HMAC key', 'c2VjcmV0LWtleQ');
    clickButton('Save credentials', google);
    await waitFor(() =>
      expect(api.sent(saveGoogleTrustSetting).map((r) => r.body)).toEqual([
        { kid: 'gts-kid', hmacKey: 'c2VjcmV0LWtleQ' },
      ]),
    );
    expect(
      await screen.findByText('Saved Google Trust Services EAB credentials: key ID gts-kid with the new HMAC key.'),
    ).toBeTruthy();

    // The server's refusal lands under the field it names.
    const fields = [{ in: 'body', field: 'hmacKey', key: 'required', message: 'This field is required' }];
    api.on(saveGoogleTrustSetting, fail(400, 101003, 'Parameter Error', { fields }));
    typeInto(google, 'EAB key ID', 'other');
    clickButton('Save credentials', google);
    expect(await within(google).findByText('This field is required')).toBeTruthy();
  });

  it('offers no change without client.settings.write, and speaks zh_CN', async () => {
    const permissions = tierPermissions('client').filter((key) => key !== 'client.settings.write');
    api.on(getSelf, { auth: 'client' }, ok(selfInfo('client', { isRoot: false, permissions })));
    stub();
    renderAt(PAGE);
    const form = await caForm();
    expect(within(form).queryByText('Save')).toBeNull();
    expect(screen.queryByText('Save credentials')).toBeNull();
    await i18n.changeLanguage('zh_CN');
    expect((await screen.findAllByText('证书颁发机构')).length).toBeGreaterThan(0);
    expect(screen.getByText('ZeroSSL EAB 凭据')).toBeTruthy();
  });
});
