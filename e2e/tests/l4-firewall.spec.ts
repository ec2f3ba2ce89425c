import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  addSitePorts,
  createZone,
  getZoneL4Protection,
  listL4LimitConnRules,
  listL4PositionRules,
  listL4WhitelistRules,
} from '@rampart/contract';
import { api } from '../support/api.js';
import { chooseOption, chooseTab, chooseTreeOption, login } from '../support/console.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

// Issue 22: a layer-4 site's firewall (whitelist, blacklist, positions, connection limits per port)
// in the customer console, and a zone's layer-4 protection in the operator console, against the
// real server.

test.describe.configure({ timeout: 180_000 });

/** The open dialog's OK. */
async function submit(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'OK' }).click();
}

/** Opens a kind of the firewall tab (clicked again when a click on a loaded machine was lost). */
async function openKind(page: Page, kind: string, empty: string): Promise<void> {
  await expect(async () => {
    await page.locator('main .ant-segmented-item', { hasText: kind }).click();
    await expect(page.getByText(empty)).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
}

/** Confirms the row's delete (reopening the confirm when a click during its animation was lost). */
async function deleteRow(page: Page, row: Locator): Promise<void> {
  const confirm = page.getByRole('tooltip').filter({ hasText: 'Delete this rule?' });
  await expect(async () => {
    if (!(await confirm.isVisible())) await row.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeVisible({ timeout: 2000 });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(row).toHaveCount(0, { timeout: 5000 });
  }).toPass({ timeout: 30_000 });
}

test('a customer sets the layer-4 firewall of a site on ports', async ({ page }) => {
  const siteName = uniqueLabel('e2e l4 ');
  const site = await customerSite(siteName, 'user', { portType: 4 });
  const siteId = site.siteID;
  const settings = `/user/sitesManagement/sitesSetting/${siteId}/${encodeURIComponent(siteName)}`;

  await login(page, 'user');
  // Without ports the firewall says so, and leads to the Ports tab.
  await page.goto(`${settings}?tab=firewall`);
  await expect(page.getByText(/This site has no ports yet/)).toBeVisible();
  await page.getByRole('button', { name: 'Go to Ports' }).click();
  await expect(page.getByRole('tab', { name: 'Ports', selected: true })).toBeVisible();

  const upstreams = [{ ip: '1.1.1.1', port: 25565 }];
  await api('user', addSitePorts, {
    params: { siteId },
    body: {
      ports: [
        { port: 25565, protocol: 'tcp', upstreams },
        { port: 27015, protocol: 'udp', upstreams: [{ ip: '1.1.1.1', port: 27015 }] },
      ],
    },
  });
  await page.goto(`${settings}?tab=firewall`);
  await expect(page.getByText('No layer-4 whitelist rules yet.')).toBeVisible();

  // Whitelist: an address the contract refuses is named with its line before anything is sent.
  await page.getByRole('button', { name: 'Create' }).click();
  let dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.getByRole('combobox', { name: 'Port' }), '27015/UDP');
  await dialog.getByLabel('Addresses').fill('203.0.113.7\nnot-an-ip');
  await submit(dialog);
  await expect(dialog.getByText('Line 2 (not-an-ip): Wrong format')).toBeVisible();
  await dialog.getByLabel('Addresses').fill('203.0.113.7\n198.51.100.0/24');
  await dialog.getByLabel('Memo').fill('game servers');
  await submit(dialog);
  await expect(page.getByText('Create Success!')).toBeVisible();
  const white = page.getByRole('row').filter({ hasText: 'game servers' });
  await expect(white.getByText('27015/UDP')).toBeVisible();
  const stored = await api('user', listL4WhitelistRules, { params: { siteId }, query: {} });
  expect(stored.map(({ port, protocol, ips, memo }) => ({ port, protocol, ips, memo }))).toEqual([
    { port: 27015, protocol: 'udp', ips: ['203.0.113.7', '198.51.100.0/24'], memo: 'game servers' },
  ]);

  // Edited with its port kept, then deleted after the confirm.
  await white.getByRole('button', { name: 'Edit' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Edit layer-4 whitelist rule')).toBeVisible();
  await dialog.getByLabel('Memo').fill('lan party');
  await submit(dialog);
  await expect(page.getByText('Update Success')).toBeVisible();
  const edited = page.getByRole('row').filter({ hasText: 'lan party' });
  await expect(edited.getByText('27015/UDP')).toBeVisible();
  await deleteRow(page, edited);
  await expect(page.getByText('No layer-4 whitelist rules yet.')).toBeVisible();
  expect(await api('user', listL4WhitelistRules, { params: { siteId }, query: {} })).toEqual([]);

  // Positions: countries only; a second enabled rule on the port is refused (101025).
  await openKind(page, 'Positions', 'No position rules yet.');
  for (const attempt of ['first', 'second'] as const) {
    await page.getByRole('button', { name: 'Create' }).click();
    dialog = page.getByRole('dialog');
    await chooseOption(page, dialog.getByRole('combobox', { name: 'Port' }), '25565/TCP');
    await chooseTreeOption(page, dialog.getByRole('combobox', { name: 'Countries' }), 'Germany (DE)', 'Germany');
    await submit(dialog);
    if (attempt === 'first') await expect(page.getByText('Create Success!')).toBeVisible();
    else {
      await expect(page.getByText('Duplicated data')).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
  }
  const position = page.getByRole('row').filter({ hasText: 'Germany' });
  await expect(position.getByText('Blacklist')).toBeVisible();
  await expect(position.getByText('25565/TCP')).toBeVisible();
  const positions = await api('user', listL4PositionRules, { params: { siteId }, query: {} });
  expect(positions.map(({ port, isBlack, positions, enabled }) => ({ port, isBlack, positions, enabled }))).toEqual([
    { port: 25565, isBlack: true, positions: ['DE'], enabled: true },
  ]);

  // Connection limits: the rate left empty is no rate.
  await openKind(page, 'Connection limits', 'No connection limits yet.');
  await page.getByRole('button', { name: 'Create' }).click();
  dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.getByRole('combobox', { name: 'Port' }), '25565/TCP');
  await dialog.getByLabel('Connections at once').fill('2000000');
  await submit(dialog);
  await expect(dialog.getByText('Must be at most 1000000')).toBeVisible();
  await dialog.getByLabel('Connections at once').fill('20');
  await dialog.getByLabel('Block duration').fill('60');
  await submit(dialog);
  await expect(page.getByText('Create Success!')).toBeVisible();
  const limit = page.getByRole('row').filter({ hasText: '25565/TCP' });
  await expect(limit.getByText('No rate')).toBeVisible();
  await expect(limit.getByText('60 s')).toBeVisible();
  const limits = await api('user', listL4LimitConnRules, { params: { siteId }, query: {} });
  expect(limits.map(({ port, max, rate, burst, delay }) => ({ port, max, rate, burst, delay }))).toEqual([
    { port: 25565, max: 20, rate: null, burst: 0, delay: 60 },
  ]);
  await page.screenshot({ path: 'test-results/l4-firewall-limits.png', fullPage: true });
});

test("an operator sets a zone's layer-4 protection", async ({ page }) => {
  const name = `e2e-l4-zone-${Date.now()}`;
  const zone = await api('client', createZone, { body: { name } });

  await login(page, 'client');
  await page.goto('/client/nodeManage/zonesList?pageSize=100&sortBy=createdAt&orderBy=desc');
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: 'Settings' })
    .click();
  const drawer = page.getByRole('dialog');
  await chooseTab(drawer.getByRole('tab', { name: 'Layer-4 protection' }));
  const form = drawer.getByRole('form', { name: 'Layer-4 protection' });
  const syn = form.getByRole('switch', { name: 'TCP handshakes (SYN) per source address' });
  await expect(syn).toHaveAttribute('aria-checked', 'false');
  await syn.click();
  const rate = form.getByLabel('TCP handshakes (SYN) per source address: rate');
  await rate.fill('20000000');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Must be at most 10000000')).toBeVisible();
  await rate.fill('200');
  await form.getByLabel('TCP handshakes (SYN) per source address: burst').fill('50');
  await form.getByRole('switch', { name: /Push layer-7 DROP \+ Blacklist blocks/ }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('SET SUCCESS').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/zone-l4-protection.png', fullPage: true });

  await expect
    .poll(async () => api('client', getZoneL4Protection, { params: { zoneID: zone.id } }))
    .toEqual({
      synFlood: { rate: 200, burst: 50 },
      newConnections: null,
      kernelBlocks: true,
      // A zone escalates floods to the kernel by default (200 refusals in 10 s), kept by the form's save.
      escalation: { refusals: 200, seconds: 10 },
    });
});
