import {
  getCnameSetting,
  getDomainProofSetting,
  getPrivateOriginsSetting,
  putPrivateOriginsSetting,
} from '@rampart/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render-app';

// The operator's private-origin setting (GET/PUT client/setting/privateOrigins) on the CNAME page.
const api = pageTestApi(() => signedInFakeApi('client'));
const PAGE = '/client/systemManagement/cname';

beforeEach(() => {
  api.on(getCnameSetting, ok({ domain: 'c.example', defaultDomain: 'c.example', custom: false }));
  api.on(getDomainProofSetting, ok({ required: true }));
});

describe("the operator's private-origin setting", () => {
  it('shows private origins refused by default and allows them on request', async () => {
    api.on(getPrivateOriginsSetting, ok({ allowed: false }));
    api.on(putPrivateOriginsSetting, ok({ allowed: true }));
    renderAt(PAGE);
    const toggle = await screen.findByRole(
      'switch',
      { name: 'Customers may use origins on loopback and private addresses' },
      { timeout: 10_000 },
    );
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    expect(screen.getByText(/RAMPART_ALLOW_PRIVATE_ORIGINS=1 allows them whatever this says/)).toBeTruthy();
    fireEvent.click(toggle);
    await waitFor(() => expect(api.sent(putPrivateOriginsSetting)[0]?.body).toEqual({ allowed: true }));
  });
});
