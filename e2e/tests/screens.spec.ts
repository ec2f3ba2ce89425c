import { writeFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import type { Locale } from '@rampart/contract';
import { resources } from '../../apps/console/src/i18n/resources/index.js';
import { login, openInConsole, type Tier } from '../support/console.js';
import { PageWatch, untranslated, view } from '../support/screens.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

/**
 * Every page of the three consoles, from their own route declarations (a page added there is visited
 * here without a change), at two window sizes and in the three languages: none may scroll sideways,
 * show the error page, log a console or page error, get a 4xx/5xx answer, or show an untranslated
 * text. One sign-in per console; pages are reached by the console's own client-side navigation, the
 * size by resizing, the language through the console's language menu. A screenshot of each lands in
 * test-results/.
 */

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const LOCALES: readonly Locale[] = ['en_US', 'zh_CN', 'zh_TW'];

/** A page as the console declares it (app/console-routes.tsx `ConsolePage`): its path under `/{tier}/`. */
interface ConsolePage {
  readonly name: string;
  readonly path: string;
}

/**
 * Each console's route declarations (pages/<tier>/<tier>.routes.tsx) and the list of its pages they
 * export. Imported when the test runs, by a path the type check does not follow: it would type-check
 * the whole console again here, which its own workspace does.
 */
const DECLARATIONS: Record<Tier, { file: string; list: string }> = {
  user: { file: 'user/user.routes.tsx', list: 'USER_PAGES' },
  client: { file: 'client/client.routes.tsx', list: 'CLIENT_PAGES' },
  admin: { file: 'admin/admin.routes.tsx', list: 'ADMIN_PAGES' },
};

async function declaredPages(tier: Tier): Promise<readonly ConsolePage[]> {
  const { file, list } = DECLARATIONS[tier];
  const declarations = (await import(`../../apps/console/src/pages/${file}`)) as Record<string, unknown>;
  const pages = declarations[list] as readonly ConsolePage[] | undefined;
  if (!pages?.length) throw new Error(`${file} exports no ${list}`);
  return pages;
}

/** The paths to visit for one declared page: its parameters filled from `values`; optional ones also left out. */
function pathsOf(tier: Tier, page: ConsolePage, values: Record<string, string>): string[] {
  const params = [...page.path.matchAll(/:(\w+)(\?)?/g)];
  const filled = page.path.replace(/:(\w+)\??/g, (_: string, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`${tier}/${page.path}: no value for :${name} (add one to the sweep's values)`);
    return encodeURIComponent(value);
  });
  const bare = page.path.replace(/\/:\w+\?/g, '');
  const paths = [`/${tier}/${filled}`];
  if (params.length > 0 && params.every((param) => param[2] === '?')) paths.unshift(`/${tier}/${bare}`);
  return paths;
}

/** Waits until the page has its code and data: no request under way, no spinner, no skeleton. */
async function settle(page: Page, watch: PageWatch): Promise<void> {
  const busy = page.locator('.ant-spin-spinning:visible, .ant-skeleton-active:visible');
  await expect
    .poll(async () => watch.idle() && (await busy.count()) === 0 && watch.idle(), { timeout: 15_000, intervals: [25] })
    .toBe(true);
}

/**
 * Saves what the window shows as test-results/<test>/<name>.jpeg. Through the browser's own capture
 * (JPEG, its fast path): Playwright's PNG screenshot took half a second a view, the whole sweep's time.
 */
async function screenshots(page: Page): Promise<(name: string) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  return async (name) => {
    const shot = await cdp.send('Page.captureScreenshot', { format: 'jpeg', quality: 70, optimizeForSpeed: true });
    await writeFile(test.info().outputPath(`${name}.jpeg`), Buffer.from(shot.data, 'base64'));
  };
}

async function chooseLanguage(page: Page, locale: Locale): Promise<void> {
  const name = resources.en_US.common.languageNames[locale];
  const button = page.locator('header button:has(.anticon-global)');
  await expect(async () => {
    if ((await button.textContent())?.includes(name)) return;
    await button.click({ timeout: 3000 });
    await page.getByRole('menuitem', { name }).click({ timeout: 3000 });
    await expect(button).toContainText(name, { timeout: 3000 });
  }).toPass({ timeout: 20_000 });
  // Its menu slides away before the first page is measured.
  await expect(page.locator('.ant-dropdown:visible')).toHaveCount(0);
}

async function sweep(page: Page, tier: Tier, values: Record<string, string>): Promise<void> {
  const watch = new PageWatch(page);
  const shoot = await screenshots(page);
  await page.setViewportSize(SIZES[0]);
  await login(page, tier);
  const paths = (await declaredPages(tier)).flatMap((declared) =>
    pathsOf(tier, declared, values).map((path) => ({ path, declared })),
  );
  const problems: string[] = [];
  // The page on screen: at first the one the sign-in led to.
  let shown = paths.find(({ path }) => path === new URL(page.url()).pathname)?.declared;
  for (const locale of LOCALES) {
    await chooseLanguage(page, locale);
    const errorTitle = resources[locale].routeError.title;
    const menuTitle = resources[locale].shell.menu.dashboard;
    for (const { path, declared } of paths) {
      await openInConsole(page, path, declared === shown);
      shown = declared;
      await settle(page, watch);
      // Both sizes, the one the window has first: one resize a page.
      for (const size of page.viewportSize()?.width === SIZES[0].width ? SIZES : [...SIZES].reverse()) {
        await page.setViewportSize(size);
        const where = `${locale} ${size.width}x${size.height} ${path}`;
        const seen = await view(page);
        if (seen.overflow > 0)
          problems.push(`${where}: the page scrolls sideways by ${seen.overflow}px (${seen.culprit})`);
        for (const box of seen.boxes) problems.push(`${where}: ${box}`);
        if (seen.texts.includes(errorTitle)) problems.push(`${where}: the error page is shown`);
        // The menu speaks the language chosen (and the texts were read at all).
        if (!seen.texts.includes(menuTitle)) problems.push(`${where}: no "${menuTitle}" in the menu`);
        for (const text of untranslated(seen.texts, locale)) problems.push(`${where}: untranslated "${text}"`);
        await shoot(`${locale}-${size.width}x${size.height}${path.replaceAll('/', '_')}`);
      }
      for (const problem of await watch.take()) problems.push(`${locale} ${path}: ${problem}`);
    }
  }
  expect(problems).toEqual([]);
}

// A trace snapshots the page at every step: it would cost more than the sweep itself.
test.use({ trace: 'off' });

test.describe('every page of every console', () => {
  // A few hundred views per console: far more than one flow's minute.
  test.describe.configure({ timeout: 240_000 });

  test('the customer console', async ({ page }) => {
    const siteName = uniqueLabel('e2e screens ');
    const site = await customerSite(siteName);
    await sweep(page, 'user', { id: String(site.siteID), name: siteName });
  });

  test('the operator console', async ({ page }) => {
    await sweep(page, 'client', {});
  });

  test('the vendor console', async ({ page }) => {
    await sweep(page, 'admin', {});
  });
});
