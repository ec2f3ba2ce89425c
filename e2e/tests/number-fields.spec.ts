import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { createZone } from '@rampart/contract';
import { NUMBER_FORMS, type NumberForm } from '../../apps/console/src/forms/number-walk.js';
import { api } from '../support/api.js';
import { chooseTab, login, openInConsole, type Tier } from '../support/console.js';
import { labelOf, walkForm } from '../support/number-walk.js';
import { customerSite } from '../support/sites.js';

/**
 * Every number box of the consoles refuses a value outside its contract field's bounds where it
 * was typed, and sends nothing (issue: a port typed as 70000 was saved as 65535). The forms and
 * their boxes are number-walk.ts's table (a test keeps it whole); the values come from the
 * contract's schemas at run time. One signed-in page per console, reused by every form.
 */

/** Opens a form on the shared page and gives the element that holds its boxes. */
type Opener = (page: Page, context: { zoneName: string; siteName: string; siteId: number }) => Promise<Locator>;

/** The element of the form holding a box, found from the box's label. */
function formOf(page: Page, form: NumberForm): Locator {
  const first = form.boxes[0];
  if (!first) throw new Error(`${form.form} has no boxes`);
  return page.getByLabel(labelOf(first), { exact: true }).locator('xpath=ancestor::form[1]');
}

async function settingsPage(page: Page, path: string, form: NumberForm): Promise<Locator> {
  await openInConsole(page, path);
  const scope = formOf(page, form);
  await expect(scope).toBeVisible();
  return scope;
}

async function zoneDrawer(page: Page, zoneName: string, tab: string): Promise<Locator> {
  const drawer = page.getByRole('dialog');
  if (!(await drawer.isVisible())) {
    await openInConsole(page, '/client/nodeManage/zonesList');
    await page
      .getByRole('row', { name: new RegExp(zoneName) })
      .getByRole('button', { name: 'Settings' })
      .click();
  }
  await chooseTab(drawer.getByRole('tab', { name: tab }));
  return drawer;
}

