import { expect, test } from '@playwright/test';
import { listUserSites, mintApiAccessToken } from '@rampart/contract';
import { newCustomer } from '../support/accounts.js';
import { callApi } from '../support/api.js';
import { submitLogin } from '../support/console.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

/** The exchange the API reference documents: an API token for an access token of its lifetime. */
async function exchange(token: string) {
  return callApi(mintApiAccessToken, { params: { auth: 'user' }, body: { token } });
}

// An API token calls the API and stops working when deleted.
test('a customer creates an API token in the console, calls the API with it, and it stops when deleted', async ({
  page,
}) => {
  const customer = await newCustomer('tok-cust');
  const siteName = uniqueLabel('token site ');
  await customerSite(siteName, customer.account);
  const tokenName = uniqueLabel('deploy-');

  await submitLogin(page, 'user', customer.password, customer.account);
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await page.goto('/user/userManagement/apiTokenSetting');
  await expect(page.getByText('POST /api/v1/user/apiToken/accessToken')).toBeVisible();
  await page.getByRole('button', { name: 'New API token' }).click();
  const form = page.getByRole('dialog', { name: 'New API token' });
  await form.getByLabel('Name').fill(tokenName);
  await form.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create Success!')).toBeVisible();

  // The secret, shown this once.
  const shown = page.getByRole('dialog', { name: `API token ${tokenName}` });
  await expect(shown.getByText('it is shown only once')).toBeVisible();
  const secret = await shown.getByRole('textbox', { name: 'Token' }).inputValue();
  expect(secret).toMatch(/^rat_\S{20,}$/);
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(shown).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: tokenName });
  await expect(row).toContainText('3600 s');
  await expect(row).toContainText('All of yours');
  await expect(row).toContainText('Never');
  await expect(row).not.toContainText(secret);

  // Exchanged for an access token, it reads the customer's own sites.
  const minted = await exchange(secret);
  expect(minted.status).toBe(200);
  expect(minted.body.data).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 });
  const accessToken = minted.body.data?.accessToken as string;
  const sites = await callApi(listUserSites, undefined, accessToken);
  expect(sites.status).toBe(200);
  expect(sites.body.data?.map((s) => s.siteName)).toEqual([siteName]);
  await page.reload();
  await expect(row).not.toContainText('Never');

  // Deleted in the console: the access token it minted and the token itself stop at once.
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Delete Success!')).toBeVisible();
  await expect(row).toHaveCount(0);
  const after = await callApi(listUserSites, undefined, accessToken);
  expect(after.status).toBe(401);
  expect(after.body.code).toBe(101013);
  const again = await exchange(secret);
  expect(again.body.code).toBe(101013);
  expect(again.body.data).toBeUndefined();
});
