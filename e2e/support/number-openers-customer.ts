import { expect } from '@playwright/test';
import { chooseOption, chooseTab, openInConsole } from './console.js';
import {
  FORM,
  type FormOpener,
  firewallDialog,
  formIn,
  formOf,
  L4_PORT,
  logSearch,
  moduleItemDialog,
  modulesOf,
  PARENT,
  sitePage,
} from './number-open.js';

/** How the number walk opens each form of the customer console and the analytics pages (number-walk-customer.ts). */
export const CUSTOMER_OPENERS: Record<string, FormOpener> = {
  'site port': {
    tier: 'user',
    open: async (page, { l4Site }) => {
      await sitePage(page, l4Site, 'Ports');
      await page.getByRole('button', { name: 'Add port' }).click();
      return formIn(page.getByRole('dialog'), FORM('site port'));
    },
    modal: true,
  },
  'site port upstreams': {
    tier: 'user',
    open: async (page, { l4Site }) => {
      await sitePage(page, l4Site, 'Ports');
      const row = page.getByRole('row', { name: new RegExp(String(L4_PORT)) });
      await row.getByRole('button', { name: 'Upstreams', exact: true }).click();
      return formIn(page.getByRole('dialog'), FORM('site port upstreams'));
    },
    // The upstreams dialog has no Cancel: its add form is one row under the list.
    modal: 'close',
  },
  'site port batch': {
    tier: 'user',
    open: async (page, { l4Site }) => {
      await sitePage(page, l4Site, 'Ports');
      await page.getByRole('button', { name: 'Batch create' }).click();
      return formIn(page.getByRole('dialog'), FORM('site port batch'));
    },
    modal: true,
  },
  'l4 connection limit': {
    tier: 'user',
    open: (page, { l4Site }) => firewallDialog(page, l4Site, 'Connection limits', FORM('l4 connection limit')),
    modal: true,
  },
  'cache rule': {
    tier: 'user',
    open: async (page, { site }) => {
      await sitePage(page, site, 'Cache');
      await page.getByRole('button', { name: 'Add cache rule' }).click();
      return formIn(page.getByRole('dialog'), FORM('cache rule'));
    },
    modal: true,
  },
  'compression defaults': {
    tier: 'user',
    open: async (page, { site }) => {
      await sitePage(page, site, 'Site settings');
      const form = formOf(page, FORM('compression defaults'));
      // The minimum length is open while compression is on.
      await form.getByLabel('Compress responses (gzip)').check();
      return form;
    },
  },
  'interval limit': {
    tier: 'user',
    open: (page, { site }) => firewallDialog(page, site, 'Interval frequency limit', FORM('interval limit')),
    modal: true,
  },
  'second limit': {
    tier: 'user',
    open: (page, { site }) => firewallDialog(page, site, 'Per-second frequency limit', FORM('second limit')),
    modal: true,
  },
  'anti cc': {
    tier: 'user',
    open: (page, { site }) => firewallDialog(page, site, 'Anti-CC', FORM('anti cc')),
    modal: true,
  },
  'rate limit': {
    tier: 'user',
    open: async (page, { site }) => {
      await sitePage(page, site, 'Site settings');
      await page.getByRole('button', { name: 'Add rate' }).click();
      return formIn(page.getByRole('dialog'), FORM('rate limit'));
    },
    modal: true,
  },
  'cors module': {
    tier: 'user',
    open: async (page, { site }) => {
      await sitePage(page, site, 'Modules');
      await chooseTab(page.getByRole('tab', { name: 'CORS setting' }));
      await page.getByRole('button', { name: 'Create module' }).click();
      return formIn(page.getByRole('dialog'), FORM('cors module'));
    },
    modal: true,
  },
  'site abuse ip': {
    tier: 'user',
    open: async (page, { site }) => {
      await sitePage(page, site, 'Firewall');
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
    open: async (page, { site }) => {
      await sitePage(page, site, 'Auth groups');
      await page.getByRole('button', { name: 'Add rule' }).click();
      return formIn(page.getByRole('dialog'), FORM('auth rule'));
    },
    modal: true,
  },
  'log push destination': {
    tier: 'user',
    open: async (page) => {
      const dialog = page.getByRole('dialog');
      await openInConsole(page, '/user/dataAnalysis/logPush');
      await page.getByRole('button', { name: 'New push event' }).click();
      // The port box is a syslog server's.
      await chooseOption(page, dialog.getByLabel('Destination', { exact: true }), 'Syslog server');
      return formIn(dialog, FORM('log push destination'));
    },
    modal: true,
  },
  'access log search': {
    tier: 'user',
    open: (page) => logSearch(page, '/user/dataAnalysis/logger', 'Access log'),
    submit: 'Search',
    search: true,
  },
  'waf log search': {
    tier: 'user',
    open: (page) => logSearch(page, '/user/dataAnalysis/logger', 'WAF log'),
    submit: 'Search',
    search: true,
  },
  'log push log search': {
    tier: 'user',
    open: (page) => logSearch(page, '/user/dataAnalysis/logPush', 'Delivery log'),
    submit: 'Search',
    search: true,
  },
  'jwt credential': {
    tier: 'user',
    open: async (page, { site }) => {
      await sitePage(page, site, 'Auth groups');
      await page
        .getByRole('row', { name: new RegExp(PARENT) })
        .getByRole('button', { name: /JWT/ })
        .click();
      const drawer = page.getByRole('dialog').filter({ hasText: `Credentials of ${PARENT}` });
      await chooseTab(drawer.getByRole('tab', { name: 'JWT auth' }));
      await drawer.getByRole('button', { name: 'Add JWT auth' }).click();
      return formIn(page.getByRole('dialog'), FORM('jwt credential'));
    },
    modal: true,
    drawer: true,
  },
  'waf exclusion': {
    tier: 'user',
    open: async (page, { site }) => {
      await modulesOf(page, site, 'WAF');
      await page.getByRole('button', { name: 'Create module' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Add exclusion' }).click();
      return formIn(page.getByRole('dialog'), FORM('waf exclusion'));
    },
    modal: true,
  },
  'acl rule': {
    tier: 'user',
    open: async (page, { site }) => {
      const dialogs = await moduleItemDialog(page, site, 'Lua ACL', 'Add rule');
      // The count and seconds boxes are an access frequency condition's.
      await chooseOption(page, dialogs.getByLabel('Condition field 1', { exact: true }), 'Access frequency');
      return formIn(dialogs, FORM('acl rule'));
    },
    modal: true,
    drawer: true,
  },
  'token auth': {
    tier: 'user',
    open: async (page, { site }) =>
      formIn(await moduleItemDialog(page, site, 'Token auth', 'Add token auth'), FORM('token auth')),
    modal: true,
    drawer: true,
  },
  'domain upstreams': {
    tier: 'user',
    open: async (page, { site }) => {
      await sitePage(page, site, 'Domains');
      await page.getByRole('button', { name: 'Add domains' }).click();
      return formIn(page.getByRole('dialog'), FORM('domain upstreams'));
    },
    modal: true,
  },
};
