import { expect, test } from '@playwright/test';
import { login, logout, submitLogin } from '../support/console.js';
import { mailCount } from '../support/mail.js';

// Without mail: the operator creates a customer with its create-password link shown to copy
// (docs/decisions "new-harden-create-password-link"); the customer opens it, creates a password and
// logs in; no mail was sent and the link is spent.
test('an operator hands a customer its create-password link, which works once', async ({ page }) => {
  const email = 'e2e-linked@rampart.test';
  const password = 'linked customer chose this';
  const seen = mailCount(email);

  await login(page, 'client');
  await page.goto('/client/userManagement/users');
  await page.getByRole('button', { name: 'New account' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Account').fill('e2e-linked');
  await dialog.getByLabel('Name').fill('E2E Linked');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Show it here to copy (no mail server needed)').check();
  await dialog.getByRole('button', { name: 'OK' }).click();
  const shown = page.getByRole('dialog', { name: 'Create-password link' });
  const link = (await shown.locator('code').innerText()).trim();
  expect(link).toMatch(/\/user\/verifyMail\?token=/);
  await shown.getByRole('button', { name: 'OK' }).click();
  await logout(page, 'client');
  expect(mailCount(email)).toBe(seen);

  const path = new URL(link).pathname + new URL(link).search;
  await page.goto(path);
  await expect(page).toHaveURL(/\/user\/createPassword/);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create password' }).click();
  await expect(page.getByText('Create Password Successful!')).toBeVisible();
  await submitLogin(page, 'user', password, 'e2e-linked');
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await logout(page, 'user');

  // Spent: opening it again leads back to the login page.
  await page.goto(path);
  await expect(page).toHaveURL(/\/user\/login/);
});
