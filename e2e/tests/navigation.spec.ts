import { expect, test } from '@playwright/test';

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page not found')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back home' })).toBeVisible();
  await expect(page).toHaveURL(/\/no\/such\/page$/);
});
