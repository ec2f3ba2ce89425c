import { expect, type Page, test } from '@playwright/test';
import { createDomains, listAccounts, listDomains } from '@rampart/contract';
import { newCustomer } from '../support/accounts.js';
import { api } from '../support/api.js';
import { callWithConsoleToken, chooseOption, chooseTab, logout, submitLogin } from '../support/console.js';
import { mailCount, nextMail } from '../support/mail.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

/** Opens the sidebar's "User management" group and answers the sidebar. */
async function userManagementMenu(page: Page) {
  const nav = page.getByRole('menu', { name: 'Navigation' });
  await nav.getByText('User management', { exact: true }).click();
  await expect(nav.getByRole('link', { name: 'User information' })).toBeVisible();
  return nav;
}

/**
 * What a page of the site shows someone who may change it, or only view it: the sites list's
 * "Tags" button, the domains tab's add buttons and a domain row's Edit and Delete.
 */
async function expectSiteControls(page: Page, siteName: string, domain: string, canWrite: boolean) {
  await page.goto('/user/sitesManagement/sites');
  const siteRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: siteName, exact: true }) });
  await expect(siteRow.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(siteRow.getByRole('button', { name: 'Tags' })).toHaveCount(canWrite ? 1 : 0);

  await siteRow.getByRole('link', { name: siteName, exact: true }).click();
  const domainRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: domain, exact: true }) });
  await expect(domainRow).toBeVisible();
  await expect(domainRow.getByRole('button', { name: 'Edit' })).toHaveCount(canWrite ? 1 : 0);
  await expect(domainRow.getByRole('button', { name: 'Delete' })).toHaveCount(canWrite ? 1 : 0);
  await expect(domainRow.getByRole('switch', { name: `Enable ${domain}` })).toBeEnabled({ enabled: canWrite });
  await expect(page.getByRole('button', { name: 'Add domains' })).toHaveCount(canWrite ? 1 : 0);
  await expect(page.getByRole('button', { name: 'Quick add' })).toHaveCount(canWrite ? 1 : 0);
}

// A sub-user with a read-only role sees no edit buttons, and gets 101018 if it calls anyway.
test('a sub-user holding a read-only role sees no write controls and is refused a write call', async ({ page }) => {
  const owner = await newCustomer('ro-owner');
  const siteName = uniqueLabel('ro site ');
  const site = await customerSite(siteName, owner.account);
  const domain = `www.${uniqueLabel('ro')}.example`;
  await api({ tier: 'user', account: owner.account }, createDomains, {
    params: { siteId: site.siteID },
    body: {
      domains: [{ name: domain, upstreams: [{ ip: '1.1.1.1', port: 80 }] }],
    },
  });
  const roleName = uniqueLabel('viewer-');
  const sub = { account: uniqueLabel('ro-sub'), password: 'the viewer chose this' };
  const subEmail = `${sub.account}@rampart.test`;
  const seen = mailCount(subEmail);

  // The customer: a role with only the view keys of sites and domains.
  await submitLogin(page, 'user', owner.password, owner.account);
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await page.goto('/user/userManagement/roles');
  await page.getByRole('button', { name: 'New role' }).click();
  const roleDialog = page.getByRole('dialog', { name: 'New role' });
  await roleDialog.getByLabel('Name').fill(roleName);
  await roleDialog.getByRole('checkbox', { name: 'View sites' }).check();
  await roleDialog.getByRole('checkbox', { name: 'View domains' }).check();
  await expect(roleDialog.getByRole('checkbox', { name: 'Manage sites' })).not.toBeChecked();
  await roleDialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create Role Success !')).toBeVisible();
  await expect(roleDialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: roleName })).toContainText('2 key(s)');

  // A sub-user, then the role for it from the users page.
  await page.goto('/user/userManagement/usersList');
  await page.getByRole('button', { name: 'New account' }).click();
  const accountDialog = page.getByRole('dialog');
  await accountDialog.getByLabel('Account').fill(sub.account);
  await accountDialog.getByLabel('Name').fill('Read-only viewer');
  await accountDialog.getByLabel('E-mail').fill(subEmail);
  await accountDialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create User Successful!')).toBeVisible();
  await expect(accountDialog).toBeHidden();
  const subRow = page.getByRole('row').filter({ hasText: sub.account });
  await subRow.getByRole('button', { name: 'Role', exact: true }).click();
  const assignDialog = page.getByRole('dialog', { name: `Role of ${sub.account}` });
  await chooseOption(page, assignDialog.getByRole('combobox', { name: 'Role' }), roleName);
  await assignDialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Update User‘s Role Success !')).toBeVisible();
  await expect(assignDialog).toBeHidden();
  const subs = await api({ tier: 'user', account: owner.account }, listAccounts, {
    params: { auth: 'user' },
    query: { name: sub.account },
  });
  expect(subs.map((s) => [s.account, s.role?.name])).toEqual([[sub.account, roleName]]);

  // The site is shared with the sub-user on its Sub-accounts tab.
  await page.goto(`/user/sitesManagement/sitesSetting/${site.siteID}`);
  await chooseTab(page.getByRole('tab', { name: 'Sub-accounts' }));
  const access = page.getByRole('switch', { name: `Access to this site for ${sub.account}` });
  await expect(access).not.toBeChecked();
  await access.click();
  await expect(page.getByText('SET SUCCESS')).toBeVisible();
  await expect(access).toBeChecked();

  // The customer itself sees the write controls and every userManagement entry.
  await expectSiteControls(page, siteName, domain, true);
  let menu = await userManagementMenu(page);
  for (const entry of ['Users', 'Roles', 'Operation log', 'API tokens'])
    await expect(menu.getByRole('link', { name: entry, exact: true })).toBeVisible();
  await logout(page, 'user');

  // The sub-user creates its password from the e-mailed link and signs in.
  const mail = await nextMail(subEmail, seen);
  const link = new URL(/https?:\/\/\S+\/user\/verifyMail\?token=\S+/.exec(mail)?.[0] ?? 'http://missing/');
  expect(link.pathname).toBe('/user/verifyMail');
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New password').fill(sub.password);
  await page.getByLabel('Confirm password').fill(sub.password);
  await page.getByRole('button', { name: 'Create password' }).click();
  await expect(page.getByText('Create Password Successful!')).toBeVisible();
  await submitLogin(page, 'user', sub.password, sub.account);
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await expect(page.getByTestId('account-menu')).toHaveText('Read-only viewer');

  // It may view the site and its domains, with no control that changes them ...
  await expectSiteControls(page, siteName, domain, false);
  // ... and its menu lists no page it holds no key for.
  menu = await userManagementMenu(page);
  await expect(menu.getByRole('link', { name: 'Two-factor authentication' })).toBeVisible();
  for (const entry of ['Users', 'Roles', 'Operation log', 'API tokens'])
    await expect(menu.getByRole('link', { name: entry, exact: true })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Sites', exact: true })).toBeVisible();

  // Calling a write route anyway, with the token the console stored, is refused.
  const refused = await callWithConsoleToken(page, 'user', createDomains, {
    params: { siteId: site.siteID },
    body: {
      domains: [{ name: `api.${domain}`, upstreams: [{ ip: '1.1.1.1', port: 80 }] }],
    },
  });
  expect(refused.status).toBe(403);
  expect(refused.body.code).toBe(101018);
  // The stored token reads what the role lets it read, and the refused domain was not added.
  const read = await callWithConsoleToken(page, 'user', listDomains, { params: { siteId: site.siteID } });
  expect(read.status).toBe(200);
  expect(read.body.data?.map((d) => d.name)).toEqual([domain]);
});
