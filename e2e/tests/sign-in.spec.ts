import { expect, test } from '@playwright/test';
import { timeStep, totpAt } from '../../apps/server/src/platform/crypto/totp.js';
import {
  chooseSecondFactor,
  login,
  logout,
  submitLogin,
  type Tier,
  waitForStoredTokenExpiry,
} from '../support/console.js';
import { E2E } from '../support/env.js';
import { mailCount, nextMail } from '../support/mail.js';

// The control plane for these tests issues access tokens that live 3 seconds (support/global-setup.ts).

for (const tier of ['user', 'client', 'admin'] as const satisfies readonly Tier[]) {
  test(`${tier} console: log in, reload, silent refresh of an expired token, log out`, async ({ page, context }) => {
    await login(page, tier);
    await expect(page.getByText('Login Success! Welcome!')).toBeVisible();
    await expect(page.getByTestId('account-summary')).toContainText(tier);
    const cookies = (await context.cookies()).map((c) => c.name);
    const prefix = { user: 'u_', client: 'c_', admin: 'a_' }[tier];
    expect(cookies).toEqual(
      expect.arrayContaining([`${prefix}accessToken`, `${prefix}refreshToken`, `${prefix}tokenType`]),
    );

    await page.reload();
    await expect(page).toHaveURL(new RegExp(`/${tier}/dashboard$`));
    await expect(page.getByTestId('account-summary')).toContainText(tier);

    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && new URL(r.url()).pathname === `/api/v1/${tier}`) refreshes.push(r.url());
    });
    await waitForStoredTokenExpiry(page, tier);
    await page.getByRole('menuitem', { name: 'User management' }).click();
    await page.getByRole('link', { name: 'User information' }).click();
    await expect(page).toHaveURL(new RegExp(`/${tier}/userManagement/userInformation$`));
    await page.reload();
    await expect(page.getByLabel('Name')).toHaveValue(tier);
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    await expect(page).not.toHaveURL(/\/login$/);

    await logout(page, tier);
    await expect(page.getByText('Logout success! See you!')).toBeVisible();
    const left = (await context.cookies()).map((c) => c.name).filter((n) => n.startsWith(prefix));
    expect(left).toEqual([]);
    await page.goto(`/${tier}/dashboard`);
    await expect(page).toHaveURL(new RegExp(`/${tier}/login$`));
  });
}

test('a wrong password shows the error and stays on the login form', async ({ page }) => {
  await submitLogin(page, 'user', 'definitely not it');
  await expect(page.getByText('Failed To Auth The Credential')).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login$/);
});

test('an authenticator is set up from its QR code and then asked for at login', async ({ page }) => {
  // Each code takes a fresh time step, and the server accepts t-1, t and t+1. Set up with the
  // previous step, sign in with the current one (or a later one) and turn it off with the one after:
  // no wait for a new step, except that when less than 15 s of the step are left the set-up waits
  // for the next one, so that its code does not fall out of the window on its way to the server.
  // Every later code is of the step of its reading or after, so it stays in the window.
  test.setTimeout(120_000);
  await login(page, 'user');
  await chooseSecondFactor(page, 'user', 'Authenticator app');
  await expect(page.getByRole('img', { name: 'QR code of the authenticator setup' })).toBeVisible();
  const uri = await page.getByLabel('Setup URI').inputValue();
  const secret = new URL(uri).searchParams.get('secret') ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const msLeftInStep = () => 30_000 - (Date.now() % 30_000);
  if (msLeftInStep() < 15_000) {
    const current = timeStep(Date.now());
    await expect.poll(() => timeStep(Date.now()), { timeout: 40_000 }).toBeGreaterThan(current);
  }
  const setupStep = timeStep(Date.now()) - 1;
  await page.getByLabel('Code from the app').fill(totpAt(secret, setupStep));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Update Success')).toBeVisible();
  await logout(page, 'user');

  // The set-up code's time step is spent: sign in with a code of a later step.
  await submitLogin(page, 'user');
  await expect(page).toHaveURL(/\/user\/verifyAccount$/);
  const signInStep = Math.max(setupStep + 1, timeStep(Date.now()));
  await page.getByLabel('Verification code').fill(totpAt(secret, signInStep));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/user\/dashboard$/);

  // Turning it off takes the password and a current code (the sign-in's step is spent: a later one).
  const offStep = Math.max(signInStep + 1, timeStep(Date.now()));
  await chooseSecondFactor(page, 'user', 'None', totpAt(secret, offStep));
  await expect(page.getByText('Update Success')).toBeVisible();
});

test('a code sent by e-mail signs the operator in', async ({ page }) => {
  await login(page, 'client');
  await page.goto('/client/userManagement/userInformation');
  await page.getByLabel('E-mail').fill('ops@rampart.test');
  await page.getByLabel('Current password').fill(E2E.password);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Update Information Successful!')).toBeVisible();
  await chooseSecondFactor(page, 'client', 'E-mail code');
  await expect(page.getByText('Update Success')).toBeVisible();
  await logout(page, 'client');

  const seen = mailCount('ops@rampart.test');
  await submitLogin(page, 'client');
  await expect(page).toHaveURL(/\/client\/verifyAccount$/);
  await expect(page.getByText('Please check mail to get verify code.')).toBeVisible();
  const code = /sign-in code is (\d{6})/.exec(await nextMail('ops@rampart.test', seen))?.[1] ?? '';
  expect(code).toMatch(/^\d{6}$/);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
  await expect(page.getByTestId('account-summary')).toContainText('ops@rampart.test');

  // Turning it off takes the password and a code mailed for the change.
  await page.goto('/client/userManagement/twoFactor');
  await page.getByLabel('None').check();
  await page.getByLabel('Current password').fill(E2E.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  // Without the code the server refuses the change and names the field.
  await expect(page.getByText('This field is required')).toBeVisible();
  const sent = mailCount('ops@rampart.test');
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await expect(page.getByText('A code was sent to your e-mail address.', { exact: false })).toBeVisible();
  const offCode = /second factor is (\d{6})/.exec(await nextMail('ops@rampart.test', sent))?.[1] ?? '';
  expect(offCode).toMatch(/^\d{6}$/);
  await page.getByLabel('Code from the e-mail').fill(offCode);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Update Success')).toBeVisible();
});
