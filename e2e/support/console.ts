import { expect, type Locator, type Page } from '@playwright/test';
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

/**
 * Picks `option` in the antd select `box` and checks it was taken: a click on the opening list
 * can land on a neighbouring option while the list still slides in, so the choice is made again
 * until the select shows it.
 */
export async function chooseOption(page: Page, box: Locator, option: string): Promise<void> {
  await expect(async () => {
    await box.click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option })
      .click();
    await expect(box.locator('xpath=ancestor::*[contains(@class,"ant-select")][1]')).toContainText(option, {
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
}

/** The console's token cookies of each tier (`u_accessToken`, ...; spec part 1 §3). */
const COOKIE_PREFIX: Record<Tier, string> = { user: 'u_', client: 'c_', admin: 'a_' };

async function storedAccessToken(page: Page, tier: Tier): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  const value = cookies.find((c) => c.name === `${COOKIE_PREFIX[tier]}accessToken`)?.value;
  return value ? decodeURIComponent(value) : undefined;
}

function secondsLeft(jwt: string): number {
  const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number };
  return payload.exp - Date.now() / 1000;
}

/**
 * The access token the console stored for `tier` (its cookie), with at least `seconds` to live.
 * The e2e server's access tokens live 3 s and the console refreshes them only when a call answers
 * 101014, so a token about to expire is renewed by reloading the page (once the old one has expired,
 * the reloaded page's calls make the console refresh it) until the cookie holds a fresh one.
 */
export async function consoleAccessToken(page: Page, tier: Tier, seconds = 1.5): Promise<string> {
  let fresh: string | undefined;
  await expect(async () => {
    const token = await storedAccessToken(page, tier);
    if (token && secondsLeft(token) >= seconds) {
      fresh = token;
      return;
    }
    await page.reload();
    await expect(page.getByTestId('account-menu')).toBeVisible();
    throw new Error(`the ${tier} console holds no access token with ${seconds} s to live yet`);
  }).toPass({ timeout: 20_000 });
  return fresh as string;
}
