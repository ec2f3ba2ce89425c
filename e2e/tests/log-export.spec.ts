import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { createDomains, initializeNodes } from '@rampart/contract';
import { newCustomer } from '../support/accounts.js';
import { api } from '../support/api.js';
import { chooseOption, submitLogin } from '../support/console.js';
import { E2E } from '../support/env.js';
import { edgeEvent, shipEvents } from '../support/events.js';
import { registerNodeWithSecret } from '../support/nodes.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

// A day of a customer's access log exported to a file and downloaded: a node ships requests spread
// over the last 24 hours (and one older, which the day leaves out), the customer picks the last day
// on the Logs page, exports it as gzip-compressed JSON lines, follows the export on the logExport
// page until it is done and downloads the file, whose records are the day's requests.

const IN_THE_DAY = 40;

test('a customer exports a day of its access log and downloads the file', async ({ page }) => {
  const owner = await newCustomer('exportowner');
  const { siteID, zoneID, groupID } = await customerSite(uniqueLabel('export-site-'), owner.account);
  const node = await registerNodeWithSecret(uniqueLabel('export-edge-'));
  await api('client', initializeNodes, { body: { ids: [node.nodeId], zoneID, groupID } });
  const host = `${uniqueLabel('www')}.export.example`;
  const [domain] = await api({ tier: 'user', account: owner.account }, createDomains, {
    params: { siteId: siteID },
    body: { domains: [{ name: host, upstreams: [{ ip: '1.1.1.1', port: 80 }] }] },
  });
  if (!domain) throw new Error('no domain created');

  const now = Date.now();
  const events = Array.from({ length: IN_THE_DAY }, (_, i) =>
    // Every 35 minutes back from five minutes ago: the oldest about 23 hours ago.
    edgeEvent(node.nodeId, i + 1, { domainId: domain.id, host, path: `/day/${i}`, time: now - (5 + 35 * i) * 60_000 }),
  );
  const older = edgeEvent(node.nodeId, 999, { domainId: domain.id, host, path: '/older', time: now - 30 * 3600_000 });
  await shipEvents(node, [...events, older]);

  await submitLogin(page, 'user', E2E.password, owner.account);
  await expect(page.getByTestId('account-summary')).toBeVisible();
  await page.goto('/user/dataAnalysis/logger');
  await chooseOption(page, page.getByRole('combobox', { name: 'Time range' }), 'Last day');
  // The day holds the 40 requests; the older one is outside it.
  await expect(page.getByTestId('log-access')).toContainText(`${IN_THE_DAY} in total`);

  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export the access log' });
  await dialog.getByLabel('JSON lines').check();
  await expect(dialog.getByLabel('Compress with gzip')).toBeChecked();
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();

  // The export list opens; the row shows Done once the background job wrote the file.
  await expect(page).toHaveURL(/\/user\/dataAnalysis\/logExport/);
  const row = page.getByRole('row', { name: /JSON lines/ }).first();
  await expect(row).toContainText('Done', { timeout: 30_000 });
  await expect(row).toContainText(String(IN_THE_DAY));
  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/\.jsonl\.gz$/);
  const path = await file.path();
  const records = gunzipSync(await readFile(path))
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { url: string; host: string });
  expect(records).toHaveLength(IN_THE_DAY);
  const paths = records.map((r) => r.url).sort();
  expect(paths).toEqual(events.map((e) => e.path).sort());
  expect(new Set(records.map((r) => r.host))).toEqual(new Set([host]));
});
