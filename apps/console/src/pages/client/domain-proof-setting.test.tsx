import { getCnameSetting, getDomainProofSetting, putDomainProofSetting } from '@rampart/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render-app';

// The operator's proof-of-control setting (GET/PUT client/setting/domainProof) on the CNAME page.
const api = pageTestApi(() => signedInFakeApi('client'));
const PAGE = '/client/systemManagement/cname';

beforeEach(() => {
  api.on(getCnameSetting, ok({ domain: 'c.example', defaultDomain: 'c.example', custom: false }));
});

describe("the operator's domain ownership setting", () => {
  it('shows that proof is required and waives it on request', async () => {
    api.on(getDomainProofSetting, ok({ required: true }));
    api.on(putDomainProofSetting, ok({ required: false }));
    renderAt(PAGE);
    const toggle = await screen.findByRole(
      'switch',
      { name: 'Customers must prove control of a domain before it is served' },
      { timeout: 10_000 },
    );
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(screen.getByText(/_rampart-challenge/)).toBeTruthy();
    fireEvent.click(toggle);
    await waitFor(() => expect(api.sent(putDomainProofSetting)[0]?.body).toEqual({ required: false }));
  });
});