/** How to open each form; `submit` names its button where it is not a submit button or the dialog's OK. */
const OPENERS: Record<string, { tier: Tier; open: Opener; submit?: string; modal?: boolean }> = {
  'db backup': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/dbBackup', FORM('db backup')),
  },
  'log retention': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/logSetting', FORM('log retention')),
  },
  'log export setting': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/logSetting', FORM('log export setting')),
  },
  'node exporter': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/nodeExporter', FORM('node exporter')),
  },
  'zone limits': {
    tier: 'client',
    open: async (page, { zoneName }) => formIn(await zoneDrawer(page, zoneName, 'Listen'), FORM('zone limits')),
  },
  'zone invalid-domain limit': {
    tier: 'client',
    open: async (page, { zoneName }) =>
      formIn(await zoneDrawer(page, zoneName, 'Listen'), FORM('zone invalid-domain limit')),
  },
  'zone challenge work': {
    tier: 'client',
    open: async (page, { zoneName }) => formIn(await zoneDrawer(page, zoneName, 'Listen'), FORM('zone challenge work')),
  },
  'zone ports': {
    tier: 'client',
    open: async (page, { zoneName }) => formIn(await zoneDrawer(page, zoneName, 'Ports'), FORM('zone ports')),
  },
  frequency: {
    tier: 'client',
    open: async (page) => {
      await openInConsole(page, '/client/systemManagement/systemSetting');
      await chooseTab(page.getByRole('tab', { name: 'Trigger rates' }));
      return formOf(page, FORM('frequency'));
    },
  },
  'dns setting': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/dnsSetting', FORM('dns setting')),
    submit: 'Save',
  },
  'abuse ip import': {
    tier: 'client',
    open: (page) => inDialog(page, '/client/systemManagement/abuseIPs', 'Import', FORM('abuse ip import')),
    modal: true,
  },
  'email setting': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/notification', FORM('email setting')),
    submit: 'Save',
  },
  ...Object.fromEntries(
    (['worker', 'http', 'stream'] as const).map((section) => [
      `zone nginx ${section}`,
      {
        tier: 'client',
        open: (page: Page, { zoneName }: { zoneName: string }) => nginxSection(page, zoneName, section),
      },
    ]),
  ),
  account: {
    tier: 'client',
    open: (page) => inDialog(page, '/client/userManagement/users', 'New account', FORM('account')),
    modal: true,
  },
  'operator account': {
    tier: 'admin',
    open: (page) => inDialog(page, '/admin/userManagement/users', 'New account', FORM('operator account')),
    modal: true,
  },
  'api token': {
    tier: 'client',
    open: (page) => inDialog(page, '/client/userManagement/apiTokenSetting', 'New API token', FORM('api token')),
    modal: true,
  },
  'traffic plan': {
    tier: 'client',
    open: (page) =>
      inDialog(page, '/client/trafficPkgManagement/trafficPkgList', 'New extra plan', FORM('traffic plan')),
    modal: true,
  },
  'monitor group': {
    tier: 'client',
    open: (page) =>
      inDialog(page, '/client/monitorManagement/monitorNodeGroup', 'New monitor group', FORM('monitor group')),
    modal: true,
  },
  licence: {
    tier: 'admin',
    open: (page) => inDialog(page, '/admin/licenses', 'New licence', FORM('licence')),
    modal: true,
  },
  product: {
    tier: 'client',
    open: async (page) => {
      const form = await inDialog(page, '/client/sitesManagement/productsList', 'New product', FORM('product'));
      // The throttle box shows when the product throttles a site over its allowance.
      await form.getByLabel('Throttle the site').check();
      return form;
    },
    modal: true,
  },
  'cache rule': {
    tier: 'user',
    open: async (page, { siteId }) => {
      await sitePage(page, siteId, 'Cache');
      await page.getByRole('button', { name: 'Add cache rule' }).click();
      return formIn(page.getByRole('dialog'), FORM('cache rule'));
    },
    modal: true,
  },
  'compression defaults': {
    tier: 'user',
    open: async (page, { siteId }) => {
      await sitePage(page, siteId, 'Site settings');
      const form = formOf(page, FORM('compression defaults'));
      // The minimum length is open while compression is on.
      await form.getByLabel('Compress responses (gzip)').check();
      return form;
    },
  },
  'interval limit': {
    tier: 'user',
    open: (page, { siteId }) => firewallDialog(page, siteId, 'Interval frequency limit', FORM('interval limit')),
    modal: true,
  },
  'second limit': {
    tier: 'user',
    open: (page, { siteId }) => firewallDialog(page, siteId, 'Per-second frequency limit', FORM('second limit')),
    modal: true,
  },
  'anti cc': {
    tier: 'user',
    open: (page, { siteId }) => firewallDialog(page, siteId, 'Anti-CC', FORM('anti cc')),
    modal: true,
  },
  'rate limit': {
    tier: 'user',
    open: async (page, { siteId }) => {
      await sitePage(page, siteId, 'Site settings');
      await page.getByRole('button', { name: 'Add rate' }).click();
      return formIn(page.getByRole('dialog'), FORM('rate limit'));
    },
    modal: true,
  },
  'cors module': {
    tier: 'user',
    open: async (page, { siteId }) => {
      await sitePage(page, siteId, 'Modules');
      await chooseTab(page.getByRole('tab', { name: 'CORS setting' }));
      await page.getByRole('button', { name: 'Create module' }).click();
      return formIn(page.getByRole('dialog'), FORM('cors module'));
    },
    modal: true,
  },
  'site abuse ip': {
    tier: 'user',
    open: async (page, { siteId }) => {
      await sitePage(page, siteId, 'Firewall');
      const choice = page.locator('.ant-segmented-item', { hasText: 'IP trust' });
      await choice.click();
      await expect(choice).toHaveClass(/ant-segmented-item-selected/);
      // The threshold box is open while the protection is on.
      const on = page.getByRole('switch', { name: 'IP trust protection' });
      if ((await on.getAttribute('aria-checked')) !== 'true') await on.click();
      await expect(on).toHaveAttribute('aria-checked', 'true');
      return formOf(page, FORM('site abuse ip'));
    },
    submit: 'Save',
  },
  'auth rule': {
    tier: 'user',
    open: async (page, { siteId }) => {
      await sitePage(page, siteId, 'Auth groups');
      await page.getByRole('button', { name: 'Add rule' }).click();
      return formIn(page.getByRole('dialog'), FORM('auth rule'));
    },
    modal: true,
  },
  'domain upstreams': {
    tier: 'user',
    open: async (page, { siteId }) => {
      await openInConsole(page, `/user/sitesManagement/sitesSetting/${siteId}`);
      await page.getByRole('button', { name: 'Add domains' }).click();
      return formIn(page.getByRole('dialog'), FORM('domain upstreams'));
    },
    modal: true,
  },
};

