import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { deleteDnsSetting, getDnsSetting } from '@rampart/contract';
import { type DnsServer, startDnsServer } from '../../apps/server/test/helpers/dns-server.js';
import { api } from '../support/api.js';
import { submitLogin } from '../support/console.js';

// The operator's DNS provider against a real BIND (RFC 2136 with a TSIG key) on loopback: a root
// operator without one lands on the DNS setting page after login, tests the provider (BIND takes
// the signed TXT probe) and saves it; its next login lands on the dashboard.
const zone = 'cdn-e2e.test';
const key = { name: 'e2e-update', algorithm: 'hmac-sha256' as const, secret: randomBytes(32).toString('base64') };
let bind: DnsServer;
let before: Awaited<ReturnType<typeof api<typeof getDnsSetting>>>;

test.beforeAll(async () => {
  bind = await startDnsServer({ [zone]: [] }, undefined, { updateKey: key });
  before = await api('client', getDnsSetting);
});
test.afterAll(async () => {
  await bind?.stop();
});

test('a root operator without a DNS provider sets one up after login, tested against BIND', async ({ page }) => {
  expect(before).not.toBeNull();
  await api('client', deleteDnsSetting);
  await submitLogin(page, 'client');
  await expect(page).toHaveURL(/\/client\/systemManagement\/dnsSetting$/);
  await expect(page.getByText('No DNS provider set')).toBeVisible();

  await page.getByText('RFC 2136 (TSIG)').click();
  await page.getByLabel('Primary server (host:port)').fill(bind.address);
  await page.getByLabel('Zone').fill(zone);
  await page.getByLabel('TSIG key name').fill(key.name);
  await page.getByLabel('TSIG secret (base64)').fill(randomBytes(32).toString('base64'));
  await page.getByRole('button', { name: 'Test' }).click();
  await expect(page.getByText('The DNS provider refused the test')).toBeVisible();
  await expect(page.getByText(/BADSIG|NOTAUTH/)).toBeVisible();

  await page.getByLabel('TSIG secret (base64)').fill(key.secret);
  await page.getByRole('button', { name: 'Test' }).click();
  await expect(page.getByText('The DNS provider works')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('SET SUCCESS')).toBeVisible();
  await expect(page.getByText('In use: RFC 2136 (TSIG)')).toBeVisible();
  await expect(page.getByText('A secret is stored; leave the field empty to keep it.')).toBeVisible();
  expect(await api('client', getDnsSetting)).toMatchObject({
    type: 'rfc2136',
    zone,
    keyName: key.name,
    hasSecret: true,
  });

  await page.context().clearCookies();
  await submitLogin(page, 'client');
  await expect(page).toHaveURL(/\/client\/dashboard$/);
});
