import { userDomainsTags, verifyDomains } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, fail, ok, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { SITE_SETTING as SETTING, siteDomain, stubSitePage, userSite } from '../../test/fixtures';
import { buttonByText, findModal, findRow } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;
const TOKEN = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const pendingDomain = siteDomain({
  proofStatus: 0,
  proofToken: TOKEN,
  proofRecordName: '_rampart-challenge.www.example.com',
});

afterEach(() => restoreFakeApi());

describe('sitesSetting: proof of control of a domain', () => {
  beforeEach(() => {
    api = signedInFakeApi('user');
    api.on(userDomainsTags, ok([]));
  });

  it('shows a pending domain with the TXT record to create, and verifies it on demand', async () => {
    stubSitePage(api, [pendingDomain], userSite());
    api.on(
      verifyDomains,
      { siteId: 3 },
      ok([{ id: 9, name: 'www.example.com', proofStatus: 1, proofCheckedAt: '2026-03-03T10:00:00.000Z' }]),
    );
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    // Both shown by default: a domain waiting for proof does not look like a served one.
    expect(within(row).getByLabelText('Serving state of www.example.com').textContent).toBe('Waiting for proof');
    expect(within(row).getByText('http://192.0.2.10:8080')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Record to create' }));
    const modal = await findModal();
    expect(within(modal).getByText('Verify ownership of www.example.com')).toBeTruthy();
    expect(within(modal).getByLabelText('TXT record name for www.example.com').textContent).toBe(
      '_rampart-challenge.www.example.com',
    );
    expect(within(modal).getByLabelText('TXT record value for www.example.com').textContent).toBe(TOKEN);
    expect(
      within(modal).getByText(/a CNAME record from www.example.com to 0123456789abcdef.cname.example.net/),
    ).toBeTruthy();
    expect(within(modal).getByText(/never/)).toBeTruthy();
    fireEvent.click(buttonByText('Verify', modal));
    await waitFor(() => expect(api.sent(verifyDomains, { siteId: 3 })[0]?.body).toEqual({ domainIDs: [9] }));
    expect(await within(modal).findByText('You proved control of this domain; edge nodes serve it.')).toBeTruthy();
  });

  it('offers no CNAME alternative while the target is a placeholder that cannot resolve', async () => {
    stubSitePage(api, [{ ...pendingDomain, cname: '0123456789abcdef.cname.rampart.invalid' }], userSite());
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    fireEvent.click(within(row).getByRole('button', { name: 'Record to create' }));
    const modal = await findModal();
    expect(within(modal).getByLabelText('TXT record value for www.example.com').textContent).toBe(TOKEN);
    expect(within(modal).queryByText(/a CNAME record from/)).toBeNull();
  });

  it('says when another customer proved control of the name first', async () => {
    stubSitePage(api, [siteDomain({ proofStatus: 3 })], userSite());
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    expect(within(row).getByLabelText('Serving state of www.example.com').textContent).toBe('Claimed by another');
    fireEvent.click(within(row).getByRole('button', { name: 'Record to create' }));
    const modal = await findModal();
    expect(within(modal).getByText(/Someone else proved control of this name first/)).toBeTruthy();
  });

  it('offers no verification for a proved domain', async () => {
    stubSitePage(api, [siteDomain({ proofStatus: 1 })], userSite());
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    expect(within(row).getByLabelText('Serving state of www.example.com').textContent).toBe('Served');
    expect(within(row).queryByRole('button', { name: 'Record to create' })).toBeNull();
  });

  it('tells served, waived, waiting and switched-off domains apart whatever their CNAME target', async () => {
    const placeholder = '0123456789abcdef.cname.rampart.invalid';
    stubSitePage(
      api,
      [
        siteDomain({ id: 1, name: 'served.example.com', proofStatus: 1, cname: placeholder }),
        siteDomain({ id: 2, name: 'waived.example.com', proofStatus: 2, cname: placeholder }),
        siteDomain({ id: 3, name: 'waiting.example.com', proofStatus: 0 }),
        siteDomain({ id: 4, name: 'off.example.com', proofStatus: 1, status: 0 }),
      ],
      userSite(),
    );
    renderAt(SETTING);
    const state = async (name: string) =>
      within(await findRow(name)).getByLabelText(`Serving state of ${name}`).textContent;
    expect(await state('served.example.com')).toBe('Served');
    expect(await state('waived.example.com')).toBe('Served');
    expect(await state('waiting.example.com')).toBe('Waiting for proof');
    expect(await state('off.example.com')).toBe('Disabled');
    // A placeholder CNAME target is no warning about the domain.
    expect(screen.queryByText('Not usable yet')).toBeNull();
    expect(within(await findRow('served.example.com')).getByText('No CNAME target yet')).toBeTruthy();
  });

  it('shows a resolver failure of the verification', async () => {
    stubSitePage(api, [pendingDomain], userSite());
    api.on(verifyDomains, { siteId: 3 }, fail(502, 101010, 'DNS Execution Error', { name: 'x', reason: 'ETIMEOUT' }));
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    fireEvent.click(within(row).getByRole('button', { name: 'Record to create' }));
    const modal = await findModal();
    fireEvent.click(buttonByText('Verify', modal));
    expect(await screen.findByText('DNS Execution Error')).toBeTruthy();
  });
});
