import { expect, type Page, test } from '@playwright/test';
import { login, waitForStoredTokenExpiry } from '../support/console.js';

// Access tokens of the e2e control plane live 3 seconds (support/global-setup.ts).

/** Records every Content-Security-Policy violation the page reports, and console errors naming one. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) fromConsole.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return async () => {
    const inPage = await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
    return [...inPage, ...fromConsole];
  };
}

test('the console is served with a strict CSP and keeps its refresh token out of reach of scripts', async ({
  page,
  context,
}) => {
  const violations = await watchViolations(page);
  const first = await page.goto('/user/login');
  const csp = first?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe/);
  expect(first?.headers()['x-content-type-options']).toBe('nosniff');

  await login(page, 'user');
  const refresh = (await context.cookies()).find((c) => c.name === 'u_refreshToken');
  expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/user' });
  const visible = await page.evaluate(() => document.cookie);
  expect(visible).toContain('u_accessToken=');
  expect(visible).not.toContain('refreshToken');
  expect(visible).not.toContain(refresh?.value ?? 'no refresh cookie');

  // A reload keeps the session; after the access token expired, the refresh runs on the cookie.
  await page.reload();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await expect(page.getByTestId('account-summary')).toContainText('user');
  const refreshes: number[] = [];
  page.on('response', (r) => {
    if (r.request().method() === 'PATCH' && new URL(r.url()).pathname === '/api/v1/user') refreshes.push(r.status());
  });
  await waitForStoredTokenExpiry(page, 'user');
  await page.reload();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await expect(page.getByTestId('account-summary')).toContainText('user');
  expect(refreshes).toContain(200);
  const rotated = (await context.cookies()).find((c) => c.name === 'u_refreshToken');
  expect(rotated?.value).toBeTruthy();
  expect(rotated?.value).not.toBe(refresh?.value);
  expect(await page.evaluate(() => document.cookie)).not.toContain('refreshToken');

  expect(await violations()).toEqual([]);
});

test('the API documentation page works offline under its own policy', async ({ page }) => {
  const violations = await watchViolations(page);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  const res = await page.goto('/api/v1/docs/');
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.locator('.swagger-ui .info .title')).toContainText('Rampart API');
  const origin = new URL(page.url()).origin;
  expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
  expect(await violations()).toEqual([]);
});
