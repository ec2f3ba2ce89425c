import { expect, test } from '@playwright/test';

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page not found')).toBeVisible();
  await expect(page).toHaveURL(/\/no\/such\/page$/);
  await page.getByRole('button', { name: 'Back home' }).click();
  await expect(page).toHaveURL(/\/user\/login$/);
});

test('/ leads to the user login form', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/user\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});

test('the language choice survives a reload and Chinese renders', async ({ page }) => {
  await page.goto('/user/login');
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: '繁體中文' }).click();
  await expect(page.getByRole('button', { name: /登\s*入/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: /登\s*入/ })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('rampart.locale'))).toBe('zh_TW');
  await expect(page.locator('html')).toHaveAttribute('lang', /zh/);
  // With a CJK font installed a Chinese character is as wide as it is tall; without one Chromium
  // draws a narrow box or nothing.
  const width = await page.evaluate(() => {
    const span = document.createElement('span');
    span.style.fontSize = '40px';
    span.textContent = '登';
    document.body.append(span);
    const w = span.getBoundingClientRect().width;
    span.remove();
    return w;
  });
  expect(width).toBeGreaterThan(30);
  await page.screenshot({ path: 'test-results/login-zh-tw.png' });
});
