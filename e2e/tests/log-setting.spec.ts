import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import {
  type EdgeEvent,
  EVENT_BATCH_CONTENT_TYPE,
  getLogSetting,
  listLogParts,
  logPartOf,
  putLogSetting,
  routeUrl,
  shipNodeEvents,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { api } from '../support/api.js';
import { chooseOption, login } from '../support/console.js';
import { E2E } from '../support/env.js';
import { registerNodeWithSecret } from '../support/nodes.js';
import { uniqueLabel } from '../support/sites.js';

// The operator's log setting end to end: the retention set in the console is the one the server
// keeps, and a part of the analytics store deleted from its table is gone from the store while the
// same day of the other tables stays.

/** Noon (UTC) three days ago: a day no other browser test ships traffic on. */
const DAY = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 3 * 86_400_000 + 12 * 3600_000;
const PART = logPartOf(DAY / 1000);
const DAY_TEXT = `${PART.slice(0, 4)}-${PART.slice(4, 6)}-${PART.slice(6, 8)}`;

function event(nodeId: number, serial: number): EdgeEvent {
  return {
    id: `edge-${nodeId}-1-1-${serial}`,
    time: DAY + serial * 1000,
    domainId: 0,
    ip: '198.51.100.8',
    method: 'GET',
    scheme: 'https',
    httpVersion: '1.1',
    host: 'log.example',
    path: '/',
    status: 200,
    bytesIn: 100,
    bytesOut: 1000,
    requestMs: 5,
    upstreamMs: 3,
    upstreamStatus: 200,
    cacheStatus: '',
    userAgent: 'e2e-agent',
    referer: '',
    fwKind: '',
    fwRule: 0,
    fwAction: '',
    wafPart: '',
    wafExcerpt: '',
    wafName: '',
  };
}

const partsOf = async (table: 'events' | 'rollup_1m') =>
  (await api('client', listLogParts, { query: { table, pageSize: 500 } })).map((p) => p.part);

test.afterAll(async () => {
  await api('client', putLogSetting, { body: { rawRetentionDays: 30, rollupRetentionDays: 400 } });
});

test('the operator shortens the retention and deletes a day of raw events', async ({ page }) => {
  const node = await registerNodeWithSecret(uniqueLabel('log-edge-'));
  const url = routeUrl(shipNodeEvents);
  const body = gzipSync(
    JSON.stringify({
      batchId: `e2elog${Date.now().toString(36)}-1`,
      dropped: 0,
      events: [1, 2].map((n) => event(node.nodeId, n)),
    }),
  );
  const shipped = await fetch(`${E2E.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': EVENT_BATCH_CONTENT_TYPE, ...signedNodeHeaders(node, 'POST', url, body) },
    body,
  });
  expect(shipped.status, await shipped.clone().text()).toBe(200);

  await login(page, 'client');
  await page.goto('/client/systemManagement/logSetting');
  await page.getByLabel('Raw request events').fill('20');
  await page.getByLabel('Rollups (statistics)').fill('300');
  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: 'Shorten the retention?' });
  await expect(dialog).toContainText('Raw events older than 20 days and rollups older than 300 days');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () => api('client', getLogSetting))
    .toEqual({ rawRetentionDays: 20, rollupRetentionDays: 300 });

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
