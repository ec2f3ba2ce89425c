import {
  getCnameMeta,
  getCnameSetting,
  getDomainProofSetting,
  getSelf,
  listDnsCnames,
  putCnameSetting,
} from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { buttonByText, clickButton, findModal, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's CNAME domain page (GET/PUT client/setting/dns/cname), against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));

const PAGE = '/client/systemManagement/cname';
const byDefault = { domain: 'cname.rampart.test', defaultDomain: 'cname.rampart.test', custom: false };
const own = { domain: 'cdn.example.net', defaultDomain: 'cname.rampart.test', custom: true };
const row = (label: string) =>
  screen.getByText(label, { selector: 'th, th *' }).closest('tr')?.querySelector('td')?.textContent;

beforeEach(() => {
  // The page also shows the domain ownership setting (domain-proof-setting.test.tsx).
  api.on(getDomainProofSetting, ok({ required: true }));
  // And the published CNAME records (dns-publish.test.tsx).
  api.on(getCnameMeta, ok({ cnameDomain: 'cname.rampart.test', providerType: null, zone: null, ttl: null, lines: [] }));
  api.on(listDnsCnames, okPage([]));
});

describe('the CNAME domain page', () => {
  it('is in the menu and shows the default domain in use, with reset unavailable', async () => {
    api.on(getCnameSetting, ok(byDefault));
    renderAt(PAGE);
    // The first render of the file loads the page's modules: give it the time findRow gives.
    expect(await screen.findByText('Default', { selector: 'td *' }, { timeout: 10_000 })).toBeTruthy();
    expect(row('CNAME domain in use')).toBe('cname.rampart.test');
    expect(row('Default of this installation')).toBe('cname.rampart.test');
    expect(screen.getByRole('link', { name: 'CNAME domain' }).getAttribute('href')).toBe(PAGE);
    expect(buttonByText('Reset to default').disabled).toBe(true);
    expect(screen.getByText(/their CNAME status goes back to "Not checked"/)).toBeTruthy();
  });

  it('refuses a malformed domain in the form without calling the API', async () => {
    api.on(getCnameSetting, ok(byDefault));
    renderAt(PAGE);
    const field = (await screen.findByLabelText('CNAME domain')).closest('form') as HTMLElement;
    typeInto(field, 'CNAME domain', 'not a domain');
    clickButton('Save', field);
    expect(await within(field).findByText('Invalid domain name format')).toBeTruthy();
    expect(document.querySelector('.ant-modal')).toBeNull();
    expect(api.sent(putCnameSetting)).toHaveLength(0);
  });

  it('sets its own domain after confirming the warning, and shows it as set by the operator', async () => {
    api.on(getCnameSetting, ok(byDefault));
    api.on(putCnameSetting, () => {
      api.on(getCnameSetting, ok(own));
      return ok(own);
    });
    renderAt(PAGE);
    const form = (await screen.findByLabelText('CNAME domain')).closest('form') as HTMLElement;
    typeInto(form, 'CNAME domain', ' cdn.example.net ');
    clickButton('Save', form);
    const dialog = await findModal();
    expect(within(dialog).getByText('Use cdn.example.net as the CNAME domain?')).toBeTruthy();
    expect(within(dialog).getByText(/goes back to "Not checked"/)).toBeTruthy();
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(putCnameSetting).map((r) => r.body)).toEqual([{ domain: 'cdn.example.net' }]));
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    await modalClosed(dialog);
    expect(await screen.findByText('Set by you')).toBeTruthy();
    expect(row('CNAME domain in use')).toBe('cdn.example.net');
  });

  it('goes back to the default with an empty domain', async () => {
    api.on(getCnameSetting, ok(own));
    api.on(putCnameSetting, ok(byDefault));
    renderAt(PAGE);
    expect(((await screen.findByLabelText('CNAME domain')) as HTMLInputElement).value).toBe('cdn.example.net');
    clickButton('Reset to default');
    const dialog = await findModal();
    expect(within(dialog).getByText('Go back to the default cname.rampart.test?')).toBeTruthy();
    clickButton('Cancel', dialog);
    await modalClosed(dialog);
    expect(api.sent(putCnameSetting)).toHaveLength(0);

    clickButton('Reset to default');
    clickButton('OK', await findModal());
    await waitFor(() => expect(api.sent(putCnameSetting).map((r) => r.body)).toEqual([{ domain: '' }]));
  });

  it("puts the server's refusal under the field", async () => {
    api.on(getCnameSetting, ok(byDefault));
    api.on(
      putCnameSetting,
      fail(400, 101003, 'Parameter Error', {
        fields: [{ in: 'body', field: 'domain', key: 'wrongFormat', message: 'Wrong format' }],
      }),
    );
    renderAt(PAGE);
    const form = (await screen.findByLabelText('CNAME domain')).closest('form') as HTMLElement;
    typeInto(form, 'CNAME domain', 'cdn.example.net');
    clickButton('Save', form);
    const dialog = await findModal();
    clickButton('OK', dialog);
    expect(await within(form).findByText('Wrong format')).toBeTruthy();
    await modalClosed(dialog);
  });

  it('shows a read-only operator the domain without the form', async () => {
    api.on(getCnameSetting, ok(own));
    api.on(
      getSelf,
      { auth: 'client' },
      ok(selfInfo('client', { isRoot: false, permissions: ['account.self', 'client.settings.read'] })),
    );
    renderAt(PAGE);
    expect(await screen.findByText('Set by you')).toBeTruthy();
    expect(screen.queryByLabelText('CNAME domain')).toBeNull();
    expect(screen.queryByText('Reset to default')).toBeNull();
  });

  it('says when the setting could not be loaded', async () => {
    api.on(getCnameSetting, fail(500, 100001, 'Server Error'));
    renderAt(PAGE);
    expect(await screen.findByText('The CNAME domain could not be loaded.')).toBeTruthy();
  });
});
