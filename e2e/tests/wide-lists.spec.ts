import { expect, type Page, test } from '@playwright/test';
import {
  addCacheRules,
  createAccount,
  createAnnouncement,
  createApiToken,
  createDomains,
  createRole,
  createVirtualNode,
  initializeNodes,
} from '@rampart/contract';
import { api } from '../support/api.js';
import { login, type Tier } from '../support/console.js';
import { registerNode } from '../support/nodes.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

/**
 * Issue 17, "screens that fit": at 1280×800 with the sidebar open, no list page of the user and
 * client consoles scrolls sideways for its default columns, even with long names in its rows:
 * neither the document nor a table's own scroll container. The pages are the sidebar's entries (so
 * a new list page is not skipped), each of their tabs, a site's settings and the zone Groups drawer.
 */

test.use({ viewport: { width: 1280, height: 800 } });
// Some 40 pages on a shared two-core machine.
test.describe.configure({ timeout: 420_000 });

interface Widths {
  document: number;
  window: number;
  tables: { scrollWidth: number; clientWidth: number }[];
}

/** The document's width and that of every visible table scroll container. */
function measure(page: Page): Promise<Widths> {
  return page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    window: window.innerWidth,
    tables: Array.from(document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body'))
      .filter((element) => element.offsetParent !== null)
      .map((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth })),
  }));
}

/** Waits for the page's lists to load (no spinner), then checks that nothing scrolls sideways. */
async function expectFits(page: Page, what: string): Promise<void> {
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 15_000 });
  const widths = await measure(page);
  console.log(`${what}: document ${widths.document}/${widths.window}`, JSON.stringify(widths.tables));
  expect.soft(widths.document, `${what}: the document scrolls sideways`).toBeLessThanOrEqual(widths.window);
  for (const table of widths.tables)
    expect
      .soft(table.scrollWidth, `${what}: a table scrolls sideways (${table.clientWidth} px shown)`)
      .toBeLessThanOrEqual(table.clientWidth + 1);
}

/** Checks the page at `path` (once `ready`, when given), then each of its tabs. */
async function expectPageFits(page: Page, path: string, ready?: () => Promise<void>): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await ready?.();
  await expectFits(page, path);
  const tabs = page.locator('main .ant-tabs-tab');
  const count = await tabs.count();
  for (let i = 1; i < count; i += 1) {
    const tab = tabs.nth(i);
    const name = (await tab.textContent()) ?? String(i);
    await tab.click();
    await expectFits(page, `${path} [${name}]`);
  }
}

/** The pages of the sidebar of `tier`: every group opened, every entry's link. */
async function sidebarPages(page: Page, tier: Tier): Promise<string[]> {
  await page.goto(`/${tier}/dashboard`);
  const menu = page.getByRole('menu', { name: 'Navigation' });
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  const groups = menu.locator('.ant-menu-submenu-title');
  const count = await groups.count();
  for (let i = 0; i < count; i += 1) {
    const group = groups.nth(i);
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
  }
  const links = await menu
    .locator('a[href]')
    .evaluateAll((anchors) => anchors.map((anchor) => new URL((anchor as HTMLAnchorElement).href).pathname));
  return [...new Set(links)];
}

const stamp = uniqueLabel('');
/** A 60-character domain name. */
const domain = `${`www.${stamp}-${'storefront'.repeat(6)}`.slice(0, 48)}.example.com`;
const long = (what: string) => `${what} with a rather long descriptive name ${stamp}`;

test('no list page of the user and client consoles scrolls sideways at 1280×800', async ({ page }) => {
  expect(domain).toHaveLength(60);
  const zoneName = long('zone');
  const siteName = long('site');
  const site = await customerSite(siteName, 'user', {
    zoneName,
    groupName: long('group'),
    productName: long('product'),
  });
  const origin = { upstreams: [{ ip: '1.1.1.1', port: 80 }] };
  await api('user', createDomains, {
    params: { siteId: site.siteID },
    body: { domains: [{ name: domain, ...origin }] },
  });
  await api('user', addCacheRules, {
    params: { siteId: site.siteID },
    body: { data: [{ scope: 'path', values: [`/assets/${'very-long-path-segment/'.repeat(4)}index.html`] }] },
  });
  const placed = await registerNode(`edge-node-${stamp}.fra1.a-long-hosting-provider-name.example.net`);
  await registerNode(`waiting-node-${stamp}.ams3.a-long-hosting-provider-name.example.net`);
  await api('client', initializeNodes, { body: { ids: [placed], zoneID: site.zoneID, groupID: site.groupID } });
  await api('client', createVirtualNode, {
    params: { zoneID: site.zoneID },
    body: { name: long('vnode'), portType: 7 },
  });
  await api('client', createAnnouncement, {
    body: { title: long('announcement'), content: 'Maintenance tonight. '.repeat(20), running: true },
  });
  await api('client', createAccount, {
    params: { auth: 'client' },
    body: {
      auth: 'user',
      account: `customer-${stamp}-long-account`,
      name: long('customer'),
      email: `${stamp}.a.long.address@example-customer-mail.test`,
    },
  });
  for (const tier of ['user', 'client'] as const) {
    await api(tier, createRole, { params: { auth: tier }, body: { name: long('role'), permissions: [] } });
    await api(tier, createApiToken, { params: { auth: tier }, body: { name: long('token'), lifetime: 3600 } });
  }

  for (const tier of ['user', 'client'] as const) {
    await login(page, tier);
    const pages = await sidebarPages(page, tier);
    expect(pages.length).toBeGreaterThan(5);
    for (const path of pages) await expectPageFits(page, path);
    if (tier === 'user') {
      // The settings page loads the site, then its domains: measured once the domain's row is there.
      const settings = `/user/sitesManagement/sitesSetting/${site.siteID}/${encodeURIComponent(siteName)}`;
      await expectPageFits(page, settings, () =>
        expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: domain }) })).toBeVisible(),
      );
    }
    if (tier === 'client') {
      await page.goto('/client/nodeManage/zonesList');
      await page
        .getByRole('row', { name: new RegExp(zoneName) })
        .getByRole('button', { name: 'Groups' })
        .click();
      await expect(page.getByRole('dialog', { name: `Groups of ${zoneName}` })).toBeVisible();
      await expectFits(page, 'zone Groups drawer');
    }
  }
});

/** The sidebar's labels that do not show whole (cut off, or ending in "…"), every group opened. */
async function cutLabels(page: Page): Promise<string[]> {
  const menu = page.locator('.ant-layout-sider .ant-menu');
  const groups = menu.locator('.ant-menu-submenu-title');
  const count = await groups.count();
  for (let i = 0; i < count; i += 1) {
    const group = groups.nth(i);
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
  }
  return menu
    .locator('.ant-menu-title-content')
    .evaluateAll((labels) =>
      labels.filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent ?? ''),
    );
}

test('the sidebar shows its labels whole at 1280×800, in English and Chinese', async ({ page }) => {
  for (const tier of ['user', 'client'] as const) {
    await login(page, tier);
    for (const locale of ['en_US', 'zh_CN'] as const) {
      await page.evaluate((value) => localStorage.setItem('rampart.locale', value), locale);
      await page.goto(`/${tier}/dashboard`);
      await expect(page.getByTestId('account-menu')).toBeVisible();
      expect.soft(await cutLabels(page), `${tier} ${locale}`).toEqual([]);
    }
    await page.evaluate(() => localStorage.setItem('rampart.locale', 'en_US'));
  }
});
