import { expect, test } from '@playwright/test';
import { listCacheRules } from '@rampart/contract';
import { api } from '../support/api.js';
import { chooseOption as choose, chooseTab, login } from '../support/console.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

test('a customer sets a cache rule, then clears the site’s cache', async ({ page }) => {
  const site = await customerSite(uniqueLabel('e2e cache '));

  await login(page, 'user');
  await page.goto(`/user/sitesManagement/sitesSetting/${site.siteID}`);
  await chooseTab(page.getByRole('tab', { name: 'Cache' }));
  await expect(page).toHaveURL(/tab=cache/);
  await expect(page.getByText('No cache rules yet')).toBeVisible();

  await page.getByRole('button', { name: 'Add cache rule' }).click();
  const dialog = page.getByRole('dialog');
  await choose(page, dialog.getByRole('combobox', { name: 'Match' }), 'Directories');
  const values = dialog.getByRole('combobox', { name: 'Values' });
  // A value the contract's schema refuses is named before anything is sent.
  await values.fill('static');
  await values.press('Enter');
  await expect(dialog.getByText('Value 1 (static): Wrong format')).toBeVisible();
  await dialog.locator('.ant-select-selection-item', { hasText: 'static' }).getByLabel('close').click();
  await values.fill('/static/');
  await values.press('Enter');
  await choose(page, dialog.getByRole('combobox', { name: 'Cache time' }), '1 day');
  await dialog.getByLabel('Priority').fill('10');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Cache Rules Added Success!')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: '/static/' });
  await expect(row.getByText('Directories')).toBeVisible();
  await expect(row.getByText('1 day')).toBeVisible();

  const stored = await api('user', listCacheRules, { params: { siteId: site.siteID } });
  expect(
    stored.rules.map(({ scope, values, ttl, priority, bypass }) => ({ scope, values, ttl, priority, bypass })),
  ).toEqual([{ scope: 'directory', values: ['/static/'], ttl: 86400, priority: 10, bypass: false }]);

  // Clearing asks first, then starts a new cache generation for the whole site. On a loaded machine a
  // click during the confirm's opening animation can be lost, or land on the button under it and
  // close the confirm: so the confirm is (re)opened when it is not showing, and its button clicked
  // until the call is answered.
  const clearButton = page.getByRole('button', { name: 'Clear cache' }).first();
  const confirm = page.getByRole('tooltip').filter({ hasText: 'Clear the whole cache of this site' });
  let status = 0;
  await expect(async () => {
    if (!(await confirm.isVisible())) await clearButton.click();
    await expect(confirm).toBeVisible({ timeout: 2000 });
    // Access tokens live 3 s here: a call that meets an expired one is answered 401 (101014), and
    // the console refreshes its token and sends it again. The answer that counts is the last one.
    const answered = page.waitForResponse(
      (res) =>
        res.url().endsWith(`/user/site/${site.siteID}/setting/currentCache`) &&
        res.request().method() === 'DELETE' &&
        res.status() !== 401,
      { timeout: 10_000 },
    );
    await confirm.getByRole('button', { name: 'Clear cache' }).click();
    status = (await answered).status();
  }).toPass({ timeout: 45_000 });
  expect(status).toBe(200);
  await expect(page.getByText('Clear Cache Success!')).toBeVisible();
  const cleared = await api('user', listCacheRules, { params: { siteId: site.siteID } });
  // One clear (a retried click after a lost one may make two: each starts a new generation).
  expect(cleared.generation).toBeGreaterThan(stored.generation);
  expect(cleared.rules).toHaveLength(1); // clearing the cache keeps the rules
});
