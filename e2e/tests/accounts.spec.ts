import { expect, test } from '@playwright/test';
import { login, logout, showColumn, submitLogin } from '../support/console.js';
import { mailCount, nextMail } from '../support/mail.js';

// The operator creates a customer; the customer sets its password from the e-mailed link
// (read from the local SMTP server) and logs in.
test('an operator creates a customer, who creates a password from the e-mail and logs in', async ({ page }) => {
  const email = 'e2e-customer@rampart.test';
  const password = 'customer chose this one';
  const seen = mailCount(email);

  await login(page, 'client');
  await page.goto('/client/userManagement/users');
  await expect(page.getByRole('tab', { name: 'Customers', selected: true })).toBeVisible();
  await page.getByRole('button', { name: 'New account' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Account').fill('e2e-customer');
  await dialog.getByLabel('Name').fill('E2E Customer');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create User Successful!')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'e2e-customer' });
  await showColumn(page, 'Password'); // not among the list's default columns
  await expect(row).toContainText('Waiting for the e-mail link');
  await logout(page, 'client');

  const mail = await nextMail(email, seen);
  const link = /https?:\/\/\S+\/user\/verifyMail\?token=\S+/.exec(mail)?.[0];
  expect(link).toBeTruthy();
  await page.goto(new URL(link as string).pathname + new URL(link as string).search);
  await expect(page).toHaveURL(/\/user\/createPassword/);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create password' }).click();
  await expect(page.getByText('Create Password Successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login/);

  await submitLogin(page, 'user', password, 'e2e-customer');
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await expect(page.getByTestId('account-summary')).toContainText('e2e-customer');
});
