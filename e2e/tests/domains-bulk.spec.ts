import { expect, test } from '@playwright/test';
import { createDomains, listDomains } from '@rampart/contract';
import { api } from '../support/api.js';
import { login } from '../support/console.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

test('bulk domains: a bad name, a repeated line and a taken name are each reported by name', async ({ page }) => {
  const zone = `${uniqueLabel('bulk')}.example`;
  const site = await customerSite(uniqueLabel('e2e bulk '));
  const origin = { upstreams: [{ ip: '1.1.1.1', port: 80 }] };
  await api('user', createDomains, {
    params: { siteId: site.siteID },
    body: { domains: [{ name: `taken.${zone}`, ...origin }] },
  });

  await login(page, 'user');
  await page.goto(`/user/sitesManagement/sitesSetting/${site.siteID}`);
  await expect(page.getByRole('cell', { name: `taken.${zone}`, exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add domains' }).click();
  // The add dialog itself (the error report opens as a second dialog on top of it).
  const dialog = page.getByRole('dialog').filter({ has: page.getByLabel('Domain names') });
  const names = dialog.getByLabel('Domain names');
  await dialog.getByLabel('Origin 1 IP').fill('1.1.1.1');

  // The form checks each line with the contract's domain rules before anything is sent.
  await names.fill(`www.${zone}\nshop_eu.example\nimg.${zone}`);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog.getByText('Line 2: The second-level domain must not contain an underscore')).toBeVisible();

  // A name listed twice is named by the form, with the line it repeats, before anything is sent.
  await names.fill(`www.${zone}\ntaken.${zone}\nimg.${zone}\napi.${zone}\nIMG.${zone}`);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog.getByText(`Line 5 (IMG.${zone}): the same name as line 3`)).toBeVisible();

  // Well-formed and listed once, but one is already the site's: the server names it.
  await names.fill(`www.${zone}\ntaken.${zone}\nimg.${zone}\napi.${zone}`);
  await dialog.getByRole('button', { name: 'OK' }).click();
  const report = page.getByRole('dialog').filter({ hasText: 'Multiple Errors' });
  const duplicates = report.getByRole('listitem').filter({ hasText: 'Duplicated data' });
  await expect(duplicates).toBeVisible();
  const targets = (await duplicates.locator('div').textContent()) ?? '';
  expect(targets.split(', ').sort()).toEqual([`taken.${zone}`]);
  await report.getByRole('button', { name: 'OK' }).click();
  await expect(report).toBeHidden();
  // All or none: nothing of the refused batch was stored.
  const afterRefusal = await api('user', listDomains, { params: { siteId: site.siteID } });
  expect(afterRefusal.map((d) => d.name)).toEqual([`taken.${zone}`]);

  await names.fill(`www.${zone}\nimg.${zone}\napi.${zone}`);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create Success!')).toBeVisible();
  for (const name of [`www.${zone}`, `img.${zone}`, `api.${zone}`]) {
    await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();
  }
  const stored = await api('user', listDomains, { params: { siteId: site.siteID }, query: { pageSize: 100 } });
  expect(stored.map((d) => `${d.name} ${d.upstreamURL}`).sort()).toEqual(
    [`api.${zone}`, `img.${zone}`, `taken.${zone}`, `www.${zone}`].map((name) => `${name} 1.1.1.1:80`).sort(),
  );
});
