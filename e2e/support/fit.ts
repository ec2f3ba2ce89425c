import { expect, type Page } from '@playwright/test';
import { openInConsole, type Tier } from './console.js';

/*
 * Whether a console page fits its window sideways (issue 17, "screens that fit"): the document's
 * and every visible table's scroll width against what is shown, read once the layout holds still.
 * Used by tests/wide-lists.spec.ts.
 */

interface Widths {
  document: number;
  window: number;
  tables: { scrollWidth: number; clientWidth: number }[];
}

/**
 * The document's width and that of every visible table scroll container, once the layout holds
 * still: read on each animation frame until the readings have not changed for STILL_MS (for up to
 * 3 s, then the last reading). A list lays its columns out after its rows arrive, and a reading in
 * between is not what people see: two frames alone (16 ms) can both fall before the columns.
 */
function measureSettled(page: Page): Promise<Widths> {
  return page.evaluate(async (STILL_MS) => {
    const measure = () => ({
      document: document.documentElement.scrollWidth,
      window: window.innerWidth,
      tables: Array.from(document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body'))
        .filter((element) => element.offsetParent !== null)
        .map((element) => ({
          scrollWidth: element.scrollWidth,
          clientWidth: element.clientWidth,
          ...(element.scrollWidth > element.clientWidth + 1
            ? {
                cells: Array.from(element.querySelectorAll<HTMLElement>('thead th, tbody tr:first-child td')).map(
                  (c) => `${(c.textContent ?? '').slice(0, 20)}=${c.offsetWidth}`,
                ),
              }
            : {}),
        })),
    });
    const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    const until = performance.now() + 3_000;
    await frame();
    let widths = measure();
    let since = performance.now();
    while (performance.now() < until) {
      await frame();
      const again = measure();
      if (JSON.stringify(again) !== JSON.stringify(widths)) since = performance.now();
      widths = again;
      if (performance.now() - since >= STILL_MS) break;
    }
    return widths;
  }, 120);
}

/** Waits for the page's lists to load (no spinner), then checks that nothing scrolls sideways. */
export async function expectFits(page: Page, what: string): Promise<void> {
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 15_000 });
  const widths = await measureSettled(page);
  console.log(`${what}: document ${widths.document}/${widths.window}`, JSON.stringify(widths.tables));
  expect.soft(widths.document, `${what}: the document scrolls sideways`).toBeLessThanOrEqual(widths.window);
  for (const table of widths.tables)
    expect
      .soft(table.scrollWidth, `${what}: a table scrolls sideways (${table.clientWidth} px shown)`)
      .toBeLessThanOrEqual(table.clientWidth + 1);
}

/**
 * Checks the page at `path` (once `ready`, when given), then each of its tabs. Opened by the console's
 * own navigation (`sameComponent`: the page on screen with other parameters).
 */
export async function expectPageFits(
  page: Page,
  path: string,
  ready?: () => Promise<void>,
  sameComponent = false,
): Promise<void> {
  await openInConsole(page, path, sameComponent);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await ready?.();
  await expectFits(page, path);
  const tabs = page.locator('main .ant-tabs-tab');
  const count = await tabs.count();
  for (let i = 1; i < count; i += 1) {
    const tab = tabs.nth(i);
    const name = (await tab.textContent()) ?? String(i);
    await tab.click();
    // The tab's lists are measured once their data came (a tab loads its own on first show) and the
    // pane it replaced is gone (measured during the switch, the old pane's table still counts).
    await page.waitForLoadState('networkidle');
    await expect(
      page.locator('main .ant-tabs-tabpane:not(.ant-tabs-tabpane-active)').filter({ visible: true }),
    ).toHaveCount(0);
    // A tab with kinds (the firewall's rule kinds) shows one list per kind: measured once it is there.
    const kinds = page.locator('main .ant-segmented-item').filter({ visible: true });
    if (name === 'Firewall') {
      await expect(kinds.first()).toBeVisible();
      await expect(page.locator('main .ant-table-row').filter({ visible: true }).first()).toBeVisible();
    }
    await expectFits(page, `${path} [${name}]`);
    const kindCount = await kinds.count();
    for (let k = 1; k < kindCount; k += 1) {
      const kind = kinds.nth(k);
      const kindName = (await kind.textContent()) ?? String(k);
      await kind.click();
      await page.waitForLoadState('networkidle');
      // Every firewall kind that is a list has a seeded rule: measured with its row. IP trust
      // protection is one setting of the site, a form: measured once it shows. Other tabs' segmented
      // choices (the dashboard's time range) are measured as they are.
      if (kindName === 'IP trust') await expect(page.getByLabel('Score threshold')).toBeVisible();
      else if (name === 'Firewall') {
        await expect(page.locator('main .ant-table-row').filter({ visible: true }).first()).toBeVisible();
      }
      await expectFits(page, `${path} [${name} / ${kindName}]`);
    }
  }
}

/** The pages of the sidebar of `tier`: every group opened, every entry's link. */
export async function sidebarPages(page: Page, tier: Tier): Promise<string[]> {
  await openInConsole(page, `/${tier}/dashboard`);
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
