import { expect, test } from '@playwright/test';
import { getLogExportSetting, getLogSetting, listLogParts, logPartOf, putLogSetting } from '@rampart/contract';
import { api } from '../support/api.js';
import { chooseOption, login } from '../support/console.js';
import { edgeEvent, shipEvents } from '../support/events.js';
import { registerNodeWithSecret } from '../support/nodes.js';
import { uniqueLabel } from '../support/sites.js';

// The operator's log setting end to end: the retention set in the console is the one the server
// keeps, and a part of the analytics store deleted from its table is gone from the store while the
// same day of the other tables stays.

/** Noon (UTC) three days ago: a day no other browser test ships traffic on. */
const DAY = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 3 * 86_400_000 + 12 * 3600_000;
const PART = logPartOf(DAY / 1000);
const DAY_TEXT = `${PART.slice(0, 4)}-${PART.slice(4, 6)}-${PART.slice(6, 8)}`;

const event = (nodeId: number, serial: number) =>
  edgeEvent(nodeId, serial, {
    time: DAY + serial * 1000,
    ip: '198.51.100.8',
    host: 'log.example',
    bytesOut: 1000,
  });

const partsOf = async (table: 'events' | 'rollup_1m') =>
  (await api('client', listLogParts, { query: { table, pageSize: 500 } })).map((p) => p.part);

test.afterAll(async () => {
  await api('client', putLogSetting, { body: { rawRetentionDays: 30, rollupRetentionDays: 400 } });
});

test('the operator shortens the retention and deletes a day of raw events', async ({ page }) => {
  const node = await registerNodeWithSecret(uniqueLabel('log-edge-'));
  await shipEvents(
    node,
    [1, 2].map((n) => event(node.nodeId, n)),
  );

  await login(page, 'client');
  await page.goto('/client/systemManagement/logSetting');
  await page.getByLabel('Raw request events').fill('20');
  await page.getByLabel('Rollups (statistics)').fill('300');
  // The page has two forms (the store's retention, the export files'): each its own Save.
  const retention = page.locator('form').filter({ has: page.getByLabel('Raw request events') });
  await retention.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: 'Shorten the retention?' });
  await expect(dialog).toContainText('Raw events older than 20 days and rollups older than 300 days');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () => api('client', getLogSetting))
    .toEqual({ rawRetentionDays: 20, rollupRetentionDays: 300 });

  // The export files' retention and space, saved on their own.
  const exportFiles = page.locator('form').filter({ has: page.getByLabel('Keep export files') });
  await exportFiles.getByLabel('Keep export files').fill('3');
  await exportFiles.getByLabel('Space for all export files').fill('2048');
  await exportFiles.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => api('client', getLogExportSetting)).toEqual({ retentionDays: 3, spaceMB: 2048 });
  expect(await api('client', getLogSetting)).toEqual({ rawRetentionDays: 20, rollupRetentionDays: 300 });

  await chooseOption(page, page.getByLabel('Table', { exact: true }), 'Raw events');
  const row = page.getByRole('row', { name: new RegExp(DAY_TEXT) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Raw events');
  await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);

  expect(await partsOf('events')).not.toContain(PART);
  expect(await partsOf('rollup_1m')).toContain(PART);
});
