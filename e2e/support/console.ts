import { expect, type Locator, type Page } from '@playwright/test';
import type { AnyRoute } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { CLOCK_TOLERANCE_S } from '../../apps/server/src/modules/auth/token.service.js';
import { type ApiReply, callApi } from './api.js';
import { E2E } from './env.js';

/** The code of an expired access token (docs/decisions.md). */
const TOKEN_EXPIRED = 101014;

export type Tier = 'user' | 'client' | 'admin';

/**
 * Opens `path` of the console already on screen by its own client-side navigation (a history entry
 * its router follows): no page load, no session restore. The page on screen is marked first, and the
 * new one is there once the mark is gone (the router keeps the old page until the new one's code has
 * come). A path of the page on screen (the same path, or `sameComponent` for other parameters of it)
 * keeps its component, which only takes the new parameters: then only the address is waited for.
 */
export async function openInConsole(page: Page, path: string, sameComponent = false): Promise<void> {
  const samePage = await page.evaluate(
    ([to, same]) => {
      const unchanged = same || window.location.pathname === to;
      if (!unchanged)
        for (const shown of Array.from(document.querySelectorAll('main.ant-layout-content > *')))
          shown.setAttribute('data-left', '');
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
      return unchanged;
    },
    [path, sameComponent] as const,
  );
  await page.waitForFunction(
    ([to, same]) => window.location.pathname === to && (same || document.querySelector('[data-left]') === null),
    [path, samePage] as const,
    { polling: 25, timeout: 15_000 },
  );
}

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
  const loginPage = new RegExp(`/${tier}/login$`);
  // A click on the menu or its item can be lost under load (CI once stayed on the page it was on):
  // clicked again while the login page has not come.
  await expect(async () => {
    if (!loginPage.test(page.url())) {
      await page.getByTestId('account-menu').click({ timeout: 3000 });
      await page.getByRole('menuitem', { name: 'Log out' }).click({ timeout: 3000 });
    }
    await expect(page).toHaveURL(loginPage, { timeout: 3000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * Chooses a tab: clicked until it is the selected one (a click while a drawer still slides in, or
 * while its page is still rendering, can be lost: CI saw both).
 */
export async function chooseTab(tab: Locator): Promise<void> {
  await expect(async () => {
    await tab.click({ timeout: 3000 });
    await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

/** Chooses a second factor on the two-factor page (phase 0; for none and e-mail also phase 2). */
/** Changes the second factor; `currentCode` is a code of the authenticator that is on, when one is. */
export async function chooseSecondFactor(
  page: Page,
  tier: Tier,
  label: 'None' | 'E-mail code' | 'Authenticator app',
  currentCode?: string,
) {
  await page.goto(`/${tier}/userManagement/twoFactor`);
  await page.getByLabel(label).check();
  await page.getByLabel('Current password').fill(E2E.password);
  if (currentCode !== undefined) await page.getByLabel('Code from your authenticator app now').fill(currentCode);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** From an element inside an antd select, the select's root element. */
export const SELECT_ROOT = 'xpath=ancestor::*[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]';

/**
 * Picks `option` in the antd select `box` and checks it was taken. The option gets its click event
 * directly: a pointer click at its position can land on a neighbouring option while the list still
 * slides in (on a loaded machine it did, again and again). Retried until the select shows it.
 */
export async function chooseOption(page: Page, box: Locator, option: string, search?: string): Promise<void> {
  await expect(async () => {
    await box.click();
    // A searchable select narrows its list to what is typed first.
    if (search !== undefined) await box.fill(search);
    const item = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
      hasText: option,
    });
    await expect(item).toBeVisible({ timeout: 2000 });
    await item.dispatchEvent('click');
    // The select's root (the class token `ant-select` itself: its parts' classes start with it too).
    await expect(box.locator(SELECT_ROOT)).toContainText(option, {
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
}

/**
 * Picks `option` in the antd tree select `box` (multiple, searchable) by typing `search`, checks the
 * select shows it, and closes the list. A click on a loaded machine can be lost, so the whole pick
 * is retried while the select does not show the option yet (a title click toggles: never twice).
 */
export async function chooseTreeOption(page: Page, box: Locator, option: string, search: string): Promise<void> {
  const root = box.locator(SELECT_ROOT);
  await expect(async () => {
    if (!(await root.textContent())?.includes(option)) {
      await box.click();
      await box.fill(search);
      const item = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-title', {
        hasText: option,
      });
      await expect(item).toBeVisible({ timeout: 2000 });
      await item.click();
    }
    await expect(root).toContainText(option, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  // Escape closes the open list; with no list open it would close the dialog, so it is pressed only
  // then. A list still sliding away (another select's, closed a moment ago) is not an open one: on a
  // loaded machine it was still drawn beside this one.
  const lists = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden):not([class*="-leave"])');
  if (await open.first().isVisible()) await box.press('Escape');
  await expect(lists.filter({ visible: true })).toHaveCount(0);
}

/** The console's token cookies of each tier (`u_accessToken`, ...; spec part 1 §3). */
const COOKIE_PREFIX: Record<Tier, string> = { user: 'u_', client: 'c_', admin: 'a_' };

async function storedAccessToken(page: Page, tier: Tier): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  const value = cookies.find((c) => c.name === `${COOKIE_PREFIX[tier]}accessToken`)?.value;
  return value ? decodeURIComponent(value) : undefined;
}

/**
 * Waits until the server refuses the access token the console stored for `tier` as expired: its
 * `exp` claim plus the server's clock tolerance (the control plane and the tests share the clock).
 * The condition a refresh test needs, rather than a fixed pause longer than the token's life.
 */
export async function waitForStoredTokenExpiry(page: Page, tier: Tier): Promise<void> {
  const token = await storedAccessToken(page, tier);
  if (!token) throw new Error(`the ${tier} console stored no access token`);
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: number };
  expect(payload.exp).toBeGreaterThan(0);
  const expiresAtMs = ((payload.exp ?? 0) + CLOCK_TOLERANCE_S) * 1000;
  await expect.poll(() => Date.now(), { timeout: 60_000 }).toBeGreaterThanOrEqual(expiresAtMs);
}

/**
 * Calls the API with the access token the console stored for `tier` (its cookie), as a script
 * lifting it from the browser would. The e2e server's access tokens live 3 s and the console renews
 * one only when a call of its own answers 101014; so a call answered 101014 here (the stored token
 * had expired) is made again after a reload of the page has made the console refresh its session
 * and store a new token. Nothing else is retried.
 */
export async function callWithConsoleToken<R extends AnyRoute>(
  page: Page,
  tier: Tier,
  route: R,
  ...[input]: CallArgs<R>
): Promise<ApiReply<R>> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const token = await storedAccessToken(page, tier);
    if (!token) throw new Error(`the ${tier} console stored no access token`);
    const reply = await callApi(route, ...([input, token] as CallArgs<R, string>));
    if (reply.body.code !== TOKEN_EXPIRED) return reply;
    await page.reload();
    await expect.poll(() => storedAccessToken(page, tier)).not.toBe(token);
    await expect(page.getByTestId('account-menu')).toBeVisible();
  }
  throw new Error(`the ${tier} console's stored access token kept expiring`);
}

/**
 * Shows a column that is not among the list's default columns, through the list's column chooser
 * (the page's only chooser).
 */
export async function showColumn(page: Page, column: string): Promise<void> {
  const chooserButton = page.getByRole('button', { name: /Columns/ });
  const chooser = page.getByRole('tooltip').filter({ hasText: 'Shown columns' });
  // A click while the list is still settling (its tab just shown, its rows arriving) can be lost:
  // clicked again until the chooser is open (CI saw it stay closed once).
  await expect(async () => {
    if (!(await chooser.isVisible())) await chooserButton.click();
    await expect(chooser).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await chooser.getByRole('checkbox', { name: column, exact: true }).check();
  await chooserButton.click();
  await expect(chooser).toBeHidden();
}
