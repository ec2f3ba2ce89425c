import { userDomainsTags, verifyDomains } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, fail, ok, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { SITE_SETTING as SETTING, siteDomain, stubSitePage, userSite } from '../../test/fixtures';
import { buttonByText, findModal, findRow, showAllColumns } from '../../test/queries';
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
    await showAllColumns();
    expect(within(row).getByLabelText('Ownership of www.example.com').textContent).toBe('Not verified');
    fireEvent.click(within(row).getByRole('button', { name: 'Verify' }));
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
    await showAllColumns();
    fireEvent.click(within(row).getByRole('button', { name: 'Verify' }));
    const modal = await findModal();
    expect(within(modal).getByLabelText('TXT record value for www.example.com').textContent).toBe(TOKEN);
    expect(within(modal).queryByText(/a CNAME record from/)).toBeNull();
  });

  it('says when another customer proved control of the name first', async () => {
    stubSitePage(api, [siteDomain({ proofStatus: 3 })], userSite());
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    await showAllColumns();
    expect(within(row).getByLabelText('Ownership of www.example.com').textContent).toBe('Claimed by another');
    fireEvent.click(within(row).getByRole('button', { name: 'Verify' }));
    const modal = await findModal();
    expect(within(modal).getByText(/Someone else proved control of this name first/)).toBeTruthy();
  });

  it('offers no verification for a proved domain', async () => {
    stubSitePage(api, [siteDomain({ proofStatus: 1 })], userSite());
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    await showAllColumns();
    expect(within(row).getByLabelText('Ownership of www.example.com').textContent).toBe('Verified');
    expect(within(row).queryByRole('button', { name: 'Verify' })).toBeNull();
  });

  it('shows a resolver failure of the verification', async () => {
    stubSitePage(api, [pendingDomain], userSite());
    api.on(verifyDomains, { siteId: 3 }, fail(502, 101010, 'DNS Execution Error', { name: 'x', reason: 'ETIMEOUT' }));
    renderAt(SETTING);
    const row = await findRow('www.example.com');
    await showAllColumns();
    fireEvent.click(within(row).getByRole('button', { name: 'Verify' }));
    const modal = await findModal();
    fireEvent.click(buttonByText('Verify', modal));
    expect(await screen.findByText('DNS Execution Error')).toBeTruthy();
  });
});
