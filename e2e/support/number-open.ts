import { expect, type Locator, type Page } from '@playwright/test';
import { addSitePorts, authGroupRoutes, luaAclRoutes, setZoneL4Protection, tokenAuthRoutes } from '@rampart/contract';
import { NUMBER_FORMS, type NumberForm } from '../../apps/console/src/forms/number-walk.js';
import { api } from './api.js';
import { chooseTab, openInConsole, type Tier } from './console.js';
import { labelOf } from './number-walk.js';
import { customerSite } from './sites.js';

/**
 * How the number walk (tests/number-fields.spec.ts) opens the console's forms on its shared
 * signed-in page: the pages, tabs, drawers and dialogs they are in (the openers:
 * number-openers-operator.ts and number-openers-customer.ts).
 */

/** A customer's site: its id, and its name (its page's heading). */
export interface SiteRef {
  id: number;
  name: string;
}

/** What a form's opener is given: what the spec's set-up made. */
export interface OpenContext {
  zoneName: string;
  /** A customer's site (on the operator's zone in the operator's console). */
  site: SiteRef;
  /** A customer's site on a layer-4 product, with a port (L4_PORT). */
  l4Site: SiteRef;
}

/** The port the set-up gives the layer-4 site. */
export const L4_PORT = 25565;

/** Opens a form on the shared page and gives the element that holds its boxes. */
export type Opener = (page: Page, context: OpenContext) => Promise<Locator>;

/**
 * How to open one form; `submit` names its button where it is not a submit button or the dialog's
 * OK; `drawer`: its dialog opens from a drawer, closed after;
 * `search`: a list's search row (the list is fetched anyway: only a call with a box's field counts).
 */
export interface FormOpener {
  tier: Tier;
  open: Opener;
  submit?: string;
  /** In a dialog, closed after by its Cancel (`close`: by its close button, where it has no Cancel). */
  modal?: boolean | 'close';
  drawer?: boolean;
  search?: boolean;
}

/** The element of the form holding a box, found from the box's label. */
export function formOf(page: Page, form: NumberForm): Locator {
  const first = form.boxes[0];
  if (!first) throw new Error(`${form.form} has no boxes`);
  return page.getByLabel(labelOf(first), { exact: true }).locator('xpath=ancestor::form[1]');
}

export async function settingsPage(page: Page, path: string, form: NumberForm): Promise<Locator> {
  await openInConsole(page, path);
  const scope = formOf(page, form);
  await expect(scope).toBeVisible();
  return scope;
}

