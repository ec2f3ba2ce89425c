import { expect, test } from '@playwright/test';
import { listDomains } from '@rampart/contract';
import { api } from '../support/api.js';
import { login } from '../support/console.js';
import { customerSite } from '../support/sites.js';

test('a customer adds domains to a site in the console and sees them listed', async ({ page }) => {
  const site = await customerSite('e2e shop');

  await login(page, 'user');
  await page.goto('/user/sitesManagement/sites');
  await page.getByRole('link', { name: 'e2e shop' }).click();
  await expect(page).toHaveURL(new RegExp(`/user/sitesManagement/sitesSetting/${site.siteID}`));

  await page.getByRole('button', { name: 'Add domains' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Domain names').fill('www.e2e-shop.example\nimg.e2e-shop.example');
  await dialog.getByLabel('Origin 1 IP').fill('1.1.1.1');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create Success!')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'www.e2e-shop.example', exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'img.e2e-shop.example', exact: true })).toBeVisible();

  // What the console shows is what the server stored.
  const stored = await api('user', listDomains, { params: { siteId: site.siteID } });
  expect(stored.map((d) => `${d.name} ${d.upstreamURL}`).sort()).toEqual([
    'img.e2e-shop.example 1.1.1.1:80',
    'www.e2e-shop.example 1.1.1.1:80',
  ]);

  // A loopback origin is refused by the server's address policy, and the message lands on the field.
  await page.getByRole('button', { name: 'Add domains' }).click();
  await dialog.getByLabel('Domain names').fill('api.e2e-shop.example');
  await dialog.getByLabel('Origin 1 IP').fill('127.0.0.1');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog.getByText('Origins on loopback, private or reserved addresses are not allowed')).toBeVisible();
});
