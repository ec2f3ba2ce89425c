import { expect, test } from '@playwright/test';
import { DEFAULT_DASHBOARD_WIDGETS } from '@rampart/contract';
import { newCustomer } from '../support/accounts.js';
import { submitLogin } from '../support/console.js';
import { E2E } from '../support/env.js';

// The custom dashboard against the real server: a new customer starts from the default layout,
// saves a changed one that a reload keeps, and puts the default back with Reset and Save.

test('a customer saves its own dashboard layout and resets it to the default', async ({ page }) => {
  const customer = await newCustomer('dashowner');
  await submitLogin(page, 'user', E2E.password, customer.account);
  await expect(page.getByTestId('account-summary')).toBeVisible();
  await expect(page.getByTestId('dashboard-analysis')).toBeVisible();

  await page.goto('/user/dataAnalysis/statisticsCustomize');
  const widgets = page.getByTestId('widget');
  await expect(widgets).toHaveCount(DEFAULT_DASHBOARD_WIDGETS.length);
  await expect(page.getByText('Default layout')).toBeVisible();

  await page.getByRole('button', { name: 'Edit layout' }).click();
  await widgets.first().getByRole('button', { name: 'Remove' }).click();
  await expect(widgets).toHaveCount(DEFAULT_DASHBOARD_WIDGETS.length - 1);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Update Success')).toBeVisible();

  await page.reload();
  await expect(widgets).toHaveCount(DEFAULT_DASHBOARD_WIDGETS.length - 1);
  await expect(widgets.first()).toHaveAttribute('data-type', '4');
  await expect(page.getByText('Default layout')).toHaveCount(0);

  await page.getByRole('button', { name: 'Edit layout' }).click();
  await page.getByRole('button', { name: 'Reset to default' }).click();
  await expect(widgets).toHaveCount(DEFAULT_DASHBOARD_WIDGETS.length);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Update Success')).toBeVisible();
  await page.reload();
  await expect(widgets).toHaveCount(DEFAULT_DASHBOARD_WIDGETS.length);
  await expect(widgets.first()).toHaveAttribute('data-type', '3');
});