export async function zoneDrawer(page: Page, zoneName: string, tab: string): Promise<Locator> {
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

/** A search row of a list page's tab (no form around it: the page's content holds it). */
export async function logSearch(page: Page, path: string, tab: string): Promise<Locator> {
  await openInConsole(page, path);
  await chooseTab(page.getByRole('tab', { name: tab }));
  return page.locator('main');
}

/** The name of the items the set-up makes for the forms inside them (an auth group, modules). */
export const PARENT = 'numbers parent';

/** A module type's tab of the site's Modules tab. */
export async function modulesOf(page: Page, site: SiteRef, type: string): Promise<void> {
  await sitePage(page, site, 'Modules');
  await chooseTab(page.getByRole('tab', { name: type, exact: true }));
}

/** The dialog adding an item to the set-up's module of `type`, from the module's rules drawer (with it: every dialog). */
export async function moduleItemDialog(page: Page, site: SiteRef, type: string, add: string): Promise<Locator> {
  await modulesOf(page, site, type);
  await page
    .getByRole('row', { name: new RegExp(PARENT) })
    .getByRole('button', { name: /^Rules/ })
    .click();
  await page.getByRole('dialog').filter({ hasText: PARENT }).getByRole('button', { name: add }).click();
  return page.getByRole('dialog');
}

/** A tab of the customer's site page. */
export async function sitePage(page: Page, site: SiteRef, tab: string): Promise<void> {
  // Another site's page keeps its component (only its parameter changes): its heading names the
  // site once that site has loaded, and its tabs are that site's.
  const onSitePage = new URL(page.url()).pathname.startsWith('/user/sitesManagement/sitesSetting/');
  await openInConsole(page, `/user/sitesManagement/sitesSetting/${site.id}`, onSitePage);
  await expect(page.getByRole('heading', { level: 1, name: site.name, exact: true })).toBeVisible();
  await chooseTab(page.getByRole('tab', { name: tab }));
}

/** The dialog creating a rule of one kind of the site's firewall (chosen in the tab's kind switch). */
export async function firewallDialog(page: Page, site: SiteRef, kind: string, form: NumberForm): Promise<Locator> {
  await sitePage(page, site, 'Firewall');
  const choice = page.locator('.ant-segmented-item', { hasText: kind });
  await choice.click();
  await expect(choice).toHaveClass(/ant-segmented-item-selected/);
  await page.getByRole('button', { name: 'Create' }).click();
  return formIn(page.getByRole('dialog'), form);
}

/** A form in the dialog a list page's button opens. */
export async function inDialog(page: Page, path: string, button: string, form: NumberForm): Promise<Locator> {
  await openInConsole(page, path);
  await page.getByRole('button', { name: button }).click();
  return formIn(page.getByRole('dialog'), form);
}

/** A section of the zone's nginx settings (a panel of the nginx tab, opened when it is shut). */
export async function nginxSection(
  page: Page,
  zoneName: string,
  section: 'worker' | 'http' | 'stream',
): Promise<Locator> {
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

export function FORM(name: string): NumberForm {
  const form = NUMBER_FORMS.find((candidate) => candidate.form === name);
  if (!form) throw new Error(`number-walk.ts has no form ${name}`);
  return form;
}

export function formIn(scope: Locator, form: NumberForm): Locator {
  const first = form.boxes[0];
  if (!first) throw new Error(`${form.form} has no boxes`);
  return scope.getByLabel(labelOf(first), { exact: true }).locator('xpath=ancestor::form[1]');
}

/**
 * What each console's forms need, made through the API: the operator's zone (its layer-4 SYN rate
 * on, so its boxes show) with a customer's site on it; the customer's layer-7 site with an auth group
 * and a Lua ACL and a token auth module, and a layer-4 site with a port.
 */
export async function arrange(tier: Tier): Promise<OpenContext> {
  const context: OpenContext = { zoneName: '', site: { id: 0, name: '' }, l4Site: { id: 0, name: '' } };
  if (tier === 'client') {
    context.zoneName = `e2e-numbers-${Date.now()}`;
    const name = 'e2e numbers operator';
    const made = await customerSite(name, 'user', { zoneName: context.zoneName });
    context.site = { id: made.siteID, name };
    await api('client', setZoneL4Protection, {
      params: { zoneID: made.zoneID },
      body: {
        synFlood: { rate: 200, burst: 50 },
        newConnections: null,
        kernelBlocks: false,
        escalation: { refusals: 200, seconds: 10 },
      },
    });
  } else if (tier === 'user') {
    context.site = { id: (await customerSite('e2e numbers')).siteID, name: 'e2e numbers' };
    const params = { siteId: context.site.id };
    await api('user', authGroupRoutes.createGroup, { params, body: { name: PARENT } });
    await api('user', luaAclRoutes.create, { params, body: { modules: [{ name: PARENT }] } });
    await api('user', tokenAuthRoutes.create, { params, body: { modules: [{ name: PARENT }] } });
    const l4Name = 'e2e numbers ports';
    context.l4Site = { id: (await customerSite(l4Name, 'user', { portType: 4 })).siteID, name: l4Name };
    await api('user', addSitePorts, {
      params: { siteId: context.l4Site.id },
      body: { ports: [{ port: L4_PORT, protocol: 'tcp', upstreams: [{ ip: '1.1.1.1', port: L4_PORT }] }] },
    });
  }
  return context;
}
