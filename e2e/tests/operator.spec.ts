import { expect, type Locator, type Page, test } from '@playwright/test';
import { listClientSites, listInitializedNodes } from '@rampart/contract';
import { api } from '../support/api.js';
import { chooseOption, chooseTab, login, SELECT_ROOT } from '../support/console.js';
import { registerNode } from '../support/nodes.js';

/**
 * Picks `option` in the (first) antd Select labelled `label` inside `scope`, through the shared
 * helper that clicks the option itself and checks the select took it (a pointer click at the
 * option's place could land on its neighbour while the list slid in), then waits for a single
 * select's list to close: CI saw the customer list still open over the product select.
 */
async function choose(page: Page, scope: Locator, label: string, option: string, search?: string): Promise<void> {
  const box = scope.getByLabel(label, { exact: true }).first();
  await chooseOption(page, box, option, search);
  if (!/\bant-select-multiple\b/.test((await box.locator(SELECT_ROOT).getAttribute('class')) ?? '')) {
    await expect(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')).toHaveCount(0);
  }
}

test('an operator creates a zone, a group and a product, initialises a node and creates a site for a customer', async ({
  page,
}) => {
  const stamp = Date.now();
  const zoneName = `op-zone-${stamp}`;
  const productName = `op-product-${stamp}`;
  const nodeName = `op-edge-${stamp}`;
  const nodeId = await registerNode(nodeName);
  await login(page, 'client');

  // Zone, then a group in it.
  await page.goto('/client/nodeManage/zonesList');
  await page.getByRole('button', { name: 'New zone' }).click();
  const zoneDialog = page.getByRole('dialog');
  await zoneDialog.getByLabel('Name').fill(zoneName);
  await zoneDialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create Success!')).toBeVisible();
  await expect(zoneDialog).toBeHidden();
  const zoneRow = page.getByRole('row', { name: new RegExp(zoneName) });
  await zoneRow.getByRole('button', { name: 'Groups' }).click();
  const drawer = page.getByRole('dialog', { name: `Groups of ${zoneName}` });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'New group' }).click();
  const groupDialog = page.locator('.ant-modal');
  await groupDialog.getByLabel('Name').fill('web');
  await groupDialog.getByRole('button', { name: 'OK' }).click();
  await expect(drawer.getByRole('cell', { name: 'web', exact: true })).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  // Product on that group.
  await page.goto('/client/sitesManagement/productsList');
  await page.getByRole('button', { name: 'New product' }).click();
  const productDialog = page.getByRole('dialog');
  await productDialog.getByLabel('Name', { exact: true }).fill(productName);
  await choose(page, productDialog, 'Zone', zoneName, zoneName);
  await choose(page, productDialog, 'Main groups', 'web');
  await page.keyboard.press('Escape');
  await productDialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('cell', { name: productName })).toBeVisible();

  // The registered node, initialised into the zone and group.
  await page.goto('/client/nodeManage/nodesList');
  await chooseTab(page.getByRole('tab', { name: 'Waiting to be initialised' }));
  await page
    .getByRole('row', { name: new RegExp(nodeName) })
    .getByRole('button', { name: 'Initialize' })
    .click();
  const initDialog = page.getByRole('dialog');
  await choose(page, initDialog, 'Zone', zoneName, zoneName);
  await choose(page, initDialog, 'Group', 'web');
  await initDialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('SET SUCCESS')).toBeVisible();

  // A site for the customer on the product.
  await page.goto('/client/sitesManagement/sitesList');
  await page.getByRole('button', { name: 'New site' }).click();
  const siteDialog = page.getByRole('dialog');
  await siteDialog.getByLabel('Site name').fill(`op shop ${stamp}`);
  await choose(page, siteDialog, 'Customer', 'user (user)');
  // Searched for: the list holds every product of the run, and antd draws only those in view.
  await choose(page, siteDialog, 'Product', productName, productName);
  await siteDialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('cell', { name: `op shop ${stamp}` })).toBeVisible();

  // What the console did is what the server stored.
  const [node] = await api('client', listInitializedNodes, { query: { value: nodeName } });
  expect(node).toMatchObject({ id: nodeId, zoneName, groups: [{ name: 'web' }] });
  const sites = await api('client', listClientSites, { query: { siteName: `op shop ${stamp}` } });
  expect(sites).toEqual([expect.objectContaining({ siteName: `op shop ${stamp}`, productName })]);
});