/** A tab of the customer's site page. */
async function sitePage(page: Page, siteId: number, tab: string): Promise<void> {
  await openInConsole(page, `/user/sitesManagement/sitesSetting/${siteId}`);
  await chooseTab(page.getByRole('tab', { name: tab }));
}

/** The dialog creating a rule of one kind of the site's firewall (chosen in the tab's kind switch). */
async function firewallDialog(page: Page, siteId: number, kind: string, form: NumberForm): Promise<Locator> {
  await sitePage(page, siteId, 'Firewall');
  const choice = page.locator('.ant-segmented-item', { hasText: kind });
  await choice.click();
  await expect(choice).toHaveClass(/ant-segmented-item-selected/);
  await page.getByRole('button', { name: 'Create' }).click();
  return formIn(page.getByRole('dialog'), form);
}

/** A form in the dialog a list page's button opens. */
async function inDialog(page: Page, path: string, button: string, form: NumberForm): Promise<Locator> {
  await openInConsole(page, path);
  await page.getByRole('button', { name: button }).click();
  return formIn(page.getByRole('dialog'), form);
}

/** A section of the zone's nginx settings (a panel of the nginx tab, opened when it is shut). */
async function nginxSection(page: Page, zoneName: string, section: 'worker' | 'http' | 'stream'): Promise<Locator> {
  const drawer = await zoneDrawer(page, zoneName, 'nginx');
  const title = { worker: 'Worker', http: 'HTTP', stream: 'Stream (layer 4)' }[section];
  // The panel's header says whether it is open (the first one is, at first): clicked only when shut.
  const header = drawer.locator('.ant-collapse-header', { hasText: title });
  await expect(header).toBeVisible();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await expect(header).toHaveAttribute('aria-expanded', 'true');
  // Two sections share a label (the origin connect timeout): the section's form by its name.
  const form = drawer.getByRole('form', { name: title });
  await expect(form).toBeVisible();
  return form;
}

function FORM(name: string): NumberForm {
  const form = NUMBER_FORMS.find((candidate) => candidate.form === name);
  if (!form) throw new Error(`number-walk.ts has no form ${name}`);
  return form;
}

function formIn(scope: Locator, form: NumberForm): Locator {
  const first = form.boxes[0];
  if (!first) throw new Error(`${form.form} has no boxes`);
  return scope.getByLabel(labelOf(first), { exact: true }).locator('xpath=ancestor::form[1]');
}

/** Submits a form: its own submit button, or the OK of the dialog it is in. */
async function submitIn(page: Page, scope: Locator, name?: string): Promise<void> {
  if (name !== undefined) return scope.getByRole('button', { name, exact: true }).click();
  const own = scope.locator('button[type="submit"]');
  if ((await own.count()) > 0) await own.first().click();
  else await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
}

async function signedIn(browser: Browser, tier: Tier): Promise<Page> {
  const page = await browser.newPage();
  await login(page, tier);
  return page;
}

for (const tier of ['client', 'user', 'admin'] as const) {
  const forms = NUMBER_FORMS.filter((form) => OPENERS[form.form]?.tier === tier);
  if (forms.length === 0) continue;
  test.describe(`the ${tier} console's number boxes`, () => {
    test.describe.configure({ mode: 'serial' });
    let page: Page;
    const context = { zoneName: '', siteName: '', siteId: 0 };
    test.beforeAll(async ({ browser }) => {
      if (tier === 'client') {
        context.zoneName = `e2e-numbers-${Date.now()}`;
        await api('client', createZone, { body: { name: context.zoneName } });
      } else {
        const site = await customerSite('e2e numbers');
        context.siteName = 'e2e numbers';
        context.siteId = site.siteID;
      }
      page = await signedIn(browser, tier);
    });
    test.afterAll(async () => {
      await page?.close();
    });
    for (const form of forms) {
      test(`${form.form}: ${form.boxes.map((box) => box.field).join(', ')} refused where typed, nothing sent`, async () => {
        const opener = OPENERS[form.form];
        if (!opener) throw new Error(`no opener for ${form.form}`);
        const scope = await opener.open(page, context);
        const typed = await walkForm(page, form, scope, () => submitIn(page, scope, opener.submit));
        expect(typed).toBeGreaterThan(0);
        if (opener.modal) {
          const dialog = page.getByRole('dialog');
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await expect(dialog).toBeHidden();
        }
      });
    }
  });
}

test.describe('number boxes not walked in a browser yet', () => {
  for (const form of NUMBER_FORMS.filter((candidate) => !OPENERS[candidate.form])) {
    test.fixme(`${form.form} (${form.source})`, () => {});
  }
});
