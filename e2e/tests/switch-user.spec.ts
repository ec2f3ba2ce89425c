import { expect, type Page, test } from '@playwright/test';
import { listDomains } from '@rampart/contract';
import { newCustomer } from '../support/accounts.js';
import { api } from '../support/api.js';
import { login } from '../support/console.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

/** The operation log of `tier`'s console filtered to one account's calls of one action; answers the rows. */
/** The operation log's rows of `account`'s calls of the route `action`, shown by its name. */
async function auditRows(page: Page, tier: 'client' | 'user', account: string, action: string, name: string) {
  const query = new URLSearchParams({ accountName: account, url: action });
  await page.goto(`/${tier}/userManagement/logOperation?${query}`);
  await expect(page.getByRole('heading', { name: 'Operation log' })).toBeVisible();
  const cell = page.getByRole('cell', { name, exact: true });
  // The route id stays on hover, for support.
  await expect(cell.locator(`[title^="${action}"]`).first()).toBeAttached();
  return page.getByRole('row').filter({ has: cell });
}

// An operator switches to a customer, acts in its console, and the audit log shows who did what.
test('an operator switches to a customer, adds a domain as it, and the audit logs name the operator as the real actor', async ({
  page,
}) => {
  const customer = await newCustomer('sw-cust');
  const siteName = uniqueLabel('switched site ');
  const site = await customerSite(siteName, customer.account);
  const domain = `www.${uniqueLabel('sw')}.example`;

  // The operator finds the customer in its list and switches to it.
  await login(page, 'client');
  await page.goto('/client/userManagement/users');
  await expect(page.getByRole('tab', { name: 'Customers', selected: true })).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search account, name or e-mail' });
  await search.fill(customer.account);
  await search.press('Enter');
  const row = page.getByRole('row').filter({ hasText: customer.account });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Switch to' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Yes' }).click();

  // The customer's console, as the customer.
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await expect(page.getByTestId('account-menu')).toHaveText(customer.name);
  await expect(page.getByTestId('account-summary')).toContainText(customer.account);

  // A change made there: a domain added to the customer's site.
  await page.goto('/user/sitesManagement/sites');
  await page.getByRole('link', { name: siteName, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/user/sitesManagement/sitesSetting/${site.siteID}`));
  await page.getByRole('button', { name: 'Add domains' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Domain names').fill(domain);
  await dialog.getByLabel('Origin 1 IP').fill('1.1.1.1');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create Success!')).toBeVisible();
  await expect(page.getByRole('cell', { name: domain, exact: true })).toBeVisible();
  const stored = await api({ tier: 'user', account: customer.account }, listDomains, {
    params: { siteId: site.siteID },
  });
  expect(stored.map((d) => d.name)).toEqual([domain]);

  // The operator's operation log: the customer is the account, the operator the real actor.
  const expected = `client as ${customer.account}`;
  const operatorRows = await auditRows(page, 'client', customer.account, 'user.domains.create', 'Add domains');
  await expect(operatorRows).toHaveCount(1);
  await expect(operatorRows.getByRole('cell', { name: expected, exact: true })).toBeVisible();
  await expect(operatorRows.getByRole('cell', { name: 'POST', exact: true })).toBeVisible();
  await expect(operatorRows.getByRole('cell', { name: 'Success', exact: true })).toBeVisible();
  // Its details name the site and carry what was sent.
  await operatorRows.getByRole('button', { name: 'Expand row' }).click();
  const details = page.locator('pre').filter({ hasText: `/api/v1/user/site/${site.siteID}/domains` });
  await expect(details).toContainText(domain);
  await expect(details).toContainText(`"siteId": ${site.siteID}`);
  // And the stored row the call created, field by field.
  const domainRow = page.getByRole('table', { name: /^domains #\d+$/ });
  await expect(domainRow).toBeVisible();
  await expect(
    domainRow.getByRole('row').filter({ hasText: /^name/ }).getByRole('cell', { name: domain }),
  ).toBeVisible();

  // The customer's own log shows the same record, still naming the operator.
  const customerRows = await auditRows(page, 'user', customer.account, 'user.domains.create', 'Add domains');
  await expect(page.getByTestId('account-menu')).toHaveText(customer.name);
  await expect(customerRows).toHaveCount(1);
  await expect(customerRows.getByRole('cell', { name: expected, exact: true })).toBeVisible();
});
