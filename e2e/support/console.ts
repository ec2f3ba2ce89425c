import { expect, type Page } from '@playwright/test';
import { E2E } from './env.js';

export type Tier = 'user' | 'client' | 'admin';

/** Fills the login form; does not wait for where it leads. */
export async function submitLogin(
  page: Page,
  tier: Tier,
  password = E2E.password,
  account: string = tier,
): Promise<void> {
  await page.goto(`/${tier}/login`);
  await page.getByLabel('Account').fill(account);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function login(page: Page, tier: Tier): Promise<void> {
  await submitLogin(page, tier);
  await expect(page).toHaveURL(new RegExp(`/${tier}/dashboard$`));
  await expect(page.getByTestId('account-summary')).toBeVisible();
}

export async function logout(page: Page, tier: Tier): Promise<void> {
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(new RegExp(`/${tier}/login$`));
}

/** Chooses a second factor on the two-factor page (phase 0; for none and e-mail also phase 2). */
export async function chooseSecondFactor(page: Page, tier: Tier, label: 'None' | 'E-mail code' | 'Authenticator app') {
  await page.goto(`/${tier}/userManagement/twoFactor`);
  await page.getByLabel(label).check();
  await page.getByLabel('Current password').fill(E2E.password);
  await page.getByRole('button', { name: 'Continue' }).click();
}
