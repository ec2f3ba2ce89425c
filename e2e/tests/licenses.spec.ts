import { expect, test } from '@playwright/test';
import {
  createAccount,
  createGroup,
  createProduct,
  createSite,
  createZone,
  listOfflineLicenses,
  setSubAccountPassword,
} from '@rampart/contract';
import { api, callApi, signIn } from '../support/api.js';
import { login, submitLogin } from '../support/console.js';
import { E2E } from '../support/env.js';
import { uniqueLabel } from '../support/sites.js';

// The offline licence end to end: the vendor issues one in its console for the installation ID the
// operator's licence page shows, the operator activates the key there (checked with no network),
// and the limit it sets holds when the operator makes sites. The run's server signs with a key made
// for the run (support/global-setup.ts).

test('the vendor issues an offline licence, the operator activates it, and its site limit holds', async ({ page }) => {
  // An operator of its own: the licence must not limit the operator the other browser tests use.
  const account = uniqueLabel('lic-op-');
  const admin = { tier: 'admin' as const };
  const made = await api(admin, createAccount, {
    params: { auth: 'admin' },
    body: { auth: 'client', account, name: account, email: `${account}@rampart.test` },
  });
  await api(admin, setSubAccountPassword, {
    params: { auth: 'admin' },
    body: { id: made.id, password: E2E.password, confirmPassword: E2E.password },
  });

  // The operator reads its installation ID on its licence page.
  await submitLogin(page, 'client', E2E.password, account);
  await expect(page).not.toHaveURL(/\/client\/login$/);
  await page.goto('/client/systemManagement/license');
  await expect(page.getByText('No licence is applied: nothing is limited until one is.')).toBeVisible();
  const installID = (await page.locator('code').first().textContent())?.trim() ?? '';
  expect(installID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

  // The vendor makes an offline licence for that installation and operator, allowing one site, and issues it.
  const customer = `Customer ${account}`;
  await login(page, 'admin');
  await page.goto('/admin/offlineLicense');
  await page.getByRole('button', { name: 'New offline licence' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Customer').fill(customer);
  await dialog.getByLabel('Installation ID').fill(installID);
  await dialog.getByLabel('Operator account').fill(account);
  await dialog.getByLabel('Sites').fill('1');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create Offline License Success!')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: customer });
  await row.getByRole('button', { name: 'Issue' }).click();
  await expect(page.getByText('Issue License Success!')).toBeVisible();
  await expect(row.getByText('Issued', { exact: true })).toBeVisible();
  // The key the row's Copy button copies, as the vendor sends it to the operator.
  const issued = (await api(admin, listOfflineLicenses, { query: { page: 1, pageSize: 500 } })).find(
    (l) => l.customer === customer,
  );
  expect(issued?.key).toMatch(/^RL1\./);

  // The operator (still signed in to its console) pastes the key and activates it.
  await page.goto('/client/systemManagement/license');
  await page.getByLabel('Licence key').fill(issued?.key ?? '');
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByText('Update Success')).toBeVisible();
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  const sites = page.getByRole('row').filter({ hasText: /^Sites/ });
  await expect(sites.getByRole('cell')).toHaveText(['Sites', '0', '1', '1']);

  // The limit holds: one site is made, the second is refused with 205001.
  const operator = { tier: 'client' as const, account };
  const zone = await api(operator, createZone, { body: { name: uniqueLabel('lic-zone-') } });
  const group = await api(operator, createGroup, { params: { zoneID: zone.id }, body: { name: 'web', portType: 7 } });
  const product = await api(operator, createProduct, { body: { name: 'CDN', portType: 7, mainGroupIDs: [group.id] } });
  const user = await api(operator, createAccount, {
    params: { auth: 'client' },
    body: {
      auth: 'user',
      account: uniqueLabel('lic-user-'),
      name: 'licence customer',
      email: `${account}-u@rampart.test`,
    },
  });
  const token = await signIn('client', account);
  const site = (siteName: string) =>
    callApi(createSite, { body: { siteName, userID: user.id, productID: product.id } }, token);
  expect((await site('first')).status).toBe(200);
  const refused = await site('second');
  expect(refused.status).toBe(422);
  expect(refused.body).toMatchObject({ code: 205001, extra: { limit: 1 } });
  await page.reload();
  await expect(sites.getByRole('cell')).toHaveText(['Sites', '1', '1', '0']);
});
