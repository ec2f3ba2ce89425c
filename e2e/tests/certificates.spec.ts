import { expect, test } from '@playwright/test';
import { createDomains, listDomains } from '@rampart/contract';
import { makeCertificate } from '../../apps/server/test/helpers/certificates.js';
import { api } from '../support/api.js';
import { chooseTab, login, showColumn } from '../support/console.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

test('a customer uploads a certificate from files and assigns it to a domain it covers', async ({ page }) => {
  const zone = `${uniqueLabel('tls')}.example`;
  const elsewhere = `${uniqueLabel('other')}.example`;
  const site = await customerSite(uniqueLabel('e2e tls '));
  const origin = { upstreams: [{ ip: '1.1.1.1', port: 80 }] };
  await api('user', createDomains, {
    params: { siteId: site.siteID },
    body: {
      domains: [
        { name: `www.${zone}`, ...origin },
        { name: `shop.${elsewhere}`, ...origin },
      ],
    },
  });
  const { certPem, keyPem } = await makeCertificate([`*.${zone}`, zone], { withCA: true });
  const certName = uniqueLabel('wildcard-');

  await login(page, 'user');
  await page.goto(`/user/sitesManagement/sitesSetting/${site.siteID}?tab=certificates`);
  await page.getByRole('button', { name: 'Upload certificate' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(certName);
  // The chain and the key are read from files in the browser, as a person would pick them.
  await dialog.getByLabel('Certificate file').setInputFiles({
    name: 'chain.pem',
    mimeType: 'application/x-pem-file',
    buffer: Buffer.from(certPem),
  });
  await dialog.getByLabel('Private key file').setInputFiles({
    name: 'key.pem',
    mimeType: 'application/x-pem-file',
    buffer: Buffer.from(keyPem),
  });
  await expect(dialog.getByLabel('Private key (PEM)')).toHaveValue(keyPem);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Update Certificate Success!')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: certName });
  await expect(row.getByText(`*.${zone}`, { exact: true })).toBeVisible();
  await expect(row.getByText('Valid', { exact: true })).toBeVisible();

  // A domain the certificate does not cover is refused, and nothing changes.
  await row.getByRole('button', { name: 'Assign' }).click();
  const assign = page.getByRole('dialog').filter({ hasText: `Assign ${certName} to domains` });
  await assign.getByRole('combobox', { name: 'Domains' }).click();
  await page.locator('.ant-select-item-option', { hasText: `shop.${elsewhere}` }).click();
  await assign.getByText(`Assign ${certName} to domains`).click(); // closes the open list
  await assign.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Invalid Certificate Name')).toBeVisible();

  await assign.getByRole('combobox', { name: 'Domains' }).click();
  await page.locator('.ant-select-item-option', { hasText: `shop.${elsewhere}` }).click(); // unpicks it
  await page.locator('.ant-select-item-option', { hasText: `www.${zone}` }).click();
  await assign.getByText(`Assign ${certName} to domains`).click();
  await assign.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Assign Certificate To Domain Success!')).toBeVisible();
  await expect(row.getByRole('cell', { name: '1', exact: true })).toBeVisible(); // its domain count

  // The domain list shows the certificate (a column chosen in the list's column chooser), as the server stored it.
  await chooseTab(page.getByRole('tab', { name: 'Domains' }));
  await showColumn(page, 'Certificate');
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: `www.${zone}` })
      .getByText(certName, { exact: true }),
  ).toBeVisible();
  const stored = await api('user', listDomains, {
    params: { siteId: site.siteID },
    query: { sortBy: 'name', orderBy: 'asc' },
  });
  expect(stored.map((d) => [d.name, d.certificateName])).toEqual([
    [`shop.${elsewhere}`, ''],
    [`www.${zone}`, certName],
  ]);
});
